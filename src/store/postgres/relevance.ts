import type pg from 'pg';
import type { Keyset, SearchQuery, TextCondition } from '../search-types.js';
import { TEXT_COLUMNS } from '../search-types.js';
import { PLACES, tiers, withoutRank } from '../relevance.js';
import { Params, score, test, type Scope } from './search-sql.js';
import { textQuery } from './text.js';

/**
 * Relevance order on PostgreSQL (see ../relevance.ts; ties in search_entities id order, the
 * entities' creation order). Two plans give the same pages:
 * - tiers, for many matches: each score the words can make is one tsquery (each word in a place
 *   and not in a better one); tiers are read best first, each in id order, until the page is
 *   full, so a common word does not score every match;
 * - scores, for few matches or many words: every match is scored and sorted.
 */

export type RowsOf = <T extends pg.QueryResultRow>(sql: string, p: Params) => Promise<T[]>;
export interface RankedRow {
  urn: string;
  value: number;
  id: string | number;
}

/** A page of `limit` of the `total` matches, by tiers or by scores. */
export async function relevancePage(rows: RowsOf, query: SearchQuery, scope: Scope, limit: number, total: number, tiered: boolean): Promise<RankedRow[]> {
  if (total === 0) return [];
  // On a first page, no tier need be read once all matches are found.
  const wanted = query.after ? limit : Math.min(limit, total);
  return tiered ? byTiers(rows, query, scope, wanted) : byScores(rows, query, scope, limit);
}

async function byTiers(rows: RowsOf, query: SearchQuery, scope: Scope, limit: number): Promise<RankedRow[]> {
  const rank = query.rank ?? [];
  const rest = withoutRank(query.condition, rank);
  const after = query.after;
  const found: RankedRow[] = [];
  const ways = tiers(rank, placesOf, (parts) => parts.map((x) => `(${x})`).join(' & '), (ands) => ands.map((a) => `(${a})`).join(' | '));
  for (const [value, tier] of ways) {
    if (after && value > Number(after.value)) continue;
    const p = new Params();
    const keyset = after && value === Number(after.value) ? `AND e.id > ${p.add(after.id ?? 0)}` : '';
    const page = await rows<{ id: string; urn: string }>(
      `SELECT e.id, e.urn FROM search_entities e WHERE e.doc @@ ${p.add(tier)}::tsquery AND ${scope.where(p)} AND ${test(rest, p)} ${keyset}
        ORDER BY e.id LIMIT ${p.add(limit - found.length)}`,
      p,
    );
    found.push(...page.map((r) => ({ id: r.id, urn: r.urn, value })));
    if (found.length >= limit) break;
  }
  return found;
}

/** Where a rank condition may be found, as tsqueries that exclude the better places. */
function placesOf(r: TextCondition): Array<{ weight: number; expression: string }> {
  const within = r.columns ?? TEXT_COLUMNS;
  const better: string[] = [];
  const places: Array<{ weight: number; expression: string }> = [];
  for (const { columns, weight } of PLACES) {
    const here = columns.filter((c) => within.includes(c));
    const own = here.length === 0 ? undefined : textQuery({ ...r, columns: here });
    if (!own) continue;
    places.push({ weight, expression: better.length === 0 ? own : `(${own}) & !(${better.map((b) => `(${b})`).join(' | ')})` });
    better.push(own);
  }
  return places;
}

async function byScores(rows: RowsOf, query: SearchQuery, scope: Scope, limit: number): Promise<RankedRow[]> {
  const p = new Params();
  const scored = `SELECT e.id, e.urn, ${score(query.rank ?? [], p)} AS value FROM search_entities e WHERE ${scope.where(p)} AND ${test(query.condition, p)}`;
  const after: Keyset | undefined = query.after;
  const keyset = after ? `WHERE value < ${p.add(Number(after.value))} OR (value = ${p.add(Number(after.value))} AND id > ${p.add(after.id ?? 0)})` : '';
  return rows<RankedRow>(`SELECT id, urn, value FROM (${scored}) s ${keyset} ORDER BY value DESC, id LIMIT ${p.add(limit)}`, p);
}
