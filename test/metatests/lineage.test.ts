import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { datasetUrn, type TestApp, testApp, upstreams } from '../helpers.js';
import { aspect, brief, defineTest, evaluate, write } from './fixtures.js';

const PII = 'urn:li:tag:pii';
const tagged = { tags: [{ tag: PII }] };

/** The example: a dataset with an upstream tagged PII (within the default 10 hops) is tagged PII itself. */
const PII_FOLLOWS_LINEAGE = {
  on: { types: ['dataset'], conditions: { property: '__upstreams.globalTags.tags.tag', operator: 'equals', value: PII } },
  rules: [{ property: 'globalTags.tags.tag', operator: 'equals', value: PII }],
};
const TAG_RULE_FAILED = { condition: 'rules[0]', property: 'globalTags.tags.tag', operator: 'equals', values: [PII], found: [] };

/**
 * Lineage steps in property paths (both stores): `__upstreams`, `__downstreams`, with `:N` hops,
 * over a chain src (PII) → mid → leaf (PII), a job reading a PII dataset and writing another, a
 * chain of 12 datasets (PII at its far end), a two-dataset cycle, and a soft-deleted PII upstream.
 */
describe('metadata tests: lineage steps', () => {
  let t: TestApp;
  let piiTest: string;
  const src = datasetUrn('mt.src');
  const mid = datasetUrn('mt.mid');
  const leaf = datasetUrn('mt.leaf');
  const jobIn = datasetUrn('mt.job_in');
  const jobOut = datasetUrn('mt.job_out');
  const job = 'urn:li:dataJob:(urn:li:dataFlow:(airflow,mt_copy,prod),copy)';
  const chain = Array.from({ length: 12 }, (_, i) => datasetUrn(`mt.chain${String(i).padStart(2, '0')}`));
  const ping = datasetUrn('mt.ping');
  const pong = datasetUrn('mt.pong');
  const gone = datasetUrn('mt.gone');
  const behindGone = datasetUrn('mt.behind_gone');

  /** What a property path resolves to, seen through a failing `equals` leaf's explanation. */
  async function found(urn: string, property: string, types = ['dataset']): Promise<unknown[]> {
    const definition = { on: { types }, rules: [{ property, operator: 'equals', value: '\u0000never' }] };
    const res = await evaluate(t, { urn, definition }, 'evaluateDefinition');
    assert.equal(res.status, 200, res.raw);
    return res.body.value.explanation[0].found;
  }

  before(async () => {
    t = await testApp();
    await write(t, 'dataset', src, 'globalTags', tagged);
    await write(t, 'dataset', mid, 'upstreamLineage', upstreams(src));
    await write(t, 'dataset', leaf, 'upstreamLineage', upstreams(mid));
    await write(t, 'dataset', leaf, 'globalTags', tagged);
    await write(t, 'dataset', jobIn, 'globalTags', tagged);
    await write(t, 'dataJob', job, 'dataJobInputOutput', { inputDatasets: [jobIn], outputDatasets: [jobOut] });
    await write(t, 'dataset', jobOut, 'datasetProperties', { name: 'job_out' });
    await write(t, 'dataset', chain[0], 'globalTags', tagged);
    for (let i = 1; i < chain.length; i++) await write(t, 'dataset', chain[i], 'upstreamLineage', upstreams(chain[i - 1]));
    await write(t, 'dataset', ping, 'upstreamLineage', upstreams(pong));
    await write(t, 'dataset', pong, 'upstreamLineage', upstreams(ping));
    await write(t, 'dataset', gone, 'globalTags', tagged);
    await write(t, 'dataset', gone, 'status', { removed: true });
    await write(t, 'dataset', behindGone, 'upstreamLineage', upstreams(gone));
    piiTest = await defineTest(t, 'pii-follows-lineage', PII_FOLLOWS_LINEAGE);
  });
  after(() => t.app.close());

  it('__upstreams yields the upstream URNs, nearest first; :N stops at N hops', async () => {
    assert.deepEqual(await found(leaf, '__upstreams'), [mid, src]);
    assert.deepEqual(await found(leaf, '__upstreams:1'), [mid]);
    assert.deepEqual(await found(src, '__upstreams'), []);
  });

  it('__downstreams goes the other way', async () => {
    assert.deepEqual(await found(src, '__downstreams'), [mid, leaf]);
    assert.deepEqual(await found(jobIn, '__downstreams'), [job, jobOut]);
  });

  it('goes through jobs: dataset → job → dataset is two hops', async () => {
    assert.deepEqual(await found(jobOut, '__upstreams'), [job, jobIn]);
    assert.deepEqual(await found(jobOut, '__upstreams:1'), [job]);
    assert.deepEqual(await found(jobOut, '__upstreams.entityType'), ['dataJob', 'dataset']);
  });

  it('reads the rest of the path on each entity reached (types without its aspect find nothing)', async () => {
    assert.deepEqual(await found(leaf, '__upstreams.globalTags.tags.tag'), [PII]);
    assert.deepEqual(await found(leaf, '__upstreams:1.globalTags.tags.tag'), []);
    assert.deepEqual(await found(jobOut, '__upstreams.globalTags.tags.tag'), [PII]);
    assert.deepEqual(await found(jobIn, '__downstreams.datasetProperties.name'), ['job_out']);
  });

  it('stops at 10 hops by default; :N reaches further', async () => {
    assert.deepEqual(await found(chain[11], '__upstreams'), chain.slice(1, 11).reverse());
    assert.deepEqual(await found(chain[11], '__upstreams.globalTags.tags.tag'), []);
    assert.deepEqual(await found(chain[11], '__upstreams:11.globalTags.tags.tag'), [PII]);
    assert.deepEqual(await found(chain[10], '__upstreams.globalTags.tags.tag'), [PII]);
  });

  it('ends on a cycle, each entity once', async () => {
    assert.deepEqual(await found(ping, '__upstreams'), [pong]);
    assert.deepEqual(await found(ping, '__downstreams:5'), [pong]);
  });

  it('leaves soft-deleted entities out, and does not walk through them', async () => {
    assert.deepEqual(await found(behindGone, '__upstreams'), []);
  });

  it('follows lineage after a URN hop', async () => {
    assert.deepEqual(await found(leaf, 'upstreamLineage.upstreams.dataset.__upstreams'), [src]);
  });

  it('POST /gms/test?action=evaluate answers the issue\'s example: upstream tagged PII, so tagged PII', async () => {
    const failing = await evaluate(t, { urn: mid });
    assert.equal(failing.status, 200, failing.raw);
    assert.deepEqual(brief(failing.body.value), { passing: [], failing: [piiTest] });
    assert.deepEqual(failing.body.value.failing[0].explanation, [TAG_RULE_FAILED]);
    assert.deepEqual(brief((await evaluate(t, { urn: leaf })).body.value), { passing: [piiTest], failing: [] });
    assert.deepEqual(brief((await evaluate(t, { urn: jobOut })).body.value), { passing: [], failing: [piiTest] });
  });

  it('selects no dataset without a PII upstream within 10 hops', async () => {
    for (const urn of [src, chain[11], ping, behindGone]) {
      const res = await evaluate(t, { urn });
      assert.deepEqual(res.body.value, { passing: [], failing: [] }, urn);
    }
    assert.deepEqual(brief((await evaluate(t, { urn: chain[10] })).body.value), { passing: [], failing: [piiTest] });
  });

  it('gives each entity its verdict in one batchEvaluate, and a catalog run counts the same', async () => {
    const all = [src, mid, leaf, jobIn, jobOut, ...chain, ping, pong, behindGone];
    const res = await evaluate(t, { urns: all }, 'batchEvaluate');
    assert.equal(res.status, 200, res.raw);
    const verdicts = Object.fromEntries(all.map((urn) => [urn, brief(res.body.value.results[urn])]));
    const none = { passing: [], failing: [] };
    const fail = { passing: [], failing: [piiTest] };
    assert.deepEqual(verdicts, {
      [src]: none,
      [mid]: fail,
      [leaf]: { passing: [piiTest], failing: [] },
      [jobIn]: none,
      [jobOut]: fail,
      ...Object.fromEntries(chain.map((urn, i) => [urn, i === 0 || i === 11 ? none : fail])),
      [ping]: none,
      [pong]: none,
      [behindGone]: none,
    });
    const summary = await t.services.tests.run({ tests: [piiTest], push: false, actor: 'urn:li:corpuser:datahub', pageSize: 4 });
    assert.deepEqual(summary.tests, [{ urn: piiTest, name: 'pii-follows-lineage', selected: 13, passing: 1, failing: 12 }]);
  });

  it('an action can carry the tag down: push tags a failing dataset, which then passes', async () => {
    const propagate = await defineTest(t, 'pii-propagates', { ...PII_FOLLOWS_LINEAGE, actions: { failing: [{ type: 'ADD_TAGS', params: { values: [PII] } }] } }, { schedule: 'NONE' });
    const pushed = await evaluate(t, { urn: mid, testUrns: [propagate], push: true });
    assert.deepEqual(brief(pushed.body.value), { passing: [], failing: [propagate] });
    assert.deepEqual(await aspect(t, 'dataset', mid, 'globalTags'), tagged);
    assert.deepEqual(brief((await evaluate(t, { urn: mid, testUrns: [propagate] })).body.value), { passing: [propagate], failing: [] });
  });

  it('reads the lineage as it is now: a new edge counts at once', async () => {
    const late = datasetUrn('mt.late');
    await write(t, 'dataset', late, 'datasetProperties', { name: 'late' });
    assert.deepEqual((await evaluate(t, { urn: late, testUrns: [piiTest] })).body.value, { passing: [], failing: [] });
    await write(t, 'dataset', late, 'upstreamLineage', upstreams(leaf));
    assert.deepEqual(brief((await evaluate(t, { urn: late, testUrns: [piiTest] })).body.value), { passing: [], failing: [piiTest] });
  });
});

describe('metadata tests: a lineage step past 1,000 entities is not judged on part of them', () => {
  let t: TestApp;
  const wide = datasetUrn('mt.wide');
  const many = Array.from({ length: 1001 }, (_, i) => datasetUrn(`mt.up${String(i).padStart(4, '0')}`));
  const UNDECIDED = `more than 1,000 entities upstream of ${wide} within 10 hops: the condition is not judged on part of them`;
  const verdict = async (rules: unknown, conditions?: unknown) => {
    const res = await evaluate(t, { urn: wide, definition: { on: { types: ['dataset'], ...(conditions ? { conditions } : {}) }, rules } }, 'evaluateDefinition');
    assert.equal(res.status, 200, res.raw);
    return res.body.value;
  };
  const upstreamPii = { property: '__upstreams.globalTags.tags.tag', operator: 'equals', value: PII };
  const always = { property: 'urn', operator: 'exists' };
  const never = { property: 'datasetProperties.description', operator: 'exists' };

  before(async () => {
    t = await testApp();
    await write(t, 'dataset', wide, 'upstreamLineage', upstreams(...many));
    await write(t, 'dataset', many[0], 'datasetProperties', { name: 'up0000' });
  });
  after(() => t.app.close());

  it('fails the test on that entity, explaining why', async () => {
    assert.deepEqual(await verdict([upstreamPii]), {
      result: 'FAIL',
      explanation: [{ condition: 'rules[0]', property: '__upstreams.globalTags.tags.tag', operator: 'equals', values: [PII], found: [], undecided: UNDECIDED }],
    });
    assert.deepEqual(await verdict([{ not: upstreamPii }]), {
      result: 'FAIL',
      explanation: [{ condition: 'rules[0].not', property: '__upstreams.globalTags.tags.tag', operator: 'equals', values: [PII], found: [], undecided: UNDECIDED }],
    });
  });

  it('fails it too when the step is in on.conditions (the entity may or may not be in scope)', async () => {
    const res = await verdict([always], upstreamPii);
    assert.equal(res.result, 'FAIL');
    assert.deepEqual(res.explanation.map((c: { condition: string; undecided?: string }) => [c.condition, c.undecided]), [['on.conditions', UNDECIDED]]);
  });

  it('does not matter where the rest decides anyway: an or that holds, an and that fails', async () => {
    assert.deepEqual(await verdict({ or: [upstreamPii, always] }), { result: 'PASS', explanation: [] });
    assert.deepEqual(await verdict({ and: [upstreamPii, never] }), {
      result: 'FAIL',
      explanation: [
        { condition: 'rules.and[0]', property: '__upstreams.globalTags.tags.tag', operator: 'equals', values: [PII], found: [], undecided: UNDECIDED },
        { condition: 'rules.and[1]', property: 'datasetProperties.description', operator: 'exists', values: [], found: [] },
      ],
    });
  });

  it('is within bounds with fewer hops or the other way', async () => {
    assert.deepEqual(await verdict([{ property: '__downstreams', operator: 'exists', negate: true }]), { result: 'PASS', explanation: [] });
    const first = await evaluate(t, { urn: many[0], definition: { on: { types: ['dataset'] }, rules: [{ property: '__downstreams', operator: 'equals', value: wide }] } }, 'evaluateDefinition');
    assert.deepEqual(first.body.value, { result: 'PASS', explanation: [] });
  });
});

describe('metadata tests: lineage steps are checked when a test is written', () => {
  let t: TestApp;
  before(async () => {
    t = await testApp();
  });
  after(() => t.app.close());

  const refused: Array<[string, string, string]> = [
    ['no hops', '__upstreams:0', '"__upstreams:0" is not a property of dataset: __upstreams:N takes hops N from 1 to 100, got "0"'],
    ['too many hops', '__downstreams:101.urn', '"__downstreams:101.urn" is not a property of dataset: __downstreams:N takes hops N from 1 to 100, got "101"'],
    ['hops that are not a number', '__upstreams:two', '"__upstreams:two" is not a property of dataset: __upstreams:N takes hops N from 1 to 100, got "two"'],
    ['two lineage steps', '__upstreams.__downstreams', '"__upstreams.__downstreams" follows lineage more than once: a path may take one lineage step'],
    ['a path no entity has', '__upstreams.nope.x', '"__upstreams.nope.x" is not a property of dataset: __upstreams reaches entities of any type, and none has nope.x'],
  ];
  for (const [why, property, message] of refused) {
    it(`answers 400 for ${why}`, async () => {
      const res = await evaluate(t, { urn: datasetUrn('mt.any'), definition: { on: { types: ['dataset'] }, rules: [{ property, operator: 'exists' }] } }, 'evaluateDefinition');
      assert.equal(res.status, 400);
      assert.deepEqual(res.body, { error: 'Validation Error', message: `rules[0].property: ${message}` });
    });
  }
});
