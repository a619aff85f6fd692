import type { Keyset, SearchQuery, TextCondition } from '../search-types.js';
import { TEXT_COLUMNS } from '../search-types.js';
import { MAX_TIER_WORDS, PLACES, placesOf as placesIn, tiers as tiersIn, withoutRank, type TextSyntax } from '../relevance.js';
import { lower, marks, probe, REMOVED, textExpression, type Param, type Scope } from './search-sql.js';

/**
 * Relevance order on SQLite (see ../relevance.ts): 4 in the name or qualified name, 2 among
 * keywords (tags, owners, terms, domains, platform, subtypes, the URN's words), 1 elsewhere
 * (descriptions, field paths). Ties in the order the entities were created (their document ids).
 *
 * Two plans give the same pages:
 * - tiers, for many matches: every way the words can be placed is an FTS5 expression, and those
 *   with the same score are one tier; tiers are read best first, each in document order, until
 *   the page is full. A page costs about its length: scoring 8,000 matches of two words and
 *   sorting them took 35-60 ms over 1M datasets, the first tier 4-15 ms. But an empty tier still
 *   scans its words' postings (up to 100 ms for two common words), so
 * - scores, for few matches or more than MAX_TIER_WORDS words (3^n placements): every match is
 *   scored in SQL and sorted.
 */

/** A statement's rows, read in steps (see search.ts: a search can be stopped between them). */
export type RowsOf = <T>(sql: string, params: Param[]) => Steps<T[]>;
/** Work done in steps: the generator yields where it may be paused or stopped. */
export type Steps<T> = Generator<void, T, void>;
export interface RankedRow {
  urn: string;
  value: number;
  id: number;
}

/** A page of `limit` of the `total` matches, by tiers or by scores. */
export function* relevancePage(rows: RowsOf, query: SearchQuery, scope: Scope, limit: number, total: number, tiered: boolean): Steps<RankedRow[]> {
  if (total === 0) return [];
  // On a first page, no tier need be read once all matches are found.
  const wanted = query.after ? limit : Math.min(limit, total);
  const ids = tiered && (query.rank ?? []).length <= MAX_TIER_WORDS ? yield* byTiers(rows, query, scope, wanted) : yield* byScores(rows, query, scope, limit);
  if (ids.length === 0) return [];
  const urns = new Map((yield* rows<{ id: number; urn: string }>(`SELECT id, urn FROM aspects WHERE id IN (${marks(ids.length)})`, ids.map((r) => r.id))).map((r) => [r.id, r.urn]));
  return ids.flatMap((r) => (urns.has(r.id) ? [{ urn: urns.get(r.id)!, value: r.score, id: r.id }] : []));
}

type Scored = { id: number; score: number };

function* byTiers(rows: RowsOf, query: SearchQuery, scope: Scope, limit: number): Steps<Scored[]> {
  const rank = query.rank ?? [];
  const after = query.after;
  const found: Scored[] = [];
  for (const [score, expression] of tiers(rank)) {
    if (after && score > Number(after.value)) continue;
    const params: Param[] = [scope.match(expression)];
    const filters = restOf(query, scope, params);
    const keyset = after && score === Number(after.value) ? 'AND t.rowid > ?' : '';
    if (keyset) params.push(after!.id ?? 0);
    params.push(limit - found.length);
    const ids = yield* rows<{ id: number }>(`SELECT t.rowid AS id FROM search_text t WHERE t.search_text MATCH ? ${filters} ${keyset} ORDER BY t.rowid LIMIT ?`, params);
    found.push(...ids.map(({ id }) => ({ id, score })));
    if (found.length >= limit) break;
  }
  return found;
}

/** FTS5's expressions. */
const FTS5: TextSyntax = {
  within: (r, columns) => textExpression(columns, r.words, r.phrase, r.prefix),
  all: (parts) => parts.map((p) => `(${p})`).join(' AND '),
  any: (parts) => parts.map((p) => `(${p})`).join(' OR '),
  butNot: (own, better) => `(${own}) NOT (${FTS5.any(better)})`,
};

/** The FTS5 expression of each score the words can make, best first. */
const tiers = (rank: readonly TextCondition[]) => tiersIn(rank, FTS5);
/** Where a rank condition may be found, as FTS5 expressions that exclude the better places. */
const placesOf = (r: TextCondition) => placesIn(r, FTS5);

function* byScores(rows: RowsOf, query: SearchQuery, scope: Scope, limit: number): Steps<Scored[]> {
  const rank = query.rank ?? [];
  const params: Param[] = [];
  const scores = rank.map((r) => {
    const cases = placesOf(r)
      .filter((p) => p.weight > 1)
      .map(({ weight }) => {
        const columns = PLACES.find((p) => p.weight === weight)!.columns.filter((c) => (r.columns ?? TEXT_COLUMNS).includes(c));
        params.push(textExpression(columns, r.words, r.phrase, r.prefix));
        return `WHEN t.rowid IN (SELECT rowid FROM search_text WHERE search_text MATCH ?) THEN ${weight}`;
      });
    return cases.length === 0 ? '1' : `CASE ${cases.join(' ')} ELSE 1 END`;
  });
  params.push(scope.match(rank.map((r) => `(${textExpression(r.columns, r.words, r.phrase, r.prefix)})`).join(' AND ')));
  const filters = restOf(query, scope, params);
  const after: Keyset | undefined = query.after;
  const keyset = after ? 'WHERE score < ? OR (score = ? AND id > ?)' : '';
  if (after) params.push(Number(after.value), Number(after.value), after.id ?? 0);
  params.push(limit);
  return yield* rows<Scored>(
    `SELECT id, score FROM (
       SELECT t.rowid AS id, ${scores.join(' + ') || 0} AS score FROM search_text t WHERE t.search_text MATCH ? ${filters}
     ) ${keyset} ORDER BY score DESC, id LIMIT ?`,
    params,
  );
}

/** The rest of the condition, tested on each matching document, and removed entities left out. */
function restOf(query: SearchQuery, scope: Scope, params: Param[]): string {
  const urnOf = '(SELECT u.urn FROM aspects u WHERE u.id = t.rowid)';
  const rest = probe(lower(withoutRank(query.condition, query.rank ?? [])), urnOf, scope, params);
  const removed = scope.includeRemoved ? '' : `AND t.rowid NOT IN (${removedDocuments(scope, params)})`;
  return `AND ${rest} ${removed}`;
}

/** The document ids (key-row ids) of the removed entities in scope. */
function removedDocuments(scope: Scope, params: Param[]): string {
  params.push(...scope.types.map((t) => t.keyAspect));
  const keys = marks(scope.types.length);
  return `SELECT d.id FROM search_terms r JOIN aspects d ON d.urn = r.urn AND d.aspect IN (${keys}) WHERE ${REMOVED} AND ${scope.range('r.urn', params)}`;
}
