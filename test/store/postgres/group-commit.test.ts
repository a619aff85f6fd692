import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import pg from 'pg';
import { PostgresStore } from '../../../src/store/postgres/store.js';
import { StaleWriteError, type AspectWrite, type CommitBatch } from '../../../src/store/store.js';
import { createTestDatabase, postgresAvailable, PG_SKIP_MESSAGE, type TestDatabase } from '../../pg.js';

const dataset = (name: string) => `urn:li:dataset:(urn:li:dataPlatform:hive,${name},PROD)`;
const sm = (version: number) => ({ version: String(version), lastObserved: version, aspectCreated: { time: 1, actor: 'a' }, aspectModified: { time: version, actor: 'a' } });
const put = (urn: string, value: unknown, expectedVersion: number, aspect = 'status'): AspectWrite => ({
  kind: 'put', urn, entityType: 'dataset', aspect, value, systemMetadata: sm(expectedVersion + 1), expectedVersion,
});
/** A batch of puts, each with its event. */
const batch = (...writes: AspectWrite[]): CommitBatch => ({
  writes,
  events: writes.map((w) => ({
    urn: w.urn, entityType: 'dataset', aspect: w.aspect, changeType: 'UPSERT', created: { time: 1, actor: 'a' },
    value: w.kind === 'put' ? w.value : null, previousValue: null, systemMetadata: null,
  })),
});

/** Group commit on PostgreSQL (group-commit.ts, writer.ts): batches of one turn share a transaction, and answer each on its own. */
describe('PostgreSQL group commit', async () => {
  const available = await postgresAvailable();
  const skip = available ? false : PG_SKIP_MESSAGE;
  let database: TestDatabase;
  let store: PostgresStore;
  before(async () => {
    if (!available) return;
    database = await createTestDatabase();
    store = await PostgresStore.open(database.url);
  });
  after(async () => {
    if (!available) return;
    await store.close();
    await database.drop();
  });
  const settle = (batches: CommitBatch[]) => Promise.allSettled(batches.map((b) => store.commit(b)));
  const latest = async (urn: string, aspect = 'status') => (await store.getLatest(urn, [aspect]))[0];

  it('stores the batches of one turn but the one that lost its compare-and-set, which fails alone, and logs their events in order', { skip }, async () => {
    const [a, b, c] = [dataset('group.a'), dataset('group.b'), dataset('group.c')];
    await store.commit(batch(put(b, { removed: false }, 0)));
    const before = (await store.readEvents(0, 100)).length;
    const results = await settle([batch(put(a, { removed: true }, 0)), batch(put(b, { removed: true }, 5)), batch(put(c, { removed: true }, 0))]);
    assert.equal(results[0].status, 'fulfilled');
    assert.equal(results[2].status, 'fulfilled');
    assert.equal(results[1].status, 'rejected');
    const failure = (results[1] as PromiseRejectedResult).reason as Error;
    assert.ok(failure instanceof StaleWriteError);
    assert.equal(failure.message, `${b} status: expected version 5`);
    assert.deepEqual((await latest(a))?.value, { removed: true });
    assert.deepEqual((await latest(b))?.value, { removed: false });
    assert.deepEqual((await latest(c))?.value, { removed: true });
    assert.deepEqual((await store.readEvents(0, 100)).slice(before).map((e) => e.urn), [a, c]);
  });

  it('writes a later batch of the same entity after the earlier one (its group waits), so both succeed in order', { skip }, async () => {
    const d = dataset('group.d');
    await store.commit(batch(put(d, { removed: false }, 0)));
    const results = await settle([batch(put(d, { removed: true }, 1)), batch(put(d, { tags: [] }, 0, 'globalTags'))]);
    assert.deepEqual(results.map((r) => r.status), ['fulfilled', 'fulfilled']);
    assert.equal((await latest(d))?.systemMetadata.version, '2');
    const events = (await store.readEvents(0, 1000)).filter((e) => e.urn === d);
    assert.deepEqual(events.map((e) => e.aspect), ['status', 'status', 'globalTags']);
  });

  it('lets only the first of two batches of one turn that expect the same version of an aspect store it', { skip }, async () => {
    const h = dataset('group.h');
    await store.commit(batch(put(h, { removed: false }, 0)));
    const results = await settle([batch(put(h, { removed: true }, 1)), batch(put(h, { removed: false, note: 'second' }, 1))]);
    assert.equal(results[0].status, 'fulfilled');
    assert.equal(results[1].status, 'rejected');
    assert.equal(((results[1] as PromiseRejectedResult).reason as Error).message, `${h} status: expected version 1`);
    const stored = await latest(h);
    assert.deepEqual([stored?.value, stored?.systemMetadata.version], [{ removed: true }, '2']);
  });

  it('keeps every version when one batch writes the same aspect twice', { skip }, async () => {
    const e = dataset('group.e');
    await store.commit(batch(put(e, { removed: false }, 0), put(e, { removed: true }, 1)));
    const stored = await latest(e);
    assert.deepEqual([stored?.value, stored?.systemMetadata.version], [{ removed: true }, '2']);
    assert.deepEqual((await store.getVersion(e, 'status', 1))?.value, { removed: false });
  });

  it('retries a group alone when another process creates one of its aspects meanwhile: only that batch fails', { skip }, async () => {
    const [f, g] = [dataset('group.f'), dataset('group.g')];
    const other = new pg.Client({ connectionString: database.url });
    await other.connect();
    try {
      // Not yet committed: the group's lock finds no row, and its insert waits on this one's.
      await other.query('BEGIN');
      await other.query(
        `INSERT INTO aspects (urn, aspect, entity_type, metadata, system_metadata, version, created_on, created_by) VALUES ($1, 'status', 'dataset', $2, $3, 1, 1, 'other')`,
        [g, JSON.stringify({ removed: true }), JSON.stringify(sm(1))],
      );
      const results = settle([batch(put(f, { removed: false }, 0)), batch(put(g, { removed: false }, 0))]);
      await new Promise((resolve) => setTimeout(resolve, 300));
      await other.query('COMMIT');
      const [first, second] = await results;
      assert.equal(first.status, 'fulfilled');
      assert.equal(second.status, 'rejected');
      assert.ok((second as PromiseRejectedResult).reason instanceof StaleWriteError);
    } finally {
      await other.end();
    }
    assert.deepEqual((await latest(f))?.value, { removed: false });
    assert.deepEqual((await latest(g))?.value, { removed: true });
    assert.deepEqual((await store.readEvents(0, 1000)).filter((e) => e.urn === f || e.urn === g).map((e) => e.urn), [f]);
  });
});
