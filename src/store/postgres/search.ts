import { AsyncLocalStorage } from 'node:async_hooks';
import type pg from 'pg';
import { MAX_TIER_WORDS } from '../relevance.js';
import type { Condition, FacetField, Keyset, SearchQuery, SearchResult } from '../search-types.js';
import { cancellableRows } from './pool.js';
import { relevancePage, TIER_WALK } from './relevance.js';
import { fastCountSql, Params, removedCountSql, Scope, set, test, walkSql } from './search-sql.js';

/**
 * The search index on PostgreSQL: the same conditions and answers as SQLite's (search-types.ts,
 * sqlite/search.ts), over search_entities (tsvector + GIN for full text), the narrow keyword and
 * number tables (pg_trgm for suffixes and substrings) and their counts — see search-index.ts.
 * The total comes first, from the counts where they know; it decides how the page is found:
 * - few results: they are read whole and sorted;
 * - many: a part of the condition whose rows are in the sort order is walked and the rest tested
 *   on each (relevance: tiers, see relevance.ts), so a page costs about its length divided by the
 *   share of entities that match, not the size of the result.
 * The planner is left the rest. Pages are keyset pages as on SQLite: after the last URN,
 * (value, URN) for a field, (score, entity id) for relevance.
 */

/** Up to this many results are read whole to sort; beyond, a walk in sort order is cheaper. */
const FEW = 5000;
const FACET_LIMIT = 100;

/** The signal of the search being answered, for its statements (count, page, facets) several calls down. */
const answering = new AsyncLocalStorage<AbortSignal>();

type Row = { urn: string; value?: string | number | null; id?: string | number };

export class PostgresSearch {
  constructor(
    private readonly pool: pg.Pool,
    /** Results up to this many are read whole (tests set 0 or a large number to try one plan). */
    private readonly few = FEW,
    /** Up to this many rank words are ranked by tiers (tests set 0 to try the scoring plan). */
    private readonly maxTierWords = MAX_TIER_WORDS,
    /** How far a tier is walked before the index is read (tests set a few to try both). */
    private readonly tierWalk = TIER_WALK,
  ) {}

  async search(query: SearchQuery): Promise<SearchResult> {
    return query.signal ? answering.run(query.signal, () => this.answer(query)) : this.answer(query);
  }

  private async answer(query: SearchQuery): Promise<SearchResult> {
    const { by, order } = query.sort;
    const desc = order === 'DESCENDING';
    const limit = query.count + 1;
    const { total, scope } = await this.count(query, new Scope(query.types.map((t) => t.name), query.includeRemoved));
    // Tiers for many matches; few are scored whole, which costs less than looking in empty tiers.
    const tiered = total > this.few && (query.rank ?? []).length <= this.maxTierWords;
    const [rows, facets] = await Promise.all([
      // A count alone (count 0) reads no page: no URN of it would be answered.
      query.count === 0
        ? []
        : by === 'urn'
        ? this.byUrn(query.condition, scope, desc, query.after?.urn, limit, total)
        : by === 'relevance'
          ? relevancePage((sql, p) => this.rows(sql, p), query, scope, limit, total, tiered, this.tierWalk)
          : this.byField(query, scope, by, desc, limit, total),
      Promise.all(query.facets.map(async (facet) => ({ field: facet.field, aggregations: await this.facet(facet, query, scope) }))),
    ]);
    const page: Row[] = rows.slice(0, query.count);
    const last = page[page.length - 1];
    const next: Keyset | undefined =
      rows.length > query.count && last
        ? { urn: last.urn, ...(by === 'urn' ? {} : { value: last.value ?? null }), ...(last.id === undefined ? {} : { id: Number(last.id) }) }
        : undefined;
    return { urns: page.map((r) => r.urn), ...(next ? { next } : {}), total, facets };
  }

  // ------------------------------------------------------------------ counting

  /**
   * The total, and the scope the rest of the search uses: one round trip reads the count where the
   * per-value counts know it and how many removed entities the types hold; when none, nothing
   * need test for them.
   */
  private async count(query: SearchQuery, asked: Scope): Promise<{ total: number; scope: Scope }> {
    const p = new Params();
    const fast = fastCountSql(query.condition, asked, p);
    const removed = query.includeRemoved ? '0' : removedCountSql(asked, p);
    const others = `ARRAY(SELECT type FROM search_type_counts WHERE n > 0 AND NOT (type = ANY(${p.add([...asked.types])}::text[])))`;
    const [counts] = await this.rows<{ n: number | null; removed: number; others: string[] }>(
      `SELECT ${fast ?? 'NULL'}::int AS n, ${removed}::int AS removed, ${others} AS others`,
      p,
    );
    const scope = new Scope(asked.types, asked.includeRemoved || counts.removed === 0, counts.others);
    return { total: await this.visibleCount(query.condition, scope, counts.n ?? undefined), scope };
  }

  /**
   * The condition's visible entities: from the counts less the removed ones that match (few, each
   * tested); through the condition's own index (see set), each match tested for being visible; a
   * negation as everything less what it negates; else every entity of the types is tested.
   */
  private async visibleCount(c: Condition, scope: Scope, counted?: number): Promise<number> {
    if (c.kind === 'not') {
      const [all, negated] = await Promise.all([this.visibleCount({ kind: 'all' }, scope), this.visibleCount(c.child, scope)]);
      return all - negated;
    }
    const p = new Params();
    const fast = counted === undefined ? fastCountSql(c, scope, p) : undefined;
    const n = counted ?? (fast === undefined ? undefined : (await this.rows<{ n: number }>(`SELECT ${fast}::int AS n`, p))[0].n);
    if (n !== undefined) {
      if (scope.includeRemoved) return n;
      const q = new Params();
      const [gone] = await this.rows<{ n: number }>(
        `SELECT count(*)::int AS n FROM search_terms r WHERE r.field = 'removed' AND r.value = 'true' AND ${scope.range('r.urn', q)} AND ${test(c, q, { urn: 'r.urn' })}`,
        q,
      );
      return n - gone.n;
    }
    const matched = set(c, scope, p);
    const sql = matched
      ? `SELECT count(*)::int AS n FROM (${matched}) AS s WHERE ${scope.visible('s.urn')}`
      : `SELECT count(*)::int AS n FROM search_entities e WHERE ${scope.where(p)} AND ${test(c, p)}`;
    return (await this.rows<{ n: number }>(sql, p))[0].n;
  }

  // ------------------------------------------------------------------ pages

  private async byUrn(c: Condition, scope: Scope, desc: boolean, after: string | undefined, limit: number, total: number): Promise<Row[]> {
    const dir = desc ? 'DESC' : '';
    const keyset = (p: Params, u: string) => (after === undefined ? '' : `AND ${u} ${desc ? '<' : '>'} ${p.add(after)}`);
    if (total <= this.few) {
      // Materialized: the matches are found first (through their own index), whatever order the planner would walk.
      const p = new Params();
      const matched = set(c, scope, p);
      const found = matched
        ? `SELECT s.urn FROM (${matched}) AS s WHERE ${scope.visible('s.urn')} ${keyset(p, 's.urn')}`
        : `SELECT e.urn FROM search_entities e WHERE ${scope.where(p)} AND ${test(c, p)} ${keyset(p, 'e.urn')}`;
      return this.rows<Row>(`WITH matches AS MATERIALIZED (${found}) SELECT urn FROM matches ORDER BY urn ${dir} LIMIT ${p.add(limit)}`, p);
    }
    const walked = await this.smallestWalkable(c, scope);
    if (walked) {
      const p = new Params();
      return this.rows<Row>(walkSql(walked.part, walked.others, scope, p, after, desc, limit), p);
    }
    const p = new Params();
    return this.rows<Row>(`SELECT e.urn FROM search_entities e WHERE ${scope.where(p)} AND ${test(c, p)} ${keyset(p, 'e.urn')} ORDER BY e.urn ${dir} LIMIT ${p.add(limit)}`, p);
  }

  /** Of the keyword and number parts of a conjunction (or the condition itself), the one with the fewest entities, and the rest. */
  private async smallestWalkable(c: Condition, scope: Scope): Promise<{ part: Extract<Condition, { kind: 'term' | 'number' }>; others: Condition } | undefined> {
    const parts = c.kind === 'and' ? c.children : [c];
    const walkable = parts.filter((x): x is Extract<Condition, { kind: 'term' | 'number' }> => x.kind === 'term' || x.kind === 'number');
    if (walkable.length === 0) return undefined;
    let part = walkable[0];
    if (walkable.length > 1) {
      const p = new Params();
      const counts = walkable.map((x, i) => `${fastCountSql(x, scope, p) ?? 'NULL'}::int AS n${i}`);
      const [row] = await this.rows<Record<string, number | null>>(`SELECT ${counts.join(', ')}`, p);
      const n = (i: number) => row[`n${i}`] ?? Number.MAX_SAFE_INTEGER;
      part = walkable.reduce((best, x, i) => (n(i) < n(walkable.indexOf(best)) ? x : best), walkable[0]);
    }
    const rest = parts.filter((x) => x !== part);
    return { part, others: rest.length === 0 ? { kind: 'all' } : { kind: 'and', children: rest } };
  }

  /** Entities with a value of the field first, in (value, URN) order; then those without one, in URN order. */
  private async byField(query: SearchQuery, scope: Scope, field: string, desc: boolean, limit: number, total: number): Promise<Row[]> {
    const rows: Row[] = [];
    const after = query.after;
    const dir = desc ? 'DESC' : '';
    if (!after || after.value !== null) {
      const p = new Params();
      const conditions = [scope.where(p), test(query.condition, p)];
      const f = p.add(field);
      if (after) conditions.push(`(t.value, e.urn) ${desc ? '<' : '>'} (${p.add(String(after.value))}::text COLLATE "C", ${p.add(after.urn)}::text COLLATE "C")`);
      rows.push(
        ...(await this.rows<Row>(
          `SELECT t.value, e.urn FROM search_entities e JOIN search_terms t ON t.urn = e.urn AND t.field = ${f}
           WHERE ${conditions.join(' AND ')} ORDER BY t.value ${dir}, e.urn ${dir} LIMIT ${p.add(limit)}`,
          p,
        )),
      );
    }
    if (rows.length < limit) {
      const without: Condition = { kind: 'and', children: [query.condition, { kind: 'not', child: { kind: 'exists', field } }] };
      const from = after?.value === null ? after.urn : undefined;
      rows.push(...(await this.byUrn(without, scope, false, from, limit - rows.length, total)).map((r) => ({ urn: r.urn, value: null })));
    }
    return rows;
  }

  // ------------------------------------------------------------------ facets

  /** Counts of the field's values over the matches: read through the condition's own index when it has one. */
  private async facet({ field, numbers }: FacetField, query: SearchQuery, scope: Scope): Promise<Record<string, number>> {
    const p = new Params();
    if (query.condition.kind === 'all' && scope.includeRemoved) {
      // Every entity of the types: the counts know.
      const types = p.add([...scope.types]);
      const counted =
        field === 'entity'
          ? `SELECT type AS value, n::int FROM search_type_counts WHERE type = ANY(${types}::text[]) AND n > 0`
          : `SELECT value, sum(n)::int AS n FROM ${numbers ? 'search_number_counts' : 'search_term_counts'} WHERE field = ${p.add(field)} AND type = ANY(${types}::text[]) GROUP BY value HAVING sum(n) > 0`;
      const rows = await this.rows<{ value: string | number; n: number }>(`${counted} ORDER BY n DESC, value LIMIT ${FACET_LIMIT}`, p);
      return Object.fromEntries(rows.map((r) => [String(r.value), r.n]));
    }
    const matched = query.condition.kind === 'all' ? undefined : set(query.condition, scope, p);
    const from = matched ? `(${matched}) AS s` : `(SELECT e.urn, e.type FROM search_entities e WHERE ${scope.where(p)} AND ${test(query.condition, p)}) AS s`;
    const visible = matched ? scope.visible('s.urn') : 'TRUE';
    const sql =
      field === 'entity'
        ? `SELECT split_part(s.urn, ':', 3) AS value, count(*)::int AS n FROM ${from} WHERE ${visible} GROUP BY 1`
        : `SELECT v.value, count(*)::int AS n FROM ${from} JOIN ${numbers ? 'search_numbers' : 'search_terms'} v ON v.urn = s.urn AND v.field = ${p.add(field)}
           WHERE ${visible} GROUP BY v.value`;
    const rows = await this.rows<{ value: string | number; n: number }>(`${sql} ORDER BY n DESC, value LIMIT ${FACET_LIMIT}`, p);
    return Object.fromEntries(rows.map((r) => [String(r.value), r.n]));
  }

  /** Every statement of a search runs cancellable by the search's signal (it reaches here through `answering`). */
  private async rows<T extends pg.QueryResultRow>(sql: string, p: Params): Promise<T[]> {
    const signal = answering.getStore();
    if (signal) return cancellableRows<T>(this.pool, sql, p.values, signal);
    return (await this.pool.query<T>(sql, p.values)).rows;
  }
}
