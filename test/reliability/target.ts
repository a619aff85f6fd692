import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before } from 'node:test';
import { createTestDatabase, postgresAvailable, PG_SKIP_MESSAGE } from '../pg.js';
import { startServer, type ServerProcess } from '../server-process.js';
import { Client } from './client.js';

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

/** A `urnbase serve` process on a fresh store, for the tests of one describe block. */
export interface ServedCatalog {
  readonly target: StoreTarget;
  readonly server: ServerProcess;
  /** A client acting with the admin token. */
  readonly client: Client;
}

/**
 * Starts `urnbase serve` on a fresh store of the kind before the block's tests (logging warnings
 * only, no scheduled test runs, `URNBASE_ADMIN_TOKEN` set) and removes both after them.
 */
export function serveFresh(kind: StoreKind, adminToken: string, options: { args?: string[]; capture?: boolean } = {}): ServedCatalog {
  let target: StoreTarget | undefined;
  let server: ServerProcess | undefined;
  let client: Client | undefined;
  before(async () => {
    target = await storeTarget(kind);
    const args = [...target.args, '--log-level', 'warn', '--tests-interval', '0', ...(options.args ?? [])];
    server = await startServer({ args, env: { URNBASE_ADMIN_TOKEN: adminToken }, capture: options.capture });
    client = new Client(server.base, adminToken);
  });
  after(async () => {
    await server?.stop();
    await target?.remove();
  });
  const started = <T>(value: T | undefined): T => value ?? assert.fail('the server has not started');
  return {
    get target() {
      return started(target);
    },
    get server() {
      return started(server);
    },
    get client() {
      return started(client);
    },
  };
}
