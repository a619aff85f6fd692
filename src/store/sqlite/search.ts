import type Database from 'better-sqlite3';
import type { FacetField, Keyset, SearchQuery, SearchResult } from '../search-types.js';
import { MAX_TIER_WORDS } from '../relevance.js';
import { relevancePage, type Steps } from './relevance.js';
import { fastCountSql, FIELD, lower, probe, REMOVED, removedCountSql, Scope, set, walkSql, type Node, type Param } from './search-sql.js';

/**
 * Answers search queries from the SQLite index (see search-index.ts for what it holds, and
 * search-sql.ts for how conditions compile). The total is counted first, from per-value
 * counts where the index has them; it decides how the page is found:
 * - few results: they are read whole and sorted;
 * - many: entities are walked in sort order and each is probed, so a page costs about its length
 *   divided by the share of entities that match, not the size of the result.
 * Pages are keyset pages: after the last URN, (value, URN) for a field, (score, entity id) for
 * relevance; entities that exist throughout a scroll are seen once whatever else is written.
 */

/** Up to this many results are read whole to sort; beyond, the walk in sort order is cheaper. */
const FEW = 5000;
const FACET_LIMIT = 100;

type Row = { urn: string; value?: string | number | null; id?: number };

export class SqliteSearch {
  private readonly statements = new Map<string, Database.Statement>();
  /**
   * A search reads in one transaction: the documents per type that scope its full text (see
   * Scope.match), its total and its page come from the same commits, whatever another process
   * commits meanwhile.
   */
  private readonly inOneRead: (query: SearchQuery) => SearchResult;

  constructor(
    private readonly db: Database.Database,
    /** Results up to this many are read whole (tests set 0 or a large number to try one plan). */
    private readonly few = FEW,
    /** Up to this many rank words are ranked by tiers (tests set 0 to try the scoring plan). */
    private readonly maxTierWords = MAX_TIER_WORDS,
    /** Statements read a row (a step) at a time, so that `steps` can pause between rows: on a connection of the search's own only. */
    private readonly stepwise = false,
  ) {
    this.inOneRead = db.transaction((query: SearchQuery) => finish(this.answer(query)));
  }

  /** The answer at once, in one transaction, holding the event loop until it is found. */
  search(query: SearchQuery): SearchResult {
    return this.inOneRead(query);
  }

  /**
   * The answer as steps, each a statement's row or a statement begun: the caller (stepped-search.ts)
   * may pause between them, on a connection of its own, and stop when the client has gone.
   */
  steps(query: SearchQuery): Steps<SearchResult> {
    return this.answer(query);
  }

  private *answer(query: SearchQuery): Steps<SearchResult> {
    const documents = new Map((yield* this.all<{ type: string; documents: number }>('SELECT type, documents FROM search_types', [])).map((r) => [r.type, r.documents]));
    const scope = new Scope(query.types, query.includeRemoved, documents);
    const node = lower(query.condition);
    const total = yield* this.count(node, scope);
    const { by, order } = query.sort;
    const desc = order === 'DESCENDING';
    const limit = query.count + 1;
    let rows: Row[];
    // A count alone (count 0) reads no page: no URN of it would be answered.
    if (query.count === 0) rows = [];
    else if (by === 'urn') rows = yield* this.byUrn(node, scope, desc, query.after, limit, total);
    else if (by === 'relevance') {
      const tiered = total > this.few && (query.rank ?? []).length <= this.maxTierWords;
      rows = yield* relevancePage((sql, params) => this.all(sql, params), query, scope, limit, total, tiered);
    }
    else rows = yield* this.byField(node, scope, by, desc, query.after, limit, total);
    const page = rows.slice(0, query.count);
    const last = page[page.length - 1];
    const next: Keyset | undefined = rows.length > query.count && last ? { urn: last.urn, ...(by === 'urn' ? {} : { value: last.value ?? null }), ...(last.id === undefined ? {} : { id: last.id }) } : undefined;
    const facets: SearchResult['facets'] = [];
    for (const facet of query.facets) facets.push({ field: facet.field, aggregations: yield* this.facet(facet, node, scope, total) });
    return { urns: page.map((r) => r.urn), ...(next ? { next } : {}), total, facets };
  }

  // ------------------------------------------------------------------ counting

  /** Entities in scope for which the condition holds (removed ones left out unless included). */
  private *count(node: Node, scope: Scope): Steps<number> {
    const params: Param[] = [];
    const n = yield* this.get<number>(yield* this.countSql(node, scope, params), params);
    const anyRemoved: Param[] = [];
    if (scope.includeRemoved || (yield* this.get<number>(removedCountSql(scope, anyRemoved), anyRemoved)) === 0) return n;
    // Removed entities are few: each is probed.
    const removed: Param[] = [];
    const sql = `SELECT count(*) FROM search_terms r WHERE ${REMOVED} AND ${scope.range('r.urn', removed)} AND ${probe(node, 'r.urn', scope, removed, true)}`;
    return n - (yield* this.get<number>(sql, removed));
  }

  /** From counts where the index has them; a conjunction walks its smallest part and probes the others. */
  private *countSql(node: Node, scope: Scope, params: Param[]): Steps<string> {
    const fast = fastCountSql(node, scope, params);
    if (fast !== undefined) return fast;
    if (node.kind === 'and') {
      const positive = node.children.filter((child) => child.kind !== 'not');
      const counted: { child: Node; n: number }[] = [];
      for (const child of positive) {
        const n = yield* this.fastCount(child, scope);
        if (n !== undefined) counted.push({ child, n });
      }
      const driver = counted.sort((a, b) => a.n - b.n)[0]?.child ?? positive[0];
      if (driver) {
        const from = set(driver, scope, params);
        const tests = node.children.filter((child) => child !== driver).map((child) => probe(child, 's.urn', scope, params));
        return `SELECT count(*) FROM (${from}) s WHERE ${tests.join(' AND ') || '1'}`;
      }
    }
    return `SELECT count(*) FROM (${set(node, scope, params)})`;
  }

  private *fastCount(node: Node, scope: Scope): Steps<number | undefined> {
    const params: Param[] = [];
    const sql = fastCountSql(node, scope, params);
    return sql === undefined ? undefined : yield* this.get<number>(sql, params);
  }

  // ------------------------------------------------------------------ pages

  private *byUrn(node: Node, scope: Scope, desc: boolean, after: Keyset | undefined, limit: number, total: number): Steps<Row[]> {
    const cmp = desc ? '<' : '>';
    const dir = desc ? 'DESC' : '';
    if (total <= this.few) {
      const params: Param[] = [];
      const from = set(node, scope, params);
      const where = [scope.visible('s.urn'), ...(after ? [`s.urn ${cmp} ?`] : [])].join(' AND ');
      if (after) params.push(after.urn);
      params.push(limit);
      return yield* this.all<Row>(`SELECT s.urn FROM (${from}) s WHERE ${where} ORDER BY s.urn ${dir} LIMIT ?`, params);
    }
    // Walk a part of the condition whose index is in URN order, the one with the fewest entities,
    // testing the rest on each; walking all entities instead is slow when the matches cluster late.
    const parts = node.kind === 'and' ? node.children : [node];
    const candidates: { p: Node; n: number }[] = [];
    for (const p of parts) if (p.kind === 'term' || p.kind === 'number') candidates.push({ p, n: (yield* this.fastCount(p, scope)) ?? Number.MAX_SAFE_INTEGER });
    const walkable = candidates.sort((a, b) => a.n - b.n)[0]?.p;
    if (walkable) {
      const others: Node = { kind: 'and', children: parts.filter((p) => p !== walkable) };
      const params: Param[] = [];
      const tests = (ps: Param[]) => `${probe(others, 't.urn', scope, ps)} AND ${scope.visible('t.urn')}`;
      const sql = walkSql(walkable, scope, params, tests, after?.urn, desc)!;
      params.push(limit);
      return yield* this.all<Row>(sql, params);
    }
    // Otherwise walk the entities themselves, type by type (URNs of different types never interleave).
    const rows: Row[] = [];
    const types = [...scope.types].sort((a, b) => (a.name < b.name ? -1 : 1));
    if (desc) types.reverse();
    for (const type of types) {
      if (after && (desc ? after.urn < `urn:li:${type.name}:` : after.urn > `urn:li:${type.name};`)) continue;
      const params: Param[] = [type.keyAspect];
      const conditions: string[] = [];
      if (after) {
        conditions.push(`k.urn ${cmp} ?`);
        params.push(after.urn);
      }
      conditions.push(probe(node, 'k.urn', scope, params), scope.visible('k.urn'));
      params.push(limit - rows.length);
      rows.push(...(yield* this.all<Row>(`SELECT k.urn FROM aspects k WHERE k.aspect = ? AND ${conditions.join(' AND ')} ORDER BY k.urn ${dir} LIMIT ?`, params)));
      if (rows.length >= limit) break;
    }
    return rows;
  }

  /** Entities with a value of the field first, in (value, URN) order; then those without one, in URN order. */
  private *byField(node: Node, scope: Scope, field: string, desc: boolean, after: Keyset | undefined, limit: number, total: number): Steps<Row[]> {
    const rows: Row[] = [];
    const cmp = desc ? '<' : '>';
    const dir = desc ? 'DESC' : '';
    if (!after || after.value !== null) {
      const params: Param[] = [];
      let sql: string;
      if (total <= this.few) {
        const from = set(node, scope, params);
        params.push(field);
        const keyset = after ? `AND (t.value, s.urn) ${cmp} (?, ?)` : '';
        if (after) params.push(String(after.value), after.urn);
        sql = `SELECT t.value, s.urn FROM (${from}) s JOIN search_terms t ON t.urn = s.urn AND t.field = ${FIELD}
                WHERE ${scope.visible('s.urn')} ${keyset} ORDER BY t.value ${dir}, s.urn ${dir} LIMIT ?`;
      } else {
        params.push(field);
        const keyset = after ? `AND (t.value, t.urn) ${cmp} (?, ?)` : '';
        if (after) params.push(String(after.value), after.urn);
        sql = `SELECT t.value, t.urn FROM search_terms t WHERE t.field = ${FIELD} ${keyset} AND ${scope.range('t.urn', params)} AND ${probe(node, 't.urn', scope, params)}
                AND ${scope.visible('t.urn')} ORDER BY t.value ${dir}, t.urn ${dir} LIMIT ?`;
      }
      params.push(limit);
      rows.push(...(yield* this.all<Row>(sql, params)));
    }
    if (rows.length < limit) {
      const without: Node = { kind: 'and', children: [node, { kind: 'not', child: { kind: 'exists', field } }] };
      const from = after?.value === null ? { urn: after.urn } : undefined;
      rows.push(...(yield* this.byUrn(without, scope, false, from, limit - rows.length, total)).map((r) => ({ urn: r.urn, value: null })));
    }
    return rows;
  }

  // ------------------------------------------------------------------ facets

  private *facet({ field, numbers }: FacetField, node: Node, scope: Scope, total: number): Steps<Record<string, number>> {
    if (field === 'entity') {
      const counts: (readonly [string, number])[] = [];
      for (const t of scope.types) counts.push([t.name, yield* this.count(node, new Scope([t], scope.includeRemoved, scope.documents))]);
      return Object.fromEntries(counts.filter(([, n]) => n > 0).sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)));
    }
    const params: Param[] = [];
    const values = numbers ? 'search_numbers' : 'search_terms';
    let sql: string;
    if (total <= this.few * 10) {
      const from = set(node, scope, params);
      params.push(field);
      sql = `SELECT v.value, count(*) AS n FROM (${from}) s JOIN ${values} v ON v.urn = s.urn AND v.field = ${FIELD} WHERE ${scope.visible('s.urn')} GROUP BY v.value`;
    } else {
      params.push(field);
      sql = `SELECT v.value, count(*) AS n FROM ${values} v WHERE v.field = ${FIELD} AND ${scope.range('v.urn', params)} AND ${probe(node, 'v.urn', scope, params)}
              AND ${scope.visible('v.urn')} GROUP BY v.value`;
    }
    const rows = yield* this.all<{ value: string | number; n: number }>(`${sql} ORDER BY n DESC, 1 LIMIT ${FACET_LIMIT}`, params);
    return Object.fromEntries(rows.map((r) => [String(r.value), r.n]));
  }

  // ------------------------------------------------------------------ statements

  private statement(sql: string): Database.Statement {
    let statement = this.statements.get(sql);
    if (!statement) {
      statement = this.db.prepare(sql);
      // Queries differ by shape (how many values, which conditions); keep the common ones.
      if (this.statements.size > 500) this.statements.clear();
      this.statements.set(sql, statement);
    }
    return statement;
  }

  /**
   * A statement's rows. Read stepwise, each row is a step (one sqlite3_step): a statement can be
   * left between rows, its iterator closed (the statement reset), when the search is stopped. An
   * aggregate (a count) is one step however long it runs.
   */
  private *all<T>(sql: string, params: Param[]): Steps<T[]> {
    const statement = this.statement(sql);
    yield;
    if (!this.stepwise) return statement.all(...params) as T[];
    const rows: T[] = [];
    for (const row of statement.iterate(...params)) {
      rows.push(row as T);
      yield;
    }
    return rows;
  }

  private *get<T>(sql: string, params: Param[]): Steps<T> {
    const statement = this.statement(sql);
    yield;
    return statement.pluck().get(...params) as T;
  }
}

/** Steps run to their end without a pause. */
function finish<T>(steps: Steps<T>): T {
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
  }
}
