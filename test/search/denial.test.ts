import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { testApp, type TestApp } from '../helpers.js';
import { defineProperty, setStatus } from '../structured/fixtures.js';
import { datasetUrn, enc, invalid, list, remove, scroll, search, sorted, tag, V2, where, writeDatasets } from './fixtures.js';

/**
 * A soft-deleted structured property may not be searched on: a query term, a filter criterion or a
 * facet naming it answers 400 until it is restored, and then the same search works again, with the
 * values it had. A search with includeSoftDelete=true may name it (to count its values).
 */

const denied = (qualifiedName: string) => invalid(`Cannot filter on deleted Structured Property [urn:li:structuredProperty:${qualifiedName}]`);

const A = datasetUrn('deny.a');
const B = datasetUrn('deny.b');
const C = datasetUrn('deny.c');

describe('search: soft-deleted structured properties are denied', () => {
  let t: TestApp;
  before(async () => {
    t = await testApp();
    await writeDatasets(t, [
      [A, { name: 'alpha', tags: [tag('pii')] }],
      [B, { name: 'beta', tags: [tag('pii')] }],
      [C, { name: 'gamma' }],
    ]);
  });
  after(() => t.app.close());

  /** A property with values on A (and B), soft-deleted; returns its URN. */
  async function deletedProperty(qualifiedName: string, overrides: Record<string, unknown> = {}, values: [unknown, unknown] = [{ string: 'x' }, { string: 'y' }]): Promise<string> {
    const urn = await defineProperty(t, qualifiedName, overrides);
    for (const [entity, value] of [[A, values[0]], [B, values[1]]] as const) {
      const res = await t.call({
        method: 'PATCH',
        url: `${V2}/dataset/${enc(entity)}/structuredProperties`,
        headers: { 'content-type': 'application/json-patch+json' },
        payload: JSON.stringify({ patch: [{ op: 'add', path: `/properties/${urn}`, value: { propertyUrn: urn, values: [value] } }], arrayPrimaryKeys: { properties: ['propertyUrn'] } }),
      });
      assert.equal(res.status, 200, JSON.stringify(res.body));
    }
    const res = await setStatus(t, urn, true);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    return urn;
  }

  const expectDenied = async (res: { status: number; body: unknown }, qualifiedName: string) => {
    assert.equal(res.status, 400, JSON.stringify(res.body));
    assert.deepEqual(res.body, denied(qualifiedName));
  };

  it('denies a query term on it', async () => {
    await deletedProperty('deny.term');
    await expectDenied(await list(t, 'dataset', { query: 'structuredProperties.deny.term:x' }), 'deny.term');
  });

  it('denies it wherever it is in the query: in an OR, under NOT, in _exists_, as a range', async () => {
    await deletedProperty('deny.where', { valueType: 'urn:li:dataType:datahub.number' }, [{ double: 1 }, { double: 2 }]);
    for (const query of [
      'tags:pii OR structuredProperties.deny.where:1',
      'NOT structuredProperties.deny.where:1',
      '-structuredProperties.deny.where:1',
      '_exists_:structuredProperties.deny.where',
      'structuredProperties.deny.where:>0',
      'structuredProperties.deny.where:*',
    ]) {
      await expectDenied(await list(t, 'dataset', { query }), 'deny.where');
    }
  });

  it("denies DataHub's underscore form of its name", async () => {
    await deletedProperty('deny.under.score');
    await expectDenied(await list(t, 'dataset', { query: 'structuredProperties.deny_under_score:x' }), 'deny.under.score');
    await expectDenied(await scroll(t, { filter: where({ field: 'structuredProperties.deny_under_score', values: ['x'] }) }), 'deny.under.score');
  });

  it('denies a filter criterion on it, in v2 and v3, negated or not, in any group', async () => {
    await deletedProperty('deny.filter');
    const field = 'structuredProperties.deny.filter';
    for (const filter of [
      where({ field, condition: 'EQUAL', values: ['x'] }),
      where({ field, condition: 'EQUAL', values: ['x'], negated: true }),
      where({ field, condition: 'EXISTS' }),
      where({ field: 'tags', values: [tag('pii')] }, { field, condition: 'STARTS_WITH', values: ['x'] }),
      { and: [{ criteria: [{ field: 'tags', values: [tag('pii')] }] }, { criteria: [{ field, values: ['x'] }] }] },
      { or: [{ and: [{ field, values: ['x'] }] }] },
    ]) {
      for (const version of [2, 3] as const) {
        await expectDenied(await scroll(t, { entities: ['dataset'], filter }, {}, version), 'deny.filter');
      }
    }
  });

  it('denies a facet on it, in v2 and v3', async () => {
    await deletedProperty('deny.facet');
    for (const version of [2, 3] as const) {
      await expectDenied(await scroll(t, { entities: ['dataset'], facets: ['tags', 'structuredProperties.deny.facet'] }, {}, version), 'deny.facet');
    }
  });

  it('denies it on the GET list and on scrolls of every type', async () => {
    await deletedProperty('deny.everywhere');
    await expectDenied(await list(t, 'chart', { query: 'structuredProperties.deny.everywhere:x' }), 'deny.everywhere');
    await expectDenied(await scroll(t, {}, { query: 'structuredProperties.deny.everywhere:x' }), 'deny.everywhere');
    await expectDenied(await scroll(t, {}, { query: 'structuredProperties.deny.everywhere:x' }, 3), 'deny.everywhere');
  });

  it('does not deny searches that do not name it', async () => {
    await deletedProperty('deny.other');
    const live = await defineProperty(t, 'deny.live');
    const res = await t.call({
      method: 'PATCH',
      url: `${V2}/dataset/${enc(C)}/structuredProperties`,
      headers: { 'content-type': 'application/json-patch+json' },
      payload: JSON.stringify({ patch: [{ op: 'add', path: `/properties/${live}`, value: { propertyUrn: live, values: [{ string: 'x' }] } }], arrayPrimaryKeys: { properties: ['propertyUrn'] } }),
    });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.deepEqual(await search(t, 'structuredProperties.deny.live:x'), [C]);
    assert.deepEqual(await search(t, 'tags:pii'), sorted([A, B]));
  });

  it('allows the same query term, filter and facet again after restoring it with removed:false, with its values', async () => {
    const urn = await deletedProperty('deny.restore');
    const field = 'structuredProperties.deny.restore';
    await expectDenied(await list(t, 'dataset', { query: `${field}:x` }), 'deny.restore');
    assert.equal((await setStatus(t, urn, false)).status, 200);
    assert.deepEqual(await search(t, `${field}:x`), [A]);
    assert.deepEqual(await search(t, `_exists_:${field}`), sorted([A, B]));
    const filtered = await scroll(t, { entities: ['dataset'], filter: where({ field, values: ['y'] }), facets: [field] });
    assert.equal(filtered.status, 200, JSON.stringify(filtered.body));
    assert.deepEqual(filtered.body.results.map((r: { urn: string }) => r.urn), [B]);
    assert.deepEqual(filtered.body.facets, [{ field, aggregations: { y: 1 } }]);
    const all = await scroll(t, { entities: ['dataset'], facets: [field] }, {}, 3);
    assert.equal(all.status, 200);
    assert.deepEqual(all.body.facets, [{ field, aggregations: { x: 1, y: 1 } }]);
  });

  it('with includeSoftDelete=true, allows a filter on it: the values a hard delete would remove are counted', async () => {
    const urn = await deletedProperty('deny.counted');
    const field = 'structuredProperties.deny.counted';
    await expectDenied(await scroll(t, { filter: where({ field, condition: 'EXISTS' }) }, {}, 3), 'deny.counted');
    const counted = await scroll(t, { filter: where({ field, condition: 'EXISTS' }) }, { count: 1, includeSoftDelete: true }, 3);
    assert.equal(counted.status, 200, JSON.stringify(counted.body));
    assert.equal(counted.body.totalCount, 2);
    assert.deepEqual(await search(t, `${field}:y`, { includeSoftDelete: true }), [B]);
    // Reads still hide its values.
    const read = await t.call({ method: 'GET', url: `${V2}/dataset/${enc(A)}/structuredProperties` });
    assert.ok(!JSON.stringify(read.body).includes(urn), JSON.stringify(read.body));
  });

  it('allows it again after restoring it by deleting its status aspect', async () => {
    const urn = await deletedProperty('deny.unstatus');
    await expectDenied(await list(t, 'dataset', { query: 'structuredProperties.deny.unstatus:y' }), 'deny.unstatus');
    await remove(t, 'structuredProperty', urn, 'status');
    assert.deepEqual(await search(t, 'structuredProperties.deny.unstatus:y'), [B]);
  });

  it('denies it again when it is soft-deleted again', async () => {
    const urn = await deletedProperty('deny.again');
    assert.equal((await setStatus(t, urn, false)).status, 200);
    assert.deepEqual(await search(t, 'structuredProperties.deny.again:x'), [A]);
    assert.equal((await setStatus(t, urn, true)).status, 200);
    await expectDenied(await list(t, 'dataset', { query: 'structuredProperties.deny.again:x' }), 'deny.again');
  });
});
