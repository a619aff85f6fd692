import { TEXT_COLUMNS, type Condition, type TextColumn, type TextCondition } from './search-types.js';

/**
 * Relevance as both stores rank: each rank condition (a free word or phrase) scores an entity by
 * the best place it is found, and the scores add up. Best first, then in the order the entities
 * were created: the score depends on the entity alone, so a scroll stays stable while others change.
 */

/** The places a word may be found, best first (what is not in one is in the next). */
export const PLACES: ReadonlyArray<{ columns: readonly TextColumn[]; weight: number }> = [
  { columns: ['name', 'qualifiedName'], weight: 4 },
  { columns: ['keywords'], weight: 2 },
  { columns: TEXT_COLUMNS, weight: 1 },
];

/** Beyond this many rank words, 3^n tiers are too many: score and sort instead. */
export const MAX_TIER_WORDS = 4;

/** How a store writes its full-text expressions (FTS5's, or tsquery's). */
export interface TextSyntax {
  /** The condition's words within the columns; undefined when it can match nothing. */
  within(r: TextCondition, columns: readonly TextColumn[]): string | undefined;
  all(parts: readonly string[]): string;
  any(parts: readonly string[]): string;
  /** Matches `own` and none of `better`. */
  butNot(own: string, better: readonly string[]): string;
}

/** Where a rank condition may be found, best first, each place excluding the better ones. */
export function placesOf(r: TextCondition, syntax: TextSyntax): Array<{ weight: number; expression: string }> {
  const within = r.columns ?? TEXT_COLUMNS;
  const better: string[] = [];
  const places: Array<{ weight: number; expression: string }> = [];
  for (const { columns, weight } of PLACES) {
    const here = columns.filter((c) => within.includes(c));
    const own = here.length === 0 ? undefined : syntax.within(r, here);
    if (!own) continue;
    places.push({ weight, expression: better.length === 0 ? own : syntax.butNot(own, better) });
    better.push(own);
  }
  return places;
}

/** Every score the rank conditions can make, best first, as one expression: any of the ways of placing each condition. */
export function tiers(rank: readonly TextCondition[], syntax: TextSyntax): Array<[number, string]> {
  let ways: Array<{ score: number; parts: string[] }> = [{ score: 0, parts: [] }];
  for (const r of rank) {
    const places = placesOf(r, syntax);
    ways = ways.flatMap((w) => places.map((p) => ({ score: w.score + p.weight, parts: [...w.parts, p.expression] })));
  }
  const byScore = new Map<number, string[]>();
  for (const w of ways) byScore.set(w.score, [...(byScore.get(w.score) ?? []), syntax.all(w.parts)]);
  return [...byScore].sort((a, b) => b[0] - a[0]).map(([score, ands]) => [score, syntax.any(ands)]);
}

/** The condition less the rank words among its conjuncts (the text query that ranks holds them already). */
export function withoutRank(c: Condition, rank: readonly TextCondition[]): Condition {
  if (rank.includes(c as TextCondition)) return { kind: 'all' };
  if (c.kind !== 'and') return c;
  const rest = c.children.filter((child) => !rank.includes(child as TextCondition));
  return rest.length === 0 ? { kind: 'all' } : rest.length === 1 ? rest[0] : { kind: 'and', children: rest };
}
