import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import Database from 'better-sqlite3';
import { Ingest } from '../../../src/ingest/ingest.js';
import { Registry } from '../../../src/registry/registry.js';
import { SqliteStore } from '../../../src/store/sqlite/store.js';
import type { AspectPut, ChangeEvent, SystemMetadata } from '../../../src/store/store.js';

const registry = Registry.load();
const urn = 'urn:li:dataset:(urn:li:dataPlatform:hive,compact.t,PROD)';
const raw = (store: SqliteStore) => (store as unknown as { db: Database.Database }).db;

/** System metadata in the write path's key order; `extra` replaces members in place. */
function sm(version: number, time: number, extra: Partial<SystemMetadata> = {}): SystemMetadata {
  const usual: SystemMetadata = {
    version: String(version),
    lastObserved: time,
    ...(extra.runId !== undefined ? { runId: extra.runId } : {}),
    properties: { eventSource: 'TEST' },
    aspectCreated: { time: 1000, actor: 'urn:li:corpuser:first' },
    aspectModified: { time, actor: 'urn:li:corpuser:b' },
  };
  return Object.assign(usual, extra);
}

function put(aspect: string, value: unknown, systemMetadata: SystemMetadata, expectedVersion: number): AspectPut {
  return { kind: 'put', urn, entityType: 'dataset', aspect, value, systemMetadata, expectedVersion };
}

function event(aspect: string, value: unknown, previousValue: unknown, systemMetadata: SystemMetadata | null): ChangeEvent {
  const created = systemMetadata?.aspectModified ?? { time: 5, actor: 'urn:li:corpuser:b' };
  return { urn, entityType: 'dataset', aspect, changeType: value === null ? 'DELETE' : 'UPSERT', created, value, previousValue, systemMetadata };
}

describe('SQLite compact rows', () => {
  const dir = mkdtempSync(join(tmpdir(), 'urnbase-compact-'));
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('reads back system metadata byte for byte whatever its shape; the usual shape takes columns, others their JSON', async () => {
    const store = new SqliteStore(join(dir, 'sm'));
    const shapes: Array<[string, SystemMetadata, boolean]> = [
      ['usual', sm(1, 1000, { aspectCreated: { time: 1000, actor: 'urn:li:corpuser:b' } }), true],
      ['runId and lastObserved of a client, created earlier by another', sm(1, 2000, { lastObserved: 1500, runId: 'run-1' }), true],
      ['a client property', sm(1, 2000, { properties: { pipeline: 'x', eventSource: 'TEST' } }), false],
      ['runId after aspectModified (a touch added it)', { ...sm(1, 2000), runId: 'late' }, false],
      ['a fractional lastObserved', sm(1, 2000, { lastObserved: 1.5 }), false],
      ['an actor JSON escapes', sm(1, 2000, { aspectCreated: { time: 1, actor: 'urn:li:corpuser:"q"' } }), false],
      ['a runId JSON escapes', sm(1, 2000, { runId: 'tab\there' }), false],
      ['non-ASCII, unescaped', sm(1, 2000, { runId: 'ünïcødé ✓' }), true],
      ['an emoji (surrogate pairs keep their JSON)', sm(1, 2000, { runId: 'ok 😀' }), false],
      ['a lone surrogate, which JSON escapes', sm(1, 2000, { runId: 'bad \ud800' }), false],
      ['a version with a leading zero', { ...sm(1, 2000), version: '01' }, false],
      ['a negative time', sm(1, -5, { aspectCreated: { time: -5, actor: 'urn:li:corpuser:b' } }), true],
      ['aspectCreated with a third member', sm(1, 2000, { aspectCreated: { time: 1, actor: 'urn:li:corpuser:b', impersonator: 'urn:li:corpuser:c' } as SystemMetadata['aspectCreated'] }), false],
      ['aspectModified with its actor first', sm(1, 2000, { aspectModified: { actor: 'urn:li:corpuser:b', time: 2000 } }), false],
      ['members in another order', Object.assign({ lastObserved: 0 }, sm(1, 2000)), false],
    ];
    const aspects = shapes.map((_, i) => `aspect${i}`);
    await store.commit({ writes: shapes.map(([, s], i) => put(aspects[i], { i }, s, 0)), events: [] });
    const read = await store.getLatest(urn, aspects);
    for (const [i, [name, written, compact]] of shapes.entries()) {
      const got = read.find((r) => r.aspect === aspects[i]);
      assert.equal(JSON.stringify(got?.systemMetadata), JSON.stringify(written), name);
      const stored = raw(store).prepare<[string], string>('SELECT system_metadata FROM aspects WHERE aspect = ?').pluck().get(aspects[i]);
      assert.equal(stored, compact ? '' : JSON.stringify(written), name);
    }
    // A touch rewrites the columns; a version moved to history keeps them.
    const touched = sm(1, 2000, { lastObserved: 3000, runId: 'run-2' });
    await store.commit({ writes: [{ kind: 'touch', urn, aspect: aspects[1], systemMetadata: touched, expectedVersion: 1 }], events: [] });
    await store.commit({ writes: [put(aspects[1], { i: 'two' }, sm(2, 4000), 1)], events: [] });
    assert.equal(JSON.stringify((await store.getVersion(urn, aspects[1], 1))?.systemMetadata), JSON.stringify(touched));
    assert.equal(JSON.stringify((await store.getLatest(urn, [aspects[1]]))[0].systemMetadata), JSON.stringify(sm(2, 4000)));
    await store.close();
  });

  it('events name the versions they log instead of repeating them, and read back as written', async () => {
    const store = new SqliteStore(join(dir, 'events'));
    const v = [{ n: 1 }, { n: 2 }, { n: 3 }];
    await store.commit({ writes: [put('a', v[0], sm(1, 10), 0)], events: [event('a', v[0], null, sm(1, 10))] });
    await store.commit({ writes: [put('a', v[1], sm(2, 20), 1)], events: [event('a', v[1], v[0], sm(2, 20))] });
    await store.commit({ writes: [put('a', v[2], sm(3, 30), 2)], events: [event('a', v[2], v[1], sm(3, 30))] });
    const expected = [
      [1, v[0], null, '1'],
      [2, v[1], v[0], '2'],
      [3, v[2], v[1], '3'],
    ];
    const events = async () => (await store.readEvents(0, 100)).map((e) => [e.sequence, e.value, e.previousValue, e.systemMetadata?.version ?? null]);
    assert.deepEqual(await events(), expected);
    const rows = () =>
      raw(store).prepare('SELECT sequence, urn, aspect, aspect_id, value, value_of, previous_value, previous_of FROM change_log ORDER BY sequence').all();
    const history = raw(store).prepare<[], number>('SELECT id FROM aspect_history ORDER BY id').pluck().all();
    const row = raw(store).prepare<[], number>(`SELECT id FROM aspects WHERE aspect = 'a'`).pluck().get();
    assert.deepEqual(rows(), [
      { sequence: 1, urn: '', aspect: '', aspect_id: row, value: null, value_of: history[0], previous_value: null, previous_of: null },
      { sequence: 2, urn: '', aspect: '', aspect_id: row, value: null, value_of: history[1], previous_value: null, previous_of: history[0] },
      { sequence: 3, urn: '', aspect: '', aspect_id: row, value: null, value_of: 0, previous_value: null, previous_of: history[1] },
    ]);
    assert.deepEqual((await store.readEvents(0, 1)).map((e) => [e.urn, e.aspect, e.entityType]), [[urn, 'a', 'dataset']]);
    // Deleting the aspect deletes its versions: the events they logged get their values back first.
    await store.commit({ writes: [{ kind: 'remove', urn, aspect: 'a', expectedVersion: 3 }], events: [event('a', null, v[2], null)] });
    assert.deepEqual(await events(), [...expected, [4, null, v[2], null]]);
    const inline = { urn, aspect: 'a', aspect_id: null, value_of: null, previous_of: null };
    assert.deepEqual(rows(), [
      { sequence: 1, ...inline, value: '{"n":1}', previous_value: null },
      { sequence: 2, ...inline, value: '{"n":2}', previous_value: '{"n":1}' },
      { sequence: 3, ...inline, value: '{"n":3}', previous_value: '{"n":2}' },
      { sequence: 4, ...inline, value: null, previous_value: '{"n":3}' },
    ].map((r) => ({ sequence: r.sequence, urn: r.urn, aspect: r.aspect, aspect_id: r.aspect_id, value: r.value, value_of: r.value_of, previous_value: r.previous_value, previous_of: r.previous_of })));
    // A new value of the same aspect is a new row: the old events keep their names.
    await store.commit({ writes: [put('a', { n: 'again' }, sm(1, 50), 0)], events: [event('a', { n: 'again' }, null, sm(1, 50))] });
    assert.deepEqual((await store.readEvents(0, 100)).map((e) => [e.sequence, e.urn, e.aspect, e.value]), [
      [1, urn, 'a', v[0]],
      [2, urn, 'a', v[1]],
      [3, urn, 'a', v[2]],
      [4, urn, 'a', null],
      [5, urn, 'a', { n: 'again' }],
    ]);
    assert.equal(raw(store).prepare('SELECT count(*) FROM aspect_history').pluck().get(), 0);
    await store.close();
  });

  it('a batch that writes one aspect twice, or writes and deletes it, logs every value; pruned events leave the rest readable', async () => {
    const store = new SqliteStore(join(dir, 'batches'));
    const [x1, x2, y1] = [{ x: 1 }, { x: 2 }, { y: 1 }];
    await store.commit({
      writes: [put('x', x1, sm(1, 10), 0), put('x', x2, sm(2, 10), 1), put('y', y1, sm(1, 10), 0), { kind: 'remove', urn, aspect: 'y', expectedVersion: 1 }],
      events: [event('x', x1, null, sm(1, 10)), event('x', x2, x1, sm(2, 10)), event('y', y1, null, sm(1, 10)), event('y', null, y1, null)],
    });
    // Two batches in one group commit, the second replacing the first's value.
    const x3 = { x: 3 };
    const x4 = { x: 4 };
    await Promise.all([
      store.commit({ writes: [put('x', x3, sm(3, 20), 2)], events: [event('x', x3, x2, sm(3, 20))] }),
      store.commit({ writes: [put('x', x4, sm(4, 20), 3)], events: [event('x', x4, x3, sm(4, 20))] }),
    ]);
    const read = async () => (await store.readEvents(0, 100)).map((e) => [e.sequence, e.aspect, e.value, e.previousValue]);
    assert.deepEqual(await read(), [
      [1, 'x', x1, null],
      [2, 'x', x2, x1],
      [3, 'y', y1, null],
      [4, 'y', null, y1],
      [5, 'x', x3, x2],
      [6, 'x', x4, x3],
    ]);
    // y's values stayed inline (its batch deleted it); x's refer to their versions.
    const inline = raw(store).prepare<[], number>('SELECT sequence FROM change_log WHERE value_of IS NULL AND value IS NOT NULL ORDER BY sequence').pluck().all();
    assert.deepEqual(inline, [3]);
    // An event that does not log a write of its batch keeps its value inline.
    await store.commit({ writes: [], events: [event('z', { z: 1 }, { z: 0 }, sm(1, 30))] });
    assert.deepEqual((await store.readEvents(6, 10)).map((e) => [e.value, e.previousValue]), [[{ z: 1 }, { z: 0 }]]);
    assert.equal(await store.pruneEvents(15), 4);
    assert.deepEqual((await read()).slice(0, 2), [
      [5, 'x', x3, x2],
      [6, 'x', x4, x3],
    ]);
    // A new write after the prune: the archived value's event is gone, nothing to point anywhere.
    await store.commit({ writes: [put('x', { x: 5 }, sm(5, 40), 4)], events: [event('x', { x: 5 }, x4, sm(5, 40))] });
    assert.deepEqual((await read()).slice(1), [
      [6, 'x', x4, x3],
      [7, 'z', { z: 1 }, { z: 0 }],
      [8, 'x', { x: 5 }, x4],
    ]);
    await store.close();
  });

  it('numbers search fields; a number given in a rolled-back commit is not kept', async () => {
    const store = new SqliteStore(join(dir, 'fields'));
    const types = [{ name: 'dataset', keyAspect: 'datasetKey' }];
    const key = (name: string) => `urn:li:dataset:(urn:li:dataPlatform:hive,fields.${name},PROD)`;
    const index = (name: string, field: string, value: string) => ({
      urn: key(name), aspect: 'datasetKey', keyAspect: 'datasetKey', removeTerms: [], addTerms: [[field, value]] as Array<[string, string]>, removeNumbers: [], addNumbers: [],
    });
    const keyPut = (name: string): AspectPut => ({ kind: 'put', urn: key(name), entityType: 'dataset', aspect: 'datasetKey', value: { name }, systemMetadata: sm(1, 10), expectedVersion: 0 });
    await store.commit({ writes: [keyPut('a')], events: [], index: [index('a', 'first', 'x')] });
    // Numbers 'second' and 'broken', then fails (a value SQLite cannot bind): rolled back, numbers and all.
    const failing = { ...index('b', 'second', 'y'), addTerms: [['second', 'y'], ['broken', {} as string]] as Array<[string, string]> };
    await assert.rejects(store.commit({ writes: [keyPut('b')], events: [], index: [failing] }), RangeError);
    await store.commit({ writes: [keyPut('b')], events: [], index: [index('b', 'third', 'z')] });
    await store.commit({ writes: [keyPut('c')], events: [], index: [index('c', 'second', 'y')] });
    const fields = raw(store).prepare('SELECT id, name FROM search_fields ORDER BY id').all();
    assert.deepEqual(fields, [{ id: 1, name: 'first' }, { id: 2, name: 'third' }, { id: 3, name: 'second' }]);
    const found = async (field: string, value: string) =>
      (await store.search({ types, condition: { kind: 'term', field, op: 'eq', values: [value] }, includeRemoved: true, sort: { by: 'urn', order: 'ASCENDING' }, count: 10, facets: [] })).urns;
    assert.deepEqual(await found('first', 'x'), [key('a')]);
    assert.deepEqual(await found('second', 'y'), [key('c')]);
    assert.deepEqual(await found('third', 'z'), [key('b')]);
    assert.deepEqual(await found('fourth', 'z'), []);
    await store.close();
  });

  it('through the write path: an entity hard-deleted keeps its events readable, values and previous values', async () => {
    const store = new SqliteStore(join(dir, 'ingest'));
    const ingest = new Ingest(store, registry);
    const context = { actor: 'urn:li:corpuser:test', source: 'TEST' };
    for (const description of ['one', 'two', 'three']) {
      await ingest.ingest([{ urn, aspect: 'datasetProperties', changeType: 'UPSERT', value: { description } }], context);
    }
    const before = JSON.stringify(await store.readEvents(0, 100));
    await ingest.ingest([{ urn, aspect: 'datasetKey', changeType: 'DELETE' }], context);
    const all = await store.readEvents(0, 100);
    assert.equal(JSON.stringify(all.slice(0, JSON.parse(before).length)), before);
    const properties = all.filter((e) => e.aspect === 'datasetProperties').map((e) => [e.changeType, e.value, e.previousValue]);
    assert.deepEqual(properties, [
      ['UPSERT', { description: 'one' }, null],
      ['UPSERT', { description: 'two' }, { description: 'one' }],
      ['UPSERT', { description: 'three' }, { description: 'two' }],
      ['DELETE', null, { description: 'three' }],
    ]);
    await store.close();
  });
});
