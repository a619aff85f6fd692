import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { testApp, type TestApp } from '../helpers.js';
import { chartInfo, datasetUrn, domain, tag, user, write, writeDatasets } from '../search/fixtures.js';
import { defineProperty } from '../structured/fixtures.js';
import { CLI_SEARCH, graphql } from './queries.js';

/** searchAcrossEntities and scrollAcrossEntities: DataHub's filters, facets, paging and entity fields over the search service. */

const A = datasetUrn('sales.orders');
const B = datasetUrn('sales.customers');
const C = datasetUrn('web.events', 'snowflake', 'DEV');
const D = datasetUrn('sales.order_lines', 'snowflake');
const CHART = 'urn:li:chart:(looker,orders)';
const CONTAINER = 'urn:li:container:warehouse';
const RETENTION = 'structuredProperties.retention';

const FIND = `query find($input: SearchAcrossEntitiesInput!) { searchAcrossEntities(input: $input) { total searchResults { entity { urn } } } }`;

describe('GraphQL search', () => {
  let t: TestApp;
  before(async () => {
    t = await testApp();
    const retention = await defineProperty(t, 'retention', { valueType: 'urn:li:dataType:datahub.number' });
    const days = (n: number) => [{ propertyUrn: retention, values: [{ double: n }] }];
    await writeDatasets(t, [
      [A, { name: 'orders', description: 'Placed orders', tags: [tag('pii')], owners: [user('jdoe')], domains: [domain('finance')], properties: days(9) }],
      [B, { name: 'customers', tags: [tag('gold')], properties: days(10) }],
      [C, { name: 'Click Events', tags: [tag('pii'), tag('gold')], properties: days(100) }],
      [D, { removed: true }],
    ]);
    await write(t, 'dataset', A, 'browsePathsV2', { path: [{ id: CONTAINER, urn: CONTAINER }] });
    await write(t, 'dataset', A, 'datasetProperties', { name: 'orders', description: 'Placed orders', customProperties: { team: 'sales' } });
    await write(t, 'chart', CHART, 'chartInfo', chartInfo('Orders by day', 'Daily orders'));
    await write(t, 'chart', CHART, 'globalTags', { tags: [{ tag: tag('pii') }] });
    await write(t, 'tag', tag('pii'), 'tagProperties', { name: 'PII', description: 'Personal data', colorHex: '#ff0000' });
    await write(t, 'dataset', A, 'container', { container: CONTAINER });
    await write(t, 'container', CONTAINER, 'containerProperties', { name: 'Warehouse' });
    await write(t, 'container', CONTAINER, 'dataPlatformInstance', { platform: 'urn:li:dataPlatform:hive' });
  });
  after(() => t.app.close());

  /** The URNs found by a search with these inputs, in URN order. */
  const found = async (input: Record<string, unknown>): Promise<string[]> => {
    const { status, body } = await graphql(t, FIND, { input: { query: '*', count: 100, ...input } });
    assert.equal(status, 200);
    assert.equal(body.errors, undefined, JSON.stringify(body.errors));
    return body.data.searchAcrossEntities.searchResults.map((r: { entity: { urn: string } }) => r.entity.urn).sort();
  };
  const datasets = (...and: object[]) => found({ types: ['DATASET'], orFilters: [{ and }] });
  /** The error a search with these inputs is refused with. */
  const refusal = async (input: Record<string, unknown>) => {
    const { status, body } = await graphql(t, FIND, { input: { query: '*', ...input } });
    assert.equal(status, 200);
    assert.equal(body.data.searchAcrossEntities, null);
    return body.errors;
  };
  const badRequest = (message: string) => [{ message, locations: [{ line: 1, column: 50 }], path: ['searchAcrossEntities'], extensions: { code: 400, type: 'BAD_REQUEST' } }];

  it('answers the CLI search with its entity fields and facets', async () => {
    const { status, body } = await graphql(t, CLI_SEARCH, { types: ['DATASET', 'CHART'], query: '*', orFilters: null, count: 3, start: 0, viewUrn: null, sortInput: null });
    assert.equal(status, 200);
    assert.equal(body.errors, undefined, JSON.stringify(body.errors));
    const page = body.data.searchAcrossEntities;
    assert.deepEqual([page.start, page.count, page.total], [0, 3, 4]);
    const hive = { urn: 'urn:li:dataPlatform:hive', name: 'hive', properties: { displayName: 'Hive', logoUrl: null } };
    const pii = { tag: { urn: tag('pii'), name: 'pii', properties: { name: 'PII', description: 'Personal data' } } };
    assert.deepEqual(page.searchResults[0].entity, {
      urn: CHART,
      type: 'CHART',
      platform: { urn: 'urn:li:dataPlatform:looker', name: 'looker', properties: { displayName: 'Looker', logoUrl: null } },
      properties: { name: 'Orders by day', description: 'Daily orders' },
      tags: { tags: [pii] },
      glossaryTerms: null,
      ownership: null,
      domain: null,
    });
    assert.deepEqual(page.searchResults[1].entity, {
      urn: B,
      type: 'DATASET',
      name: 'sales.customers',
      origin: 'PROD',
      platform: hive,
      properties: { name: 'customers', description: null, customProperties: [] },
      tags: { tags: [{ tag: { urn: tag('gold'), name: 'gold', properties: null } }] },
      glossaryTerms: null,
      ownership: null,
      domain: null,
      container: null,
    });
    assert.deepEqual(page.searchResults[2].entity, {
      urn: A,
      type: 'DATASET',
      name: 'sales.orders',
      origin: 'PROD',
      platform: hive,
      properties: { name: 'orders', description: 'Placed orders', customProperties: [{ key: 'team', value: 'sales' }] },
      tags: { tags: [pii] },
      glossaryTerms: null,
      ownership: { owners: [{ owner: { urn: user('jdoe'), username: 'jdoe' } }] },
      domain: { domain: { urn: domain('finance'), properties: null } },
      container: { urn: CONTAINER, properties: { name: 'Warehouse' }, platform: hive },
    });
    const facets = Object.fromEntries(page.facets.map((f: { field: string; displayName: string; aggregations: unknown[] }) => [f.field, f]));
    assert.deepEqual(Object.keys(facets), ['_entityType', 'platform', 'typeNames', 'origin', 'tags', 'glossaryTerms', 'owners', 'domains']);
    assert.deepEqual(facets._entityType, {
      field: '_entityType',
      displayName: 'Type',
      aggregations: [
        { value: 'DATASET', count: 3, displayName: null, entity: null },
        { value: 'CHART', count: 1, displayName: null, entity: null },
      ],
    });
    assert.deepEqual(facets.tags.aggregations, [
      { value: tag('pii'), count: 3, displayName: null, entity: { urn: tag('pii'), type: 'TAG', name: 'pii', properties: { name: 'PII', description: 'Personal data', colorHex: '#ff0000' } } },
      { value: tag('gold'), count: 2, displayName: null, entity: { urn: tag('gold'), type: 'TAG', name: 'gold', properties: null } },
    ]);
    assert.deepEqual(facets.origin.aggregations.map((a: { value: string; count: number }) => [a.value, a.count]), [['PROD', 2], ['DEV', 1]]);
  });

  it('counts no facets when skipAggregates is set, and at most maxAggValues values of each', async () => {
    const query = `query q($flags: SearchFlags) { searchAcrossEntities(input: {query: "*", searchFlags: $flags}) { facets { field aggregations { value } } } }`;
    const skipped = await graphql(t, query, { flags: { skipAggregates: true } });
    assert.deepEqual(skipped.body, { data: { searchAcrossEntities: { facets: [] } } });
    const few = await graphql(t, query, { flags: { maxAggValues: 1 } });
    const tags = few.body.data.searchAcrossEntities.facets.find((f: { field: string }) => f.field === 'tags');
    assert.deepEqual(tags.aggregations, [{ value: tag('pii') }]);
  });

  it('pages by start and count', async () => {
    const page = async (start: number, count: number) => {
      const { body } = await graphql(t, `{ searchAcrossEntities(input: {query: "*", types: [DATASET], start: ${start}, count: ${count}}) { start count total searchResults { entity { urn } } } }`);
      const r = body.data.searchAcrossEntities;
      return [r.start, r.count, r.total, r.searchResults.map((s: { entity: { urn: string } }) => s.entity.urn)];
    };
    assert.deepEqual(await page(0, 2), [0, 2, 3, [B, A]]);
    assert.deepEqual(await page(2, 2), [2, 1, 3, [C]]);
    assert.deepEqual(await page(5, 2), [5, 0, 3, []]);
    assert.deepEqual(await page(0, 0), [0, 0, 3, []]);
  });

  it('refuses a page past 10,000 results and a negative start', async () => {
    assert.deepEqual(await refusal({ start: 9_995, count: 10 }), badRequest('start + count may be at most 10,000, got 10,005: use scrollAcrossEntities to page further'));
    assert.deepEqual(await refusal({ start: -1 }), badRequest('start must be at least 0, got -1'));
    assert.deepEqual(await refusal({ count: -5 }), badRequest('count must be at least 0, got -5'));
  });

  it('refuses a view, which urnbase does not serve', async () => {
    assert.deepEqual(await refusal({ viewUrn: 'urn:li:dataHubView:mine' }), badRequest("viewUrn: views are not served by urnbase; send the view's filters in orFilters instead"));
  });

  it('refuses a grouping of results (searchFlags.groupingSpec, served only to lineage as the SDK sends it)', async () => {
    const groupingSpec = { groupingCriteria: [{ baseEntityType: 'SCHEMA_FIELD', groupingEntityType: 'DATASET' }] };
    assert.deepEqual(await refusal({ searchFlags: { groupingSpec } }), badRequest('searchFlags.groupingSpec: grouping search results is not served'));
  });

  it('searches the entity types asked for', async () => {
    assert.deepEqual(await found({ types: ['CHART'] }), [CHART]);
    assert.deepEqual(await found({ types: ['CHART', 'DATASET'], query: 'orders' }), [CHART, A]);
  });

  it('filters with each condition', async () => {
    assert.deepEqual(await datasets({ field: 'tags', values: [tag('pii')], condition: 'EQUAL' }), [A, C]);
    assert.deepEqual(await datasets({ field: 'tags', values: [tag('pii')] }), [A, C]);
    assert.deepEqual(await datasets({ field: 'tags', values: [tag('gold'), tag('nope')], condition: 'IN' }), [B, C]);
    assert.deepEqual(await datasets({ field: 'name', values: ['Events'], condition: 'CONTAIN' }), [C]);
    assert.deepEqual(await datasets({ field: 'name', values: ['cust'], condition: 'START_WITH' }), [B]);
    assert.deepEqual(await datasets({ field: 'name', values: ['ers'], condition: 'END_WITH' }), [B, A].sort());
    assert.deepEqual(await datasets({ field: 'domains', condition: 'EXISTS' }), [A]);
    assert.deepEqual(await datasets({ field: RETENTION, values: ['10'], condition: 'GREATER_THAN' }), [C]);
    assert.deepEqual(await datasets({ field: RETENTION, values: ['10'], condition: 'GREATER_THAN_OR_EQUAL_TO' }), [B, C].sort());
    assert.deepEqual(await datasets({ field: RETENTION, values: ['10'], condition: 'LESS_THAN' }), [A]);
    assert.deepEqual(await datasets({ field: RETENTION, values: ['10'], condition: 'LESS_THAN_OR_EQUAL_TO' }), [A, B].sort());
  });

  it('negates a criterion with negated true, or "true" in variables (in any case), and not with false or "false"', async () => {
    const pii = { field: 'tags', values: [tag('pii')] };
    assert.deepEqual(await datasets({ ...pii, negated: true }), [B]);
    assert.deepEqual(await datasets({ ...pii, negated: 'true' }), [B]);
    assert.deepEqual(await datasets({ ...pii, negated: false }), [A, C]);
    assert.deepEqual(await datasets({ ...pii, negated: 'false' }), [A, C]);
    assert.deepEqual(await datasets({ ...pii, negated: 'True' }), [B]);
    assert.deepEqual(await datasets({ ...pii, negated: 'False' }), [A, C]);
  });

  it('ORs the groups of orFilters and ANDs the legacy filters', async () => {
    const either = await found({ types: ['DATASET'], orFilters: [{ and: [{ field: 'tags', values: [tag('gold')] }, { field: 'origin', values: ['DEV'] }] }, { and: [{ field: 'domains', condition: 'EXISTS' }] }] });
    assert.deepEqual(either, [A, C]);
    assert.deepEqual(await found({ types: ['DATASET'], filters: [{ field: 'tags', values: [tag('pii')] }, { field: 'origin', values: ['PROD'] }] }), [A]);
  });

  it('filters on the fields DataHub clients send', async () => {
    assert.deepEqual(await datasets({ field: 'platform.keyword', values: ['urn:li:dataPlatform:snowflake'], condition: 'EQUAL' }), [C]);
    assert.deepEqual(await datasets({ field: 'platform', values: ['urn:li:dataPlatform:hive'] }), [A, B].sort());
    assert.deepEqual(await datasets({ field: 'origin', values: ['DEV'] }), [C]);
    assert.deepEqual(await datasets({ field: 'browsePathV2', values: [CONTAINER] }), [A]);
    assert.deepEqual(await datasets({ field: 'removed', values: ['true'] }), [D]);
    assert.deepEqual(await datasets({ field: 'removed', values: ['true'], negated: true }), [A, B, C].sort());
    assert.deepEqual(await found({ orFilters: [{ and: [{ field: '_entityType', values: ['CHART'] }] }] }), [CHART]);
    assert.deepEqual(await found({ query: 'orders', orFilters: [{ and: [{ field: '_entityType', values: ['DATASET'], negated: true }] }] }), [CHART]);
    assert.deepEqual(await found({ orFilters: [{ and: [{ field: '_entityType', values: ['chart', 'TAG'], condition: 'IN' }] }] }), [CHART, tag('pii')].sort());
    assert.deepEqual(await datasets({ field: 'tags', values: [tag('gold')] }), [B, C]);
    assert.deepEqual(await datasets({ field: RETENTION, values: ['9'] }), [A]);
  });

  it('includes soft-deleted entities with includeSoftDeleted', async () => {
    assert.deepEqual(await found({ types: ['DATASET'], searchFlags: { includeSoftDeleted: true } }), [A, B, C, D].sort());
  });

  it('refuses, naming the criterion, what it cannot filter on', async () => {
    assert.deepEqual(
      await refusal({ orFilters: [{ and: [{ field: 'tags', values: ['x'] }, { field: 'name', values: ['x'], condition: 'IEQUAL' }] }] }),
      badRequest('orFilters[0].and[1].condition: IEQUAL is not supported (supported: EQUAL, IN, CONTAIN, EXISTS, START_WITH, END_WITH, GREATER_THAN, GREATER_THAN_OR_EQUAL_TO, LESS_THAN, LESS_THAN_OR_EQUAL_TO)'),
    );
    assert.deepEqual(await refusal({ orFilters: [{ and: [{ field: 'container', values: ['x'], condition: 'DESCENDANTS_INCL' }] }] }), badRequest('orFilters[0].and[0].condition: DESCENDANTS_INCL is not supported (supported: EQUAL, IN, CONTAIN, EXISTS, START_WITH, END_WITH, GREATER_THAN, GREATER_THAN_OR_EQUAL_TO, LESS_THAN, LESS_THAN_OR_EQUAL_TO)'));
    assert.deepEqual(await refusal({ orFilters: [{ and: [{ field: '_entityType', values: ['DATA'], condition: 'START_WITH' }] }] }), badRequest('orFilters[0].and[0].condition: _entityType takes EQUAL or IN, got STARTS_WITH'));
    assert.deepEqual(await refusal({ orFilters: [{ and: [{ field: '_entityType', values: ['spaceship'] }] }] }), badRequest('orFilters[0].and[0].values: unknown entity type spaceship'));
    assert.deepEqual(await refusal({ orFilters: [{ and: [{ field: 'structuredProperties.nope', values: ['1'] }] }] }), badRequest('orFilters[0].and[0]: Unknown structured property structuredProperties.nope'));
    assert.deepEqual(await refusal({ filters: [{ field: 'tags', values: [] }] }), badRequest('filters[0].values: EQUAL needs a value'));
    assert.deepEqual(await refusal({ orFilters: [{ and: [{ field: RETENTION, values: ['1', '2'], condition: 'GREATER_THAN' }] }] }), badRequest('orFilters[0].and[0]: a comparison takes exactly one value, got 2'));
  });

  it('sorts by sortInput', async () => {
    const sorted = async (sortOrder: string) => {
      const { body } = await graphql(t, `query q($s: SearchSortInput) { searchAcrossEntities(input: {query: "*", types: [DATASET], sortInput: $s}) { searchResults { entity { urn } } } }`, {
        s: { sortCriteria: [{ field: 'name', sortOrder }] },
      });
      return body.data.searchAcrossEntities.searchResults.map((r: { entity: { urn: string } }) => r.entity.urn);
    };
    assert.deepEqual(await sorted('ASCENDING'), [C, B, A]);
    assert.deepEqual(await sorted('DESCENDING'), [A, B, C]);
  });

  it('scrolls with nextScrollId until it is null, and stops at once for a count of 0', async () => {
    const query = `query q($id: String, $n: Int) { scrollAcrossEntities(input: {query: "*", types: [DATASET], count: $n, scrollId: $id}) { nextScrollId count total searchResults { entity { urn } } } }`;
    const first = (await graphql(t, query, { id: null, n: 2 })).body.data.scrollAcrossEntities;
    assert.deepEqual([first.count, first.total, first.searchResults.map((r: { entity: { urn: string } }) => r.entity.urn)], [2, 3, [B, A]]);
    const second = (await graphql(t, query, { id: first.nextScrollId, n: 2 })).body.data.scrollAcrossEntities;
    assert.deepEqual(second, { nextScrollId: null, count: 1, total: 3, searchResults: [{ entity: { urn: C } }] });
    assert.deepEqual((await graphql(t, query, { id: null, n: 0 })).body.data.scrollAcrossEntities, { nextScrollId: null, count: 0, total: 3, searchResults: [] });
  });
});
