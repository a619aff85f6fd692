import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { enc, testApp, V2, type TestApp } from '../helpers.js';
import { datasetUrn, defineProperty, definition, patchValues, postDefinition, postValues, propertyUrn, readValues } from './fixtures.js';

describe('structured property values on entities', () => {
  let t: TestApp;
  let str: string, num: string, date: string, urnProp: string, multi: string, rich: string, frozen: string, chartOnly: string;
  before(async () => {
    t = await testApp();
    str = await defineProperty(t, 'val.str', { allowedValues: [{ value: { string: 'gold' } }, { value: { string: 'silver' } }] });
    num = await defineProperty(t, 'val.num', { valueType: 'urn:li:dataType:datahub.number', allowedValues: [{ value: { double: 30 } }, { value: { double: 60.5 } }] });
    date = await defineProperty(t, 'val.date', { valueType: 'urn:li:dataType:datahub.date' });
    urnProp = await defineProperty(t, 'val.owner', {
      valueType: 'urn:li:dataType:datahub.urn',
      typeQualifier: { allowedTypes: ['urn:li:entityType:datahub.corpuser', 'urn:li:entityType:datahub.corpGroup'] },
    });
    multi = await defineProperty(t, 'val.multi', { cardinality: 'MULTIPLE' });
    rich = await defineProperty(t, 'val.rich', { valueType: 'urn:li:dataType:datahub.rich_text' });
    frozen = await defineProperty(t, 'val.frozen', { immutable: true });
    chartOnly = await defineProperty(t, 'val.chartonly', { entityTypes: ['urn:li:entityType:datahub.chart'] });
  });
  after(() => t.app.close());

  /** The same assignment must be judged the same whether it arrives by POST, PATCH or batch. */
  const everyWay = async (name: string, assignment: { propertyUrn: string; values: unknown[] }, message: string) => {
    const entity = datasetUrn(`${name}.post`);
    const post = await postValues(t, entity, [assignment]);
    const patch = await patchValues(t, datasetUrn(`${name}.patch`), [
      { op: 'add', path: `/properties/${assignment.propertyUrn}`, value: assignment },
    ]);
    const batch = await t.call({
      method: 'POST',
      url: `${V2}/dataset`,
      payload: [{ urn: datasetUrn(`${name}.batch`), aspects: { structuredProperties: { value: { properties: [assignment] } } } }],
    });
    for (const [how, res] of [['POST', post], ['PATCH', patch], ['batch', batch]] as const) {
      assert.equal(res.status, 400, `${how}: ${JSON.stringify(res.body)}`);
      assert.deepEqual(res.body, { error: 'Validation Error', message }, how);
    }
    assert.equal((await t.call({ method: 'HEAD', url: `${V2}/dataset/${enc(entity)}` })).status, 404, 'nothing written');
  };

  it('accepts valid values of every type', async () => {
    const entity = datasetUrn('val.ok');
    const properties = [
      { propertyUrn: str, values: [{ string: 'gold' }] },
      { propertyUrn: num, values: [{ double: 60.5 }] },
      { propertyUrn: date, values: [{ string: '2024-02-29' }] },
      { propertyUrn: urnProp, values: [{ string: 'urn:li:corpGroup:data-eng' }] },
      { propertyUrn: multi, values: [{ string: 'a' }, { string: 'b' }] },
      { propertyUrn: rich, values: [{ string: '# Heading\n\n*markdown*' }] },
      { propertyUrn: frozen, values: [{ string: 'once' }] },
    ];
    const res = await postValues(t, entity, properties);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.deepEqual(await readValues(t, entity), properties);
  });

  it('rejects a property that does not exist', async () => {
    const ghost = propertyUrn('val.ghost');
    await everyWay('val.e.ghost', { propertyUrn: ghost, values: [{ string: 'x' }] }, `Structured Property ${ghost} does not exist`);
  });

  it('rejects a propertyUrn that is not a structuredProperty URN', async () => {
    const res = await postValues(t, datasetUrn('val.e.type'), [{ propertyUrn: 'urn:li:tag:x', values: [] }]);
    assert.equal(res.status, 400);
    assert.deepEqual(res.body, {
      error: 'Validation Error',
      message: 'Aspect structuredProperties is invalid: field properties[0].propertyUrn must be a URN of type structuredProperty',
    });
  });

  it('rejects two entries for one property', async () => {
    const res = await postValues(t, datasetUrn('val.e.dupe'), [
      { propertyUrn: multi, values: [{ string: 'a' }] },
      { propertyUrn: multi, values: [{ string: 'b' }] },
    ]);
    assert.equal(res.status, 400);
    assert.deepEqual(res.body, { error: 'Validation Error', message: `Property: ${multi} has multiple entries` });
  });

  it('rejects a value on an entity type the definition does not list', async () => {
    await everyWay(
      'val.e.entitytype',
      { propertyUrn: chartOnly, values: [{ string: 'x' }] },
      `Property: ${chartOnly} cannot be applied to entity type dataset; its entityTypes are [urn:li:entityType:datahub.chart]`,
    );
    const chart = await postValues(t, 'urn:li:chart:(looker,val.chart)', [{ propertyUrn: chartOnly, values: [{ string: 'x' }] }], 'chart');
    assert.equal(chart.status, 200);
  });

  it('rejects more than one value for a SINGLE property', async () => {
    await everyWay(
      'val.e.single',
      { propertyUrn: str, values: [{ string: 'gold' }, { string: 'silver' }] },
      `Property: ${str} has cardinality 1, but multiple values were assigned: [{string=gold}, {string=silver}]`,
    );
  });

  it('requires the double member for numbers and the string member otherwise', async () => {
    await everyWay('val.e.num', { propertyUrn: num, values: [{ string: '30' }] }, `Property: ${num}, value: {string=30} should be a number (a "double" member)`);
    await everyWay('val.e.str', { propertyUrn: multi, values: [{ double: 1 }] }, `Property: ${multi}, value: {double=1} should be a string (a "string" member)`);
  });

  it('requires real calendar dates', async () => {
    for (const bad of ['2024-02-30', '2023-02-29', '2024-13-01', '24-01-01', '2024-1-01', '0999-01-01', 'yesterday']) {
      const res = await postValues(t, datasetUrn('val.e.date'), [{ propertyUrn: date, values: [{ string: bad }] }]);
      assert.equal(res.status, 400, bad);
      assert.deepEqual(res.body, { error: 'Validation Error', message: `Property: ${date}, value: {string=${bad}} should be a date with format YYYY-MM-DD` });
    }
  });

  it('requires urn values to parse and to match allowedTypes', async () => {
    await everyWay('val.e.urn', { propertyUrn: urnProp, values: [{ string: 'jane' }] }, `Property: ${urnProp}, value: {string=jane} should be an urn`);
    await everyWay(
      'val.e.urntype',
      { propertyUrn: urnProp, values: [{ string: 'urn:li:dataset:(urn:li:dataPlatform:hive,x,PROD)' }] },
      `Property: ${urnProp}, value: {string=urn:li:dataset:(urn:li:dataPlatform:hive,x,PROD)} is not of any supported urn types:[urn:li:entityType:datahub.corpuser, urn:li:entityType:datahub.corpGroup]`,
    );
  });

  it('requires one of the allowed values; numbers compare numerically', async () => {
    await everyWay('val.e.allowed', { propertyUrn: str, values: [{ string: 'bronze' }] }, `Property: ${str}, value: {string=bronze} should be one of [{string=gold}, {string=silver}]`);
    await everyWay('val.e.allowednum', { propertyUrn: num, values: [{ double: 31 }] }, `Property: ${num}, value: {double=31} should be one of [{double=30}, {double=60.5}]`);
    const ok = await postValues(t, datasetUrn('val.numeric'), [{ propertyUrn: num, values: [{ double: 30.0 }] }]);
    assert.equal(ok.status, 200);
  });

  it('rejects string values over 32,766 UTF-8 bytes', async () => {
    const long = 'é'.repeat(16384); // 32,768 bytes
    await everyWay('val.e.long', { propertyUrn: rich, values: [{ string: long }] }, `Property: ${rich}, value is 32768 bytes which exceeds the maximum of 32766 UTF-8 bytes`);
    const fits = await postValues(t, datasetUrn('val.longok'), [{ propertyUrn: rich, values: [{ string: 'é'.repeat(16383) }] }]);
    assert.equal(fits.status, 200);
  });

  it('accepts an empty values list', async () => {
    const res = await postValues(t, datasetUrn('val.empty'), [{ propertyUrn: str, values: [] }]);
    assert.equal(res.status, 200);
  });

  describe('immutable properties', () => {
    const entity = datasetUrn('val.immutable');
    before(async () => {
      const res = await postValues(t, entity, [{ propertyUrn: frozen, values: [{ string: 'once' }] }, { propertyUrn: str, values: [{ string: 'gold' }] }]);
      assert.equal(res.status, 200);
    });

    it('cannot change once assigned', async () => {
      const res = await postValues(t, entity, [{ propertyUrn: frozen, values: [{ string: 'twice' }] }, { propertyUrn: str, values: [{ string: 'gold' }] }]);
      assert.equal(res.status, 400);
      assert.deepEqual(res.body, { error: 'Validation Error', message: `Cannot mutate an immutable property: ${frozen}` });
      const patch = await patchValues(t, entity, [{ op: 'add', path: `/properties/${frozen}`, value: { propertyUrn: frozen, values: [{ string: 'twice' }] } }]);
      assert.deepEqual(patch.body, { error: 'Validation Error', message: `Cannot mutate an immutable property: ${frozen}` });
    });

    it('cannot be removed, by replace, patch or deleting the aspect', async () => {
      const replace = await postValues(t, entity, [{ propertyUrn: str, values: [{ string: 'gold' }] }]);
      assert.deepEqual(replace.body, { error: 'Validation Error', message: `Cannot delete an immutable property: ${frozen}` });
      const patch = await patchValues(t, entity, [{ op: 'remove', path: `/properties/${frozen}` }]);
      assert.deepEqual(patch.body, { error: 'Validation Error', message: `Cannot delete an immutable property: ${frozen}` });
      const del = await t.call({ method: 'DELETE', url: `${V2}/dataset/${enc(entity)}/structuredProperties` });
      assert.equal(del.status, 400);
      assert.deepEqual(del.body, { error: 'Validation Error', message: `Cannot delete an immutable property: ${frozen}` });
    });

    it('compares values only: re-sending them with new audit fields is fine, and other properties stay editable', async () => {
      const res = await postValues(t, entity, [
        { propertyUrn: frozen, values: [{ string: 'once' }], lastModified: { time: Date.now(), actor: 'urn:li:corpuser:jane' } },
        { propertyUrn: str, values: [{ string: 'silver' }] },
      ]);
      assert.equal(res.status, 200, JSON.stringify(res.body));
    });
  });

  it('does not re-validate assignments the write leaves untouched', async () => {
    const name = 'val.evolving';
    const prop = await defineProperty(t, name, { allowedValues: [{ value: { string: 'old' } }, { value: { string: 'new' } }], version: '20240101000000' });
    const entity = datasetUrn('val.untouched');
    assert.equal((await postValues(t, entity, [{ propertyUrn: prop, values: [{ string: 'old' }] }])).status, 200);
    // A breaking change (with a version bump) now forbids the stored value.
    const bumped = await postDefinition(t, name, definition(name, { allowedValues: [{ value: { string: 'new' } }], version: '20240201000000' }));
    assert.equal(bumped.status, 200);
    const other = await patchValues(t, entity, [{ op: 'add', path: `/properties/${str}`, value: { propertyUrn: str, values: [{ string: 'gold' }] } }]);
    assert.equal(other.status, 200, JSON.stringify(other.body));
    const replaceKeepingOld = await postValues(t, entity, [{ propertyUrn: prop, values: [{ string: 'old' }] }, { propertyUrn: str, values: [{ string: 'silver' }] }]);
    assert.equal(replaceKeepingOld.status, 200);
    const touched = await patchValues(t, entity, [{ op: 'add', path: `/properties/${prop}`, value: { propertyUrn: prop, values: [{ string: 'old' }, { string: 'old' }] } }]);
    assert.equal(touched.status, 400);
  });
});
