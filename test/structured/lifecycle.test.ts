import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { assertFilterable } from '../../src/structured/index.js';
import { ValidationError } from '../../src/errors.js';
import { enc, testApp, V2, type TestApp } from '../helpers.js';
import {
  datasetUrn,
  defineProperty,
  definition,
  patchValues,
  postDefinition,
  postValues,
  propertyUrn,
  readValues,
  setStatus,
} from './fixtures.js';

describe('structured properties: the seed flows end to end', () => {
  let t: TestApp;
  before(async () => (t = await testApp()));
  after(() => t.app.close());

  const retention = propertyUrn('com.example.privacy.retentionTime');
  const cadence = propertyUrn('com.example.privacy.refreshCadence');
  const dataset = datasetUrn('lifecycle.orders');

  it('creates a definition and reads it back wrapped in {value}', async () => {
    const body = {
      qualifiedName: 'com.example.privacy.retentionTime',
      valueType: 'urn:li:dataType:datahub.number',
      description: 'How many days a record may be kept before it is purged',
      displayName: 'Retention (days)',
      cardinality: 'MULTIPLE',
      entityTypes: ['urn:li:entityType:datahub.dataset', 'urn:li:entityType:datahub.dataFlow'],
      allowedValues: [
        { value: { double: 30 }, description: 'A month: staging and scratch tables' },
        { value: { double: 60 }, description: 'Two months: what monthly close needs' },
        { value: { double: 365 }, description: 'A year: anything without personal data' },
      ],
    };
    const created = await postDefinition(t, 'com.example.privacy.retentionTime', body);
    assert.equal(created.status, 200);
    assert.deepEqual(created.body, { urn: retention, aspects: { propertyDefinition: { value: body } } });
    const read = await t.call({ method: 'GET', url: `${V2}/structuredProperty/${enc(retention)}/propertyDefinition` });
    assert.equal(read.status, 200);
    assert.deepEqual(read.body, { value: body });
  });

  it('replaces all values of an entity by POST', async () => {
    await t.call({ method: 'POST', url: `${V2}/dataset`, payload: [{ urn: dataset, aspects: { status: { value: { removed: false } } } }] });
    const res = await postValues(t, dataset, [{ propertyUrn: retention, values: [{ double: 60 }] }]);
    assert.equal(res.status, 200);
    assert.deepEqual(res.body, {
      urn: dataset,
      aspects: { structuredProperties: { value: { properties: [{ propertyUrn: retention, values: [{ double: 60 }] }] } } },
    });
  });

  it('patch add appends a second property after the first', async () => {
    await defineProperty(t, 'com.example.privacy.refreshCadence', {
      allowedValues: [{ value: { string: 'hourly' }, description: 'Every hour' }, { value: { string: 'daily' }, description: 'Once a day' }],
    });
    const res = await patchValues(t, dataset, [
      { op: 'add', path: `/properties/${cadence}`, value: { propertyUrn: cadence, values: [{ string: 'daily' }] } },
    ]);
    assert.equal(res.status, 200);
    assert.equal(res.body.urn, dataset);
    assert.deepEqual(res.body.aspects.structuredProperties.value.properties, [
      { propertyUrn: retention, values: [{ double: 60 }] },
      { propertyUrn: cadence, values: [{ string: 'daily' }] },
    ]);
  });

  it('patch remove deletes only that property', async () => {
    const res = await patchValues(t, dataset, [{ op: 'remove', path: `/properties/${cadence}` }]);
    assert.equal(res.status, 200);
    assert.deepEqual(res.body.aspects.structuredProperties.value.properties, [{ propertyUrn: retention, values: [{ double: 60 }] }]);
  });

  it('re-adding a removed property with a different value yields the new value', async () => {
    const res = await patchValues(t, dataset, [
      { op: 'add', path: `/properties/${cadence}`, value: { propertyUrn: cadence, values: [{ string: 'hourly' }] } },
    ]);
    assert.deepEqual(res.body.aspects.structuredProperties.value.properties, [
      { propertyUrn: retention, values: [{ double: 60 }] },
      { propertyUrn: cadence, values: [{ string: 'hourly' }] },
    ]);
  });

  it('soft delete hides the property from entities, keeps it in storage, and denies its use', async () => {
    assert.equal((await setStatus(t, cadence, true)).status, 200);
    assert.deepEqual(await readValues(t, dataset), [{ propertyUrn: retention, values: [{ double: 60 }] }]);
    const entity = await t.call({ method: 'GET', url: `${V2}/dataset/${enc(dataset)}?aspects=structuredProperties` });
    assert.deepEqual(entity.body.aspects.structuredProperties.value.properties, [{ propertyUrn: retention, values: [{ double: 60 }] }]);
    const [stored] = await t.services.store.getLatest(dataset, ['structuredProperties']);
    assert.equal((stored.value as { properties: unknown[] }).properties.length, 2, 'storage keeps the value');

    const update = await postDefinition(t, 'com.example.privacy.refreshCadence', definition('com.example.privacy.refreshCadence', { description: 'x' }));
    assert.equal(update.status, 400);
    assert.deepEqual(update.body, {
      error: 'Validation Error',
      message: `Cannot mutate a soft deleted Structured Property Definition: ${cadence}`,
    });

    const other = datasetUrn('softdeleted.other');
    const byPost = await postValues(t, other, [{ propertyUrn: cadence, values: [{ string: 'daily' }] }]);
    assert.equal(byPost.status, 400);
    assert.deepEqual(byPost.body, { error: 'Validation Error', message: `Cannot apply a soft deleted Structured Property value: ${cadence}` });
    const byPatch = await patchValues(t, other, [
      { op: 'add', path: `/properties/${cadence}`, value: { propertyUrn: cadence, values: [{ string: 'daily' }] } },
    ]);
    assert.equal(byPatch.status, 400);
    assert.deepEqual(byPatch.body, { error: 'Validation Error', message: `Cannot apply a soft deleted Structured Property value: ${cadence}` });
    const byBatch = await t.call({
      method: 'POST',
      url: `${V2}/dataset`,
      payload: [{ urn: other, aspects: { structuredProperties: { value: { properties: [{ propertyUrn: cadence, values: [{ string: 'daily' }] }] } } } }],
    });
    assert.equal(byBatch.status, 400);
    assert.equal(byBatch.body.message, `Cannot apply a soft deleted Structured Property value: ${cadence}`);
    assert.equal((await t.call({ method: 'HEAD', url: `${V2}/dataset/${enc(other)}` })).status, 404, 'nothing written');

    await assert.rejects(
      assertFilterable(t.services.store, [retention, cadence]),
      (e: unknown) => e instanceof ValidationError && e.message === `Cannot filter on deleted Structured Property [${cadence}]`,
    );
    await assert.doesNotReject(assertFilterable(t.services.store, [retention]));
  });

  it('a replace of the visible list keeps the hidden entry of the soft-deleted property', async () => {
    const visible = (await readValues(t, dataset)) as unknown[];
    const res = await postValues(t, dataset, [...visible]);
    assert.equal(res.status, 200);
    assert.deepEqual(res.body.aspects.structuredProperties.value.properties, [{ propertyUrn: retention, values: [{ double: 60 }] }]);
    const emptied = await postValues(t, dataset, []);
    assert.equal(emptied.status, 200);
    assert.deepEqual(emptied.body.aspects.structuredProperties.value.properties, []);
    const [stored] = await t.services.store.getLatest(dataset, ['structuredProperties']);
    assert.deepEqual((stored.value as { properties: unknown[] }).properties, [{ propertyUrn: cadence, values: [{ string: 'hourly' }] }]);
    await postValues(t, dataset, [{ propertyUrn: retention, values: [{ double: 60 }] }]);
  });

  it('restoring with {removed:false} brings the value back with no data lost', async () => {
    assert.equal((await setStatus(t, cadence, false)).status, 200);
    assert.deepEqual(await readValues(t, dataset), [
      { propertyUrn: retention, values: [{ double: 60 }] },
      { propertyUrn: cadence, values: [{ string: 'hourly' }] },
    ]);
    await assert.doesNotReject(assertFilterable(t.services.store, [cadence]));
  });

  it('restoring by deleting the status aspect works too', async () => {
    await setStatus(t, cadence, true);
    assert.deepEqual(await readValues(t, dataset), [{ propertyUrn: retention, values: [{ double: 60 }] }]);
    const res = await t.call({ method: 'DELETE', url: `${V2}/structuredProperty/${enc(cadence)}/status` });
    assert.equal(res.status, 200);
    assert.equal((await readValues(t, dataset) as unknown[]).length, 2);
    const update = await postDefinition(t, 'com.example.privacy.refreshCadence', {
      ...definition('com.example.privacy.refreshCadence', {
        allowedValues: [{ value: { string: 'hourly' }, description: 'Every hour' }, { value: { string: 'daily' }, description: 'Once a day' }],
      }),
      description: 'updates work again',
    });
    assert.equal(update.status, 200);
  });
});

describe('structured properties: hard delete', () => {
  let t: TestApp;
  before(async () => (t = await testApp()));
  after(() => t.app.close());

  it('refuses to hard delete a live property with 409', async () => {
    const urn = await defineProperty(t, 'hard.live');
    const res = await t.call({ method: 'DELETE', url: `${V2}/structuredProperty/${enc(urn)}` });
    assert.equal(res.status, 409);
    assert.deepEqual(res.body, {
      error: 'Conflict',
      message: `Cannot hard delete live Structured Property ${urn}: soft delete it first (status {"removed":true})`,
    });
    const definitionOnly = await t.call({ method: 'DELETE', url: `${V2}/structuredProperty/${enc(urn)}/propertyDefinition` });
    assert.equal(definitionOnly.status, 409);
    assert.equal((await t.call({ method: 'HEAD', url: `${V2}/structuredProperty/${enc(urn)}/propertyDefinition` })).status, 204);
  });

  it('hard delete of a soft-deleted property removes it and its values from every entity of every type', async () => {
    const urn = await defineProperty(t, 'hard.gone', {
      entityTypes: ['urn:li:entityType:datahub.dataset', 'urn:li:entityType:datahub.chart'],
    });
    const keep = await defineProperty(t, 'hard.keep', {
      entityTypes: ['urn:li:entityType:datahub.dataset', 'urn:li:entityType:datahub.chart'],
    });
    const datasets = [datasetUrn('hard.a'), datasetUrn('hard.b')];
    for (const d of datasets) {
      assert.equal((await postValues(t, d, [{ propertyUrn: keep, values: [{ string: 'k' }] }, { propertyUrn: urn, values: [{ string: 'g' }] }])).status, 200);
    }
    const chart = 'urn:li:chart:(looker,hard.c)';
    assert.equal((await postValues(t, chart, [{ propertyUrn: urn, values: [{ string: 'g' }] }], 'chart')).status, 200);
    await setStatus(t, urn, true);
    await t.call({
      method: 'POST',
      url: `${V2}/structuredProperty/${enc(urn)}/structuredPropertySettings`,
      payload: { showInSearchFilters: true },
    });

    const res = await t.call({ method: 'DELETE', url: `${V2}/structuredProperty/${enc(urn)}` });
    assert.equal(res.status, 200);
    assert.equal((await t.call({ method: 'HEAD', url: `${V2}/structuredProperty/${enc(urn)}` })).status, 404);
    for (const d of datasets) {
      const [stored] = await t.services.store.getLatest(d, ['structuredProperties']);
      assert.deepEqual(stored.value, { properties: [{ propertyUrn: keep, values: [{ string: 'k' }] }] });
    }
    const [chartValues] = await t.services.store.getLatest(chart, ['structuredProperties']);
    assert.deepEqual(chartValues.value, { properties: [] });
  });

  it('re-creating the same qualifiedName after a hard delete works', async () => {
    const res = await postDefinition(t, 'hard.gone', definition('hard.gone', { valueType: 'urn:li:dataType:datahub.number' }));
    assert.equal(res.status, 200);
  });

  it('deleting a property that does not exist answers 200', async () => {
    const res = await t.call({ method: 'DELETE', url: `${V2}/structuredProperty/${enc(propertyUrn('hard.never'))}` });
    assert.equal(res.status, 200);
  });
});
