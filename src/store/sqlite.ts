import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { SQLITE_MIGRATIONS } from './sqlite-schema.js';
import {
  StaleWriteError,
  type AspectWrite,
  type ChangeEvent,
  type CommitBatch,
  type Store,
  type StoredAspect,
} from './store.js';

interface AspectRow {
  urn: string;
  aspect: string;
  version: number;
  metadata: string;
  system_metadata: string;
}

const COLUMNS = 'urn, aspect, version, metadata, system_metadata';

/** The embedded store: one SQLite file in WAL mode, driven synchronously by better-sqlite3. */
export class SqliteStore implements Store {
  private readonly db: Database.Database;
  private readonly stmt;
  private readonly commitTx: (batch: CommitBatch) => void;

  /** Opens (creating if needed) `<dataDir>/urnbase.db`; `:memory:` gives a private in-memory store. */
  constructor(dataDir: string) {
    if (dataDir === ':memory:') {
      this.db = new Database(':memory:');
    } else {
      mkdirSync(dataDir, { recursive: true, mode: 0o700 });
      this.db = new Database(join(dataDir, 'urnbase.db'));
    }
    // NORMAL in WAL mode: a commit survives a process crash; only a power loss can drop the last ones.
    this.db.pragma('journal_mode = WAL');
    this.db.pragma('synchronous = NORMAL');
    this.db.pragma('busy_timeout = 5000');
    migrate(this.db);

    const db = this.db;
    this.stmt = {
      latestAll: db.prepare<[string], AspectRow>(`SELECT ${COLUMNS} FROM aspects WHERE urn = ? AND version = 0`),
      latestSome: db.prepare<[string, string], AspectRow>(
        `SELECT ${COLUMNS} FROM aspects WHERE urn = ? AND version = 0 AND aspect IN (SELECT value FROM json_each(?))`,
      ),
      manyAll: db.prepare<[string], AspectRow>(
        `SELECT ${COLUMNS} FROM aspects WHERE urn IN (SELECT value FROM json_each(?)) AND version = 0`,
      ),
      manySome: db.prepare<[string, string], AspectRow>(
        `SELECT ${COLUMNS} FROM aspects WHERE urn IN (SELECT value FROM json_each(?)) AND version = 0
           AND aspect IN (SELECT value FROM json_each(?))`,
      ),
      version: db.prepare<[string, string, number], AspectRow>(
        `SELECT ${COLUMNS} FROM aspects WHERE urn = ? AND aspect = ? AND version = ?`,
      ),
      scanAspect: db.prepare<[string, string, number], AspectRow>(
        `SELECT ${COLUMNS} FROM aspects WHERE aspect = ? AND version = 0 AND urn > ? ORDER BY urn LIMIT ?`,
      ),
      listUrns: db.prepare<[string, string, number], { urn: string }>(
        `SELECT DISTINCT urn FROM aspects WHERE entity_type = ? AND version = 0 AND urn > ? ORDER BY urn LIMIT ?`,
      ),
      current: db.prepare<[string, string], { sys_version: number }>(
        'SELECT sys_version FROM aspects WHERE urn = ? AND aspect = ? AND version = 0',
      ),
      archive: db.prepare(
        `UPDATE aspects SET version = (SELECT MAX(version) + 1 FROM aspects WHERE urn = @urn AND aspect = @aspect)
          WHERE urn = @urn AND aspect = @aspect AND version = 0`,
      ),
      insert: db.prepare(
        `INSERT INTO aspects (urn, aspect, version, entity_type, metadata, system_metadata, sys_version, created_on, created_by)
         VALUES (?, ?, 0, ?, ?, ?, ?, ?, ?)`,
      ),
      touch: db.prepare('UPDATE aspects SET system_metadata = ? WHERE urn = ? AND aspect = ? AND version = 0'),
      remove: db.prepare('DELETE FROM aspects WHERE urn = ? AND aspect = ?'),
      event: db.prepare(
        `INSERT INTO change_log (urn, entity_type, aspect, change_type, created_on, created_by, value, previous_value, system_metadata)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      ),
    };
    this.commitTx = db.transaction((batch: CommitBatch) => {
      for (const write of batch.writes) this.apply(write);
      for (const event of batch.events) this.append(event);
    });
  }

  async getLatest(urn: string, aspects?: readonly string[]): Promise<StoredAspect[]> {
    const rows = aspects ? this.stmt.latestSome.all(urn, JSON.stringify(aspects)) : this.stmt.latestAll.all(urn);
    return rows.map(toStored);
  }

  async getLatestMany(urns: readonly string[], aspects?: readonly string[]): Promise<StoredAspect[]> {
    const list = JSON.stringify(urns);
    const rows = aspects ? this.stmt.manySome.all(list, JSON.stringify(aspects)) : this.stmt.manyAll.all(list);
    return rows.map(toStored);
  }

  async getVersion(urn: string, aspect: string, version: number): Promise<StoredAspect | undefined> {
    const row = this.stmt.version.get(urn, aspect, version);
    return row && toStored(row);
  }

  async scanAspect(aspect: string, after: string | undefined, limit: number): Promise<StoredAspect[]> {
    return this.stmt.scanAspect.all(aspect, after ?? '', limit).map(toStored);
  }

  async listUrns(entityType: string, after: string | undefined, limit: number): Promise<string[]> {
    return this.stmt.listUrns.all(entityType, after ?? '', limit).map((r) => r.urn);
  }

  async commit(batch: CommitBatch): Promise<void> {
    this.commitTx(batch);
  }

  async close(): Promise<void> {
    this.db.close();
  }

  private apply(write: AspectWrite): void {
    const current = this.stmt.current.get(write.urn, write.aspect)?.sys_version ?? 0;
    if (current !== write.expectedVersion) {
      throw new StaleWriteError(`${write.urn} ${write.aspect}: version ${current}, expected ${write.expectedVersion}`);
    }
    switch (write.kind) {
      case 'put': {
        const sm = write.systemMetadata;
        if (current > 0) this.stmt.archive.run({ urn: write.urn, aspect: write.aspect });
        this.stmt.insert.run(
          write.urn,
          write.aspect,
          write.entityType,
          JSON.stringify(write.value),
          JSON.stringify(sm),
          Number(sm.version),
          sm.aspectModified.time,
          sm.aspectModified.actor,
        );
        break;
      }
      case 'touch':
        this.stmt.touch.run(JSON.stringify(write.systemMetadata), write.urn, write.aspect);
        break;
      case 'remove':
        this.stmt.remove.run(write.urn, write.aspect);
        break;
    }
  }

  private append(event: ChangeEvent): void {
    this.stmt.event.run(
      event.urn,
      event.entityType,
      event.aspect,
      event.changeType,
      event.created.time,
      event.created.actor,
      json(event.value),
      json(event.previousValue),
      json(event.systemMetadata),
    );
  }
}

function json(value: unknown): string | null {
  return value === undefined || value === null ? null : JSON.stringify(value);
}

function toStored(row: AspectRow): StoredAspect {
  return {
    urn: row.urn,
    aspect: row.aspect,
    version: row.version,
    value: JSON.parse(row.metadata),
    systemMetadata: JSON.parse(row.system_metadata),
  };
}

function migrate(db: Database.Database): void {
  const done = db.pragma('user_version', { simple: true }) as number;
  for (let i = done; i < SQLITE_MIGRATIONS.length; i++) {
    db.transaction(() => {
      db.exec(SQLITE_MIGRATIONS[i]);
      db.pragma(`user_version = ${i + 1}`);
    })();
  }
}
