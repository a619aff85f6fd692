import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Store, StoreLocation } from './store.js';

/**
 * The one way into src/store/sqlite/ and src/store/postgres/ from the rest of the code: opening
 * the configured store, opening it again from a worker thread, and migrating it. Each store's
 * modules (and its driver: pg, better-sqlite3) are loaded only when that store is opened.
 */

const sqlite = () => import('./sqlite/store.js');
const postgres = () => import('./postgres/store.js');

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
  if (options.databaseUrl) return (await postgres()).PostgresStore.open(options.databaseUrl, { timeoutMs: options.dbTimeoutMs, poolSize: options.dbPoolSize });
  return new (await sqlite()).SqliteStore(options.dataDir, { sync: options.sqliteSync });
}

/**
 * Opens, on a worker thread, the store another thread of this process opened (its
 * Store.location). On SQLite without a checkpointer of its own: the first connection's keeps the
 * log short for all.
 */
export async function openStoreAt(location: StoreLocation, options: { dbPoolSize?: number } = {}): Promise<Store> {
  if (location.kind === 'postgres') return (await postgres()).PostgresStore.open(location.url, { poolSize: options.dbPoolSize });
  return new (await sqlite()).SqliteStore(location.dataDir, { checkpoints: false, sync: location.sync });
}

/** Brings the configured store's schema up to date and closes it (`urnbase migrate`); returns how many migrations ran. */
export async function migrateStore(options: StoreOptions): Promise<number> {
  if (options.databaseUrl) return (await import('./postgres/migrate.js')).migratePostgresAt(options.databaseUrl);
  // Opening the SQLite store runs its migrations.
  const store = new (await sqlite()).SqliteStore(options.dataDir, { sync: options.sqliteSync });
  await store.close();
  return store.migrationsRun;
}

/**
 * Whether the configured store already holds a catalog, found without creating anything: SQLite's
 * urnbase.db in the data dir, PostgreSQL's migration table. Commands that only work on an existing
 * catalog ask first, so a mistyped path is an error rather than a new empty catalog.
 */
export async function holdsCatalog(options: StoreOptions): Promise<boolean> {
  if (options.databaseUrl) return (await import('./postgres/migrate.js')).hasPostgresSchema(options.databaseUrl);
  return options.dataDir !== ':memory:' && existsSync(join(options.dataDir, 'urnbase.db'));
}
