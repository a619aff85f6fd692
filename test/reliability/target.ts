import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTestDatabase, postgresAvailable, PG_SKIP_MESSAGE } from '../pg.js';

/**
 * `npm run test:reliability` sets URNBASE_RELIABILITY=full: longer runs, more kills, more cases,
 * on both stores. Otherwise (the short version inside `npm test`) the suite runs briefly on the
 * store of the run: SQLite, or PostgreSQL under `npm run test:postgres`.
 */
export const FULL = process.env.URNBASE_RELIABILITY === 'full';

/** The short or the full figure. */
export function level<T>(short: T, full: T): T {
  return FULL ? full : short;
}

export type StoreKind = 'sqlite' | 'postgres';

/** The stores this run covers, each with its skip reason (false: run it). */
export async function reliabilityStores(): Promise<Array<{ kind: StoreKind; skip: string | false }>> {
  const pgSkip = (await postgresAvailable()) ? false : PG_SKIP_MESSAGE;
  if (FULL) return [{ kind: 'sqlite', skip: false }, { kind: 'postgres', skip: pgSkip }];
  if (process.env.URNBASE_TEST_POSTGRES === '1') return [{ kind: 'postgres', skip: pgSkip }];
  return [{ kind: 'sqlite', skip: false }];
}

/** Where a server process keeps its catalog: a fresh data dir, and on PostgreSQL a fresh database. */
export interface StoreTarget {
  kind: StoreKind;
  dataDir: string;
  /** The `serve` flags that point at this store. */
  args: string[];
  /** Removes the data dir and drops the database. */
  remove(): Promise<void>;
}

export async function storeTarget(kind: StoreKind): Promise<StoreTarget> {
  const root = mkdtempSync(join(tmpdir(), `urnbase-reliability-${kind}-`));
  const dataDir = join(root, 'data');
  const database = kind === 'postgres' ? await createTestDatabase() : undefined;
  return {
    kind,
    dataDir,
    args: ['--data-dir', dataDir, ...(database ? ['--database-url', database.url] : [])],
    async remove() {
      rmSync(root, { recursive: true, force: true });
      await database?.drop();
    },
  };
}
