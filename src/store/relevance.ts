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

/**
 * Every score the rank conditions can make, best first, with the ways of making it: in each way,
 * a place per condition (`place(r, i)` is the store's expression for condition r in PLACES'
 * i-th place, undefined when r cannot be there), combined by `all` and the ways by `any`.
 */
export function tiers<E>(rank: readonly TextCondition[], placesOf: (r: TextCondition) => Array<{ weight: number; expression: E }>, all: (parts: E[]) => E, any: (ways: E[]) => E): Array<[number, E]> {
  let ways: Array<{ score: number; parts: E[] }> = [{ score: 0, parts: [] }];
  for (const r of rank) {
    const places = placesOf(r);
    ways = ways.flatMap((w) => places.map((p) => ({ score: w.score + p.weight, parts: [...w.parts, p.expression] })));
  }
  const byScore = new Map<number, E[]>();
  for (const w of ways) byScore.set(w.score, [...(byScore.get(w.score) ?? []), all(w.parts)]);
  return [...byScore].sort((a, b) => b[0] - a[0]).map(([score, ands]) => [score, any(ands)]);
}

/** The condition less the rank words among its conjuncts (the text query that ranks holds them already). */
export function withoutRank(c: Condition, rank: readonly TextCondition[]): Condition {
  if (rank.includes(c as TextCondition)) return { kind: 'all' };
  if (c.kind !== 'and') return c;
  const rest = c.children.filter((child) => !rank.includes(child as TextCondition));
  return rest.length === 0 ? { kind: 'all' } : rest.length === 1 ? rest[0] : { kind: 'and', children: rest };
}
