import type Database from 'better-sqlite3';
import { stepRelationships, typedEdges } from '../adjacent-edges.js';
import { storedOwner, type EdgeFilter, type EdgeQuery, type EdgeWrite, type StoredEdge } from '../graph-types.js';

type Param = string | number;

/** Edges written between two yields of a step: resuming the generators per row cost more than the row. */
const ROWS_PER_STEP = 32;

/** URNs per softDeleted statement: a bounded parameter list (a hub's step may reach thousands). */
const SOFT_DELETED_BATCH = 500;

/** The edges table (migrate.ts): edge writes inside the commit's transaction, and the relationship reads. */
export class SqliteGraph {
  private readonly stmt;
  private readonly statements = new Map<string, Database.Statement>();

  constructor(private readonly db: Database.Database) {
    this.stmt = {
      remove: db.prepare<[string, string, string, string, string]>('DELETE FROM edges WHERE relationship = ? AND source = ? AND destination = ? AND owner = ? AND aspect = ?'),
      upsert: db.prepare<[string, string, string, string, string, string, string, string | null]>(
        'INSERT OR REPLACE INTO edges (relationship, source, destination, owner, aspect, source_type, destination_type, properties) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
      ),
      version: db.prepare<[], string>(`SELECT value FROM search_meta WHERE key = 'graph'`).pluck(),
      setVersion: db.prepare<[string]>(`INSERT OR REPLACE INTO search_meta (key, value) VALUES ('graph', ?)`),
    };
  }

  /** Aspects' edge changes, a few edges a step (the caller's transaction). */
  *write(writes: readonly EdgeWrite[]): Generator<void> {
    let rows = 0;
    for (const { owner, aspect, remove, upsert } of writes) {
      for (const e of remove) {
        this.stmt.remove.run(e.relationship, e.source, e.destination, storedOwner(owner, e), aspect);
        if (++rows % ROWS_PER_STEP === 0) yield;
      }
      for (const e of upsert) {
        this.stmt.upsert.run(e.relationship, e.source, e.destination, storedOwner(owner, e), aspect, e.sourceType, e.destinationType, e.properties ? JSON.stringify(e.properties) : null);
        if (++rows % ROWS_PER_STEP === 0) yield;
      }
    }
  }

  read(query: EdgeQuery): StoredEdge[] {
    const params: Param[] = [];
    const sql = `${selectSql(query, params, true)} LIMIT ? OFFSET ?`;
    params.push(query.limit, query.offset ?? 0);
    return this.statement(sql).all(params) as StoredEdge[];
  }

  /** A walk's step: ends and relationships from the indexes alone, the types tested after (adjacent-edges.ts). */
  adjacent(filter: EdgeFilter): StoredEdge[] {
    const params: Param[] = [];
    const sql = adjacentSql(filter, params);
    return sql === undefined ? [] : typedEdges(filter, this.statement(sql).raw(true).all(params) as Array<[string, string, string]>);
  }

  softDeleted(urns: readonly string[]): string[] {
    const found: string[] = [];
    for (let i = 0; i < urns.length; i += SOFT_DELETED_BATCH) {
      const params: Param[] = [];
      const sql = `SELECT urn FROM aspects INDEXED BY aspects_soft_deleted WHERE ${SOFT_DELETED} AND urn IN (${list(urns.slice(i, i + SOFT_DELETED_BATCH), params)})`;
      for (const urn of this.statement(sql).pluck(true).all(params) as string[]) found.push(urn);
    }
    return found;
  }

  count(query: EdgeFilter): number {
    const params: Param[] = [];
    const sql = `SELECT count(*) FROM (${selectSql(query, params, false)})`;
    return (this.statement(sql).pluck().get(params) as number | undefined) ?? 0;
  }

  /** Queries differ by shape (which filters, how many values): the common ones stay prepared. */
  private statement(sql: string): Database.Statement {
    let statement = this.statements.get(sql);
    if (!statement) {
      statement = this.db.prepare(sql);
      if (this.statements.size > 200) this.statements.clear();
      this.statements.set(sql, statement);
    }
    return statement;
  }

  version(): string {
    return this.stmt.version.get() ?? '';
  }

  setVersion(version: string): void {
    this.stmt.setVersion.run(version);
  }

  clear(): void {
    this.db.exec(`DELETE FROM edges; DELETE FROM search_meta WHERE key = 'graph';`);
  }
}

/**
 * A soft-deleted entity's status row: aspects_soft_deleted's own predicate (migrate.ts). Named by
 * INDEXED BY in every query, which then fails rather than fall back to a probe of every status.
 */
const SOFT_DELETED = `aspect = 'status' AND json_extract(metadata, '$.removed') = 1`;

/** A soft-deleted entity's status row, for the end named by `column`. */
const removed = (column: string) => `EXISTS (SELECT 1 FROM aspects INDEXED BY aspects_soft_deleted WHERE urn = e.${column} AND ${SOFT_DELETED})`;

const list = (values: readonly string[], params: Param[]) => {
  for (const value of values) params.push(value);
  return values.map(() => '?').join(', ');
};

/** Soft-deleted ends left out, but those the filter names (it bounds them: a walk's frontier). */
function unremoved(filter: EdgeFilter, where: string[]): void {
  if (filter.includeRemoved) return;
  if (!filter.sources?.length) where.push(`NOT ${removed('source')}`);
  if (!filter.destinations?.length) where.push(`NOT ${removed('destination')}`);
}

/** The filter's distinct (source, relationship, destination), for typedEdges; undefined when no relationship can match. */
function adjacentSql(filter: EdgeFilter, params: Param[]): string | undefined {
  const relationships = stepRelationships(filter);
  if (relationships?.length === 0) return undefined;
  const where: string[] = [];
  if (filter.sources?.length) where.push(`e.source IN (${list(filter.sources, params)})`);
  if (filter.destinations?.length) where.push(`e.destination IN (${list(filter.destinations, params)})`);
  if (relationships) where.push(`e.relationship IN (${list(relationships, params)})`);
  unremoved(filter, where);
  return `SELECT DISTINCT e.source, e.relationship, e.destination FROM edges e WHERE ${where.join(' AND ') || '1'}`;
}

/** The query's distinct edges, in (relationship, source, destination) order (see EdgeQuery). */
function selectSql(query: EdgeFilter & Pick<EdgeQuery, 'after'>, params: Param[], ordered: boolean): string {
  const where: string[] = [];
  const among = (column: string, values: readonly string[] | undefined) => {
    if (values?.length) where.push(`e.${column} IN (${list(values, params)})`);
  };
  among('source', query.sources);
  among('destination', query.destinations);
  among('relationship', query.types);
  among('source_type', query.sourceTypes);
  among('destination_type', query.destinationTypes);
  if (query.kinds) {
    // The relationships first, so that the key (relationship, source, …) bounds the read.
    among('relationship', [...new Set(query.kinds.map((k) => k.relationship))]);
    const kinds = query.kinds.map((k) => {
      params.push(k.relationship);
      return `(e.relationship = ? AND e.source_type IN (${list(k.sourceTypes, params)}) AND e.destination_type IN (${list(k.destinationTypes, params)}))`;
    });
    where.push(`(${kinds.join(' OR ') || '0'})`);
  }
  if (query.after) {
    // With a source or destination fixed, the walk is the key's or edges_in's order all the same.
    where.push('(e.relationship, e.source, e.destination) > (?, ?, ?)');
    params.push(query.after.relationship, query.after.source, query.after.destination);
  }
  unremoved(query, where);
  return `SELECT DISTINCT e.source AS source, e.source_type AS sourceType, e.relationship AS relationship, e.destination AS destination, e.destination_type AS destinationType
            FROM edges e WHERE ${where.join(' AND ') || '1'}${ordered ? ' ORDER BY e.relationship, e.source, e.destination' : ''}`;
}
