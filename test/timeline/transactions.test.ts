import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { AspectVersion } from '../../src/store/store.js';
import type { AspectDiffer } from '../../src/timeline/differ.js';
import { DIFFERS } from '../../src/timeline/differs/index.js';
import type { ChangeCategory } from '../../src/timeline/model.js';
import { computeTimeline, type TimelineQuery } from '../../src/timeline/transactions.js';

const urn = 'urn:li:dataset:(urn:li:dataPlatform:hive,tx.t,PROD)';
const tags = (...names: string[]) => ({ tags: names.map((n) => ({ tag: `urn:li:tag:${n}` })) });
const field = (fieldPath: string, nativeDataType = 'int', description?: string) => ({ fieldPath, nativeDataType, type: { type: { 'com.linkedin.schema.NumberType': {} } }, ...(description ? { description } : {}) });
const schema = (...fields: object[]) => ({ schemaName: 's', platform: 'urn:li:dataPlatform:hive', version: 0, hash: '', platformSchema: { 'com.linkedin.schema.MySqlDDL': { tableSchema: '' } }, fields });

/** An aspect's versions written at the given times (the last one the latest). */
function history(aspect: string, ...writes: Array<[time: number, value: unknown, actor?: string]>): AspectVersion[] {
  return writes.map(([time, value, actor], i) => ({
    aspect,
    version: i + 1,
    latest: i === writes.length - 1,
    value,
    created: { time, actor: actor ?? 'urn:li:corpuser:a' },
  }));
}

const query = (categories: ChangeCategory[], more: Partial<TimelineQuery> = {}): TimelineQuery => ({ urn, categories, start: 0, end: 10_000, raw: false, ...more });
const summary = (txs: Awaited<ReturnType<typeof computeTimeline>>) =>
  txs.map((t) => [t.timestamp, t.semVer, t.semVerChange, t.changeEvents.map((e) => `${e.operation} ${e.modifier ?? ''}`.trim())]);

describe('timeline transactions from aspect versions', () => {
  it("compares an aspect's first version with nothing, and each later one with the one before", async () => {
    const versions = history('globalTags', [100, tags('a')], [200, tags('a', 'b')], [300, tags('b')]);
    assert.deepEqual(summary(await computeTimeline(versions, query(['TAG']), DIFFERS)), [
      [100, '0.0.0-computed', 'MINOR', ['ADD urn:li:tag:a']],
      [200, '0.1.0-computed', 'MINOR', ['ADD urn:li:tag:b']],
      [300, '0.2.0-computed', 'MINOR', ['REMOVE urn:li:tag:a']],
    ]);
  });

  it('starts at 0.0.0 whatever the first change, then bumps MAJOR, MINOR and PATCH, resetting the parts below', async () => {
    const versions = history(
      'schemaMetadata',
      [100, schema(field('a'), field('b'))],
      [200, schema(field('a'))], // b removed: MAJOR
      [300, schema(field('a'), field('c'))], // c added: MINOR
      [400, schema(field('a', 'int', 'the a'), field('c'))], // a documented: MINOR
      [500, schema(field('a', 'int', 'the A'), field('c'))], // its documentation edited: PATCH
      [600, schema(field('a', 'bigint', 'the A'), field('c'))], // a retyped: MAJOR
    );
    assert.deepEqual(
      (await computeTimeline(versions, query(['TECHNICAL_SCHEMA', 'DOCUMENTATION']), DIFFERS)).map((t) => [t.timestamp, t.semVer, t.semVerChange]),
      [
        [100, '0.0.0-computed', 'MINOR'],
        [200, '1.0.0-computed', 'MAJOR'],
        [300, '1.1.0-computed', 'MINOR'],
        [400, '1.2.0-computed', 'MINOR'],
        [500, '1.2.1-computed', 'PATCH'],
        [600, '2.0.0-computed', 'MAJOR'],
      ],
    );
  });

  it('reports the versions written in [start, end), the first compared with the version before the window', async () => {
    const versions = history('globalTags', [100, tags('a')], [200, tags('a', 'b')], [300, tags('b')], [400, tags('b', 'c')]);
    assert.deepEqual(summary(await computeTimeline(versions, query(['TAG'], { start: 200, end: 400 }), DIFFERS)), [
      [200, '0.0.0-computed', 'MINOR', ['ADD urn:li:tag:b']],
      [300, '0.1.0-computed', 'MINOR', ['REMOVE urn:li:tag:a']],
    ]);
    assert.deepEqual(await computeTimeline(versions, query(['TAG'], { start: 401, end: 10_000 }), DIFFERS), []);
  });

  it("merges the changes written at one time into one transaction: every aspect's events, the heaviest change, the first's actor", async () => {
    const versions = [
      ...history('globalTags', [100, tags('a')], [200, tags('a', 'b'), 'urn:li:corpuser:tagger']),
      ...history('schemaMetadata', [100, schema(field('x'), field('y'))], [200, schema(field('x')), 'urn:li:corpuser:schemer']),
    ];
    const [, second] = await computeTimeline(versions, query(['TECHNICAL_SCHEMA', 'TAG']), DIFFERS);
    assert.equal(second.actor, 'urn:li:corpuser:tagger', 'aspects in name order: globalTags first');
    assert.equal(second.semVerChange, 'MAJOR');
    assert.equal(second.semVer, '1.0.0-computed');
    assert.deepEqual(second.changeEvents.map((e) => [e.category, e.operation]), [['TAG', 'ADD'], ['TECHNICAL_SCHEMA', 'REMOVE']]);
  });

  it('stamps each transaction with every aspect as it stood then: 0 for a latest version, its number otherwise', async () => {
    const versions = [
      ...history('datasetKey', [100, { name: 'tx.t' }]),
      ...history('globalTags', [100, tags('a')], [200, tags('b')], [300, tags('c')]),
      ...history('status', [250, { removed: false }]),
    ];
    assert.deepEqual((await computeTimeline(versions, query(['TAG']), DIFFERS)).map((t) => t.versionStamp), [
      'datasetKey:0;globalTags:1',
      'datasetKey:0;globalTags:2',
      'datasetKey:0;globalTags:0;status:0',
    ]);
  });

  it('adds the raw JSON Patch of the aspect change when asked', async () => {
    const versions = history('globalTags', [100, tags('a')], [200, tags('a', 'b')]);
    const [first, second] = await computeTimeline(versions, query(['TAG'], { raw: true }), DIFFERS);
    assert.deepEqual(first.rawDiff, [{ op: 'add', path: '/tags', value: [{ tag: 'urn:li:tag:a' }] }]);
    assert.deepEqual(second.rawDiff, [{ op: 'add', path: '/tags/1', value: { tag: 'urn:li:tag:b' } }]);
    assert.deepEqual(Object.keys(second), ['timestamp', 'actor', 'semVer', 'semVerChange', 'changeEvents', 'rawDiff', 'versionStamp']);
    const [plain] = await computeTimeline(versions, query(['TAG']), DIFFERS);
    assert.deepEqual(Object.keys(plain), ['timestamp', 'actor', 'semVer', 'semVerChange', 'changeEvents', 'versionStamp']);
  });

  it('reports a change it cannot compute as EXCEPTIONAL, keeping the rest of the timeline', async () => {
    const failing: AspectDiffer = {
      aspect: 'globalTags',
      categories: ['TAG'],
      events: (previous) => {
        if (previous !== undefined) throw new Error('unreadable value');
        return DIFFERS.get('globalTags')!.events(previous, tags('a'), 'TAG', urn);
      },
    };
    const txs = await computeTimeline(history('globalTags', [100, tags('a')], [200, tags('b')]), query(['TAG']), new Map([['globalTags', failing]]));
    assert.deepEqual(txs.map((t) => [t.semVer, t.semVerChange]), [['0.0.0-computed', 'MINOR'], ['0.0.0-computed', 'EXCEPTIONAL']]);
    assert.deepEqual(txs[1].changeEvents, [
      { entityUrn: urn, category: 'TAG', semVerChange: 'EXCEPTIONAL', description: 'The TAG changes of globalTags version 2 could not be computed: unreadable value' },
    ]);
  });

  it('leaves out aspects of categories not asked for, and changes without events', async () => {
    const versions = [...history('globalTags', [100, tags('a')]), ...history('ownership', [200, { owners: [] }], [300, { owners: [] }])];
    assert.deepEqual(await computeTimeline(versions, query(['OWNER']), DIFFERS), []);
  });
});
