/**
 * The storage floor of bench/ingest.ts: the rows urnbase wrote for the benchmark's tables, written
 * again by the database driver alone (better-sqlite3, or `pg` for PostgreSQL), one transaction per
 * request's worth of tables, into a fresh database whose schema is urnbase's own (its migrations:
 * the same tables, indexes, FTS5 table and collations). So the floor writes exactly what urnbase
 * writes, no more and no less:
 *
 * - the latest aspect rows (`aspects`; with the datasetKey row urnbase adds) and any history rows;
 * - the change-log rows (`change_log`: one per aspect written and per timeseries point);
 * - the timeseries points (`timeseries_points`: the datasetProfile);
 * - the search index: keyword and number rows (`search_terms`, `search_numbers`), their counts
 *   (`search_term_counts`, `search_number_counts`, moved once per transaction by upserts, as
 *   urnbase does), the per-aspect texts (`search_docs`) and the entity's full-text document
 *   (SQLite: a row of the FTS5 table `search_text` and the count in `search_types`; PostgreSQL:
 *   `search_entities` with its tsvector, and `search_type_counts`);
 * - the graph's edges (`edges`: lineage, ownership, tags).
 *
 * The rows are read from urnbase's store after its run (its values, ids and tsvectors) and grouped
 * by table before the clock starts, as the load generator's bodies are: what is timed is the
 * driver's work and the database's. Ids are kept (SQLite's rowids and sequences; PostgreSQL's
 * serials are drawn anew), so the change-log rows point at their aspect rows as urnbase's do.
 * SQLite's floor runs on one connection with urnbase's pragmas (WAL, synchronous NORMAL, its
 * cache size) and SQLite's own automatic checkpoints, in its thread (urnbase checkpoints in a worker
 * thread); PostgreSQL's sends each transaction as one statement over as many connections as the
 * load had, and its server processes' CPU is counted as urnbase's is.
 * What the floor does not do is what makes urnbase a catalog rather than a bulk loader: parsing
 * and validating the proposals, reading the current versions for the compare-and-set, computing
 * the index and the edges, the HTTP layer, and sharing a server with readers.
 */
import Database from 'better-sqlite3';
import pg from 'pg';
import { ownCpuSeconds, serverCpu, serverSeconds } from './cpu.js';
import { migratePostgresAt } from '../src/store/postgres/migrate.js';
import { TEXT_COLUMNS } from '../src/store/search-types.js';
import { migrate } from '../src/store/sqlite/migrate.js';
import { typeWord } from '../src/store/sqlite/search-index.js';

/** A transaction's rows: table → column names and rows, and the count changes they make. */
interface FloorTransaction {
  tables: Map<string, unknown[][]>;
  /** SQLite: the FTS5 rows (rowid, type, text columns…); PostgreSQL: none (the tsvector is a search_entities column). */
  documents: unknown[][];
  termCounts: unknown[][];
  numberCounts: unknown[][];
  typeCounts: unknown[][];
}

export interface FloorRows {
  columns: Map<string, string[]>;
  transactions: FloorTransaction[];
  /** Rows by table over the run, to print beside urnbase's. */
  counts: Record<string, number>;
  /** SQLite: the search_fields rows (numbers the term rows refer to), copied before the clock. */
  fields: unknown[][];
}

export interface FloorResult {
  seconds: number;
  /** The store's size with the schema alone, before the rows. */
  emptyBytes: number;
  /** CPU seconds of this process (the driver's side; SQLite's work is in process). */
  cpuSeconds: number;
  /** PostgreSQL: the CPU seconds of the server processes serving the floor's connections. */
  databaseCpuSeconds?: number;
  bytes: number;
  transactions: number;
}

const entityTypeOf = (urn: string) => urn.slice(7, urn.indexOf(':', 7));

function emptyTransaction(): FloorTransaction {
  return { tables: new Map(), documents: [], termCounts: [], numberCounts: [], typeCounts: [] };
}

/** Adds a row to the transaction of the table whose URN owns it (rows of other entities are not the benchmark's). */
function bucket(rows: FloorRows, table: string, row: unknown[], urn: string | undefined, groupOf: (urn: string) => number | undefined): boolean {
  const group = urn === undefined ? undefined : groupOf(urn);
  if (group === undefined) return false;
  const transaction = (rows.transactions[group] ??= emptyTransaction());
  let list = transaction.tables.get(table);
  if (!list) transaction.tables.set(table, (list = []));
  list.push(row);
  rows.counts[table] = (rows.counts[table] ?? 0) + 1;
  return true;
}

/** Count changes as rows (key…, delta), summed per transaction. */
function countRows(keys: Array<unknown[]>): unknown[][] {
  const sums = new Map<string, unknown[]>();
  for (const key of keys) {
    const k = JSON.stringify(key);
    const entry = sums.get(k);
    if (entry) (entry[entry.length - 1] as number)++;
    else sums.set(k, [...key, 1]);
  }
  return [...sums.entries()].sort(([a], [b]) => (a < b ? -1 : 1)).map(([, row]) => row);
}

// ---------------------------------------------------------------- SQLite

/** The per-entity tables urnbase writes on SQLite, and where each row's URN is. */
const SQLITE_TABLES = ['aspects', 'aspect_history', 'change_log', 'timeseries_points', 'search_terms', 'search_numbers', 'search_docs', 'edges'];

/** Reads, from urnbase's SQLite file after its run, the rows of the benchmark's tables, grouped into transactions. */
export function readSqliteRows(file: string, groupOf: (urn: string) => number | undefined): FloorRows {
  const db = new Database(file, { readonly: true });
  try {
    const rows: FloorRows = { columns: new Map(), transactions: [], counts: {}, fields: db.prepare('SELECT * FROM search_fields').raw().all() as unknown[][] };
    const urnOfAspect = new Map<number, string>();
    for (const table of SQLITE_TABLES) {
      const statement = db.prepare(`SELECT * FROM ${table}`).raw();
      const columns = statement.columns().map((c) => c.name);
      rows.columns.set(table, columns);
      const at = (name: string) => columns.indexOf(name);
      const [urnAt, idAt, aspectIdAt, entityAt, ownerAt, sourceAt] = ['urn', 'id', 'aspect_id', 'entity', 'owner', 'source'].map(at);
      for (const row of statement.iterate() as Iterable<unknown[]>) {
        let urn: string | undefined;
        if (table === 'search_docs') urn = urnOfAspect.get(row[entityAt] as number);
        else if (table === 'edges') urn = (row[ownerAt] as string) || (row[sourceAt] as string);
        else if (table === 'change_log' && row[aspectIdAt] !== null) urn = urnOfAspect.get(row[aspectIdAt] as number);
        else urn = row[urnAt] as string;
        if (table === 'aspects' && urn !== undefined) urnOfAspect.set(row[idAt] as number, urn);
        bucket(rows, table, row, urn, groupOf);
      }
    }
    // What urnbase derives in the transaction: each entity's FTS5 document and the counts.
    const docColumns = rows.columns.get('search_docs')!;
    const termColumns = rows.columns.get('search_terms')!;
    const numberColumns = rows.columns.get('search_numbers')!;
    for (const transaction of rows.transactions) {
      if (!transaction) continue;
      const byEntity = new Map<number, Array<Record<string, unknown>>>();
      for (const row of transaction.tables.get('search_docs') ?? []) {
        const doc = Object.fromEntries(docColumns.map((c, i) => [c, row[i]]));
        const list = byEntity.get(doc.entity as number) ?? [];
        list.push(doc);
        byEntity.set(doc.entity as number, list);
      }
      for (const [entity, parts] of byEntity) {
        parts.sort((a, b) => ((a.aspect as string) < (b.aspect as string) ? -1 : 1));
        const type = entityTypeOf(urnOfAspect.get(entity)!);
        transaction.documents.push([entity, typeWord(type), ...TEXT_COLUMNS.map((c) => parts.map((p) => p[c]).filter((t) => t !== null).join('\n') || null)]);
        transaction.typeCounts.push([type, 1]);
      }
      transaction.typeCounts = countRows(transaction.typeCounts.map(([type]) => [type]));
      const keys = (table: string, columns: string[]) =>
        (transaction.tables.get(table) ?? []).map((r) => [r[columns.indexOf('field')], entityTypeOf(r[columns.indexOf('urn')] as string), r[columns.indexOf('value')]]);
      transaction.termCounts = countRows(keys('search_terms', termColumns));
      transaction.numberCounts = countRows(keys('search_numbers', numberColumns));
    }
    rows.transactions = rows.transactions.filter(Boolean);
    return rows;
  } finally {
    db.close();
  }
}

/** Writes the rows into a fresh SQLite file with urnbase's schema and pragmas, a transaction per request's worth. */
export async function sqliteFloor(file: string, rows: FloorRows, size: () => Promise<number>): Promise<FloorResult> {
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('cache_size = -262144');
  migrate(db);
  const insert = (table: string) => {
    const columns = rows.columns.get(table)!;
    return db.prepare(`INSERT INTO ${table} (${columns.join(', ')}) VALUES (${columns.map(() => '?').join(', ')})`);
  };
  const inserts = new Map(SQLITE_TABLES.map((t) => [t, insert(t)]));
  db.prepare('DELETE FROM search_fields').run();
  const field = db.prepare('INSERT INTO search_fields VALUES (?, ?)');
  for (const row of rows.fields) field.run(...row);
  const text = db.prepare(`INSERT INTO search_text (rowid, type, ${TEXT_COLUMNS.join(', ')}) VALUES (?, ?, ${TEXT_COLUMNS.map(() => '?').join(', ')})`);
  const counts = {
    termCounts: db.prepare('INSERT INTO search_term_counts (field, type, value, n) VALUES (?, ?, ?, ?) ON CONFLICT (field, type, value) DO UPDATE SET n = n + excluded.n'),
    numberCounts: db.prepare('INSERT INTO search_number_counts (field, type, value, n) VALUES (?, ?, ?, ?) ON CONFLICT (field, type, value) DO UPDATE SET n = n + excluded.n'),
    typeCounts: db.prepare('INSERT INTO search_types (type, documents) VALUES (?, ?) ON CONFLICT (type) DO UPDATE SET documents = documents + excluded.documents'),
  };
  db.pragma('wal_checkpoint(TRUNCATE)');
  const emptyBytes = await size();
  const write = db.transaction((t: FloorTransaction) => {
    for (const [table, list] of t.tables) {
      const statement = inserts.get(table)!;
      for (const row of list) statement.run(row);
    }
    for (const row of t.documents) text.run(row);
    for (const row of t.termCounts) counts.termCounts.run(row);
    for (const row of t.numberCounts) counts.numberCounts.run(row);
    for (const row of t.typeCounts) counts.typeCounts.run(row);
  });
  const cpu0 = ownCpuSeconds();
  const t0 = performance.now();
  for (const transaction of rows.transactions) write.immediate(transaction);
  const seconds = (performance.now() - t0) / 1000;
  const cpuSeconds = ownCpuSeconds() - cpu0;
  db.pragma('wal_checkpoint(TRUNCATE)');
  db.close();
  return { seconds, emptyBytes, cpuSeconds, bytes: 0, transactions: rows.transactions.length };
}

// ---------------------------------------------------------------- PostgreSQL

/** The per-entity tables urnbase writes on PostgreSQL; serial ids are drawn anew, tsvectors read as text. */
const PG_TABLES: Array<{ table: string; select: string }> = [
  { table: 'aspects', select: '*' },
  { table: 'aspect_history', select: '*' },
  { table: 'change_log', select: 'urn, entity_type, aspect, change_type, created_on, created_by, value, previous_value, system_metadata' },
  { table: 'timeseries_points', select: 'urn, aspect, entity_type, timestamp_millis, point_key, value, system_metadata, created_on, created_by' },
  { table: 'search_entities', select: 'urn, type, doc::text AS doc' },
  { table: 'search_terms', select: '*' },
  { table: 'search_numbers', select: '*' },
  { table: 'search_docs', select: '*' },
  { table: 'edges', select: '*' },
];

/** Reads, from urnbase's PostgreSQL database after its run, the rows of the benchmark's tables, grouped into transactions. */
export async function readPostgresRows(url: string, groupOf: (urn: string) => number | undefined): Promise<FloorRows> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const rows: FloorRows = { columns: new Map(), transactions: [], counts: {}, fields: [] };
    for (const { table, select } of PG_TABLES) {
      // In change_log's order, so that sequences are drawn in urnbase's order.
      const order = table === 'change_log' ? ' ORDER BY sequence' : '';
      const result = await client.query({ text: `SELECT ${select} FROM ${table}${order}`, rowMode: 'array' });
      const columns = result.fields.map((f) => f.name);
      rows.columns.set(table, columns);
      const [urnAt, ownerAt, sourceAt] = ['urn', 'owner', 'source'].map((c) => columns.indexOf(c));
      for (const row of result.rows as unknown[][]) {
        const urn = table === 'edges' ? (row[ownerAt] as string) || (row[sourceAt] as string) : (row[urnAt] as string);
        bucket(rows, table, row, urn, groupOf);
      }
    }
    const columns = (table: string) => rows.columns.get(table)!;
    for (const transaction of rows.transactions) {
      if (!transaction) continue;
      const keys = (table: string) =>
        (transaction.tables.get(table) ?? []).map((r) => [r[columns(table).indexOf('field')], entityTypeOf(r[columns(table).indexOf('urn')] as string), r[columns(table).indexOf('value')]]);
      transaction.termCounts = countRows(keys('search_terms'));
      transaction.numberCounts = countRows(keys('search_numbers'));
      transaction.typeCounts = countRows((transaction.tables.get('search_entities') ?? []).map((r) => [r[columns('search_entities').indexOf('type')]]));
    }
    rows.transactions = rows.transactions.filter(Boolean);
    return rows;
  } finally {
    await client.end();
  }
}

/** `INSERT … VALUES (…), (…)` of a list of rows, its parameters appended to `params`. */
function valuesSql(table: string, columns: readonly string[], list: readonly unknown[][], params: unknown[], conflict = ''): string {
  const tuples = list.map((row) => `(${row.map((v) => (params.push(v), `$${params.length}`)).join(', ')})`);
  return `INSERT INTO ${table} (${columns.join(', ')}) VALUES ${tuples.join(', ')}${conflict}`;
}

/**
 * Writes the rows into a fresh database with urnbase's schema, a transaction per request's worth,
 * each ONE statement (a data-modifying CTE per table, multi-row inserts and the count upserts),
 * over `connections` connections as urnbase's load had. A deadlock on a count row is retried.
 */
export async function postgresFloor(url: string, rows: FloorRows, connections: number, size: () => Promise<number>): Promise<FloorResult> {
  await migratePostgresAt(url);
  const emptyBytes = await size();
  const statements = rows.transactions.map((t) => {
    const params: unknown[] = [];
    const parts: string[] = [];
    for (const [table, list] of t.tables) parts.push(valuesSql(table, rows.columns.get(table)!, list, params));
    const upsert = (table: string, columns: string[], list: unknown[][], key: string) => {
      if (list.length > 0) parts.push(valuesSql(table, columns, list, params, ` ON CONFLICT (${key}) DO UPDATE SET n = ${table}.n + excluded.n`));
    };
    upsert('search_term_counts', ['field', 'type', 'value', 'n'], t.termCounts, 'field, type, value');
    upsert('search_number_counts', ['field', 'type', 'value', 'n'], t.numberCounts, 'field, type, value');
    upsert('search_type_counts', ['type', 'n'], t.typeCounts, 'type');
    return { text: `WITH ${parts.map((p, i) => `p${i} AS (${p} RETURNING 1)`).join(',\n')} SELECT 1`, values: params };
  });
  const clients = await Promise.all(
    Array.from({ length: connections }, async () => {
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      return client;
    }),
  );
  try {
    let next = 0;
    const database0 = await serverCpu(url);
    const cpu0 = ownCpuSeconds();
    const t0 = performance.now();
    await Promise.all(
      clients.map(async (client) => {
        while (next < statements.length) {
          const statement = statements[next++];
          for (let attempt = 0; ; attempt++) {
            try {
              await client.query(statement);
              break;
            } catch (error) {
              if ((error as { code?: string }).code !== '40P01' || attempt > 5) throw error;
            }
          }
        }
      }),
    );
    const seconds = (performance.now() - t0) / 1000;
    const cpuSeconds = ownCpuSeconds() - cpu0;
    const databaseCpuSeconds = serverSeconds(database0, await serverCpu(url));
    return { seconds, emptyBytes, cpuSeconds, databaseCpuSeconds, bytes: 0, transactions: statements.length };
  } finally {
    await Promise.all(clients.map((c) => c.end()));
  }
}
