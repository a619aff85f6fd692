import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PostgresStore } from '../../src/store/postgres/store.js';
import { SqliteStore } from '../../src/store/sqlite/store.js';
import type { Store } from '../../src/store/store.js';
import { createTestDatabase, postgresAvailable, PG_SKIP_MESSAGE } from '../pg.js';

/** A fresh, empty store of one kind; `open` gives another connection (or pool) to the same data. */
export interface StoreHandle {
  open(): Promise<Store>;
  dispose(): Promise<void>;
}

export interface StoreFactory {
  name: string;
  /** A reason to skip this store's suite (no server answers), or undefined. */
  skip(): Promise<string | undefined>;
  create(): Promise<StoreHandle>;
}

export const STORE_FACTORIES: readonly StoreFactory[] = [
  {
    name: 'SQLite',
    skip: async () => undefined,
    async create() {
      const dir = mkdtempSync(join(tmpdir(), 'urnbase-store-'));
      return { open: async () => new SqliteStore(dir), dispose: async () => rmSync(dir, { recursive: true, force: true }) };
    },
  },
  {
    name: 'PostgreSQL',
    skip: async () => ((await postgresAvailable()) ? undefined : PG_SKIP_MESSAGE),
    async create() {
      const database = await createTestDatabase();
      return { open: () => PostgresStore.open(database.url, { poolSize: 4 }), dispose: () => database.drop() };
    },
  },
];
