import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { ChangeLogRetention } from '../../src/events/retention.js';
import { SqliteStore } from '../../src/store/sqlite/store.js';
import { datasetUrn, enc, testApp, V2, type TestApp } from '../helpers.js';

const EVENTS = '/openapi/v2/events';
const invalid = (message: string) => ({ error: 'Validation Error', message });

describe('the change log (GET /openapi/v2/events)', () => {
  let t: TestApp;
  before(async () => (t = await testApp()));
  after(() => t.app.close());

  const write = async (urn: string, aspect: string, value: unknown) => {
    const res = await t.call({ method: 'POST', url: `${V2}/dataset/${enc(urn)}/${aspect}`, payload: value as object });
    assert.equal(res.status, 200, JSON.stringify(res.body));
  };
  const last = async () => (await t.call({ method: 'GET', url: `${EVENTS}?after=0&limit=1000` })).body.nextAfter as number;

  it('gives each committed change with its values, actor and system metadata, in DataHub MCL terms', async () => {
    const start = await last();
    const urn = datasetUrn('events.shape');
    await write(urn, 'globalTags', { tags: [{ tag: 'urn:li:tag:a' }] });
    await write(urn, 'globalTags', { tags: [{ tag: 'urn:li:tag:b' }] });
    const res = await t.call({ method: 'GET', url: `${EVENTS}?after=${start}` });
    assert.equal(res.status, 200);
    const tags = res.body.events.filter((e: { aspectName: string }) => e.aspectName === 'globalTags');
    assert.equal(tags.length, 2);
    const [first, second] = tags;
    assert.deepEqual(Object.keys(second).sort(), ['aspect', 'aspectName', 'changeType', 'created', 'entityType', 'previousAspectValue', 'sequence', 'systemMetadata', 'urn']);
    assert.equal(second.urn, urn);
    assert.equal(second.entityType, 'dataset');
    assert.equal(second.changeType, 'UPSERT');
    assert.deepEqual(second.aspect, { tags: [{ tag: 'urn:li:tag:b' }] });
    assert.deepEqual(second.previousAspectValue, { tags: [{ tag: 'urn:li:tag:a' }] });
    assert.equal(first.previousAspectValue, null);
    assert.equal(second.systemMetadata.version, '2');
    assert.equal(second.created.actor, 'urn:li:corpuser:datahub');
    assert.ok(Math.abs(second.created.time - Date.now()) < 60_000);
    assert.ok(second.sequence > first.sequence);
    assert.equal(res.body.nextAfter, res.body.events.at(-1).sequence);
  });

  it('gives a delete with its previous value and no aspect', async () => {
    const urn = datasetUrn('events.delete');
    await write(urn, 'globalTags', { tags: [{ tag: 'urn:li:tag:gone' }] });
    const start = await last();
    assert.equal((await t.call({ method: 'DELETE', url: `${V2}/dataset/${enc(urn)}/globalTags` })).status, 200);
    const res = await t.call({ method: 'GET', url: `${EVENTS}?after=${start}` });
    const [event] = res.body.events;
    assert.equal(event.changeType, 'DELETE');
    assert.equal(event.aspect, null);
    assert.deepEqual(event.previousAspectValue, { tags: [{ tag: 'urn:li:tag:gone' }] });
  });

  it('pages in sequence order with limit and nextAfter, each event once', async () => {
    const start = await last();
    for (let i = 0; i < 5; i++) await write(datasetUrn(`events.page${i}`), 'globalTags', { tags: [{ tag: `urn:li:tag:p${i}` }] });
    const all = (await t.call({ method: 'GET', url: `${EVENTS}?after=${start}&limit=1000` })).body.events.map((e: { sequence: number }) => e.sequence);
    const paged: number[] = [];
    for (let after = start; ; ) {
      const res = await t.call({ method: 'GET', url: `${EVENTS}?after=${after}&limit=3` });
      assert.ok(res.body.events.length <= 3);
      if (res.body.events.length === 0) break;
      paged.push(...res.body.events.map((e: { sequence: number }) => e.sequence));
      after = res.body.nextAfter;
    }
    assert.deepEqual(paged, all);
    assert.deepEqual([...all].sort((a, b) => a - b), all);
  });

  it('latest=N gives the newest N events, oldest first, and where to continue', async () => {
    const start = await last();
    for (let i = 0; i < 4; i++) await write(datasetUrn(`events.latest${i}`), 'globalTags', { tags: [{ tag: `urn:li:tag:l${i}` }] });
    const written = (await t.call({ method: 'GET', url: `${EVENTS}?after=${start}&limit=1000` })).body;
    const res = await t.call({ method: 'GET', url: `${EVENTS}?latest=3` });
    assert.equal(res.status, 200);
    assert.deepEqual(res.body, { events: written.events.slice(-3), nextAfter: written.nextAfter });
    const all = (await t.call({ method: 'GET', url: `${EVENTS}?after=0&limit=1000` })).body;
    assert.deepEqual((await t.call({ method: 'GET', url: `${EVENTS}?latest=1000` })).body, all);
  });

  it('answers at once with nothing after the newest event, continuing from there', async () => {
    const start = await last();
    const res = await t.call({ method: 'GET', url: `${EVENTS}?after=${start}` });
    assert.equal(res.status, 200);
    assert.deepEqual(res.body, { events: [], nextAfter: start });
  });

  it('holds a waiting request until a change is committed', async () => {
    const start = await last();
    const began = Date.now();
    const waiting = t.call({ method: 'GET', url: `${EVENTS}?after=${start}&wait=20` });
    await new Promise((resolve) => setTimeout(resolve, 150));
    await write(datasetUrn('events.wake'), 'globalTags', { tags: [{ tag: 'urn:li:tag:wake' }] });
    const res = await waiting;
    assert.equal(res.status, 200);
    assert.ok(Date.now() - began < 5000, 'answered well before the wait ended');
    assert.ok(res.body.events.some((e: { urn: string }) => e.urn === datasetUrn('events.wake')));
  });

  it('answers an empty list when the wait ends with nothing new', async () => {
    const start = await last();
    const began = Date.now();
    const res = await t.call({ method: 'GET', url: `${EVENTS}?after=${start}&wait=0.3` });
    assert.deepEqual(res.body, { events: [], nextAfter: start });
    assert.ok(Date.now() - began >= 290);
  });

  it('filters by entity type, aspect and actor in the query, newest or after a sequence, passing over the rest once', async () => {
    const start = await last();
    const jdoe = { actor: 'urn:li:corpuser:jdoe', source: 'OPENAPI' };
    const orders = datasetUrn('filter.orders', 'snowflake');
    const chart = 'urn:li:chart:(looker,filter.chart)';
    await write(orders, 'globalTags', { tags: [{ tag: 'urn:li:tag:a' }] });
    await t.services.ingest.ingest([{ urn: orders, aspect: 'globalTags', changeType: 'UPSERT', value: { tags: [{ tag: 'urn:li:tag:b' }] } }], jdoe);
    await t.services.ingest.ingest([{ urn: chart, aspect: 'globalTags', changeType: 'UPSERT', value: { tags: [{ tag: 'urn:li:tag:c' }] } }], jdoe);
    await t.services.ingest.ingest([{ urn: orders, aspect: 'datasetProperties', changeType: 'UPSERT', value: { description: 'orders' } }], jdoe);
    const all = (await t.call({ method: 'GET', url: `${EVENTS}?after=${start}&limit=1000` })).body;
    type Event = { sequence: number; urn: string; entityType: string; aspectName: string; created: { actor: string } };
    const mine = (e: Event) => e.urn === orders || e.urn === chart;
    const read = async (query: string) => {
      const res = await t.call({ method: 'GET', url: `${EVENTS}?${query}` });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      return res.body as { events: Event[]; nextAfter: number };
    };
    const shown = (page: { events: Event[] }) => page.events.filter(mine).map((e) => `${e.entityType} ${e.aspectName} ${e.created.actor}`);

    // Each filter, and all three together; entity type and aspect in any case.
    assert.deepEqual(shown(await read(`after=${start}&aspect=globalTags`)), [
      'dataset globalTags urn:li:corpuser:datahub',
      'dataset globalTags urn:li:corpuser:jdoe',
      'chart globalTags urn:li:corpuser:jdoe',
    ]);
    assert.deepEqual(shown(await read(`after=${start}&entityType=DATASET&actor=${enc('urn:li:corpuser:jdoe')}`)), [
      'dataset globalTags urn:li:corpuser:jdoe',
      'dataset datasetProperties urn:li:corpuser:jdoe',
    ]);
    const three = await read(`after=${start}&entityType=dataset&aspect=globaltags&actor=${enc('urn:li:corpuser:jdoe')}`);
    assert.deepEqual(shown(three), ['dataset globalTags urn:li:corpuser:jdoe']);
    assert.deepEqual(three.events[0]!.sequence, all.events.find((e: Event) => e.urn === orders && e.created.actor === 'urn:li:corpuser:jdoe').sequence);
    // Fewer than the limit matched: it continues after the newest event read, not after the last match.
    assert.equal(three.nextAfter, all.nextAfter);

    // latest=N of a filter: its newest N, oldest first; where to continue is the log's newest.
    const latest = await read(`latest=2&aspect=globalTags`);
    assert.deepEqual(shown(latest), ['dataset globalTags urn:li:corpuser:jdoe', 'chart globalTags urn:li:corpuser:jdoe']);
    assert.equal(latest.nextAfter, all.nextAfter);

    // A full page of matches continues after its last one.
    const page = await read(`after=${start}&limit=1&entityType=dataset`);
    assert.equal(page.events.length, 1);
    assert.equal(page.nextAfter, page.events[0]!.sequence);

    // Entity types left out: a positive filter's opposite, in any case, also with latest=N.
    assert.deepEqual(shown(await read(`after=${start}&excludeEntityTypes=CHART`)), shown(all).filter((e) => e.startsWith('dataset ')));
    assert.ok(shown(all).some((e) => e.startsWith('chart ')));
    assert.deepEqual(shown(await read(`latest=1000&excludeEntityTypes=dataset,%20chart`)), []);
    // The catalog's own entities (bootstrapped dataType, entityType, dataPlatform) are in the log and can be left out.
    const system = ['dataPlatform', 'dataType', 'entityType'];
    const everything = await read('latest=1000');
    assert.ok(everything.events.some((e) => system.includes(e.entityType)), 'the bootstrap wrote system entities');
    const withoutSystem = await read(`latest=1000&excludeEntityTypes=${system.join(',')}`);
    assert.deepEqual(withoutSystem.events.filter((e) => system.includes(e.entityType)), []);
    assert.deepEqual(shown(withoutSystem), shown(everything));
    assert.equal(withoutSystem.nextAfter, everything.nextAfter);

    // Nothing matched: an empty page that still moves past the events read.
    assert.deepEqual(await read(`after=${start}&entityType=dashboard`), { events: [], nextAfter: all.nextAfter });
    // A waiting filtered read wakes for a matching change only.
    const waiting = read(`after=${all.nextAfter}&wait=20&entityType=chart`);
    await new Promise((resolve) => setTimeout(resolve, 100));
    await write(datasetUrn('filter.other'), 'globalTags', { tags: [{ tag: 'urn:li:tag:x' }] });
    await t.services.ingest.ingest([{ urn: chart, aspect: 'globalTags', changeType: 'UPSERT', value: { tags: [{ tag: 'urn:li:tag:d' }] } }], jdoe);
    const woken = await waiting;
    assert.deepEqual(woken.events.map((e) => `${e.urn} ${e.aspectName}`), [`${chart} globalTags`]);
  });

  for (const [query, message] of [
    ['entityType=nope', 'entityType: unknown entity type "nope"'],
    ['aspect=nope', 'aspect: no entity type has an aspect "nope"'],
    ['actor=jdoe', 'actor: expected the actor\'s URN (urn:li:corpuser:…), got "jdoe"'],
    ['latest=5&entityType=nope', 'entityType: unknown entity type "nope"'],
    ['excludeEntityTypes=dataset,nope', 'excludeEntityTypes: unknown entity type "nope"'],
    ['after=-1', 'after must be a sequence number (a non-negative integer), got "-1"'],
    ['after=abc', 'after must be a sequence number (a non-negative integer), got "abc"'],
    ['limit=0', 'limit must be an integer from 1 to 1000, got "0"'],
    ['limit=1001', 'limit must be an integer from 1 to 1000, got "1001"'],
    ['wait=61', 'wait must be a number of seconds from 0 to 60, got "61"'],
    ['wait=soon', 'wait must be a number of seconds from 0 to 60, got "soon"'],
    ['latest=0', 'latest must be an integer from 1 to 1000, got "0"'],
    ['latest=x', 'latest must be an integer from 1 to 1000, got "x"'],
    ['latest=5&after=1', 'latest reads the newest events: it cannot be combined with after, limit or wait'],
    ['latest=5&wait=1', 'latest reads the newest events: it cannot be combined with after, limit or wait'],
  ]) {
    it(`refuses ${query}`, async () => {
      const res = await t.call({ method: 'GET', url: `${EVENTS}?${query}` });
      assert.equal(res.status, 400);
      assert.deepEqual(res.body, invalid(message));
    });
  }
});

describe('the change log across processes and over time', () => {
  let dir: string;
  before(() => (dir = mkdtempSync(join(tmpdir(), 'urnbase-events-'))));
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('wakes a waiting reader with a change committed through another connection to the data dir', async () => {
    const reader = await testApp({ dataDir: dir });
    const writer = await testApp({ dataDir: dir });
    try {
      const start = (await reader.call({ method: 'GET', url: `${EVENTS}?limit=1000` })).body.nextAfter;
      const waiting = reader.call({ method: 'GET', url: `${EVENTS}?after=${start}&wait=20` });
      await new Promise((resolve) => setTimeout(resolve, 150));
      const urn = datasetUrn('events.other');
      const res = await writer.call({ method: 'POST', url: `${V2}/dataset/${enc(urn)}/globalTags`, payload: { tags: [{ tag: 'urn:li:tag:x' }] } });
      assert.equal(res.status, 200);
      const began = Date.now();
      const got = await waiting;
      assert.ok(Date.now() - began < 2000, 'found by polling within a second or two');
      assert.ok(got.body.events.some((e: { urn: string }) => e.urn === urn));
    } finally {
      await reader.app.close();
      await writer.app.close();
    }
  });

  it('drops events past the retention, oldest first, keeping the rest and their sequences', async () => {
    const t = await testApp({ dataDir: dir });
    try {
      const store = t.services.store as SqliteStore;
      const before = await store.readEvents(0, 100_000);
      assert.ok(before.length > 2);
      const cut = before[before.length - 2].created.time;
      // Everything created before the second newest event's time goes.
      const pruned = await new ChangeLogRetention(store, 1000).prune(cut + 1000);
      const kept = await store.readEvents(0, 100_000);
      assert.equal(pruned + kept.length, before.length);
      assert.ok(kept.every((e) => e.created.time >= cut));
      assert.deepEqual(kept.map((e) => e.sequence), before.slice(before.length - kept.length).map((e) => e.sequence));
      // Nothing is newer than now: everything goes.
      await new ChangeLogRetention(store, 1).prune(Date.now() + 10);
      assert.deepEqual(await store.readEvents(0, 10), []);
    } finally {
      await t.app.close();
    }
  });

  it('prunes a large log in chunks', async () => {
    const t = await testApp({ dataDir: dir, bodyLimit: 16 * 1024 * 1024 });
    try {
      // Two requests: one may carry at most 10,000 aspect changes.
      for (const half of [0, 1]) {
        const body = Array.from({ length: 6_000 }, (_, i) => ({ urn: datasetUrn(`events.bulk${half * 6_000 + i}`), aspects: { status: { value: { removed: false } } } }));
        const res = await t.call({ method: 'POST', url: `${V2}/dataset`, payload: body });
        assert.ok(res.status < 300, JSON.stringify(res.body));
      }
      const store = t.services.store;
      assert.ok((await store.readEvents(0, 100_000)).length >= 12_000);
      assert.ok((await store.pruneEvents(Date.now() + 10)) >= 12_000);
      assert.deepEqual(await store.readEvents(0, 10), []);
    } finally {
      await t.app.close();
    }
  });
});
