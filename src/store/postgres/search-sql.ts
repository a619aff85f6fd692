import type { EdgeKind } from '../graph-types.js';
import type { Condition, NeighbourCondition, StringOp, TextCondition } from '../search-types.js';
import { neighbourEdges, TEXT_COLUMNS } from '../search-types.js';
import { PLACES } from '../relevance.js';
import { pgText, textQuery } from './text.js';

/**
 * How a search condition becomes PostgreSQL SQL: a test of the entity row `e` of search_entities
 * (EXISTS over the keyword and number tables, `@@` over its document), which the planner turns
 * into joins, index scans or probes as the data makes cheapest.
 */

export type Param = string | number | string[] | null;

/** Collects parameters, naming each `$n`. */
export class Params {
  readonly values: Param[] = [];

  add(value: Param): string {
    this.values.push(typeof value === 'string' ? pgText(value) : Array.isArray(value) ? value.map(pgText) : value);
    return `$${this.values.length}`;
  }
}

export const MAX = '\u{10FFFF}';
const SQL_OP = { eq: '=', gt: '>', gte: '>=', lt: '<', lte: '<=' } as const;

/** The entity types searched, and whether removed entities count. */
export class Scope {
  constructor(
    readonly types: readonly string[],
    /** Removed entities are not left out: asked for, or none of the types has any. */
    readonly includeRemoved: boolean,
    /** The other types that have entities, once known (see PostgresSearch.count). */
    readonly others?: readonly string[],
  ) {}

  /** The entities of `e` in scope: of the types, visible. */
  where(p: Params, e = 'e'): string {
    return `${e}.type = ANY(${p.add([...this.types])}::text[]) AND ${this.visible(`${e}.urn`)}`;
  }

  /** URNs of one type share the prefix `urn:li:<type>:`: a range per type. */
  range(urn: string, p: Params): string {
    return `(${this.types.map((t) => `(${urn} > ${p.add(`urn:li:${t}:`)} AND ${urn} < ${p.add(`urn:li:${t};`)})`).join(' OR ') || 'FALSE'})`;
  }

  /** Leaves removed entities out, unless they are included. */
  visible(urn = 'e.urn'): string {
    return this.includeRemoved ? 'TRUE' : `NOT EXISTS (SELECT 1 FROM search_terms r WHERE r.field = 'removed' AND r.value = 'true' AND r.urn = ${urn})`;
  }
}

/**
 * What a test reads: the row `e` of search_entities (its URN and document), or a URN alone,
 * whose document is then looked up.
 */
export type Subject = string | { urn: string };

/** SQL true when the condition holds for the subject (by default the entity row `e`). */
export function test(c: Condition, p: Params, e: Subject = 'e'): string {
  const urn = typeof e === 'string' ? `${e}.urn` : e.urn;
  switch (c.kind) {
    case 'all':
      return 'TRUE';
    case 'none':
      return 'FALSE';
    case 'urn':
      return `(${c.values.map((v) => stringMatch(urn, c.op, v, p)).join(' OR ') || 'FALSE'})`;
    case 'term': {
      if (c.values.length === 0) return 'FALSE';
      const field = p.add(c.field);
      if (c.op === 'eq') {
        return `EXISTS (SELECT 1 FROM search_terms v WHERE v.field = ${field} AND v.value = ANY(${p.add(c.values)}::text[]) AND v.urn = ${urn})`;
      }
      const match = c.values.map((v) => stringMatch('v.value', c.op, v, p)).join(' OR ');
      return `EXISTS (SELECT 1 FROM search_terms v WHERE v.field = ${field} AND v.urn = ${urn} AND (${match}))`;
    }
    case 'number':
      return `EXISTS (SELECT 1 FROM search_numbers v WHERE v.field = ${p.add(c.field)} AND v.urn = ${urn} AND v.value ${SQL_OP[c.op]} ${p.add(c.value)}::float8)`;
    case 'exists': {
      const field = p.add(c.field);
      return `(EXISTS (SELECT 1 FROM search_terms v WHERE v.field = ${field} AND v.urn = ${urn}) OR EXISTS (SELECT 1 FROM search_numbers v WHERE v.field = ${field} AND v.urn = ${urn}))`;
    }
    case 'text':
      return typeof e === 'string' ? matches(c, p, e) : `EXISTS (SELECT 1 FROM search_entities d WHERE d.urn = ${urn} AND ${matches(c, p, 'd')})`;
    case 'neighbour': {
      // The entity's own edges, by the key (relationship, source: out of it) or edges_in (into it).
      const edges = neighbourEdges(c);
      const tests = (['source', 'destination'] as const).flatMap((self) => {
        const kinds = edges.filter((x) => x.self === self);
        if (kinds.length === 0) return [];
        // Out of it: the relationships named apart, so that the key (relationship, source, …) finds its edges (edges_in leads with the destination).
        const relationships = [...new Set(kinds.map((x) => x.kind.relationship))];
        const where = [...(self === 'source' ? [`g.relationship = ANY(${p.add(relationships)}::text[])`] : []), `g.${self} = ${urn}`, `(${kinds.map((x) => edgeKind(x.kind, p)).join(' OR ')})`, ...leadsTo(c, kinds[0].other, p)];
        return [`EXISTS (SELECT 1 FROM edges g WHERE ${where.join(' AND ')})`];
      });
      return tests.length === 0 ? 'FALSE' : `(${tests.join(' OR ')})`;
    }
    case 'not':
      return `NOT ${test(c.child, p, e)}`;
    case 'and':
    case 'or':
      if (c.children.length === 0) return c.kind === 'and' ? 'TRUE' : 'FALSE';
      return `(${c.children.map((child) => test(child, p, e)).join(c.kind === 'and' ? ' AND ' : ' OR ')})`;
  }
}

/**
 * SQL selecting the URNs (each once) of the entities of the types for which the condition holds,
 * removed ones included, found through an index of the condition's own (a value's rows, the
 * document index, the URN's): a count or a short result then reads its matches, not every
 * entity. undefined: the condition has no such index (everything, or a negation), and no
 * parameter was added to `p`.
 */
export function set(c: Condition, scope: Scope, p: Params): string | undefined {
  switch (c.kind) {
    case 'none':
      return 'SELECT NULL::text AS urn WHERE FALSE';
    case 'urn':
      return `SELECT e.urn FROM search_entities e WHERE ${test(c, p)} AND ${scope.range('e.urn', p)}`;
    case 'term': {
      const distinct = (c.op === 'eq' && c.values.length === 1) || c.unique ? '' : 'DISTINCT';
      return `SELECT ${distinct} v.urn FROM search_terms v WHERE v.field = ${p.add(c.field)} AND (${c.values.map((v) => stringMatch('v.value', c.op, v, p)).join(' OR ') || 'FALSE'}) AND ${scope.range('v.urn', p)}`;
    }
    case 'number':
      return `SELECT ${c.unique ? '' : 'DISTINCT'} v.urn FROM search_numbers v WHERE v.field = ${p.add(c.field)} AND v.value ${SQL_OP[c.op]} ${p.add(c.value)}::float8 AND ${scope.range('v.urn', p)}`;
    case 'exists': {
      const field = p.add(c.field);
      return `SELECT v.urn FROM search_terms v WHERE v.field = ${field} AND ${scope.range('v.urn', p)} UNION SELECT v.urn FROM search_numbers v WHERE v.field = ${field} AND ${scope.range('v.urn', p)}`;
    }
    case 'text':
      return `SELECT e.urn FROM search_entities e WHERE ${matches(c, p)} AND ${scope.range('e.urn', p)}`;
    case 'neighbour': {
      // A part per edge kind that can start at the types, each read through an index of the edges.
      const edges = neighbourEdges(c, scope.types);
      if (edges.length === 0) return 'SELECT NULL::text AS urn WHERE FALSE';
      return edges
        .map(({ self, other, kind }) => `SELECT DISTINCT g.${self} AS urn FROM edges g WHERE ${[edgeKind(kind, p), ...leadsTo(c, other, p), scope.range(`g.${self}`, p)].join(' AND ')}`)
        .join(' UNION ');
    }
    case 'or':
      // Tried on a scratch list first: an undefined set adds no parameter to the caller's.
      if (c.children.some((child) => set(child, scope, new Params()) === undefined)) return undefined;
      return c.children.map((child) => `SELECT urn FROM (${set(child, scope, p)}) AS part`).join(' UNION ');
    case 'and': {
      // Driven by a part with an index, the others tested on each of its URNs. Keyword and number
      // parts first (a value's rows), then full text and URNs.
      const rank = (x: Condition) => (x.kind === 'term' || x.kind === 'number' ? 0 : x.kind === 'text' || x.kind === 'urn' ? 1 : 2);
      const driver = [...c.children].sort((a, b) => rank(a) - rank(b)).find((x) => rank(x) < 2) ?? c.children.find((x) => set(x, scope, new Params()) !== undefined);
      if (!driver) return undefined;
      const rest: Condition = { kind: 'and', children: c.children.filter((x) => x !== driver) };
      // Driven by the documents or URNs: the rest is tested on the same row (words of several
      // parts meet in one document, as FTS5's one MATCH finds them on SQLite).
      if (driver.kind === 'text' || driver.kind === 'urn') return `SELECT e.urn FROM search_entities e WHERE ${test(c, p)} AND ${scope.range('e.urn', p)}`;
      return `SELECT s.urn FROM (${set(driver, scope, p)}) AS s WHERE ${test(rest, p, { urn: 's.urn' })}`;
    }
    default:
      return undefined;
  }
}

/** The entity's document matches the words (FALSE when they have no letters or digits, as in FTS5). */
export function matches(c: Pick<TextCondition, 'columns' | 'words' | 'phrase' | 'prefix'>, p: Params, e = 'e'): string {
  const query = textQuery(c);
  return query === undefined ? 'FALSE' : `${e}.doc @@ ${p.add(query)}::tsquery`;
}

/** SQL scoring the entity `e` by the rank conditions (see ../relevance.ts): summed best places. */
export function score(rank: readonly TextCondition[], p: Params, e = 'e'): string {
  const scores = rank.map((r) => {
    const within = r.columns ?? TEXT_COLUMNS;
    const cases = PLACES.filter((place) => place.weight > 1).flatMap(({ columns, weight }) => {
      const here = columns.filter((c) => within.includes(c));
      return here.length === 0 ? [] : [`WHEN ${matches({ ...r, columns: here }, p, e)} THEN ${weight}`];
    });
    return cases.length === 0 ? '1' : `CASE ${cases.join(' ')} ELSE 1 END`;
  });
  return scores.length === 0 ? '0' : scores.join(' + ');
}

/**
 * SQL (a scalar subquery) counting the condition's entities, removed ones included, without
 * reading them: from the per-value counts (per value, so exact when an entity has one value of
 * the field or one value is asked for; a suffix or substring would read every count of the
 * field: not here), or from the full-text index.
 */
export function fastCountSql(c: Condition, scope: Scope, p: Params): string | undefined {
  const types = () => `type = ANY(${p.add([...scope.types])}::text[])`;
  switch (c.kind) {
    case 'none':
      return '0';
    case 'all':
      return `(SELECT coalesce(sum(n), 0) FROM search_type_counts WHERE ${types()})`;
    case 'term': {
      if ((!c.unique && !(c.op === 'eq' && c.values.length === 1)) || c.op === 'suffix' || c.op === 'contains') return undefined;
      if (c.values.length === 0) return '0';
      const field = p.add(c.field);
      const match = c.op === 'eq' ? `value = ANY(${p.add(c.values)}::text[])` : c.values.map((v) => stringMatch('value', c.op, v, p)).join(' OR ');
      return `(SELECT coalesce(sum(n), 0) FROM search_term_counts WHERE field = ${field} AND ${types()} AND (${match}))`;
    }
    case 'text': {
      // Every document that matches, less those of the other types, which are read through their
      // type's index: the planner sees which types (a parameter) and how few entities they have;
      // tested on each match instead, the type read every match's row a second time.
      if (scope.others === undefined) return undefined;
      const matched = matches(c, p);
      if (matched === 'FALSE') return '0';
      const all = `(SELECT count(*) FROM search_entities e WHERE ${matched})`;
      return scope.others.length === 0 ? all : `(${all} - (SELECT count(*) FROM search_entities e WHERE e.type = ANY(${p.add([...scope.others])}::text[]) AND ${matched}))`;
    }
    case 'number':
      if (!c.unique) return undefined;
      return `(SELECT coalesce(sum(n), 0) FROM search_number_counts WHERE field = ${p.add(c.field)} AND ${types()} AND value ${SQL_OP[c.op]} ${p.add(c.value)}::float8)`;
    default:
      return undefined;
  }
}

/** SQL (a scalar subquery) counting the removed entities of the types. */
export function removedCountSql(scope: Scope, p: Params): string {
  return `(SELECT coalesce(sum(n), 0) FROM search_term_counts WHERE field = 'removed' AND type = ANY(${p.add([...scope.types])}::text[]) AND value = 'true')`;
}

/**
 * For a keyword or number condition, whose index rows are in URN order (by value for one exact
 * value, else by the (field, urn) index): the SQL walking its entities in URN order after `after`,
 * each tested by `others` and the scope, `limit` of them. The test is a LATERAL subquery, which
 * the planner cannot walk first: walking the entities instead, in URN order, reads all that sort
 * before the first match (66k of 100k for a tier held by the snowflake datasets, 328 ms).
 */
export function walkSql(c: Extract<Condition, { kind: 'term' | 'number' }>, others: Condition, scope: Scope, p: Params, after: string | undefined, desc: boolean, limit: number): string {
  const table = c.kind === 'number' ? 'search_numbers' : 'search_terms';
  const single = c.kind === 'term' && c.op === 'eq' && c.values.length === 1;
  const field = p.add(c.field);
  const match =
    c.kind === 'number'
      ? `t.value ${SQL_OP[c.op]} ${p.add(c.value)}::float8`
      : single
        ? `t.value = ${p.add(c.values[0])}`
        : `(${c.values.map((v) => stringMatch('t.value', c.op, v, p)).join(' OR ') || 'FALSE'})`;
  const keyset = after === undefined ? '' : `AND t.urn ${desc ? '<' : '>'} ${p.add(after)}`;
  // An entity with several matching values comes once (one exact value: one row an entity).
  const distinct = single || c.unique ? '' : 'DISTINCT';
  return `SELECT ${distinct} t.urn FROM ${table} t
            CROSS JOIN LATERAL (SELECT 1 FROM search_entities e WHERE e.urn = t.urn AND ${scope.where(p)} AND ${test(others, p)} LIMIT 1) AS tested
           WHERE t.field = ${field} AND ${match} ${keyset}
           ORDER BY t.urn ${desc ? 'DESC' : ''} LIMIT ${p.add(limit)}`;
}

/** The edge `g` is of the kind. */
function edgeKind(kind: EdgeKind, p: Params): string {
  return `(g.relationship = ${p.add(kind.relationship)} AND g.source_type = ANY(${p.add([...kind.sourceTypes])}::text[]) AND g.destination_type = ANY(${p.add([...kind.destinationTypes])}::text[]))`;
}

/** The edge `g` leads to a neighbour (at its `other` end) that the condition asks for: matching, and not soft-deleted unless asked. */
function leadsTo(c: NeighbourCondition, other: 'source' | 'destination', p: Params): string[] {
  const where: string[] = [];
  if (c.op === 'eq') where.push(`g.${other} = ANY(${p.add(c.values)}::text[])`);
  else if (c.op !== 'exists') where.push(`(${c.values.map((v) => stringMatch(`g.${other}`, c.op as StringOp, v, p)).join(' OR ') || 'FALSE'})`);
  if (!c.removedNeighbours) where.push(`NOT EXISTS (SELECT 1 FROM search_terms r WHERE r.field = 'removed' AND r.value = 'true' AND r.urn = g.${other})`);
  return where;
}

/** A string comparison: exact, prefix (an index range), suffix or substring (LIKE, ASCII case-insensitive as SQLite's), or an order. */
export function stringMatch(column: string, op: StringOp | 'gt' | 'gte' | 'lt' | 'lte', value: string, p: Params): string {
  switch (op) {
    case 'eq':
      return `${column} = ${p.add(value)}`;
    case 'prefix':
      return `(${column} >= ${p.add(value)} AND ${column} < ${p.add(value + MAX)})`;
    // lower() of a COLLATE "C" column folds ASCII only, as SQLite's LIKE; the trigram indexes are on it.
    case 'suffix':
      return `lower(${column}) LIKE ${p.add(`%${escapeLike(asciiLower(value))}`)} ESCAPE '\\'`;
    case 'contains':
      return `lower(${column}) LIKE ${p.add(`%${escapeLike(asciiLower(value))}%`)} ESCAPE '\\'`;
    default:
      return `${column} ${SQL_OP[op]} ${p.add(value)}`;
  }
}

function asciiLower(value: string): string {
  return value.replace(/[A-Z]/g, (c) => c.toLowerCase());
}

function escapeLike(value: string): string {
  return value.replace(/[\\%_]/g, (c) => `\\${c}`);
}
