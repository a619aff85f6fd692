import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import Database from 'better-sqlite3';
import { buildCore } from '../../../src/core.js';
import { Ingest } from '../../../src/ingest/ingest.js';
import { Registry } from '../../../src/registry/registry.js';
import { SQLITE_MIGRATIONS } from '../../../src/store/sqlite/migrate.js';
import { SqliteStore } from '../../../src/store/sqlite/store.js';
import { StaleWriteError, type StoredAspect } from '../../../src/store/store.js';

const registry = Registry.load();
const context = { actor: 'urn:li:corpuser:test', source: 'TEST' };
const urn = 'urn:li:dataset:(urn:li:dataPlatform:hive,store.t,PROD)';

describe('SQLite store and the write path', () => {
  const dir = mkdtempSync(join(tmpdir(), 'urnbase-store-'));
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('syncs commits NORMAL by default (a process crash loses nothing), FULL when asked (nor does a power loss); worker threads follow', async () => {
    const synchronous = (store: SqliteStore) => (store as unknown as { db: Database.Database }).db.pragma('synchronous', { simple: true });
    const normal = new SqliteStore(join(dir, 'normal'));
    const full = new SqliteStore(join(dir, 'full'), { sync: 'full' });
    assert.deepEqual([synchronous(normal), synchronous(full)], [1, 2]);
    assert.deepEqual(full.location, { kind: 'sqlite', dataDir: join(dir, 'full'), sync: 'full' });
    // The write-ahead log shrinks back to 64 MiB when it starts over.
    const limit = (store: SqliteStore) => (store as unknown as { db: Database.Database }).db.pragma('journal_size_limit', { simple: true });
    assert.deepEqual([limit(normal), limit(full)], [64 * 2 ** 20, 64 * 2 ** 20]);
    await Promise.all([normal.close(), full.close()]);
  });

  it('starts the write-ahead log over right after a sliced commit when the checkpointer asks during one', async () => {
    // Under a bulk load, large (sliced) commits follow each other with no tick between them: a
    // restart refused during one and left to the next ask never came, and the log grew by 110 MB/s.
    const store = new SqliteStore(join(dir, 'log-restart'));
    const ingest = new Ingest(store, registry);
    const internals = store as unknown as { db: Database.Database; commits: { busy?: Promise<void> }; restartLog(): void };
    const asked: string[] = [];
    const pragma = internals.db.pragma.bind(internals.db);
    internals.db.pragma = ((source: string, options?: Database.PragmaOptions) => {
      if (source.startsWith('wal_checkpoint')) asked.push(`${source}${internals.commits.busy ? ' inside a commit' : ''}`);
      return pragma(source, options);
    }) as typeof internals.db.pragma;
    const load = ingest.ingest(
      Array.from({ length: 3000 }, (_, i) => ({ urn: `urn:li:dataset:(urn:li:dataPlatform:hive,log.t${i},PROD)`, aspect: 'datasetProperties', changeType: 'UPSERT' as const, value: { name: `t${i}` } })),
      context,
    );
    while (!internals.commits.busy) await new Promise((resolve) => setImmediate(resolve));
    internals.restartLog();
    internals.restartLog(); // asked twice during the commit: restarted once after it
    assert.deepEqual(asked, []);
    await load;
    assert.deepEqual(asked, ['wal_checkpoint(RESTART)']);
    await store.close();
  });

  it('holds at most 32 MB of JSON in its latest-value cache, however large the aspects written and read', async () => {
    const store = new SqliteStore(join(dir, 'cache-size'));
    const ingest = new Ingest(store, registry);
    const cacheSize = () => (store as unknown as { latest: { cache: { size: number } } }).latest.cache.size;
    const description = 'x'.repeat(1024 * 1024);
    let largest = 0;
    for (let i = 0; i < 80; i++) {
      const big = `urn:li:dataset:(urn:li:dataPlatform:hive,store.big${i},PROD)`;
      await ingest.ingest([{ urn: big, aspect: 'datasetProperties', changeType: 'UPSERT', value: { description } }], context);
      await store.getLatest(big, ['datasetProperties']);
      largest = Math.max(largest, cacheSize());
    }
    // The writes and reads filled it (a 1 MB value counts its JSON), and it started over before passing 32 MB.
    assert.ok(largest > 16 * 1024 * 1024 && largest <= 32 * 1024 * 1024, `largest cache size ${largest}`);
    await store.close();
  });

  it('writes aspect rows and change-log events in one transaction', async () => {
    const store = new SqliteStore(dir);
    const ingest = new Ingest(store, registry);
    await ingest.ingest([{ urn, aspect: 'status', changeType: 'UPSERT', value: { removed: false } }], context);
    await ingest.ingest([{ urn, aspect: 'status', changeType: 'UPSERT', value: { removed: true } }], context);
    await ingest.ingest([{ urn, aspect: 'status', changeType: 'DELETE' }], context);
    await store.close();

    // Read back by a new connection: what was committed, in commit order.
    const reopened = new SqliteStore(dir);
    const events = (await reopened.readEvents(0, 1000))
      .filter((e) => e.urn === urn)
      .map((e) => ({
        aspect: e.aspect,
        change_type: e.changeType,
        created_by: e.created.actor,
        value: e.value === null ? null : JSON.stringify(e.value),
        previous_value: e.previousValue === null ? null : JSON.stringify(e.previousValue),
      }));
    await reopened.close();
    assert.deepEqual(events, [
      { aspect: 'datasetKey', change_type: 'UPSERT', created_by: 'urn:li:corpuser:test', value: '{"platform":"urn:li:dataPlatform:hive","name":"store.t","origin":"PROD"}', previous_value: null },
      { aspect: 'browsePathsV2', change_type: 'UPSERT', created_by: 'urn:li:corpuser:test', value: '{"path":[{"id":"Default"}]}', previous_value: null },
      { aspect: 'dataPlatformInstance', change_type: 'UPSERT', created_by: 'urn:li:corpuser:test', value: '{"platform":"urn:li:dataPlatform:hive"}', previous_value: null },
      { aspect: 'status', change_type: 'UPSERT', created_by: 'urn:li:corpuser:test', value: '{"removed":false}', previous_value: null },
      { aspect: 'status', change_type: 'UPSERT', created_by: 'urn:li:corpuser:test', value: '{"removed":true}', previous_value: '{"removed":false}' },
      { aspect: 'status', change_type: 'DELETE', created_by: 'urn:li:corpuser:test', value: null, previous_value: '{"removed":true}' },
    ]);
  });

  it('keeps committed data across reopening the data dir', async () => {
    const first = new SqliteStore(dir);
    await new Ingest(first, registry).ingest(
      [{ urn, aspect: 'globalTags', changeType: 'UPSERT', value: { tags: [{ tag: 'urn:li:tag:kept' }] } }],
      context,
    );
    await first.close();
    const second = new SqliteStore(dir);
    const [row] = await second.getLatest(urn, ['globalTags']);
    assert.deepEqual(row.value, { tags: [{ tag: 'urn:li:tag:kept' }] });
    assert.equal(row.systemMetadata.aspectModified.actor, 'urn:li:corpuser:test');
    await second.close();
  });

  /** A raw store write creating `status` on `target` (expecting it to be absent). */
  const createStatus = (target: string) => ({
    kind: 'put' as const,
    urn: target,
    entityType: 'dataset',
    aspect: 'status',
    value: {},
    systemMetadata: { version: '1', lastObserved: 1, aspectCreated: { time: 1, actor: 'a' }, aspectModified: { time: 1, actor: 'a' } },
    expectedVersion: 0,
  });

  it('refuses a write computed from a stale version (compare-and-set)', async () => {
    const store = new SqliteStore(':memory:');
    await store.commit({ writes: [createStatus(urn)], events: [] });
    await assert.rejects(store.commit({ writes: [createStatus(urn)], events: [] }), StaleWriteError);
    await store.close();
  });

  it('group commit: a stale batch fails alone, the others in its group commit', async () => {
    const store = new SqliteStore(':memory:');
    const put = createStatus;
    const a = 'urn:li:dataset:(urn:li:dataPlatform:hive,group.a,PROD)';
    const b = 'urn:li:dataset:(urn:li:dataPlatform:hive,group.b,PROD)';
    await store.commit({ writes: [put(a)], events: [] });
    // Issued in the same tick, so they share one transaction.
    const results = await Promise.allSettled([
      store.commit({ writes: [put(b)], events: [] }),
      store.commit({ writes: [put(a)], events: [] }),
    ]);
    assert.equal(results[0].status, 'fulfilled');
    assert.ok(results[1].status === 'rejected' && results[1].reason instanceof StaleWriteError);
    assert.equal((await store.getLatest(b, ['status'])).length, 1);
    await store.close();
  });

  it('group commit: the search counts equal the index rows after changes that cancel out and a stale batch retried alone', async () => {
    const sub = mkdtempSync(join(tmpdir(), 'urnbase-counts-'));
    try {
      const store = new SqliteStore(sub);
      const { ingest, indexer } = buildCore(store, registry);
      const writer = (store as unknown as { commits: { writer: { commit: (group: readonly unknown[]) => unknown } } }).commits.writer;
      const commit = writer.commit.bind(writer);
      const groups: number[] = [];
      writer.commit = (group) => (groups.push(group.length), commit(group));
      const dataset = (name: string) => `urn:li:dataset:(urn:li:dataPlatform:hive,counts.${name},PROD)`;
      const tag = (...names: string[]) => ({ tags: names.map((n) => ({ tag: `urn:li:tag:${n}` })) });
      // A second write path: its writes are not queued behind the first one's for the same entity.
      const other = new Ingest(store, registry, undefined, indexer);
      const write = (name: string, value: unknown, path = ingest) => path.ingest([{ urn: dataset(name), aspect: 'globalTags', changeType: 'UPSERT', value }], context);
      await Promise.all([write('a', tag('x')), write('b', tag('y')), write('c', tag('x', 'y'))]);
      // One group: a and b swap their tags (their counts cancel out), c is written by both paths
      // from the same version, so one of its batches is stale: the group rolls back, each batch is
      // retried alone, and the stale one's write path tries again from the new version.
      await Promise.all([write('a', tag('y')), write('b', tag('x')), write('c', tag('x')), write('c', tag('z'), other)]);
      assert.ok(groups.includes(4), `expected a group of 4 batches, got ${groups.join(', ')}`);
      await store.close();
      const db = new Database(join(sub, 'urnbase.db'), { readonly: true });
      const counted = db.prepare('SELECT field, type, value, n FROM search_term_counts WHERE n != 0 ORDER BY field, type, value').all();
      const rows = db
        .prepare(
          `SELECT field, substr(urn, 8, instr(substr(urn, 8), ':') - 1) AS type, value, count(*) AS n
             FROM search_terms GROUP BY field, type, value ORDER BY field, type, value`,
        )
        .all();
      assert.ok(rows.length > 0, 'the writes were indexed');
      assert.deepEqual(counted, rows);
      const tags = db.prepare(`SELECT value, n FROM search_term_counts WHERE field = (SELECT id FROM search_fields WHERE name = 'tags') AND n != 0 ORDER BY value`).all();
      const c = db.prepare(`SELECT metadata FROM aspects WHERE urn = ? AND aspect = 'globalTags'`).pluck().get(dataset('c')) as string;
      const last = JSON.parse(c).tags[0].tag as string;
      assert.ok(['urn:li:tag:x', 'urn:li:tag:z'].includes(last));
      const expected = last === 'urn:li:tag:x' ? { x: 2, y: 1 } : { x: 1, y: 1, z: 1 };
      assert.deepEqual(tags, Object.entries(expected).map(([t, n]) => ({ value: `urn:li:tag:${t}`, n })));
      db.close();
    } finally {
      rmSync(sub, { recursive: true, force: true });
    }
  });

  it('keeps writing while the checkpointer thread copies the log back, and reopens intact', async () => {
    const sub = mkdtempSync(join(tmpdir(), 'urnbase-ckpt-'));
    try {
      const store = new SqliteStore(sub);
      const ingest = new Ingest(store, registry);
      const urns = Array.from({ length: 200 }, (_, i) => `urn:li:dataset:(urn:li:dataPlatform:hive,ckpt${i},PROD)`);
      for (let round = 0; round < 10; round++) {
        await Promise.all(
          urns.map((u) => ingest.ingest([{ urn: u, aspect: 'globalTags', changeType: 'UPSERT', value: { tags: [{ tag: `urn:li:tag:r${round}` }] } }], context)),
        );
        await new Promise((r) => setTimeout(r, 20));
      }
      await store.close();
      const reopened = new SqliteStore(sub);
      const rows = await reopened.getLatestMany(urns, ['globalTags']);
      assert.equal(rows.length, 200);
      for (const row of rows) {
        assert.deepEqual(row.value, { tags: [{ tag: 'urn:li:tag:r9' }] });
        assert.equal(row.systemMetadata.version, '10');
      }
      assert.deepEqual((await reopened.getVersion(urns[0], 'globalTags', 3))?.value, { tags: [{ tag: 'urn:li:tag:r2' }] });
      await reopened.close();
    } finally {
      rmSync(sub, { recursive: true, force: true });
    }
  });

  it('a process sees writes made through another connection to the same file (its cache follows)', async () => {
    const sub = mkdtempSync(join(tmpdir(), 'urnbase-two-'));
    try {
      const writer = new SqliteStore(sub);
      const reader = new SqliteStore(sub);
      const ingest = new Ingest(writer, registry);
      const write = (removed: boolean) => ingest.ingest([{ urn, aspect: 'status', changeType: 'UPSERT', value: { removed } }], context);
      await write(false);
      assert.deepEqual((await reader.getLatest(urn, ['status']))[0].value, { removed: false });
      assert.deepEqual((await reader.getLatest(urn, ['status']))[0].value, { removed: false }, 'now cached');
      await write(true);
      assert.deepEqual((await reader.getLatest(urn, ['status']))[0].value, { removed: true });
      assert.equal((await reader.getLatest(urn, ['ownership'])).length, 0);
      await new Ingest(writer, registry).ingest([{ urn, aspect: 'ownership', changeType: 'UPSERT', value: { owners: [] } }], context);
      assert.equal((await reader.getLatest(urn, ['ownership'])).length, 1, 'a cached absence is forgotten too');
      await writer.close();
      await reader.close();
    } finally {
      rmSync(sub, { recursive: true, force: true });
    }
  });

  it('loses no update when concurrent patches of one aspect race, within and across write paths', async () => {
    const store = new SqliteStore(':memory:');
    // Yield between reading and committing so that the 50 writers really interleave.
    const read = store.getLatestMany.bind(store);
    store.getLatestMany = async (urns, aspects): Promise<StoredAspect[]> => {
      const rows = await read(urns, aspects);
      await new Promise((r) => setImmediate(r));
      return rows;
    };
    // Two write paths on one store stand for two processes: their in-process locks do not see each
    // other, so only the store's compare-and-set and the retry keep every update.
    const writers = [new Ingest(store, registry), new Ingest(store, registry)];
    const tags = Array.from({ length: 50 }, (_, i) => `urn:li:tag:t${i}`);
    await Promise.all(
      tags.map((tag, i) =>
        writers[i % 2].ingest(
          [
            {
              urn,
              aspect: 'globalTags',
              changeType: 'PATCH',
              patch: { patch: [{ op: 'add', path: `/tags/${tag}`, value: { tag } }], arrayPrimaryKeys: { tags: ['tag'] } },
            },
          ],
          context,
        ),
      ),
    );
    const [row] = await store.getLatest(urn, ['globalTags']);
    const stored = (row.value as { tags: Array<{ tag: string }> }).tags.map((t) => t.tag);
    assert.deepEqual(stored.sort(), [...tags].sort());
    assert.equal(row.systemMetadata.version, '50');
    await store.close();
  });

  it('moves the history of a data dir written by an earlier version into its own table', async () => {
    const sub = mkdtempSync(join(tmpdir(), 'urnbase-migrate-'));
    try {
      // A data dir as the first three migrations left it: history rows beside the latest ones.
      const old = new Database(join(sub, 'urnbase.db'));
      for (const step of SQLITE_MIGRATIONS.slice(0, 3)) old.exec(step);
      old.pragma('user_version = 3');
      const row = old.prepare(
        `INSERT INTO aspects (urn, aspect, version, entity_type, metadata, system_metadata, sys_version, created_on, created_by)
         VALUES (?, 'status', ?, 'dataset', ?, ?, ?, ?, 'urn:li:corpuser:old')`,
      );
      const sm = (v: number) => JSON.stringify({ version: String(v), lastObserved: v, aspectCreated: { time: 1, actor: 'a' }, aspectModified: { time: v, actor: 'a' } });
      row.run(urn, 1, '{"removed":false}', sm(1), 1, 1);
      row.run(urn, 2, '{"removed":true}', sm(2), 2, 2);
      row.run(urn, 0, '{"removed":false}', sm(3), 3, 3);
      old
        .prepare(
          `INSERT INTO aspects (urn, aspect, version, entity_type, metadata, system_metadata, sys_version, created_on, created_by)
           VALUES (?, 'datasetKey', 0, 'dataset', ?, ?, 1, 1, 'urn:li:corpuser:old')`,
        )
        .run(urn, JSON.stringify({ platform: 'urn:li:dataPlatform:hive', name: 'store.t', origin: 'PROD' }), sm(1));
      old.close();

      const store = new SqliteStore(sub);
      const [latest] = await store.getLatest(urn, ['status']);
      assert.deepEqual([latest.value, latest.systemMetadata.version], [{ removed: false }, '3']);
      assert.deepEqual((await store.getVersion(urn, 'status', 2))?.value, { removed: true });
      assert.deepEqual((await store.getVersion(urn, 'status', 1))?.systemMetadata.version, '1');
      assert.deepEqual(await store.listUrns('datasetKey', undefined, 10), [urn]);
      // Writing on goes on from the migrated version, and the replaced value joins the history.
      await new Ingest(store, registry).ingest([{ urn, aspect: 'status', changeType: 'UPSERT', value: { removed: true } }], context);
      assert.equal((await store.getLatest(urn, ['status']))[0].systemMetadata.version, '4');
      assert.deepEqual((await store.getVersion(urn, 'status', 3))?.value, { removed: false });
      await store.close();
      // Latest values end in a rowid table, unique by (urn, aspect).
      const migrated = new Database(join(sub, 'urnbase.db'), { readonly: true });
      const indexes = migrated.pragma('index_list(aspects)') as Array<{ name: string; unique: number }>;
      assert.deepEqual(indexes.find((i) => i.name === 'aspects_key')?.unique, 1);
      assert.equal((migrated.prepare("SELECT count(*) AS n FROM aspects WHERE rowid > 0 AND aspect = 'status'").get() as { n: number }).n, 1);
      migrated.close();
    } finally {
      rmSync(sub, { recursive: true, force: true });
    }
  });

  it('deleting an aspect deletes its whole history; a new value starts a new one', async () => {
    const sub = mkdtempSync(join(tmpdir(), 'urnbase-history-'));
    try {
      const store = new SqliteStore(sub);
      const ingest = new Ingest(store, registry);
      const write = (removed: boolean, changeType: 'UPSERT' | 'DELETE' = 'UPSERT') =>
        ingest.ingest([{ urn, aspect: 'status', changeType, ...(changeType === 'UPSERT' ? { value: { removed } } : {}) }], context);
      for (const removed of [false, true, false, true]) await write(removed);
      assert.deepEqual((await store.getVersion(urn, 'status', 2))?.value, { removed: true });
      const raw = new Database(join(sub, 'urnbase.db'), { readonly: true });
      const kept = raw.prepare<[string], { n: number }>("SELECT count(*) AS n FROM aspect_history WHERE urn = ? AND aspect = 'status'");
      assert.equal(kept.get(urn)?.n, 3);
      await write(false, 'DELETE');
      assert.equal(kept.get(urn)?.n, 0);
      await write(true);
      await write(false);
      assert.deepEqual((await store.getVersion(urn, 'status', 1))?.value, { removed: true });
      assert.equal(await store.getVersion(urn, 'status', 2), undefined, 'version 2 is the latest, not history');
      raw.close();
      await store.close();
    } finally {
      rmSync(sub, { recursive: true, force: true });
    }
  });
});
