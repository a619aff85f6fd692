import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Ingest } from '../../src/ingest/ingest.js';
import { Registry } from '../../src/registry/registry.js';
import { StaleWriteError, type AspectVersion, type AspectWrite, type ChangeEvent, type Store, type StoredAspect, type TokenRecord } from '../../src/store/store.js';
import { STORE_FACTORIES, type StoreHandle } from './stores.js';

const registry = Registry.load();
const context = { actor: 'urn:li:corpuser:test', source: 'TEST' };
const dataset = (name: string) => `urn:li:dataset:(urn:li:dataPlatform:hive,${name},PROD)`;
const sm = (version: number, time = version) => ({
  version: String(version),
  lastObserved: time,
  aspectCreated: { time: 1, actor: 'a' },
  aspectModified: { time, actor: 'a' },
});
const put = (urn: string, value: unknown, version: number, expectedVersion: number, aspect = 'status'): AspectWrite => ({
  kind: 'put', urn, entityType: 'dataset', aspect, value, systemMetadata: sm(version), expectedVersion,
});
const event = (urn: string, time: number): ChangeEvent => ({
  urn, entityType: 'dataset', aspect: 'status', changeType: 'UPSERT', created: { time, actor: 'a' }, value: { removed: false }, previousValue: null, systemMetadata: sm(1, time),
});

/** The same behaviours, asked of every store (docs/design/stores.md: two implementations, one suite). */
for (const factory of STORE_FACTORIES) {
  const skip = await factory.skip();
  if (skip) console.log(`# ${skip}`);

  describe(`${factory.name} store`, { skip }, () => {
    let handle: StoreHandle;
    let store: Store;
    const opened: Store[] = [];
    const open = async () => {
      const s = await handle.open();
      opened.push(s);
      return s;
    };
    before(async () => {
      handle = await factory.create();
      store = await open();
    });
    after(async () => {
      for (const s of opened) await s.close().catch(() => {});
      await handle.dispose();
    });

    it('writes aspect rows and change-log events in one transaction, events in order', async () => {
      const urn = dataset('events.t');
      const ingest = new Ingest(store, registry);
      const first = (await store.readEvents(0, 1000)).at(-1)?.sequence ?? 0;
      await ingest.ingest([{ urn, aspect: 'status', changeType: 'UPSERT', value: { removed: false } }], context);
      await ingest.ingest([{ urn, aspect: 'status', changeType: 'UPSERT', value: { removed: true } }], context);
      await ingest.ingest([{ urn, aspect: 'status', changeType: 'DELETE' }], context);
      const events = await store.readEvents(first, 100);
      assert.deepEqual(
        events.map((e) => [e.aspect, e.changeType, e.created.actor, e.value, e.previousValue]),
        [
          ['datasetKey', 'UPSERT', 'urn:li:corpuser:test', { platform: 'urn:li:dataPlatform:hive', name: 'events.t', origin: 'PROD' }, null],
          ['browsePathsV2', 'UPSERT', 'urn:li:corpuser:test', { path: [{ id: 'Default' }] }, null],
          ['dataPlatformInstance', 'UPSERT', 'urn:li:corpuser:test', { platform: 'urn:li:dataPlatform:hive' }, null],
          ['status', 'UPSERT', 'urn:li:corpuser:test', { removed: false }, null],
          ['status', 'UPSERT', 'urn:li:corpuser:test', { removed: true }, { removed: false }],
          ['status', 'DELETE', 'urn:li:corpuser:test', null, { removed: true }],
        ],
      );
      for (let i = 1; i < events.length; i++) assert.ok(events[i].sequence > events[i - 1].sequence);
      assert.deepEqual((await store.readEvents(events[3].sequence, 2)).map((e) => e.sequence), [events[4].sequence, events[5].sequence]);
    });

    it('keeps committed data across reopening', async () => {
      const urn = dataset('kept.t');
      await new Ingest(store, registry).ingest([{ urn, aspect: 'globalTags', changeType: 'UPSERT', value: { tags: [{ tag: 'urn:li:tag:kept' }] } }], context);
      const other = await open();
      const [row] = await other.getLatest(urn, ['globalTags']);
      assert.deepEqual(row.value, { tags: [{ tag: 'urn:li:tag:kept' }] });
      assert.equal(row.version, 0);
      assert.equal(row.systemMetadata.aspectModified.actor, 'urn:li:corpuser:test');
    });

    it('refuses a write computed from a stale version (compare-and-set): put, touch and remove', async () => {
      const urn = dataset('cas.t');
      await store.commit({ writes: [put(urn, {}, 1, 0)], events: [] });
      await assert.rejects(store.commit({ writes: [put(urn, {}, 1, 0)], events: [] }), StaleWriteError);
      await assert.rejects(store.commit({ writes: [put(urn, {}, 3, 2)], events: [] }), StaleWriteError);
      await assert.rejects(store.commit({ writes: [{ kind: 'touch', urn, aspect: 'status', systemMetadata: sm(2), expectedVersion: 2 }], events: [] }), StaleWriteError);
      await assert.rejects(store.commit({ writes: [{ kind: 'remove', urn, aspect: 'status', expectedVersion: 2 }], events: [] }), StaleWriteError);
      await store.commit({ writes: [{ kind: 'touch', urn, aspect: 'status', systemMetadata: { ...sm(1), lastObserved: 99 }, expectedVersion: 1 }], events: [] });
      const [row] = await store.getLatest(urn, ['status']);
      assert.deepEqual([row.value, row.systemMetadata.version, row.systemMetadata.lastObserved], [{}, '1', 99]);
    });

    it('applies a batch all-or-nothing: a stale write rolls back the others and their events', async () => {
      const a = dataset('batch.a');
      const b = dataset('batch.b');
      await store.commit({ writes: [put(a, { removed: false }, 1, 0)], events: [] });
      const last = (await store.readEvents(0, 10_000)).at(-1)?.sequence ?? 0;
      await assert.rejects(
        store.commit({ writes: [put(b, { removed: false }, 1, 0), put(a, { removed: true }, 2, 5)], events: [event(b, 1), event(a, 1)] }),
        StaleWriteError,
      );
      assert.deepEqual(await store.getLatest(b), []);
      assert.deepEqual((await store.getLatest(a, ['status']))[0].value, { removed: false });
      assert.deepEqual(await store.readEvents(last, 10), []);
    });

    it('loses no update when 50 concurrent patches of one aspect race across two connections', async () => {
      const urn = dataset('race.t');
      // Yield between reading and committing so that the writers really interleave.
      const slowed = (s: Store): Store => {
        const read = s.getLatestMany.bind(s);
        s.getLatestMany = async (urns, aspects): Promise<StoredAspect[]> => {
          const rows = await read(urns, aspects);
          await new Promise((r) => setImmediate(r));
          return rows;
        };
        return s;
      };
      // Two write paths on two connections stand for two processes: their in-process locks do
      // not see each other, so only the store's compare-and-set and the retry keep every update.
      const writers = [new Ingest(slowed(store), registry), new Ingest(slowed(await open()), registry)];
      const tags = Array.from({ length: 50 }, (_, i) => `urn:li:tag:t${i}`);
      await Promise.all(
        tags.map((tag, i) =>
          writers[i % 2].ingest(
            [{ urn, aspect: 'globalTags', changeType: 'PATCH', patch: { patch: [{ op: 'add', path: `/tags/${tag}`, value: { tag } }], arrayPrimaryKeys: { tags: ['tag'] } } }],
            context,
          ),
        ),
      );
      const [row] = await store.getLatest(urn, ['globalTags']);
      assert.deepEqual((row.value as { tags: Array<{ tag: string }> }).tags.map((t) => t.tag).sort(), [...tags].sort());
      assert.equal(row.systemMetadata.version, '50');
      for (let v = 1; v < 50; v++) assert.equal((await store.getVersion(urn, 'globalTags', v))?.systemMetadata.version, String(v));
    });

    it('deleting an aspect deletes its whole history; a new value starts a new one', async () => {
      const urn = dataset('history.t');
      const ingest = new Ingest(store, registry);
      const write = (removed: boolean, changeType: 'UPSERT' | 'DELETE' = 'UPSERT') =>
        ingest.ingest([{ urn, aspect: 'status', changeType, ...(changeType === 'UPSERT' ? { value: { removed } } : {}) }], context);
      for (const removed of [false, true, false, true]) await write(removed);
      const second = await store.getVersion(urn, 'status', 2);
      assert.deepEqual([second?.value, second?.version], [{ removed: true }, 2]);
      assert.deepEqual((await store.getVersion(urn, 'status', 0))?.value, { removed: true });
      await write(false, 'DELETE');
      for (const v of [0, 1, 2, 3]) assert.equal(await store.getVersion(urn, 'status', v), undefined);
      await write(true);
      await write(false);
      assert.deepEqual((await store.getVersion(urn, 'status', 1))?.value, { removed: true });
      assert.equal(await store.getVersion(urn, 'status', 2), undefined, 'version 2 is the latest, not history');
    });

    it("reads an entity's history for a timeline: per aspect, the versions since a time and the newest one before it", async () => {
      const urn = dataset('timeline.h');
      const at = (aspect: string, value: unknown, version: number, time: number, actor = 'urn:li:corpuser:a'): AspectWrite => ({
        kind: 'put', urn, entityType: 'dataset', aspect, value, expectedVersion: version - 1,
        systemMetadata: { ...sm(version, time), aspectModified: { time, actor } },
      });
      await store.commit({ writes: [at('datasetKey', { name: 'timeline.h' }, 1, 50), at('status', { removed: false }, 1, 100)], events: [] });
      await store.commit({ writes: [at('globalTags', { tags: [] }, 1, 150)], events: [] });
      for (const [version, time] of [[2, 200], [3, 300], [4, 400]]) {
        await store.commit({ writes: [at('status', { removed: version % 2 === 0 }, version, time, `urn:li:corpuser:w${version}`)], events: [] });
      }
      const shown = (rows: AspectVersion[]) => rows.map((r) => [r.aspect, r.version, r.latest, r.created.time]);
      assert.deepEqual(shown(await store.getHistory(urn, 250, 100)), [
        ['datasetKey', 1, true, 50],
        ['globalTags', 1, true, 150],
        ['status', 2, false, 200],
        ['status', 3, false, 300],
        ['status', 4, true, 400],
      ]);
      const all = await store.getHistory(urn, 0, 100);
      assert.deepEqual(shown(all).map(([aspect, version]) => `${aspect}:${version}`), ['datasetKey:1', 'globalTags:1', 'status:1', 'status:2', 'status:3', 'status:4']);
      assert.deepEqual(all.find((r) => r.aspect === 'status' && r.version === 3), {
        aspect: 'status', version: 3, latest: false, value: { removed: false }, created: { time: 300, actor: 'urn:li:corpuser:w3' },
      });
      assert.deepEqual(shown(await store.getHistory(urn, 10_000, 100)).map(([aspect, version]) => `${aspect}:${version}`), ['datasetKey:1', 'globalTags:1', 'status:4']);
      assert.equal((await store.getHistory(urn, 0, 4)).length, 4, 'at most the limit');
      assert.deepEqual(await store.getHistory(dataset('timeline.none'), 0, 100), []);
    });

    it('lists, scans and reads ranges in URN byte order (upper case before lower case)', async () => {
      // A prefix no other test's URN has, so these four are the last URNs of the store.
      const names = ['zz_order_b', 'zz_Order_Z', 'zz_order_a', 'zz_order_B'];
      for (const name of names) {
        await store.commit({ writes: [put(dataset(name), { name }, 1, 0, 'datasetKey'), put(dataset(name), {}, 1, 0)], events: [] });
      }
      const sorted = names.map(dataset).sort((x, y) => (Buffer.compare(Buffer.from(x), Buffer.from(y))));
      assert.deepEqual(sorted, ['zz_Order_Z', 'zz_order_B', 'zz_order_a', 'zz_order_b'].map(dataset));
      const mine = (urns: string[]) => urns.filter((u) => u.includes(',zz_'));
      assert.deepEqual(mine(await store.listUrns('datasetKey', undefined, 1000)), sorted);
      assert.deepEqual(await store.listUrns('datasetKey', sorted[0], 2), [sorted[1], sorted[2]]);
      const scanned = mine((await store.scanAspect('datasetKey', undefined, 1000)).map((r) => r.urn));
      assert.deepEqual(scanned, sorted);
      assert.deepEqual((await store.scanAspect('datasetKey', sorted[1], 5)).map((r) => r.urn), [sorted[2], sorted[3]]);
      const range = await store.getLatestRange('dataset', sorted[0], sorted[2]);
      assert.deepEqual(
        range.map((r) => [r.urn, r.aspect]),
        [[sorted[1], 'datasetKey'], [sorted[1], 'status'], [sorted[2], 'datasetKey'], [sorted[2], 'status']],
      );
      const keysOnly = await store.getLatestRange('dataset', sorted[0], sorted[3], ['datasetKey']);
      assert.deepEqual(keysOnly.map((r) => r.urn), [sorted[1], sorted[2], sorted[3]]);
      assert.deepEqual(keysOnly[0].value, { name: names.find((n) => dataset(n) === sorted[1]) });
    });

    it('keeps tokens: insert, find by hash, list, revoke once, touch', async () => {
      const token = (id: string, createdAt: number): TokenRecord => ({
        id, name: `n-${id}`, role: 'editor', actor: `urn:li:corpuser:${id}`, hash: `hash-${id}`, createdAt, createdBy: 'urn:li:corpuser:admin', expiresAt: null, lastUsedAt: null, revokedAt: null,
      });
      await store.insertToken(token('t2', 2000));
      await store.insertToken({ ...token('t1', 1000), expiresAt: 1_900_000_000_000 });
      assert.deepEqual((await store.listTokens()).map((t) => t.id), ['t1', 't2']);
      assert.deepEqual(await store.tokenByHash('hash-t1'), { ...token('t1', 1000), expiresAt: 1_900_000_000_000 });
      assert.equal(await store.tokenByHash('nope'), undefined);
      assert.equal(await store.revokeToken('t2', 3000), true);
      assert.equal(await store.revokeToken('t2', 4000), false);
      assert.equal(await store.revokeToken('missing', 4000), false);
      await store.touchToken('t1', 5000);
      assert.deepEqual(
        (await store.listTokens()).map((t) => [t.id, t.revokedAt, t.lastUsedAt]),
        [['t1', null, 5000], ['t2', 3000, null]],
      );
    });

    it('prunes the change log before a time and keeps later events', async () => {
      const urn = dataset('prune.t');
      await store.pruneEvents(Number.MAX_SAFE_INTEGER);
      await store.commit({ writes: [], events: [event(urn, 100), event(urn, 200), event(urn, 300)] });
      assert.equal(await store.pruneEvents(200), 1);
      assert.deepEqual((await store.readEvents(0, 10)).map((e) => e.created.time), [200, 300]);
      assert.equal(await store.pruneEvents(50), 0);
      assert.equal(await store.pruneEvents(Number.MAX_SAFE_INTEGER), 2);
      assert.deepEqual(await store.readEvents(0, 10), []);
    });

    it('keeps timeseries points: a key replaces, reads go newest first by key, page by keyset, scroll, delete and prune', async () => {
      const urn = dataset('points.t');
      const point = (time: number, key: string, rows: number, aspect = 'datasetProfile') => ({
        urn, entityType: 'dataset', aspect, timestampMillis: time, key, value: { timestampMillis: time, rowCount: rows }, systemMetadata: { lastObserved: rows }, written: { time: rows, actor: 'a' },
      });
      await store.commit({ writes: [], events: [], points: [point(10, '', 1), point(20, '', 2), point(20, '["m"]', 3), point(30, '', 4), point(5, '', 9, 'operation')] });
      // The same key again, in one batch twice: the last point wins.
      await store.commit({ writes: [], events: [], points: [point(20, '', 5), point(20, '', 6)] });
      const rows = (list: Array<{ value: unknown }>) => list.map((p) => (p.value as { rowCount: number }).rowCount);
      assert.deepEqual(rows(await store.readPoints(urn, 'datasetProfile', { limit: 10 })), [4, 3, 6, 1]);
      assert.deepEqual(rows(await store.readPoints(urn, 'datasetProfile', { start: 15, end: 25, limit: 10 })), [3, 6]);
      assert.deepEqual(rows(await store.readPoints(urn, 'datasetProfile', { before: { timestampMillis: 20, key: '["m"]' }, limit: 10 })), [6, 1]);
      const [latest] = await store.latestPoints([{ urn, aspect: 'datasetProfile' }, { urn, aspect: 'assertionRunEvent' }]);
      assert.deepEqual({ ...latest, id: 0 }, { id: 0, urn, aspect: 'datasetProfile', timestampMillis: 30, key: '', value: { timestampMillis: 30, rowCount: 4 }, systemMetadata: { lastObserved: 4 }, written: { time: 4, actor: 'a' }, size: JSON.stringify({ timestampMillis: 30, rowCount: 4 }).length });
      const first = await store.scrollPoints('dataset', 'datasetProfile', { limit: 2 });
      assert.deepEqual(rows(first), [4, 3]);
      const last = first[1];
      assert.deepEqual(rows(await store.scrollPoints('dataset', 'datasetProfile', { after: { timestampMillis: last.timestampMillis, id: last.id }, limit: 10 })), [6, 1]);
      assert.equal(await store.deletePoints({ urn, aspects: ['datasetProfile'], start: 20, end: 20 }), 2);
      assert.equal(await store.prunePoints('datasetProfile', 30, 10), 1);
      assert.deepEqual(rows(await store.readPoints(urn, 'datasetProfile', { limit: 10 })), [4]);
      assert.equal(await store.deletePoints({ urn }), 2, 'every aspect of the entity');
    });

    it('commits points with the rest of a batch, or not at all', async () => {
      const urn = dataset('points.atomic');
      const profile = { urn, entityType: 'dataset', aspect: 'datasetProfile', timestampMillis: 1, key: '', value: { timestampMillis: 1 }, systemMetadata: { lastObserved: 1 }, written: { time: 1, actor: 'a' } };
      await assert.rejects(store.commit({ writes: [put(urn, { removed: false }, 2, 1)], events: [], points: [profile] }), StaleWriteError);
      assert.deepEqual(await store.readPoints(urn, 'datasetProfile', { limit: 10 }), []);
      await store.commit({ writes: [put(urn, { removed: false }, 1, 0)], events: [], points: [profile] });
      assert.equal((await store.readPoints(urn, 'datasetProfile', { limit: 10 })).length, 1);
      // An entity's removal in the batch goes before its new points.
      await store.commit({ writes: [], events: [], pointRemovals: [{ urn }], points: [{ ...profile, timestampMillis: 2, value: { timestampMillis: 2 } }] });
      assert.deepEqual((await store.readPoints(urn, 'datasetProfile', { limit: 10 })).map((p) => p.timestampMillis), [2]);
    });

    it('remembers the search index version until the index is cleared', async () => {
      assert.equal(await store.searchIndexVersion(), '', 'never built');
      await store.setSearchIndexVersion('7.0a1b2c3d4e5f');
      assert.equal(await store.searchIndexVersion(), '7.0a1b2c3d4e5f');
      await store.clearSearchIndex();
      assert.equal(await store.searchIndexVersion(), '');
    });
  });
}
