import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { datasetUrn, testApp, type TestApp } from '../helpers.js';
import { defineProperty, setStatus } from '../structured/fixtures.js';
import { evaluate, write } from './fixtures.js';

/** What a property path resolves to on an entity, seen through a failing `equals` leaf's explanation. */
async function found(t: TestApp, urn: string, property: string, types = ['dataset']): Promise<unknown[]> {
  const definition = { on: { types }, rules: [{ property, operator: 'equals', value: '\u0000never' }] };
  const res = await evaluate(t, { urn, definition }, 'evaluateDefinition');
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return res.body.value.explanation[0].found;
}

describe('property paths', () => {
  let t: TestApp;
  const ds = datasetUrn('paths.ds', 'snowflake');
  before(async () => {
    t = await testApp();
    await write(t, 'glossaryNode', 'urn:li:glossaryNode:Finance', 'glossaryNodeInfo', { definition: 'Finance terms', name: 'Finance' });
    await write(t, 'glossaryTerm', 'urn:li:glossaryTerm:Revenue', 'glossaryTermInfo', { definition: 'Money in', termSource: 'INTERNAL', parentNode: 'urn:li:glossaryNode:Finance' });
    await write(t, 'glossaryTerm', 'urn:li:glossaryTerm:Cost', 'glossaryTermInfo', { definition: 'Money out', termSource: 'INTERNAL' });
    await write(t, 'dataset', ds, 'glossaryTerms', {
      terms: [{ urn: 'urn:li:glossaryTerm:Revenue' }, { urn: 'urn:li:glossaryTerm:Cost' }, { urn: 'urn:li:glossaryTerm:Ghost' }],
      auditStamp: { time: 0, actor: 'urn:li:corpuser:jane' },
    });
    await write(t, 'dataset', ds, 'ownership', {
      owners: [
        { owner: 'urn:li:corpuser:jane', type: 'DATAOWNER' },
        { owner: 'urn:li:corpGroup:data', type: 'TECHNICAL_OWNER' },
      ],
    });
    await write(t, 'dataset', ds, 'datasetProperties', { name: 'orders', customProperties: { team: 'sales' }, tags: [] });
    await write(t, 'dataset', ds, 'schemaMetadata', {
      schemaName: 'orders',
      platform: 'urn:li:dataPlatform:snowflake',
      version: 0,
      hash: '',
      platformSchema: { 'com.linkedin.schema.OtherSchema': { rawSchema: '' } },
      fields: [
        { fieldPath: 'id', nativeDataType: 'int', type: { type: { 'com.linkedin.schema.NumberType': {} } }, description: 'key' },
        { fieldPath: 'amount', nativeDataType: 'decimal', type: { type: { 'com.linkedin.schema.NumberType': {} } } },
      ],
    });
    await write(t, 'dataset', ds, 'editableSchemaMetadata', { editableSchemaFieldInfo: [{ fieldPath: 'amount', description: 'in cents' }] });
  });
  after(() => t.app.close());

  it('flattens arrays at every step', async () => {
    assert.deepEqual(await found(t, ds, 'ownership.owners.owner'), ['urn:li:corpuser:jane', 'urn:li:corpGroup:data']);
    assert.deepEqual(await found(t, ds, 'ownership.owners.type'), ['DATAOWNER', 'TECHNICAL_OWNER']);
  });

  it('hops through URNs to the referenced entities (missing ones give nothing)', async () => {
    assert.deepEqual(await found(t, ds, 'glossaryTerms.terms.urn.glossaryTermInfo.parentNode'), ['urn:li:glossaryNode:Finance']);
    assert.deepEqual(await found(t, ds, 'glossaryTerms.terms.urn.glossaryTermInfo.parentNode.glossaryNodeInfo.name'), ['Finance']);
    assert.deepEqual(await found(t, ds, 'glossaryTerms.terms.urn.glossaryTermInfo.definition'), ['Money in', 'Money out']);
  });

  it('reads map entries and plain values', async () => {
    assert.deepEqual(await found(t, ds, 'datasetProperties.customProperties.team'), ['sales']);
    assert.deepEqual(await found(t, ds, 'datasetProperties.description'), []);
    assert.deepEqual(await found(t, ds, 'dataPlatformInstance.platform'), ['urn:li:dataPlatform:snowflake']);
  });

  it('resolves urn, entityType and the system timestamps', async () => {
    assert.deepEqual(await found(t, ds, 'urn'), [ds]);
    assert.deepEqual(await found(t, ds, 'entityType'), ['dataset']);
    const [first] = (await found(t, ds, '__firstSynchronized')) as number[];
    const [last] = (await found(t, ds, '__lastUpdated')) as number[];
    const [observed] = (await found(t, ds, '__lastSynchronized')) as number[];
    assert.ok(first > 1_700_000_000_000 && last >= first && observed >= first);
  });

  it('merges schema fields with their editable descriptions, and counts them', async () => {
    assert.deepEqual(await found(t, ds, 'schemaFields.length'), [2]);
    const res = await evaluate(t, { urn: ds, definition: { on: { types: ['dataset'] }, rules: [{ property: 'schemaFields', operator: 'schema_fields_have_descriptions' }] } }, 'evaluateDefinition');
    assert.equal(res.body.value.result, 'PASS');
    const empty = datasetUrn('paths.noschema');
    await write(t, 'dataset', empty, 'status', { removed: false });
    assert.deepEqual(await found(t, empty, 'schemaFields.length'), []);
  });

  it('reads structured property values by qualified name or URN; soft-deleted ones resolve to nothing', async () => {
    const retention = await defineProperty(t, 'paths.retention', { valueType: 'urn:li:dataType:datahub.number' });
    await write(t, 'dataset', ds, 'structuredProperties', { properties: [{ propertyUrn: retention, values: [{ double: 90 }] }] });
    assert.deepEqual(await found(t, ds, 'structuredProperties.paths.retention'), [90]);
    assert.deepEqual(await found(t, ds, `structuredProperties.${retention}`), [90]);
    const res = await evaluate(t, { urn: ds, definition: { on: { types: ['dataset'] }, rules: [{ property: 'structuredProperties.paths.retention', operator: 'greater_than', value: 30 }] } }, 'evaluateDefinition');
    assert.equal(res.body.value.result, 'PASS');
    await setStatus(t, retention, true);
    assert.deepEqual(await found(t, ds, 'structuredProperties.paths.retention'), []);
    await setStatus(t, retention, false);
  });
});
