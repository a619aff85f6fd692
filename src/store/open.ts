import { SqliteStore } from './sqlite.js';
import type { Store } from './store.js';

/** Where the catalog lives: PostgreSQL when a database URL is given, else SQLite in the data dir. */
export interface StoreOptions {
  dataDir: string;
  databaseUrl?: string;
}

/** Opens the configured store (running its schema migrations). */
export async function openStore(options: StoreOptions): Promise<Store> {
  if (options.databaseUrl) throw new Error('the PostgreSQL store is not available yet');
  return new SqliteStore(options.dataDir);
}
