import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { testApp, type TestApp } from '../helpers.js';
import { datasetUrn, filtered, invalid, list, scroll, search, where, write, writeBatch } from './fixtures.js';

/**
 * The fields DataHub's model declares searchable (`@Searchable`), indexed beside search.json's:
 * lineage, schema fields, containers, browse paths, key fields, each under DataHub's field name,
 * with DataHub's presence filters (`hasContainer`) and aliases (`typeNames`, `_entityName`).
 */

const SOURCE = datasetUrn('model.raw_orders');
const OTHER_SOURCE = datasetUrn('model.raw_refunds');
const DERIVED = datasetUrn('model.orders');
const LOOSE = datasetUrn('model.scratch', 'hive', 'DEV');
const CONTAINER = 'urn:li:container:warehouse';
const JOB = 'urn:li:dataJob:(urn:li:dataFlow:(airflow,model_dag,prod),load_orders)';
const CHART = 'urn:li:chart:(looker,model.revenue)';
const audit = { time: 1700000000000, actor: 'urn:li:corpuser:ingest' };

const upstreams = (...urns: string[]) => ({ upstreams: urns.map((dataset) => ({ dataset, type: 'TRANSFORMED', auditStamp: audit })) });
const schemaFields = (...fields: Array<{ fieldPath: string; description?: string; tags?: string[] }>) => ({
  schemaName: 'orders',
  platform: 'urn:li:dataPlatform:hive',
  version: 0,
  hash: '',
  platformSchema: { 'com.linkedin.schema.OtherSchema': { rawSchema: '' } },
  fields: fields.map(({ fieldPath, description, tags }) => ({
    fieldPath,
    nativeDataType: 'string',
    type: { type: { 'com.linkedin.schema.StringType': {} } },
    ...(description ? { description } : {}),
    ...(tags ? { globalTags: { tags: tags.map((tag) => ({ tag })) } } : {}),
  })),
});

describe('search: the fields of DataHub\'s model', () => {
  let t: TestApp;
  before(async () => {
    t = await testApp();
    await writeBatch(t, 'dataset', [
      { urn: SOURCE, aspects: { datasetProperties: { name: 'raw_orders' }, container: { container: CONTAINER } } },
      { urn: OTHER_SOURCE, aspects: { datasetProperties: { name: 'raw_refunds' } } },
      {
        urn: DERIVED,
        aspects: {
          datasetProperties: { name: 'orders' },
          upstreamLineage: upstreams(SOURCE),
          schemaMetadata: schemaFields({ fieldPath: 'ltv', description: 'customer lifetime value', tags: ['urn:li:tag:pii'] }, { fieldPath: 'id' }),
          subTypes: { typeNames: ['View'] },
          container: { container: CONTAINER },
          browsePathsV2: { path: [{ id: 'warehouse' }, { id: 'marts' }] },
        },
      },
      { urn: LOOSE, aspects: { datasetProperties: { name: 'scratch' }, subTypes: { typeNames: ['Table'] } } },
    ]);
    await write(t, 'dataJob', JOB, 'dataJobInputOutput', { inputDatasets: [SOURCE], outputDatasets: [DERIVED] });
    await write(t, 'chart', CHART, 'chartInfo', { title: 'revenue', description: '', type: 'BAR', lastModified: { created: audit, lastModified: audit } });
  });
  after(() => t.app.close());

  describe('lineage', () => {
    it('finds a dataset by its upstreams', async () => {
      assert.deepEqual(await filtered(t, where({ field: 'upstreams', condition: 'EQUAL', values: [SOURCE] })), [DERIVED]);
      assert.deepEqual(await search(t, `upstreams:${JSON.stringify(SOURCE)}`), [DERIVED]);
    });

    it('keeps upstreams out of free text, as DataHub does (queryByDefault: false)', async () => {
      assert.deepEqual(await search(t, 'raw_orders'), [SOURCE]);
    });

    it('follows a rewrite of the lineage: the old upstream no longer matches', async () => {
      await write(t, 'dataset', DERIVED, 'upstreamLineage', upstreams(OTHER_SOURCE));
      assert.deepEqual(await filtered(t, where({ field: 'upstreams', condition: 'EQUAL', values: [SOURCE] })), []);
      assert.deepEqual(await filtered(t, where({ field: 'upstreams', condition: 'EQUAL', values: [OTHER_SOURCE] })), [DERIVED]);
      await write(t, 'dataset', DERIVED, 'upstreamLineage', upstreams(SOURCE));
    });

    it('finds a data job by its inputs and outputs', async () => {
      assert.deepEqual(await filtered(t, where({ field: 'inputs', condition: 'EQUAL', values: [SOURCE] }), {}, ['dataJob']), [JOB]);
      assert.deepEqual(await filtered(t, where({ field: 'outputs', condition: 'EQUAL', values: [DERIVED] }), {}, ['dataJob']), [JOB]);
      assert.deepEqual(await filtered(t, where({ field: 'dataFlow', condition: 'EQUAL', values: ['urn:li:dataFlow:(airflow,model_dag,prod)'] }), {}, ['dataJob']), [JOB]);
    });
  });

  describe('schema fields', () => {
    it('finds a dataset by the words of a field description, in free text and by field', async () => {
      assert.deepEqual(await search(t, 'lifetime'), [DERIVED]);
      assert.deepEqual(await search(t, 'fieldDescriptions:lifetime'), [DERIVED]);
      assert.deepEqual(await filtered(t, where({ field: 'fieldDescriptions', condition: 'EQUAL', values: ['customer lifetime'] })), [DERIVED]);
    });

    it('finds a dataset by the tags of its fields, a short value meaning the tag', async () => {
      assert.deepEqual(await filtered(t, where({ field: 'fieldTags', condition: 'EQUAL', values: ['pii'] })), [DERIVED]);
      assert.deepEqual(await filtered(t, where({ field: 'tags', condition: 'EQUAL', values: ['pii'] })), [], 'a field tag is not the dataset\'s tag');
    });
  });

  describe('containers, subtypes, browse paths and keys', () => {
    it('finds the datasets of a container', async () => {
      assert.deepEqual(await filtered(t, where({ field: 'container', condition: 'EQUAL', values: [CONTAINER] })), [DERIVED, SOURCE]);
    });

    it('answers DataHub\'s presence filters: hasContainer:true and false', async () => {
      assert.deepEqual(await search(t, 'hasContainer:true'), [DERIVED, SOURCE]);
      assert.deepEqual(await search(t, 'hasContainer:false'), [OTHER_SOURCE, LOOSE]);
      assert.deepEqual(await filtered(t, where({ field: 'hasContainer', condition: 'EQUAL', values: ['false'] })), [OTHER_SOURCE, LOOSE]);
      assert.deepEqual(await search(t, 'hasDescription:true'), []);
    });

    it('refuses a presence filter that is not true or false', async () => {
      const res = await list(t, 'dataset', { query: 'hasContainer:maybe' });
      assert.equal(res.status, 400);
      assert.deepEqual(res.body, invalid('Invalid query at column 1: hasContainer: expected true or false'));
    });

    it('knows subtypes by DataHub\'s name, typeNames, and names by _entityName', async () => {
      assert.deepEqual(await search(t, 'typeNames:View'), [DERIVED]);
      assert.deepEqual(await search(t, 'subtypes:View'), [DERIVED]);
      assert.deepEqual(await search(t, '_entityName:scratch'), [LOOSE]);
    });

    it('matches browse path entries', async () => {
      assert.deepEqual(await filtered(t, where({ field: 'browsePathV2', condition: 'EQUAL', values: ['marts'] })), [DERIVED]);
    });

    it('filters and counts by a key field kept whole: the origin (environment)', async () => {
      assert.deepEqual(await search(t, 'origin:DEV'), [LOOSE]);
      const res = await scroll(t, { entities: ['dataset'], facets: ['origin'] });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.deepEqual(res.body.facets, [{ field: 'origin', aggregations: { PROD: 3, DEV: 1 } }]);
    });

    it('filters charts by their type', async () => {
      assert.deepEqual(await filtered(t, where({ field: 'type', condition: 'EQUAL', values: ['BAR'] }), {}, ['chart']), [CHART]);
    });
  });

  it('names the fields it knows when one is unknown', async () => {
    const res = await list(t, 'dataset', { query: 'upstream_of:x' });
    assert.equal(res.status, 400);
    assert.deepEqual(
      res.body,
      invalid(
        "Invalid query at column 1: Unknown search field upstream_of (known: urn, name, qualifiedName, description, fieldPaths, platform, tags, glossaryTerms, owners, domains, subtypes, removed, structuredProperties.<name>, and 129 fields of DataHub's model, listed in docs/search.md)",
      ),
    );
  });
});
