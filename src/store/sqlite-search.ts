import type Database from 'better-sqlite3';
import type { Condition, Keyset, SearchQuery, SearchResult, StringOp, TextColumn } from './search-types.js';

/**
 * Answers search queries from the SQLite index: every condition becomes a query for the set of
 * URNs it holds for (each URN once), and sets combine with IN, NOT IN and UNION. Pages are keyset
 * pages: `urn > last` in URN order, `(value, urn) > last` for a field, `(score, urn)` for relevance.
 */

type Param = string | number;

interface Sql {
  sql: string;
  params: Param[];
}

/** The highest code point: `value < prefix + MAX` bounds a prefix range. */
const MAX = '\u{10FFFF}';
const FACET_LIMIT = 100;

/** Column groups that rank a free word, best first: a word in a name counts most. */
const RANKS: ReadonlyArray<[TextColumn[], number]> = [
  [['name', 'qualifiedName'], 4],
  [['keywords'], 2],
  [['description', 'fieldPaths'], 1],
];

export class SqliteSearch {
  private readonly statements = new Map<string, Database.Statement>();

  constructor(private readonly db: Database.Database) {}

  search(query: SearchQuery): SearchResult {
    const scope = new Scope(query.types);
    let set = compile(query.condition, scope);
    if (!query.includeRemoved) {
      set = { sql: `SELECT urn FROM (${set.sql}) WHERE urn NOT IN (${scope.removed()})`, params: [...set.params, ...scope.removedParams()] };
    }
    const total = this.get<number>(`SELECT count(*) FROM (${set.sql})`, set.params);
    const page = this.page(query, set, scope);
    const facets = query.facets.map((field) => ({ field, aggregations: this.facet(field, set) }));
    return { ...page, total, facets };
  }

  private page(query: SearchQuery, set: Sql, scope: Scope): Pick<SearchResult, 'urns' | 'next'> {
    const { by, order } = query.sort;
    const limit = query.count + 1;
    let rows: Array<{ urn: string; value?: string | number | null }>;
    if (by === 'urn') rows = this.byUrn(set, order, query.after, limit);
    else if (by === 'relevance') rows = this.byRelevance(set, query.rankWords ?? [], scope, query.after, limit);
    else rows = this.byField(set, by, order, query.after, limit);
    const more = rows.length > query.count;
    const page = rows.slice(0, query.count);
    const last = page[page.length - 1];
    return { urns: page.map((r) => r.urn), ...(more && last ? { next: { urn: last.urn, ...(by === 'urn' ? {} : { value: last.value ?? null }) } } : {}) };
  }

  private byUrn(set: Sql, order: string, after: Keyset | undefined, limit: number) {
    const desc = order === 'DESCENDING';
    const where = after ? `WHERE urn ${desc ? '<' : '>'} ?` : '';
    return this.all<{ urn: string }>(`SELECT urn FROM (${set.sql}) ${where} ORDER BY urn ${desc ? 'DESC' : ''} LIMIT ?`, [
      ...set.params,
      ...(after ? [after.urn] : []),
      limit,
    ]);
  }

  /** Entities with a value first, in (value, urn) order; then those without one, in URN order. */
  private byField(set: Sql, field: string, order: string, after: Keyset | undefined, limit: number) {
    const desc = order === 'DESCENDING';
    const rows: Array<{ urn: string; value: string | null }> = [];
    if (!after || after.value !== null) {
      const from = after ? `AND (value, urn) ${desc ? '<' : '>'} (?, ?)` : '';
      rows.push(
        ...this.all<{ urn: string; value: string }>(
          `SELECT value, urn FROM search_terms WHERE field = ? ${from} AND urn IN (${set.sql})
            ORDER BY value ${desc ? 'DESC' : ''}, urn ${desc ? 'DESC' : ''} LIMIT ?`,
          [field, ...(after ? [String(after.value), after.urn] : []), ...set.params, limit],
        ),
      );
    }
    if (rows.length < limit) {
      const from = after?.value === null ? 'AND urn > ?' : '';
      const without = this.all<{ urn: string }>(
        `SELECT urn FROM (${set.sql}) WHERE urn NOT IN (SELECT urn FROM search_terms WHERE field = ?) ${from} ORDER BY urn LIMIT ?`,
        [...set.params, field, ...(after?.value === null ? [after.urn] : []), limit - rows.length],
      );
      rows.push(...without.map((r) => ({ urn: r.urn, value: null })));
    }
    return rows;
  }

  /** By score (the sum of each free word's best column group), highest first, then URN. */
  private byRelevance(set: Sql, words: readonly string[], scope: Scope, after: Keyset | undefined, limit: number) {
    if (words.length === 0) return this.byUrn(set, 'ASCENDING', after, limit);
    const joins: string[] = [];
    const params: Param[] = [...set.params];
    const scores = words.map((word, i) => {
      const parts = RANKS.map(([columns, weight]) => {
        params.push(ftsQuery(columns, [word], false, true));
        return `SELECT rowid, ${weight} AS w FROM search_text WHERE search_text MATCH ?`;
      });
      joins.push(
        `LEFT JOIN (SELECT a.urn, max(g.w) AS s FROM (${parts.join(' UNION ALL ')}) g JOIN aspects a ON a.id = g.rowid
           WHERE ${scope.range('a.urn', params)} GROUP BY a.urn) w${i} ON w${i}.urn = s.urn`,
      );
      return `coalesce(w${i}.s, 0)`;
    });
    const scored = `SELECT s.urn, ${scores.join(' + ')} AS value FROM (${set.sql}) s ${joins.join(' ')}`;
    const from = after ? 'WHERE value < ? OR (value = ? AND urn > ?)' : '';
    if (after) params.push(Number(after.value), Number(after.value), after.urn);
    params.push(limit);
    // The set's parameters come first in the text, then the words' (joined after it).
    return this.all<{ urn: string; value: number }>(`SELECT urn, value FROM (${scored}) ${from} ORDER BY value DESC, urn LIMIT ?`, params);
  }

  private facet(field: string, set: Sql): Record<string, number> {
    const rows =
      field === 'entity'
        ? this.all<{ value: string; n: number }>(
            `SELECT substr(urn, 8, instr(substr(urn, 8), ':') - 1) AS value, count(*) AS n FROM (${set.sql}) GROUP BY value ORDER BY n DESC, value`,
            set.params,
          )
        : this.all<{ value: string | number; n: number }>(
            `SELECT value, count(*) AS n FROM (
               SELECT value, urn FROM search_terms WHERE field = ? UNION ALL SELECT value, urn FROM search_numbers WHERE field = ?
             ) WHERE urn IN (${set.sql}) GROUP BY value ORDER BY n DESC, value LIMIT ${FACET_LIMIT}`,
            [field, field, ...set.params],
          );
    return Object.fromEntries(rows.map((r) => [String(r.value), r.n]));
  }

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

  private all<T>(sql: string, params: Param[]): T[] {
    return this.statement(sql).all(...params) as T[];
  }

  private get<T>(sql: string, params: Param[]): T {
    return this.statement(sql).pluck().get(...params) as T;
  }
}

/** The entity types searched: their key aspects (every entity has its key) and URN ranges. */
class Scope {
  constructor(private readonly types: ReadonlyArray<{ name: string; keyAspect: string }>) {}

  /** Every entity of the types. */
  universe(params: Param[]): string {
    params.push(...this.types.map((t) => t.keyAspect));
    return `SELECT urn FROM aspects WHERE aspect IN (${marks(this.types.length)})`;
  }

  /** URNs of one type share the prefix `urn:li:<type>:`: a range per type keeps index scans short. */
  range(column: string, params: Param[]): string {
    if (this.types.length === 0) return '0';
    for (const { name } of this.types) params.push(`urn:li:${name}:`, `urn:li:${name};`);
    return `(${this.types.map(() => `(${column} > ? AND ${column} < ?)`).join(' OR ')})`;
  }

  removed(): string {
    return `SELECT urn FROM search_terms WHERE field = 'removed' AND value = 'true'`;
  }

  removedParams(): Param[] {
    return [];
  }
}

function compile(condition: Condition, scope: Scope): Sql {
  const params: Param[] = [];
  const sql = set(condition, scope, params);
  return { sql, params };
}

/** SQL selecting the URNs (each once) of the entities in scope for which the condition holds. */
function set(c: Condition, scope: Scope, params: Param[]): string {
  switch (c.kind) {
    case 'all':
      return scope.universe(params);
    case 'none':
      return 'SELECT urn FROM aspects WHERE 0';
    case 'urn': {
      const universe = scope.universe(params);
      return `${universe} AND (${c.values.map((v) => stringMatch('urn', c.op, v, params)).join(' OR ')})`;
    }
    case 'term': {
      params.push(c.field);
      const match = c.values.map((v) => stringMatch('value', c.op, v, params)).join(' OR ');
      const distinct = c.op === 'eq' && c.values.length === 1 ? '' : 'DISTINCT';
      return `SELECT ${distinct} urn FROM search_terms WHERE field = ? AND (${match}) AND ${scope.range('urn', params)}`;
    }
    case 'number': {
      params.push(c.field, c.value);
      const op = { eq: '=', gt: '>', gte: '>=', lt: '<', lte: '<=' }[c.op];
      return `SELECT DISTINCT urn FROM search_numbers WHERE field = ? AND value ${op} ? AND ${scope.range('urn', params)}`;
    }
    case 'exists': {
      params.push(c.field);
      const terms = `SELECT urn FROM search_terms WHERE field = ? AND ${scope.range('urn', params)}`;
      params.push(c.field);
      return `${terms} UNION SELECT urn FROM search_numbers WHERE field = ? AND ${scope.range('urn', params)}`;
    }
    case 'text': {
      // Without a phrase, each word may sit in a different aspect of the entity: one set per word.
      if (!c.phrase && c.words.length > 1) {
        return set({ kind: 'and', children: c.words.map((w, i) => ({ ...c, words: [w], prefix: c.prefix && i === c.words.length - 1 })) }, scope, params);
      }
      params.push(ftsQuery(c.columns, c.words, c.phrase, c.prefix));
      return `SELECT DISTINCT a.urn FROM search_text JOIN aspects a ON a.id = search_text.rowid
               WHERE search_text MATCH ? AND ${scope.range('a.urn', params)}`;
    }
    case 'not': {
      const universe = scope.universe(params);
      return `${universe} AND urn NOT IN (${set(c.child, scope, params)})`;
    }
    case 'or':
      return c.children.map((child) => `SELECT urn FROM (${set(child, scope, params)})`).join(' UNION ');
    case 'and': {
      const positive = c.children.filter((child) => child.kind !== 'not');
      const negative = c.children.filter((child): child is Extract<Condition, { kind: 'not' }> => child.kind === 'not');
      const driver = positive.length > 0 ? set(positive[0], scope, params) : scope.universe(params);
      const filters = [
        ...positive.slice(1).map((child) => `urn IN (${set(child, scope, params)})`),
        ...negative.map((child) => `urn NOT IN (${set(child.child, scope, params)})`),
      ];
      return filters.length === 0 ? driver : `SELECT urn FROM (${driver}) WHERE ${filters.join(' AND ')}`;
    }
  }
}

/** A string comparison on a column: exact, prefix (an index range), suffix or substring (LIKE), or an order. */
function stringMatch(column: string, op: StringOp | 'gt' | 'gte' | 'lt' | 'lte', value: string, params: Param[]): string {
  switch (op) {
    case 'eq':
      params.push(value);
      return `${column} = ?`;
    case 'prefix':
      params.push(value, value + MAX);
      return `(${column} >= ? AND ${column} < ?)`;
    case 'suffix':
      params.push(`%${escapeLike(value)}`);
      return `${column} LIKE ? ESCAPE '\\'`;
    case 'contains':
      params.push(`%${escapeLike(value)}%`);
      return `${column} LIKE ? ESCAPE '\\'`;
    default:
      params.push(value);
      return `${column} ${{ gt: '>', gte: '>=', lt: '<', lte: '<=' }[op]} ?`;
  }
}

function escapeLike(value: string): string {
  return value.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/**
 * An FTS5 query: each word quoted (so nothing in it is FTS syntax), the words as one phrase or
 * each required, the last one a prefix when asked, within the given columns.
 */
function ftsQuery(columns: readonly TextColumn[] | undefined, words: readonly string[], phrase: boolean, prefix: boolean): string {
  const quote = (w: string) => `"${w.replace(/"/g, '""')}"`;
  const body = phrase ? `${quote(words.join(' '))}${prefix ? ' *' : ''}` : words.map((w, i) => `${quote(w)}${prefix && i === words.length - 1 ? ' *' : ''}`).join(' AND ');
  return columns && columns.length > 0 ? `{${columns.join(' ')}} : (${body})` : body;
}

function marks(n: number): string {
  return Array.from({ length: n }, () => '?').join(', ');
}
