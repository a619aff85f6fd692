import { ConfigError, parseDatabaseUrl } from '../config.js';
import { holdsCatalog, type StoreOptions } from '../store/open.js';
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

/**
 * Stops a command that works on an existing catalog (token, export, tests run) when the store holds
 * none: opening it would create an empty one, so a mistyped --data-dir would "succeed" on nothing
 * or put a token where no server will ever look. serve, migrate and import create one by design.
 */
export async function requireCatalog(where: StoreOptions): Promise<void> {
  if (await holdsCatalog(where)) return;
  const creates = 'urnbase serve or urnbase migrate creates one';
  if (where.databaseUrl) throw new ConfigError(`no catalog in the PostgreSQL database ${withoutSecrets(where.databaseUrl)} (no urnbase tables there); ${creates}`);
  throw new ConfigError(`no catalog in ${where.dataDir} (no urnbase.db there); ${creates}`);
}

/** postgres://host:port/db: the URL without its user and password, fit for an error message. */
function withoutSecrets(url: string): string {
  const parsed = new URL(url);
  return `${parsed.protocol}//${parsed.host}${parsed.pathname}`;
}
