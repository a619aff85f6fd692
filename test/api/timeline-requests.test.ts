import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { datasetUrn, enc, testApp, type TestApp } from '../helpers.js';
import { timeline, write, writtenAt } from './timeline-helpers.js';

const CATEGORY_LIST = 'TAG, OWNER, GLOSSARY_TERM, TECHNICAL_SCHEMA, DOCUMENTATION, DOMAIN, DEPRECATION, LINEAGE, STRUCTURED_PROPERTY';

describe('timeline requests: windows, several categories, raw diffs, paths and refusals', () => {
  let t: TestApp;
  const urn = datasetUrn('timeline.requests');
  const tags = (...names: string[]) => ({ tags: names.map((n) => ({ tag: `urn:li:tag:${n}` })) });
  let times: number[];
  before(async () => {
    t = await testApp();
    await write(t, urn, 'globalTags', tags('a'));
    await write(t, urn, 'ownership', { owners: [{ owner: 'urn:li:corpuser:jane', type: 'DATAOWNER' }] });
    await write(t, urn, 'globalTags', tags('a', 'b'));
    await write(t, urn, 'globalTags', tags('b'));
    times = [
      (await writtenAt(t, urn, 'globalTags', 1)).timestamp,
      (await writtenAt(t, urn, 'ownership', 1)).timestamp,
      (await writtenAt(t, urn, 'globalTags', 2)).timestamp,
      (await writtenAt(t, urn, 'globalTags', 3)).timestamp,
    ];
  });
  after(() => t.app.close());

  const brief = (body: Array<{ timestamp: number; semVer: string; changeEvents: Array<{ category: string; operation: string; modifier: string }> }>) =>
    body.map((tx) => [times.indexOf(tx.timestamp), tx.semVer, tx.changeEvents.map((e) => `${e.category} ${e.operation} ${e.modifier}`)]);

  it('answers several categories in one timeline, in time order, versioned together', async () => {
    const res = await timeline(t, urn, 'categories=TAG&categories=OWNER');
    assert.equal(res.status, 200);
    assert.deepEqual(brief(res.body), [
      [0, '0.0.0-computed', ['TAG ADD urn:li:tag:a']],
      [1, '0.1.0-computed', ['OWNER ADD urn:li:corpuser:jane']],
      [2, '0.2.0-computed', ['TAG ADD urn:li:tag:b']],
      [3, '0.3.0-computed', ['TAG REMOVE urn:li:tag:a']],
    ]);
    assert.deepEqual((await timeline(t, urn, 'categories=TAG,OWNER')).body, res.body, 'comma-separated as well as repeated');
  });

  it('reports only the changes written in [startTime, endTime), the first compared with the value before', async () => {
    const res = await timeline(t, urn, `categories=TAG,OWNER&startTime=${times[1]}&endTime=${times[3]}`);
    assert.equal(res.status, 200);
    assert.deepEqual(brief(res.body), [
      [1, '0.0.0-computed', ['OWNER ADD urn:li:corpuser:jane']],
      [2, '0.1.0-computed', ['TAG ADD urn:li:tag:b']],
    ]);
    assert.deepEqual((await timeline(t, urn, `categories=TAG&startTime=${times[3] + 1}`)).body, []);
  });

  it('defaults to the week before now (startTime=-1, endTime=0), as DataHub', async () => {
    const week = 7 * 24 * 60 * 60 * 1000;
    assert.equal((await timeline(t, urn, 'categories=TAG&startTime=-1&endTime=0')).body.length, 3);
    assert.deepEqual((await timeline(t, urn, `categories=TAG&endTime=${times[0] - 1}`)).body, [], 'nothing in the week before endTime');
    assert.deepEqual(brief((await timeline(t, urn, `categories=TAG&endTime=${times[0] + week}`)).body).map(([i]) => i), [0, 2, 3], 'the week from the first write');
  });

  it('adds the raw JSON Patch of each aspect change with raw=true', async () => {
    const res = await timeline(t, urn, 'categories=TAG&raw=true');
    assert.equal(res.status, 200);
    assert.deepEqual(
      res.body.map((tx: { rawDiff: unknown }) => tx.rawDiff),
      [
        [{ op: 'add', path: '/tags', value: [{ tag: 'urn:li:tag:a' }] }],
        [{ op: 'add', path: '/tags/1', value: { tag: 'urn:li:tag:b' } }],
        [{ op: 'remove', path: '/tags/0' }],
      ],
    );
    assert.ok((await timeline(t, urn, 'categories=TAG&raw=false')).body.every((tx: object) => !('rawDiff' in tx)));
  });

  it('answers the same on DataHub\'s three timeline paths, and the `datahub timeline` CLI\'s request', async () => {
    const expected = (await timeline(t, urn, 'categories=TAG&startTime=0')).body;
    for (const path of ['/openapi/timeline/v1', '/openapi/v1/timeline']) {
      const res = await t.call({ method: 'GET', url: `${path}/${enc(urn)}?categories=TAG&startTime=0` });
      assert.deepEqual([res.status, res.body], [200, expected], path);
    }
    // The CLI upper-cases the categories, joins them with commas and sends Python's True.
    const cli = await t.call({ method: 'GET', url: `/openapi/timeline/v1/${enc(urn)}?categories=TAG,OWNER&startTime=${times[0]}&endTime=${times[3] + 1}&raw=True` });
    assert.equal(cli.status, 200);
    assert.deepEqual(brief(cli.body).map(([i]) => i), [0, 1, 2, 3]);
    assert.ok(cli.body.every((tx: object) => 'rawDiff' in tx));
  });

  it('answers an empty list for an entity without history, and for categories it has no aspect of', async () => {
    assert.deepEqual(await timeline(t, datasetUrn('timeline.nothing'), 'categories=TAG').then((r) => [r.status, r.body]), [200, []]);
    assert.deepEqual(await timeline(t, urn, 'categories=DOMAIN,DEPRECATION').then((r) => [r.status, r.body]), [200, []]);
    assert.deepEqual(await timeline(t, urn, `categories=TAG&startTime=${times[3]}&endTime=${times[0]}`).then((r) => [r.status, r.body]), [200, []], 'an empty window');
  });

  it('serves any entity type by the aspects it has', async () => {
    const chart = 'urn:li:chart:(looker,timeline.chart)';
    await write(t, chart, 'globalTags', tags('kpi'));
    const res = await timeline(t, chart, 'categories=TAG');
    assert.equal(res.status, 200);
    assert.deepEqual(res.body[0].changeEvents.map((e: { entityUrn: string; modifier: string }) => [e.entityUrn, e.modifier]), [[chart, 'urn:li:tag:kpi']]);
    assert.equal(res.body[0].versionStamp, 'browsePathsV2:0;chartKey:0;globalTags:0');
  });

  it('refuses an invalid URN and an unknown entity type (400)', async () => {
    assert.deepEqual(await timeline(t, 'urn:li:nope:x', 'categories=TAG').then((r) => [r.status, r.body]), [400, { error: 'Invalid urn!: urn:li:nope:x' }]);
    assert.deepEqual(await timeline(t, 'not-a-urn', 'categories=TAG').then((r) => [r.status, r.body]), [400, { error: 'Invalid urn!: not-a-urn' }]);
  });

  it('refuses a request without categories, or naming an unknown one (400, naming the parameter)', async () => {
    assert.deepEqual(await timeline(t, urn, 'startTime=0').then((r) => [r.status, r.body]), [400, { error: 'Validation Error', message: "querystring must have required property 'categories'" }]);
    assert.deepEqual(await timeline(t, urn, 'categories=').then((r) => [r.status, r.body]), [400, { error: 'Validation Error', message: `categories is required: one or more of ${CATEGORY_LIST}` }]);
    assert.deepEqual(await timeline(t, urn, 'categories=TAG,LIFECYCLE').then((r) => [r.status, r.body]), [
      400,
      { error: 'Validation Error', message: `categories: "LIFECYCLE" is not a timeline category; one of ${CATEGORY_LIST}` },
    ]);
  });

  it('refuses times that are not whole numbers and a raw that is not a boolean (400, naming the parameter)', async () => {
    assert.deepEqual(await timeline(t, urn, 'categories=TAG&startTime=yesterday').then((r) => [r.status, r.body]), [400, { error: 'Validation Error', message: 'querystring/startTime must be integer' }]);
    assert.deepEqual(await timeline(t, urn, 'categories=TAG&endTime=1.5').then((r) => [r.status, r.body]), [400, { error: 'Validation Error', message: 'querystring/endTime must be integer' }]);
    assert.deepEqual(await timeline(t, urn, 'categories=TAG&raw=maybe').then((r) => [r.status, r.body]), [400, { error: 'Validation Error', message: 'querystring/raw must be boolean' }]);
  });

  it('changes nothing: a refused request leaves the change log as it was', async () => {
    const before = (await t.services.store.readEvents(0, 10_000)).length;
    await timeline(t, urn, 'categories=NOPE');
    await timeline(t, urn, 'categories=TAG');
    assert.equal((await t.services.store.readEvents(0, 10_000)).length, before);
  });
});
