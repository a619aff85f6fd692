import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { pathProblem } from '../../src/metatests/paths.js';
import { datasetUrn, enc, testApp, V2, type TestApp } from '../helpers.js';
import { aspect, brief, defineTest, evaluate, write } from './fixtures.js';

const SNOWFLAKE = { property: 'dataPlatformInstance.platform', operator: 'equals', value: 'urn:li:dataPlatform:snowflake' };
const HAS_OWNER = { property: 'ownership.owners.owner', operator: 'exists' };
const HAS_DESCRIPTION = {
  or: [
    { property: 'datasetProperties.description', operator: 'exists' },
    { property: 'editableDatasetProperties.description', operator: 'exists' },
  ],
};

describe('POST /gms/test?action=evaluate', () => {
  let t: TestApp;
  let compliance: string;
  const good = datasetUrn('eval.good', 'snowflake');
  const bad = datasetUrn('eval.bad', 'snowflake');
  const hive = datasetUrn('eval.hive', 'hive');

  before(async () => {
    t = await testApp();
    compliance = await defineTest(t, 'compliance', {
      on: { types: ['dataset'], conditions: SNOWFLAKE },
      rules: { and: [HAS_OWNER, HAS_DESCRIPTION] },
      actions: {
        passing: [{ type: 'ADD_TAGS', params: { values: ['urn:li:tag:Compliant'] } }],
        failing: [{ type: 'REMOVE_TAGS', params: { values: ['urn:li:tag:Compliant'] } }],
      },
    });
    await write(t, 'dataset', good, 'ownership', { owners: [{ owner: 'urn:li:corpuser:jane', type: 'DATAOWNER' }] });
    await write(t, 'dataset', good, 'editableDatasetProperties', { description: 'Orders' });
    await write(t, 'dataset', bad, 'datasetProperties', { name: 'bad' });
    await write(t, 'dataset', hive, 'ownership', { owners: [{ owner: 'urn:li:corpuser:jane', type: 'DATAOWNER' }] });
  });
  after(() => t.app.close());

  it('stamps the definition md5 on write (computed by the server)', async () => {
    const info = await aspect(t, 'test', compliance, 'testInfo');
    assert.equal(info.definition.md5, createHash('md5').update(info.definition.json).digest('hex'));
  });

  it('answers {value:{passing, failing}} with full TestResults', async () => {
    const res = await evaluate(t, { urn: good });
    assert.equal(res.status, 200);
    const [result] = res.body.value.passing;
    assert.deepEqual(Object.keys(result).sort(), ['lastComputed', 'test', 'testDefinitionMd5', 'type']);
    assert.equal(result.test, compliance);
    assert.equal(result.type, 'SUCCESS');
    assert.match(result.testDefinitionMd5, /^[0-9a-f]{32}$/);
    assert.equal(result.lastComputed.actor, 'urn:li:corpuser:datahub');
    assert.deepEqual(res.body.value.failing, []);
  });

  it('explains a failure with the leaf conditions that failed and the values found', async () => {
    const res = await evaluate(t, { urn: bad });
    assert.equal(res.status, 200);
    assert.deepEqual(brief(res.body.value), { passing: [], failing: [compliance] });
    assert.equal(res.body.value.failing[0].type, 'FAILURE');
    assert.deepEqual(res.body.value.failing[0].explanation, [
      { condition: 'rules.and[0]', property: 'ownership.owners.owner', operator: 'exists', values: [], found: [] },
      { condition: 'rules.and[1].or[0]', property: 'datasetProperties.description', operator: 'exists', values: [], found: [] },
      { condition: 'rules.and[1].or[1]', property: 'editableDatasetProperties.description', operator: 'exists', values: [], found: [] },
    ]);
  });

  it('gives no result for an entity the test does not select', async () => {
    const res = await evaluate(t, { urn: hive });
    assert.deepEqual(res.body.value, { passing: [], failing: [] });
  });

  it('push:false writes nothing', async () => {
    await evaluate(t, { urn: good, push: false });
    assert.equal(await aspect(t, 'dataset', good, 'testResults'), undefined);
    assert.equal(await aspect(t, 'dataset', good, 'globalTags'), undefined);
  });

  it('push:true writes testResults and runs the actions, idempotently', async () => {
    const first = await evaluate(t, { urn: good, push: true });
    assert.equal(first.status, 200);
    const stored = await aspect(t, 'dataset', good, 'testResults');
    assert.deepEqual(brief(stored), { passing: [compliance], failing: [] });
    assert.equal(stored.passing[0].testDefinitionMd5, first.body.value.passing[0].testDefinitionMd5);
    assert.deepEqual(await aspect(t, 'dataset', good, 'globalTags'), { tags: [{ tag: 'urn:li:tag:Compliant' }] });
    const again = await evaluate(t, { urn: good, push: true });
    assert.equal(again.status, 200);
    const history = await t.call({ method: 'GET', url: `${V2}/dataset/${enc(good)}/globalTags?systemMetadata=true` });
    assert.equal(history.body.systemMetadata.version, '1', 'the tag was not written again');
    const results = await t.call({ method: 'GET', url: `${V2}/dataset/${enc(good)}/testResults?systemMetadata=true` });
    assert.equal(results.body.systemMetadata.version, '1', 'unchanged results are not rewritten');
  });

  it('failing actions run on failing entities', async () => {
    await write(t, 'dataset', bad, 'globalTags', { tags: [{ tag: 'urn:li:tag:Compliant' }, { tag: 'urn:li:tag:pii' }] });
    await evaluate(t, { urn: bad, push: true });
    assert.deepEqual(await aspect(t, 'dataset', bad, 'globalTags'), { tags: [{ tag: 'urn:li:tag:pii' }] });
    assert.deepEqual(brief(await aspect(t, 'dataset', bad, 'testResults')), { passing: [], failing: [compliance] });
  });

  it('accepts DataHub spellings: tests and shouldPush', async () => {
    const res = await evaluate(t, { urn: good, tests: [compliance], shouldPush: false });
    assert.equal(res.status, 200);
    assert.deepEqual(brief(res.body.value), { passing: [compliance], failing: [] });
  });

  it('answers 404 for an unknown entity', async () => {
    const missing = datasetUrn('eval.missing');
    const res = await evaluate(t, { urn: missing });
    assert.equal(res.status, 404);
    assert.deepEqual(res.body, { error: 'Not Found', message: `Entity ${missing} not found` });
  });

  const malformed: Array<[string, unknown, number, unknown]> = [
    ['no urn', {}, 400, { error: 'Validation Error', message: 'urn is required: the URN of the entity to evaluate' }],
    ['a malformed urn', { urn: 'urn:li:dataset:(' }, 400, { error: 'Invalid urn!: urn:li:dataset:(' }],
    ['push that is not a boolean', { urn: 'urn:li:tag:x', push: 'yes' }, 400, { error: 'Validation Error', message: 'push must be true or false' }],
    ['testUrns that is not a list', { urn: 'urn:li:tag:x', testUrns: 'urn:li:test:a' }, 400, { error: 'Validation Error', message: 'testUrns must be a list of test URNs' }],
    ['a body that is not an object', [1], 400, { error: 'Validation Error', message: 'The body must be a JSON object' }],
  ];
  for (const [why, body, status, expected] of malformed) {
    it(`answers ${status} for ${why}`, async () => {
      const res = await evaluate(t, body);
      assert.equal(res.status, status);
      assert.deepEqual(res.body, expected);
    });
  }

  it('answers 400 naming an unknown test', async () => {
    const res = await evaluate(t, { urn: good, testUrns: ['urn:li:test:nope'] });
    assert.equal(res.status, 400);
    assert.deepEqual(res.body, { error: 'Validation Error', message: 'Unknown test urn:li:test:nope' });
  });

  it('answers 400 for an unknown action', async () => {
    const res = await t.call({ method: 'POST', url: '/gms/test?action=explode', payload: { urn: good } });
    assert.equal(res.status, 400);
    assert.equal(res.body.error, 'Validation Error');
  });

  it('rejects a testInfo whose definition does not validate, pointing at the spot', async () => {
    const res = await t.call({
      method: 'POST',
      url: `${V2}/test/${enc('urn:li:test:broken')}/testInfo`,
      payload: { name: 'broken', category: 'x', definition: { type: 'JSON', json: JSON.stringify({ on: { types: ['dataset'] }, rules: { and: [HAS_OWNER, { property: 'urn', operator: 'eq', value: 'x' }] } }) } },
    });
    assert.equal(res.status, 400);
    assert.deepEqual(res.body, { error: 'Validation Error', message: 'rules.and[1].operator: unknown operator "eq"' });
  });
});

describe('which tests run, and what push replaces', () => {
  let t: TestApp;
  const urn = datasetUrn('select.one');
  let active: string, inactive: string, onDemand: string, other: string;
  before(async () => {
    t = await testApp();
    await write(t, 'dataset', urn, 'datasetProperties', { name: 'one', description: 'd' });
    active = await defineTest(t, 'active', { on: { types: ['dataset'] }, rules: [{ property: 'datasetProperties.description', operator: 'exists' }] });
    inactive = await defineTest(t, 'inactive', { on: { types: ['dataset'] }, rules: [{ property: 'urn', operator: 'exists' }] }, { status: 'INACTIVE' });
    onDemand = await defineTest(t, 'ondemand', { on: { types: ['dataset'] }, rules: [{ property: 'ownership.owners.owner', operator: 'exists' }] }, { schedule: 'NONE' });
    other = await defineTest(t, 'charts', { on: { types: ['chart'] }, rules: [] });
  });
  after(() => t.app.close());

  it('without testUrns runs the ACTIVE, scheduled tests that select the entity', async () => {
    const res = await evaluate(t, { urn });
    assert.deepEqual(brief(res.body.value), { passing: [active], failing: [] });
  });

  it('named tests run even when INACTIVE or on demand, and only they run', async () => {
    const res = await evaluate(t, { urn, testUrns: [inactive, onDemand, other] });
    assert.deepEqual(brief(res.body.value), { passing: [inactive], failing: [onDemand] });
  });

  it('push with named tests replaces only their entries', async () => {
    await evaluate(t, { urn, push: true });
    await evaluate(t, { urn, push: true, testUrns: [onDemand] });
    assert.deepEqual(brief(await aspect(t, 'dataset', urn, 'testResults')), { passing: [active], failing: [onDemand] });
    await write(t, 'dataset', urn, 'ownership', { owners: [{ owner: 'urn:li:corpuser:jane', type: 'DATAOWNER' }] });
    await evaluate(t, { urn, push: true, testUrns: [onDemand] });
    assert.deepEqual(brief(await aspect(t, 'dataset', urn, 'testResults')), { passing: [active, onDemand], failing: [] });
  });

  it('push without named tests replaces the whole aspect: stale entries go away', async () => {
    await evaluate(t, { urn, push: true });
    assert.deepEqual(brief(await aspect(t, 'dataset', urn, 'testResults')), { passing: [active], failing: [] });
  });

  it('an entity no test selects any more loses its results on a full push', async () => {
    const retired = datasetUrn('select.retired');
    const scoped = await defineTest(t, 'scoped', { on: { types: ['dataset'], conditions: { property: 'datasetProperties.name', operator: 'equals', value: 'retired' } }, rules: [] });
    await write(t, 'dataset', retired, 'datasetProperties', { name: 'retired' });
    await evaluate(t, { urn: retired, push: true });
    assert.deepEqual(brief(await aspect(t, 'dataset', retired, 'testResults')), { passing: [scoped], failing: [active] });
    await write(t, 'dataset', retired, 'datasetProperties', { name: 'renamed' });
    await evaluate(t, { urn: retired, push: true });
    assert.deepEqual(brief(await aspect(t, 'dataset', retired, 'testResults')), { passing: [], failing: [active] });
  });

  it('a test deleted through the entity API (the console\'s delete) is forgotten; its results go at the entity\'s next full push', async () => {
    const doomed = datasetUrn('select.doomed');
    await write(t, 'dataset', doomed, 'datasetProperties', { name: 'doomed', description: 'd' });
    const gone = await defineTest(t, 'gone', { on: { types: ['dataset'] }, rules: [{ property: 'urn', operator: 'exists' }] });
    await evaluate(t, { urn: doomed, push: true });
    assert.deepEqual(brief(await aspect(t, 'dataset', doomed, 'testResults')), { passing: [active, gone], failing: [] });
    assert.equal((await t.call({ method: 'DELETE', url: `${V2}/test/${enc(gone)}` })).status, 200);
    assert.equal((await t.call({ method: 'GET', url: `${V2}/test/${enc(gone)}/testInfo` })).status, 404);
    const named = await evaluate(t, { urn: doomed, testUrns: [gone] });
    assert.equal(named.status, 400);
    assert.deepEqual(named.body, { error: 'Validation Error', message: `Unknown test ${gone}` });
    // Until the entity is evaluated again its stored results name the test; then they do not.
    assert.deepEqual(brief(await aspect(t, 'dataset', doomed, 'testResults')), { passing: [active, gone], failing: [] });
    await evaluate(t, { urn: doomed, push: true });
    assert.deepEqual(brief(await aspect(t, 'dataset', doomed, 'testResults')), { passing: [active], failing: [] });
  });
});

describe('POST /gms/test?action=batchEvaluate and evaluateDefinition', () => {
  let t: TestApp;
  const a = datasetUrn('batch.a');
  const b = datasetUrn('batch.b');
  let described: string;
  before(async () => {
    t = await testApp();
    await write(t, 'dataset', a, 'datasetProperties', { description: 'has one' });
    await write(t, 'dataset', b, 'datasetProperties', { name: 'none' });
    described = await defineTest(t, 'described', { on: { types: ['dataset'] }, rules: [{ property: 'datasetProperties.description', operator: 'exists' }] });
  });
  after(() => t.app.close());

  it('batchEvaluate answers {value:{results:{urn:{passing, failing}}}} and pushes all in one go', async () => {
    const res = await evaluate(t, { urns: [a, b], push: true }, 'batchEvaluate');
    assert.equal(res.status, 200);
    assert.deepEqual(Object.keys(res.body.value.results), [a, b]);
    assert.deepEqual(brief(res.body.value.results[a]), { passing: [described], failing: [] });
    assert.deepEqual(brief(res.body.value.results[b]), { passing: [], failing: [described] });
    assert.deepEqual(brief(await aspect(t, 'dataset', b, 'testResults')), { passing: [], failing: [described] });
  });

  it('vocabulary lists the property paths known on the types, each one valid, and the operators', async () => {
    const res = await evaluate(t, { types: ['dataset'] }, 'vocabulary');
    assert.equal(res.status, 200);
    const { properties, operators } = res.body.value as { properties: string[]; operators: Array<{ name: string; binary: boolean }> };
    for (const path of ['urn', 'entityType', '__lastUpdated', 'schemaFields', 'schemaFields.length', 'datasetProperties.description', 'datasetProperties.customProperties', 'ownership.owners.owner', 'globalTags.tags.tag', 'glossaryTerms.terms.urn', 'domains.domains', 'dataPlatformInstance.platform', 'structuredProperties.properties.propertyUrn']) {
      assert.ok(properties.includes(path), path);
    }
    assert.deepEqual(properties, [...properties].sort());
    // No timeseries aspect (a rule reads the latest versions), nothing past a URN.
    assert.ok(!properties.some((p) => p.startsWith('datasetProfile.')));
    assert.ok(!properties.some((p) => p.startsWith('ownership.owners.owner.')));
    for (const path of properties) assert.equal(pathProblem(t.services.registry, ['dataset'], path), undefined, path);
    assert.deepEqual(operators, [
      { name: 'equals', binary: true },
      { name: 'contains_any', binary: true },
      { name: 'contains_str', binary: true },
      { name: 'starts_with', binary: true },
      { name: 'regex_match', binary: true },
      { name: 'greater_than', binary: true },
      { name: 'less_than', binary: true },
      { name: 'exists', binary: false },
      { name: 'is_true', binary: false },
      { name: 'is_false', binary: false },
      { name: 'schema_fields_have_descriptions', binary: false },
    ]);
    // Several types: what any of them has (a chart has no schema fields).
    const both = (await evaluate(t, { types: ['chart', 'dataset'] }, 'vocabulary')).body.value.properties as string[];
    assert.ok(both.includes('chartInfo.title') && both.includes('schemaFields'));
    assert.ok(!(await evaluate(t, { types: ['chart'] }, 'vocabulary')).body.value.properties.includes('schemaFields'));

    const invalid = (message: string) => ({ error: 'Validation Error', message });
    assert.deepEqual((await evaluate(t, { types: [] }, 'vocabulary')).body, invalid('types must be a non-empty list of entity types'));
    // Without types: the types a test may select, and no properties.
    const bare = (await evaluate(t, {}, 'vocabulary')).body.value;
    assert.deepEqual(bare.properties, []);
    assert.ok(bare.entityTypes.includes('dataset') && bare.entityTypes.includes('chart') && !bare.entityTypes.includes('dataPlatform'));
    assert.deepEqual(bare.entityTypes, [...bare.entityTypes].sort());
    assert.deepEqual(bare.operators, operators);
    assert.deepEqual((await evaluate(t, { types: ['dataset', 'nope'] }, 'vocabulary')).body, invalid('types[1]: unknown entity type "nope"'));
    const refused = await evaluate(t, { types: ['dataPlatform'] }, 'vocabulary');
    assert.equal(refused.status, 400);
    assert.deepEqual(refused.body, invalid('types[0]: entity type "dataPlatform" cannot hold testResults'));
  });

  it('batchEvaluate answers 400 without urns and 404 for an unknown entity', async () => {
    assert.deepEqual((await evaluate(t, { urns: [] }, 'batchEvaluate')).body, { error: 'Validation Error', message: 'urns must be a non-empty list of URNs' });
    const missing = datasetUrn('batch.missing');
    const res = await evaluate(t, { urns: [a, missing] }, 'batchEvaluate');
    assert.equal(res.status, 404);
    assert.deepEqual(res.body, { error: 'Not Found', message: `Entity ${missing} not found` });
  });

  it('evaluateDefinition tries an unsaved definition: PASS, FAIL with explanation, NOT_SELECTED', async () => {
    const before = await aspect(t, 'dataset', b, 'testResults');
    const definition = { on: { types: ['dataset'] }, rules: [{ property: 'datasetProperties.description', operator: 'contains_str', value: 'one' }] };
    assert.deepEqual((await evaluate(t, { urn: a, definition }, 'evaluateDefinition')).body, { value: { result: 'PASS', explanation: [] } });
    assert.deepEqual((await evaluate(t, { urn: b, definition: JSON.stringify(definition) }, 'evaluateDefinition')).body, {
      value: {
        result: 'FAIL',
        explanation: [{ condition: 'rules[0]', property: 'datasetProperties.description', operator: 'contains_str', values: ['one'], found: [] }],
      },
    });
    const charts = { on: { types: ['chart'] }, rules: [] };
    assert.deepEqual((await evaluate(t, { urn: a, definition: charts }, 'evaluateDefinition')).body, { value: { result: 'NOT_SELECTED', explanation: [] } });
    assert.deepEqual(await aspect(t, 'dataset', b, 'testResults'), before, 'nothing is written');
  });

  it('evaluateDefinition answers 400 for an invalid definition, pointing at the spot', async () => {
    const res = await evaluate(t, { urn: a, definition: { on: { types: ['datset'] }, rules: [] } }, 'evaluateDefinition');
    assert.equal(res.status, 400);
    assert.deepEqual(res.body, { error: 'Validation Error', message: 'on.types[0]: unknown entity type "datset"' });
    const none = await evaluate(t, { urn: a }, 'evaluateDefinition');
    assert.deepEqual(none.body, { error: 'Validation Error', message: 'definition is required' });
  });
});

describe('the empty definition {} (DataHub\'s demo data has two such tests)', () => {
  let t: TestApp;
  let empty: string;
  const urn = datasetUrn('eval.empty');

  before(async () => {
    t = await testApp();
    empty = await defineTest(t, 'empty', {});
    await write(t, 'dataset', urn, 'status', { removed: false });
  });
  after(() => t.app.close());

  it('is stored as written and selects nothing: an evaluation lists it neither passing nor failing', async () => {
    const info = await aspect(t, 'test', empty, 'testInfo');
    assert.equal(info.definition.json, '{}');
    const res = await evaluate(t, { urn, testUrns: [empty] });
    assert.equal(res.status, 200, res.raw);
    assert.deepEqual(brief(res.body.value), { passing: [], failing: [] });
  });

  it('evaluateDefinition answers NOT_SELECTED and says why', async () => {
    const res = await evaluate(t, { urn, definition: {} }, 'evaluateDefinition');
    assert.equal(res.status, 200, res.raw);
    assert.deepEqual(res.body.value, {
      result: 'NOT_SELECTED',
      explanation: [],
      note: 'The definition is empty ({}): it selects no entity, so the test never passes or fails',
    });
  });

  it('a catalog run reports it as selecting nothing', async () => {
    const summary = await t.services.tests.run({ tests: [empty], push: false, actor: 'urn:li:corpuser:datahub' });
    assert.deepEqual(summary.tests, [{ urn: empty, name: 'empty', selected: 0, passing: 0, failing: 0, selectsNothing: true }]);
  });
});
