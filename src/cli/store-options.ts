import { parseDatabaseUrl } from '../config.js';
import type { StoreOptions } from '../store/open.js';
import { usageError } from './command.js';

/** The store flags of the commands that work on a catalog directly (token, export, import, tests run, migrate). */
export const STORE_OPTIONS = {
  'data-dir': { type: 'string', value: 'DIR', help: 'the SQLite catalog in this directory (wins over $URNBASE_DATABASE_URL)', env: 'URNBASE_DATA_DIR', default: './data' },
  'database-url': { type: 'string', value: 'URL', help: 'PostgreSQL instead (postgres://... or postgresql://...)', env: 'URNBASE_DATABASE_URL' },
} as const;

/**
 * Flags win over URNBASE_DATABASE_URL / URNBASE_DATA_DIR (--data-dir also over the environment's
 * URL); PostgreSQL when a URL is given. A URL that is not PostgreSQL's is a usage error of `command`.
 */
export function storeOptions(values: { 'data-dir'?: string; 'database-url'?: string }, command: string, env: NodeJS.ProcessEnv = process.env): StoreOptions {
  const fromFlag = values['database-url'] !== undefined;
  const raw = values['database-url'] ?? (values['data-dir'] === undefined ? env.URNBASE_DATABASE_URL : undefined) ?? '';
  let databaseUrl: string | undefined;
  try {
    databaseUrl = parseDatabaseUrl(raw);
  } catch (error) {
    throw usageError(command, `Invalid ${fromFlag ? '--database-url' : 'URNBASE_DATABASE_URL'} ${JSON.stringify(raw)}: ${(error as Error).message}`);
  }
  const dataDir = values['data-dir'] ?? env.URNBASE_DATA_DIR ?? './data';
  return databaseUrl ? { dataDir, databaseUrl } : { dataDir };
}
