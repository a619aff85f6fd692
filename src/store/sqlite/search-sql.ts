import type { EdgeKind } from '../graph-types.js';
import { neighbourEdges, TEXT_COLUMNS, type Condition, type NeighbourCondition, type StringOp, type TextColumn } from '../search-types.js';
import { typeWord } from './search-index.js';

/**
 * How a search condition becomes SQLite SQL, three ways: the set of URNs it holds for (each URN
 * once), a test of one URN (a probe, by index lookups), and, where the index can answer without a
 * walk, a count. SqliteSearch chooses among them.
 */

export type Param = string | number;

/**
 * A condition as compiled: full-text leaves become FTS5 expressions, and the text leaves of one
 * AND or OR merge into one expression: an entity has one document, so one MATCH finds words that
 * come from different aspects.
 */
export type Node =
  | Exclude<Condition, { kind: 'and' | 'or' | 'not' | 'text' }>
  | { kind: 'and' | 'or'; children: Node[] }
  | { kind: 'not'; child: Node }
  | { kind: 'fts'; expr: string };

export const MAX = '\u{10FFFF}';
/**
 * A field's number, for a field name given as a parameter: the index tables name fields by number
 * (search_fields), a byte or two a row instead of up to ~50 for a structured property's URN.
 * Uncorrelated, so SQLite looks it up once per statement and then uses it as a constant.
 */
export const FIELD = '(SELECT id FROM search_fields WHERE name = ?)';
/** The number of the field `removed` (status.removed), the same way. */
const REMOVED_FIELD = `(SELECT id FROM search_fields WHERE name = 'removed')`;
/** A removed entity's row in search_terms aliased r. */
export const REMOVED = `r.field = ${REMOVED_FIELD} AND r.value = 'true'`;
const SQL_OP = { eq: '=', gt: '>', gte: '>=', lt: '<', lte: '<=' } as const;

export function lower(c: Condition): Node {
  switch (c.kind) {
    case 'text':
      return { kind: 'fts', expr: textExpression(c.columns, c.words, c.phrase, c.prefix) };
    case 'not':
      return { kind: 'not', child: lower(c.child) };
    case 'and':
    case 'or': {
      const children = c.children.map(lower);
      const text = children.filter((n): n is Extract<Node, { kind: 'fts' }> => n.kind === 'fts');
      const merged: Node[] = text.length > 1 ? [{ kind: 'fts', expr: text.map((t) => `(${t.expr})`).join(c.kind === 'and' ? ' AND ' : ' OR ') }] : text;
      const all = [...merged, ...children.filter((n) => n.kind !== 'fts')];
      return all.length === 1 ? all[0] : { kind: c.kind, children: all };
    }
    default:
      return c;
  }
}

/** An FTS5 expression: each word quoted (nothing in it is FTS syntax), all required, within the columns. */
export function textExpression(columns: readonly TextColumn[] | undefined, words: readonly string[], phrase: boolean, prefix: boolean): string {
  // FTS5 reads its expression as a C string, which a U+0000 would end; to the tokenizer it only separates words.
  const quote = (w: string) => `"${w.replace(/"/g, '""').replace(/\u0000/g, ' ')}"`;
  const terms = phrase
    ? `${quote(words.join(' '))}${prefix ? ' *' : ''}`
    : words.map((w, i) => `${quote(w)}${prefix && i === words.length - 1 ? ' *' : ''}`).join(' AND ');
  return `{${(columns ?? TEXT_COLUMNS).join(' ')}} : (${terms})`;
}

/** The entity types searched, and whether removed entities count. */
export class Scope {
  constructor(
    readonly types: ReadonlyArray<{ name: string; keyAspect: string }>,
    readonly includeRemoved: boolean,
    /** How many full-text documents each type has (search_types); types without any may be absent. */
    readonly documents: ReadonlyMap<string, number>,
  ) {}

  /** Every entity of the types (every entity has its key aspect). */
  universe(params: Param[]): string {
    params.push(...this.types.map((t) => t.keyAspect));
    return `SELECT k.urn AS urn FROM aspects k WHERE k.aspect IN (${marks(this.types.length)})`;
  }

  /** URNs of one type share the prefix `urn:li:<type>:`: a range per type. */
  range(column: string, params: Param[]): string {
    for (const { name } of this.types) params.push(`urn:li:${name}:`, `urn:li:${name};`);
    return `(${this.types.map(() => `(${column} > ? AND ${column} < ?)`).join(' OR ') || '0'})`;
  }

  /** Leaves removed entities out, unless they are included. */
  visible(column: string): string {
    return this.includeRemoved ? '1' : `NOT EXISTS (SELECT 1 FROM search_terms r WHERE ${REMOVED} AND r.urn = ${column})`;
  }

  /**
   * An FTS5 query for an expression, within the types (the type is a column of its own). Each
   * match of the expression is tested against the shorter list of postings: the documents of the
   * types searched (AND), or of the others (NOT), or none when there are no others. AND with the
   * types of 1M datasets took 10 ms for 33k matches, and more than the rest of the query.
   */
  match(expr: string): string {
    const words = (names: readonly string[]) => names.map((name) => `"${typeWord(name)}"`).join(' OR ');
    const searched = new Set(this.types.map((t) => t.name));
    const others = [...this.documents].filter(([type, n]) => n > 0 && !searched.has(type));
    if (others.length === 0) return `(${expr})`;
    const inside = this.types.reduce((n, t) => n + (this.documents.get(t.name) ?? 0), 0);
    const outside = others.reduce((n, [, count]) => n + count, 0);
    if (outside < inside) return `(${expr}) NOT {type} : (${words(others.map(([type]) => type))})`;
    return `{type} : (${words([...searched])}) AND (${expr})`;
  }

  /** The key-row id of the entity with the URN in `u`: its text document's rowid. */
  documentOf(u: string, params: Param[]): string {
    params.push(...this.types.map((t) => t.keyAspect));
    return `(SELECT d.id FROM aspects d WHERE d.urn = ${u} AND d.aspect IN (${marks(this.types.length)}))`;
  }
}

/** SQL selecting the URNs (each once) of the entities in scope for which the condition holds. */
export function set(c: Node, scope: Scope, params: Param[]): string {
  switch (c.kind) {
    case 'all':
      return scope.universe(params);
    case 'none':
      return 'SELECT urn FROM aspects WHERE 0';
    case 'urn': {
      const universe = scope.universe(params);
      return `${universe} AND (${anyOf(c.values.map((v) => stringMatch('k.urn', c.op, v, params)))})`;
    }
    case 'term': {
      params.push(c.field);
      const match = anyOf(c.values.map((v) => stringMatch('value', c.op, v, params)));
      const distinct = (c.op === 'eq' && c.values.length === 1) || c.unique ? '' : 'DISTINCT';
      return `SELECT ${distinct} urn FROM search_terms WHERE field = ${FIELD} AND (${match}) AND ${scope.range('urn', params)}`;
    }
    case 'number':
      params.push(c.field, c.value);
      return `SELECT ${c.unique ? '' : 'DISTINCT'} urn FROM search_numbers WHERE field = ${FIELD} AND value ${SQL_OP[c.op]} ? AND ${scope.range('urn', params)}`;
    case 'exists': {
      params.push(c.field);
      const terms = `SELECT urn FROM search_terms WHERE field = ${FIELD} AND ${scope.range('urn', params)}`;
      params.push(c.field);
      return `${terms} UNION SELECT urn FROM search_numbers WHERE field = ${FIELD} AND ${scope.range('urn', params)}`;
    }
    case 'fts':
      // One document per entity: each URN comes once.
      params.push(scope.match(c.expr));
      return `SELECT a.urn FROM search_text JOIN aspects a ON a.id = search_text.rowid WHERE search_text MATCH ?`;
    case 'neighbour': {
      // A part per edge kind, each read through an index of the edges (by neighbour, or by relationship).
      const edges = neighbourEdges(c, scope.types.map((t) => t.name));
      if (edges.length === 0) return 'SELECT urn FROM aspects WHERE 0';
      return edges
        .map(({ self, other, kind }) => {
          const where = [edgeKind(kind, params), ...leadsTo(c, other, params), scope.range(`g.${self}`, params)];
          return `SELECT DISTINCT g.${self} AS urn FROM edges g WHERE ${where.join(' AND ')}`;
        })
        .join(' UNION ');
    }
    case 'not': {
      const universe = scope.universe(params);
      return `${universe} AND NOT ${probe(c.child, 'k.urn', scope, params)}`;
    }
    case 'or':
      return c.children.map((child) => `SELECT urn FROM (${set(child, scope, params)})`).join(' UNION ');
    case 'and': {
      const [driver, ...rest] = [...c.children].sort((a, b) => (a.kind === 'not' ? 1 : 0) - (b.kind === 'not' ? 1 : 0));
      const from = driver.kind === 'not' ? scope.universe(params) : set(driver, scope, params);
      const tests = (driver.kind === 'not' ? c.children : rest).map((child) => probe(child, 's.urn', scope, params));
      return `SELECT s.urn FROM (${from}) s WHERE ${tests.join(' AND ')}`;
    }
  }
}

/**
 * SQL true when the condition holds for the URN in `u`, by index lookups. Full text is a set read
 * once, unless `few` URNs are probed: then each is looked up in the index by its document.
 */
export function probe(c: Node, u: string, scope: Scope, params: Param[], few = false): string {
  switch (c.kind) {
    case 'all':
      return '1';
    case 'none':
      return '0';
    case 'urn':
      return `(${anyOf(c.values.map((v) => stringMatch(u, c.op, v, params)))})`;
    case 'term': {
      params.push(c.field);
      if (c.op === 'eq') {
        params.push(...c.values);
        return `EXISTS (SELECT 1 FROM search_terms p WHERE p.field = ${FIELD} AND p.value IN (${marks(c.values.length)}) AND p.urn = ${u})`;
      }
      const match = anyOf(c.values.map((v) => stringMatch('p.value', c.op, v, params)));
      return `EXISTS (SELECT 1 FROM search_terms p WHERE p.field = ${FIELD} AND p.urn = ${u} AND (${match}))`;
    }
    case 'number':
      params.push(c.field, c.value);
      return `EXISTS (SELECT 1 FROM search_numbers p WHERE p.field = ${FIELD} AND p.urn = ${u} AND p.value ${SQL_OP[c.op]} ?)`;
    case 'exists':
      params.push(c.field, c.field);
      return `(EXISTS (SELECT 1 FROM search_terms p WHERE p.field = ${FIELD} AND p.urn = ${u}) OR EXISTS (SELECT 1 FROM search_numbers p WHERE p.field = ${FIELD} AND p.urn = ${u}))`;
    case 'fts': {
      if (!few) return `${u} IN (${set(c, scope, params)})`;
      params.push(scope.match(c.expr));
      const document = scope.documentOf(u, params);
      return `EXISTS (SELECT 1 FROM search_text WHERE search_text MATCH ? AND rowid = ${document})`;
    }
    case 'neighbour': {
      // The entity's own edges, by the key (relationship, source: out of it) or edges_in (into it).
      const edges = neighbourEdges(c, scope.types.map((t) => t.name));
      const tests = (['source', 'destination'] as const).flatMap((self) => {
        const kinds = edges.filter((e) => e.self === self);
        if (kinds.length === 0) return [];
        // Out of it: the relationships named apart, so that the key (relationship, source, …) finds its edges (edges_in leads with the destination).
        const relationships = [...new Set(kinds.map((e) => e.kind.relationship))];
        if (self === 'source') params.push(...relationships);
        const named = self === 'source' ? [`g.relationship IN (${marks(relationships.length)})`] : [];
        const ofKind = `(${kinds.map((e) => edgeKind(e.kind, params)).join(' OR ')})`;
        const where = [...named, `g.${self} = ${u}`, ofKind, ...leadsTo(c, kinds[0].other, params)];
        return [`EXISTS (SELECT 1 FROM edges g WHERE ${where.join(' AND ')})`];
      });
      return tests.length === 0 ? '0' : `(${tests.join(' OR ')})`;
    }
    case 'not':
      return `NOT ${probe(c.child, u, scope, params, few)}`;
    case 'and':
    case 'or':
      if (c.children.length === 0) return c.kind === 'and' ? '1' : '0';
      return `(${c.children.map((child) => probe(child, u, scope, params, few)).join(c.kind === 'and' ? ' AND ' : ' OR ')})`;
  }
}

/**
 * For a keyword or number condition, whose index rows can be read in URN order (by value for one
 * exact value, else by the (field, urn) index): the SQL walking its entities in URN order
 * (ascending unless `desc`), after `after` when given, testing each with `tests` (SQL on `t.urn`).
 * Several matching values of one entity come out once.
 */
export function walkSql(c: Node, scope: Scope, params: Param[], tests: (params: Param[]) => string, after: string | undefined, desc: boolean): string | undefined {
  if (c.kind !== 'term' && c.kind !== 'number') return undefined;
  const table = c.kind === 'number' ? 'search_numbers' : 'search_terms';
  const cmp = desc ? '<' : '>';
  params.push(c.field);
  let where: string;
  let index = `INDEXED BY ${table}_by_field`;
  if (c.kind === 'term' && c.op === 'eq' && c.values.length === 1) {
    params.push(c.values[0]);
    where = 't.value = ?';
    index = '';
  } else if (c.kind === 'term') {
    where = `(${anyOf(c.values.map((v) => stringMatch('t.value', c.op, v, params)))})`;
  } else {
    params.push(c.value);
    where = `t.value ${SQL_OP[c.op]} ?`;
  }
  if (after !== undefined) params.push(after);
  const range = scope.range('t.urn', params);
  const rest = tests(params);
  const group = index ? 'GROUP BY t.urn' : '';
  return `SELECT t.urn FROM ${table} t ${index} WHERE t.field = ${FIELD} AND ${where} ${after !== undefined ? `AND t.urn ${cmp} ?` : ''}
            AND ${range} AND ${rest} ${group} ORDER BY t.urn ${desc ? 'DESC' : ''} LIMIT ?`;
}

/** SQL counting the condition's entities (removed ones included), when the index knows without a walk. */
export function fastCountSql(c: Node, scope: Scope, params: Param[]): string | undefined {
  const types = () => {
    params.push(...scope.types.map((t) => t.name));
    return `type IN (${marks(scope.types.length)})`;
  };
  switch (c.kind) {
    case 'none':
      return 'SELECT 0';
    case 'fts':
      params.push(scope.match(c.expr));
      return 'SELECT count(*) FROM search_text WHERE search_text MATCH ?';
    case 'term': {
      // Counts are per value: exact when an entity has one value, or when one value is asked for.
      if (!c.unique && !(c.op === 'eq' && c.values.length === 1)) return undefined;
      params.push(c.field);
      const type = types();
      const match = anyOf(c.values.map((v) => stringMatch('value', c.op, v, params)));
      return `SELECT coalesce(sum(n), 0) FROM search_term_counts WHERE field = ${FIELD} AND ${type} AND (${match})`;
    }
    case 'number': {
      if (!c.unique) return undefined;
      params.push(c.field);
      const type = types();
      params.push(c.value);
      return `SELECT coalesce(sum(n), 0) FROM search_number_counts WHERE field = ${FIELD} AND ${type} AND value ${SQL_OP[c.op]} ?`;
    }
    default:
      return undefined;
  }
}

/** How many removed entities the scope holds (their values of `removed` are counted). */
export function removedCountSql(scope: Scope, params: Param[]): string {
  params.push(...scope.types.map((t) => t.name));
  return `SELECT coalesce(sum(n), 0) FROM search_term_counts WHERE field = ${REMOVED_FIELD} AND value = 'true' AND type IN (${marks(scope.types.length)})`;
}

/** The edge `g` is of the kind. */
function edgeKind(kind: EdgeKind, params: Param[]): string {
  params.push(kind.relationship, ...kind.sourceTypes, ...kind.destinationTypes);
  return `(g.relationship = ? AND g.source_type IN (${marks(kind.sourceTypes.length)}) AND g.destination_type IN (${marks(kind.destinationTypes.length)}))`;
}

/** The edge `g` leads to a neighbour (at its `other` end) that the condition asks for: matching, and not soft-deleted unless asked. */
function leadsTo(c: NeighbourCondition, other: 'source' | 'destination', params: Param[]): string[] {
  const where: string[] = [];
  if (c.op === 'eq') {
    params.push(...c.values);
    where.push(`g.${other} IN (${marks(c.values.length)})`);
  } else if (c.op !== 'exists') where.push(`(${anyOf(c.values.map((v) => stringMatch(`g.${other}`, c.op as StringOp, v, params)))})`);
  if (!c.removedNeighbours) where.push(`NOT EXISTS (SELECT 1 FROM search_terms r WHERE ${REMOVED} AND r.urn = g.${other})`);
  return where;
}

/** A string comparison on a column: exact, prefix (an index range), suffix or substring (LIKE), or an order. */
export function stringMatch(column: string, op: StringOp | 'gt' | 'gte' | 'lt' | 'lte', value: string, params: Param[]): string {
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
      return `${column} ${SQL_OP[op]} ?`;
  }
}

function escapeLike(value: string): string {
  return value.replace(/[\\%_]/g, (c) => `\\${c}`);
}

export function marks(n: number): string {
  return Array.from({ length: n }, () => '?').join(', ');
}

/**
 * Parts OR'ed as a balanced tree: SQLite refuses an expression nested more than 1,000 levels,
 * and a chain of ORs nests one level a part (a criterion may name up to LIMITS.searchValues).
 */
function anyOf(parts: readonly string[]): string {
  if (parts.length <= 8) return parts.join(' OR ');
  const half = Math.ceil(parts.length / 2);
  return `(${anyOf(parts.slice(0, half))}) OR (${anyOf(parts.slice(half))})`;
}
