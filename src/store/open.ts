import { PostgresStore } from './postgres/store.js';
import { SqliteStore } from './sqlite/store.js';
import type { Store } from './store.js';

/** Where the catalog lives: PostgreSQL when a database URL is given, else SQLite in the data dir. */
export interface StoreOptions {
  dataDir: string;
  databaseUrl?: string;
  /** PostgreSQL query and connection-acquire timeout (ms). */
  dbTimeoutMs?: number;
  /** PostgreSQL connections per process. */
  dbPoolSize?: number;
  /** SQLite: fsync every commit (`full`) or only at checkpoints (`normal`). */
  sqliteSync?: 'normal' | 'full';
}

/** Opens the configured store (running its schema migrations). */
export async function openStore(options: StoreOptions): Promise<Store> {
  if (options.databaseUrl) return PostgresStore.open(options.databaseUrl, { timeoutMs: options.dbTimeoutMs, poolSize: options.dbPoolSize });
  return new SqliteStore(options.dataDir, { sync: options.sqliteSync });
}
