import { parseArgs } from 'node:util';
import { ConfigError, parseDatabaseUrl } from '../config.js';
import { migrateStore } from '../store/open.js';

const USAGE = `usage: urnbase migrate [--database-url URL | --data-dir DIR]

Runs the store's schema migrations and exits ($URNBASE_DATABASE_URL, else $URNBASE_DATA_DIR or ./data).`;

/** `urnbase migrate`: brings the schema up to date without serving (replicas then start on it). */
export async function migrateCommand(argv: string[], out: (line: string) => void, env: NodeJS.ProcessEnv = process.env): Promise<number> {
  let values;
  try {
    values = parseArgs({ args: argv, options: { 'database-url': { type: 'string' }, 'data-dir': { type: 'string' } }, strict: true }).values;
  } catch (error) {
    throw new ConfigError(`${(error as Error).message.split('\n')[0]}\n${USAGE}`);
  }
  if (values['database-url'] !== undefined && values['data-dir'] !== undefined) throw new ConfigError(`give --database-url or --data-dir, not both\n${USAGE}`);
  const rawUrl = values['database-url'] ?? (values['data-dir'] === undefined ? env.URNBASE_DATABASE_URL : undefined) ?? '';
  let url: string | undefined;
  try {
    url = parseDatabaseUrl(rawUrl);
  } catch (error) {
    throw new ConfigError(`Invalid database URL ${JSON.stringify(rawUrl)}: ${(error as Error).message}`);
  }
  const dataDir = values['data-dir'] ?? env.URNBASE_DATA_DIR ?? './data';
  if (url) {
    const ran = await migrateStore({ dataDir, databaseUrl: url });
    out(`PostgreSQL schema up to date (${ran} migration${ran === 1 ? '' : 's'} applied)`);
    return 0;
  }
  await migrateStore({ dataDir });
  out(`SQLite schema up to date in ${dataDir}`);
  return 0;
}
