import { migrateStore } from '../store/open.js';
import { parseOrHelp, usageError, type CommandSpec } from './command.js';
import { STORE_OPTIONS, storeOptions } from './store-options.js';

export const MIGRATE = {
  name: 'migrate',
  summary: "Runs the store's schema migrations and exits, creating the catalog if there is none (replicas then start on an up-to-date schema).",
  options: STORE_OPTIONS,
} as const satisfies CommandSpec;

/** `urnbase migrate`: brings the schema up to date without serving (replicas then start on it). */
export async function migrateCommand(argv: string[], out: (line: string) => void, env: NodeJS.ProcessEnv = process.env): Promise<number> {
  const parsed = parseOrHelp(MIGRATE, argv, out);
  if (!parsed) return 0;
  const { values } = parsed;
  if (values['database-url'] !== undefined && values['data-dir'] !== undefined) throw usageError(MIGRATE.name, 'give --database-url or --data-dir, not both');
  const where = storeOptions(values, MIGRATE.name, env);
  if (where.databaseUrl) {
    const ran = await migrateStore({ dataDir: where.dataDir, databaseUrl: where.databaseUrl });
    out(`PostgreSQL schema up to date (${ran} migration${ran === 1 ? '' : 's'} applied)`);
    return 0;
  }
  await migrateStore({ dataDir: where.dataDir });
  out(`SQLite schema up to date in ${where.dataDir}`);
  return 0;
}
