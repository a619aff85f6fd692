import type Database from 'better-sqlite3';
import type { EdgeQuery, EdgeWrite, StoredEdge } from '../graph-types.js';

type Param = string | number;

/** The edges table (migrate.ts): edge writes inside the commit's transaction, and the relationship reads. */
export class SqliteGraph {
  private readonly stmt;

  constructor(private readonly db: Database.Database) {
    this.stmt = {
      remove: db.prepare<[string, string, string, string, string]>('DELETE FROM edges WHERE source = ? AND relationship = ? AND destination = ? AND owner = ? AND aspect = ?'),
      upsert: db.prepare<[string, string, string, string, string, string, string, string | null]>(
        'INSERT OR REPLACE INTO edges (source, relationship, destination, owner, aspect, source_type, destination_type, properties) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
      ),
      version: db.prepare<[], string>(`SELECT value FROM search_meta WHERE key = 'graph'`).pluck(),
      setVersion: db.prepare<[string]>(`INSERT OR REPLACE INTO search_meta (key, value) VALUES ('graph', ?)`),
    };
  }

  /** One aspect's edge changes, an edge a step (the caller's transaction). */
  *write(writes: readonly EdgeWrite[]): Generator<void> {
    for (const { owner, aspect, remove, upsert } of writes) {
      for (const e of remove) {
        this.stmt.remove.run(e.source, e.relationship, e.destination, owner, aspect);
        yield;
      }
      for (const e of upsert) {
        this.stmt.upsert.run(e.source, e.relationship, e.destination, owner, aspect, e.sourceType, e.destinationType, e.properties ? JSON.stringify(e.properties) : null);
        yield;
      }
    }
  }

  read(query: EdgeQuery): StoredEdge[] {
    const params: Param[] = [];
    const sql = `${selectSql(query, params, true)} LIMIT ? OFFSET ?`;
    params.push(query.limit, query.offset ?? 0);
    return this.db.prepare<Param[], StoredEdge>(sql).all(...params);
  }

  count(query: EdgeQuery): number {
    const params: Param[] = [];
    const sql = `SELECT count(*) FROM (${selectSql({ ...query, after: undefined }, params, false)})`;
    return this.db.prepare<Param[], number>(sql).pluck().get(...params) ?? 0;
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

/** A soft-deleted entity's status row, for the end named by `column`. */
const removed = (column: string) =>
  `EXISTS (SELECT 1 FROM aspects s WHERE s.urn = e.${column} AND s.aspect = 'status' AND json_extract(s.metadata, '$.removed') = 1)`;

const list = (values: readonly string[], params: Param[]) => {
  params.push(...values);
  return values.map(() => '?').join(', ');
};

/** The query's distinct edges, in its order (see EdgeQuery). */
function selectSql(query: EdgeQuery, params: Param[], ordered: boolean): string {
  const where: string[] = [];
  let order: string[];
  let others: string[];
  if (query.urn !== undefined) {
    const [mine, other] = query.direction === 'OUTGOING' ? ['source', 'destination'] : ['destination', 'source'];
    where.push(`e.${mine} = ?`);
    params.push(query.urn);
    order = ['relationship', other];
    others = [other];
  } else {
    order = ['relationship', 'source', 'destination'];
    others = ['source', 'destination'];
  }
  if (query.types?.length) where.push(`e.relationship IN (${list(query.types, params)})`);
  if (query.entityTypes?.length) where.push(`(${others.map((o) => `e.${o}_type IN (${list(query.entityTypes!, params)})`).join(' OR ')})`);
  if (query.after) {
    where.push(`(${order.map((c) => `e.${c}`).join(', ')}) > (${order.map(() => '?').join(', ')})`);
    params.push(...order.map((c) => query.after![c as 'source' | 'relationship' | 'destination']));
  }
  if (!query.includeRemoved) for (const o of others) where.push(`NOT ${removed(o)}`);
  return `SELECT DISTINCT e.source AS source, e.source_type AS sourceType, e.relationship AS relationship, e.destination AS destination, e.destination_type AS destinationType
            FROM edges e WHERE ${where.join(' AND ') || '1'}${ordered ? ` ORDER BY ${order.map((c) => `e.${c}`).join(', ')}` : ''}`;
}
