import type pg from 'pg';
import type { Condition, Keyset, SearchQuery } from '../search-types.js';
import { tiers, withoutRank, type TextSyntax } from '../relevance.js';
import { Params, score, test, type Scope } from './search-sql.js';
import { textQuery } from './text.js';

/**
 * Relevance order on PostgreSQL (see ../relevance.ts; ties in search_entities id order, the
 * entities' creation order). Two plans give the same pages:
 * - tiers, for many matches: each score the words can make is one tsquery (each word in a place
 *   and not in a better one); tiers are read best first, each in id order, until the page is
 *   full, so a common word does not score every match (tierPage: a dense tier is walked, a
 *   sparse one read from the index). An empty tier of common words still reads their postings
 *   (40-140 ms over 1M datasets for two words that never meet in a name), so
 * - scores, for few matches or more than MAX_TIER_WORDS words: every match is scored and sorted.
 */

export type RowsOf = <T extends pg.QueryResultRow>(sql: string, p: Params) => Promise<T[]>;
export interface RankedRow {
  urn: string;
  value: number;
  id: string | number;
}

/** A page of `limit` of the `total` matches, by tiers or by scores. */
export async function relevancePage(rows: RowsOf, query: SearchQuery, scope: Scope, limit: number, total: number, tiered: boolean, walk = TIER_WALK): Promise<RankedRow[]> {
  if (total === 0) return [];
  // On a first page, no tier need be read once all matches are found.
  const wanted = query.after ? limit : Math.min(limit, total);
  return tiered ? byTiers(rows, query, scope, wanted, walk) : byScores(rows, query, scope, limit);
}

/** How many entities a tier walks in id order before it reads the rest of its matches from the index. */
export const TIER_WALK = 2000;

async function byTiers(rows: RowsOf, query: SearchQuery, scope: Scope, limit: number, walk: number): Promise<RankedRow[]> {
  const rank = query.rank ?? [];
  const rest = withoutRank(query.condition, rank);
  const after = query.after;
  const found: RankedRow[] = [];
  const ways = tiers(rank, TSQUERY);
  for (const [value, tier] of ways) {
    if (after && value > Number(after.value)) continue;
    const from = after && value === Number(after.value) ? Number(after.id ?? 0) : 0;
    const page = await tierPage(rows, tier, rest, scope, from, limit - found.length, walk);
    found.push(...page.map((r) => ({ id: r.id, urn: r.urn, value })));
    if (found.length >= limit) break;
  }
  return found;
}

/**
 * A tier's first `wanted` matches after the id `from`. A tier of common words is dense: the
 * entities are walked in id order, `walk` at most, each tested. What that walk did not find (a
 * sparse or empty tier, which a walk would read to its end: 300 ms over 1M datasets) is read
 * through the document index and sorted (`id + 0`: not in the primary key's order).
 */
async function tierPage(rows: RowsOf, tier: string, rest: Condition, scope: Scope, from: number, wanted: number, walk: number): Promise<Array<{ id: string; urn: string }>> {
  const p = new Params();
  const walked = await rows<{ id: string | null; urn: string | null; last: string | null; walked: number | null }>(
    `WITH w AS MATERIALIZED (SELECT e.id, e.urn, e.type, e.doc FROM search_entities e WHERE e.id > ${p.add(from)} ORDER BY e.id LIMIT ${p.add(walk)}),
          hits AS (SELECT w.id, w.urn FROM w WHERE w.doc @@ ${p.add(tier)}::tsquery AND ${scope.where(p, 'w')} AND ${test(rest, p, 'w')} ORDER BY w.id LIMIT ${p.add(wanted)})
     SELECT id, urn, NULL::bigint AS last, NULL::int AS walked FROM hits
     UNION ALL SELECT NULL, NULL, max(id), count(*)::int FROM w`,
    p,
  );
  const end = walked.pop()!;
  const hits = walked as Array<{ id: string; urn: string }>;
  if (hits.length >= wanted || (end.walked ?? 0) < walk) return hits;
  const q = new Params();
  const more = await rows<{ id: string; urn: string }>(
    `SELECT e.id, e.urn FROM search_entities e WHERE e.doc @@ ${q.add(tier)}::tsquery AND e.id > ${q.add(end.last)} AND ${scope.where(q)} AND ${test(rest, q)}
      ORDER BY e.id + 0 LIMIT ${q.add(wanted - hits.length)}`,
    q,
  );
  return [...hits, ...more];
}

/** tsquery's expressions. */
const TSQUERY: TextSyntax = {
  within: (r, columns) => textQuery({ ...r, columns: [...columns] }),
  all: (parts) => parts.map((p) => `(${p})`).join(' & '),
  any: (parts) => parts.map((p) => `(${p})`).join(' | '),
  butNot: (own, better) => `(${own}) & !(${TSQUERY.any(better)})`,
};

async function byScores(rows: RowsOf, query: SearchQuery, scope: Scope, limit: number): Promise<RankedRow[]> {
  const p = new Params();
  const scored = `SELECT e.id, e.urn, ${score(query.rank ?? [], p)} AS value FROM search_entities e WHERE ${scope.where(p)} AND ${test(query.condition, p)}`;
  const after: Keyset | undefined = query.after;
  const keyset = after ? `WHERE value < ${p.add(Number(after.value))} OR (value = ${p.add(Number(after.value))} AND id > ${p.add(after.id ?? 0)})` : '';
  return rows<RankedRow>(`SELECT id, urn, value FROM (${scored}) s ${keyset} ORDER BY value DESC, id LIMIT ${p.add(limit)}`, p);
}
