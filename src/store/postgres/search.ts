import type pg from 'pg';
import type { FacetField, Keyset, SearchQuery, SearchResult } from '../search-types.js';
import { Params, Scope, score, test } from './search-sql.js';

/**
 * The search index on PostgreSQL: the same conditions and answers as SQLite's (search-types.ts,
 * sqlite/search.ts), over search_entities (tsvector + GIN for full text), the narrow keyword and
 * number tables (pg_trgm for suffixes and substrings) — see search-index.ts. Each page is one
 * statement: the planner walks the sort order and probes, or reads the matches and sorts,
 * whichever its statistics say is cheaper. Pages are keyset pages as on SQLite: after the last
 * URN, (value, URN) for a field, (score, entity id) for relevance.
 */

const FACET_LIMIT = 100;

type Row = { urn: string; value?: string | number | null; id?: string | number };

export class PostgresSearch {
  constructor(private readonly pool: pg.Pool) {}

  async search(query: SearchQuery): Promise<SearchResult> {
    const scope = new Scope(query.types.map((t) => t.name), query.includeRemoved);
    const { by, order } = query.sort;
    const desc = order === 'DESCENDING';
    const limit = query.count + 1;
    const [total, rows, facets] = await Promise.all([
      this.count(query, scope),
      by === 'urn' ? this.byUrn(query, scope, desc, query.after, limit) : by === 'relevance' ? this.byRelevance(query, scope, limit) : this.byField(query, scope, by, desc, limit),
      Promise.all(query.facets.map(async (facet) => ({ field: facet.field, aggregations: await this.facet(facet, query, scope) }))),
    ]);
    const page = rows.slice(0, query.count);
    const last = page[page.length - 1];
    const next: Keyset | undefined =
      rows.length > query.count && last
        ? { urn: last.urn, ...(by === 'urn' ? {} : { value: last.value ?? null }), ...(last.id === undefined ? {} : { id: Number(last.id) }) }
        : undefined;
    return { urns: page.map((r) => r.urn), ...(next ? { next } : {}), total, facets };
  }

  private async count(query: SearchQuery, scope: Scope): Promise<number> {
    const p = new Params();
    const sql = `SELECT count(*)::int AS n FROM search_entities e WHERE ${scope.where(p)} AND ${test(query.condition, p)}`;
    return (await this.rows<{ n: number }>(sql, p))[0].n;
  }

  private async byUrn(query: SearchQuery, scope: Scope, desc: boolean, after: Keyset | undefined, limit: number, extra?: (p: Params) => string): Promise<Row[]> {
    const p = new Params();
    const conditions = [scope.where(p), test(query.condition, p), ...(extra ? [extra(p)] : [])];
    if (after) conditions.push(`e.urn ${desc ? '<' : '>'} ${p.add(after.urn)}`);
    return this.rows<Row>(`SELECT e.urn FROM search_entities e WHERE ${conditions.join(' AND ')} ORDER BY e.urn ${desc ? 'DESC' : ''} LIMIT ${p.add(limit)}`, p);
  }

  /** Entities with a value of the field first, in (value, URN) order; then those without one, in URN order. */
  private async byField(query: SearchQuery, scope: Scope, field: string, desc: boolean, limit: number): Promise<Row[]> {
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
      const from = after?.value === null ? { urn: after.urn } : undefined;
      const without = (p: Params) => `NOT (${test({ kind: 'exists', field }, p)})`;
      rows.push(...(await this.byUrn(query, scope, false, from, limit - rows.length, without)).map((r) => ({ urn: r.urn, value: null })));
    }
    return rows;
  }

  /** Best score first, then creation order; the score depends on the entity alone. */
  private async byRelevance(query: SearchQuery, scope: Scope, limit: number): Promise<Row[]> {
    const p = new Params();
    const scored = `SELECT e.id, e.urn, ${score(query.rank ?? [], p)} AS value FROM search_entities e WHERE ${scope.where(p)} AND ${test(query.condition, p)}`;
    const after = query.after;
    const keyset = after ? `WHERE value < ${p.add(Number(after.value))} OR (value = ${p.add(Number(after.value))} AND id > ${p.add(after.id ?? 0)})` : '';
    return this.rows<Row>(`SELECT id, urn, value FROM (${scored}) s ${keyset} ORDER BY value DESC, id LIMIT ${p.add(limit)}`, p);
  }

  private async facet({ field, numbers }: FacetField, query: SearchQuery, scope: Scope): Promise<Record<string, number>> {
    const p = new Params();
    const where = `${scope.where(p)} AND ${test(query.condition, p)}`;
    const sql =
      field === 'entity'
        ? `SELECT e.type AS value, count(*)::int AS n FROM search_entities e WHERE ${where} GROUP BY e.type`
        : `SELECT v.value, count(*)::int AS n FROM search_entities e JOIN ${numbers ? 'search_numbers' : 'search_terms'} v ON v.urn = e.urn AND v.field = ${p.add(field)}
           WHERE ${where} GROUP BY v.value`;
    const rows = await this.rows<{ value: string | number; n: number }>(`${sql} ORDER BY n DESC, value LIMIT ${FACET_LIMIT}`, p);
    return Object.fromEntries(rows.map((r) => [String(r.value), r.n]));
  }

  private async rows<T extends pg.QueryResultRow>(sql: string, p: Params): Promise<T[]> {
    return (await this.pool.query<T>(sql, p.values)).rows;
  }
}
