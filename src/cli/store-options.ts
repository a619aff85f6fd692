import type { StoreOptions } from '../store/open.js';

/** The store flags of the commands that work on a catalog directly (token, export, import). */
export const STORE_FLAGS = { 'data-dir': { type: 'string' }, 'database-url': { type: 'string' } } as const;

/** Flags win over URNBASE_DATABASE_URL / URNBASE_DATA_DIR; PostgreSQL when a URL is given. */
export function storeOptions(values: { 'data-dir'?: string; 'database-url'?: string }): StoreOptions {
  const databaseUrl = values['database-url'] ?? (values['data-dir'] === undefined ? process.env.URNBASE_DATABASE_URL : undefined);
  const dataDir = values['data-dir'] ?? process.env.URNBASE_DATA_DIR ?? './data';
  return databaseUrl ? { dataDir, databaseUrl } : { dataDir };
}
