import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { datasetUrn, testApp, type TestApp } from '../helpers.js';
import { write } from '../search/fixtures.js';
import { graphql, latestReads } from './queries.js';

/** A dataset's schemaMetadata(version:) and editableSchemaMetadata, as the fetches answer them. */

const ORDERS = datasetUrn('schema.orders');
const USERS = datasetUrn('schema.users');
const BARE = datasetUrn('schema.bare');
const PII = 'urn:li:tag:pii';
const TERM = 'urn:li:glossaryTerm:Finance.Revenue';
const AUDIT = { time: 1_700_000_000_000, actor: 'urn:li:corpuser:jdoe' };

const schema = (version: number, fields: unknown[]) => ({
  schemaName: 'orders',
  platform: 'urn:li:dataPlatform:hive',
  version,
  hash: `h${version}`,
  platformSchema: { 'com.linkedin.schema.OtherSchema': { rawSchema: '' } },
  fields,
});
const ID = { fieldPath: 'id', nativeDataType: 'bigint', type: { type: { 'com.linkedin.schema.NumberType': {} } }, nullable: false, isPartOfKey: true };
const TOTAL = {
  fieldPath: 'total',
  nativeDataType: 'decimal(10,2)',
  type: { type: { 'com.linkedin.schema.NumberType': {} } },
  nullable: true,
  description: 'Order total',
  globalTags: { tags: [{ tag: PII }] },
  glossaryTerms: { terms: [{ urn: TERM }], auditStamp: AUDIT },
};
const NOTE = { fieldPath: 'note', nativeDataType: 'string', type: { type: { 'com.linkedin.schema.StringType': {} } } };
const ITEMS = { fieldPath: 'items', nativeDataType: 'array<struct>', type: { type: { 'com.linkedin.schema.ArrayType': {} } } };

const FIELDS = 'fieldPath type nativeDataType description nullable isPartOfKey globalTags { tags { tag { urn } associatedUrn } } glossaryTerms { terms { term { urn } } }';
const QUERY = `query q($urn: String!, $version: Long) { dataset(urn: $urn) { schemaMetadata(version: $version) { name platformUrn version hash fields { ${FIELDS} } } } }`;

describe('GraphQL dataset schemas', () => {
  let t: TestApp;
  before(async () => {
    t = await testApp();
    await write(t, 'dataset', ORDERS, 'schemaMetadata', schema(1, [ID, NOTE]));
    await write(t, 'dataset', ORDERS, 'schemaMetadata', schema(2, [ID, TOTAL, ITEMS]));
    await write(t, 'dataset', ORDERS, 'editableSchemaMetadata', {
      editableSchemaFieldInfo: [{ fieldPath: 'total', description: 'Gross, in euros', globalTags: { tags: [{ tag: PII }] } }],
      created: AUDIT,
      lastModified: AUDIT,
    });
    await write(t, 'dataset', USERS, 'schemaMetadata', schema(7, [NOTE]));
    await write(t, 'dataset', BARE, 'datasetProperties', { name: 'bare' });
  });
  after(() => t.app.close());

  const schemaOf = async (urn: string, version?: unknown) => {
    const { status, body } = await graphql(t, QUERY, { urn, ...(version === undefined ? {} : { version }) });
    assert.equal(status, 200);
    assert.equal(body.errors, undefined, JSON.stringify(body.errors));
    return body.data.dataset.schemaMetadata;
  };

  const latest = {
    name: 'orders',
    platformUrn: 'urn:li:dataPlatform:hive',
    version: 2,
    hash: 'h2',
    fields: [
      { fieldPath: 'id', type: 'NUMBER', nativeDataType: 'bigint', description: null, nullable: false, isPartOfKey: true, globalTags: null, glossaryTerms: null },
      { fieldPath: 'total', type: 'NUMBER', nativeDataType: 'decimal(10,2)', description: 'Order total', nullable: true, isPartOfKey: null, globalTags: { tags: [{ tag: { urn: PII }, associatedUrn: ORDERS }] }, glossaryTerms: { terms: [{ term: { urn: TERM } }] } },
      { fieldPath: 'items', type: 'ARRAY', nativeDataType: 'array<struct>', description: null, nullable: false, isPartOfKey: null, globalTags: null, glossaryTerms: null },
    ],
  };

  it('answers the latest schema without a version, and with version 0', async () => {
    assert.deepEqual(await schemaOf(ORDERS), latest);
    assert.deepEqual(await schemaOf(ORDERS, 0), latest);
  });

  it('answers an earlier version by its number, as DataHub numbers an aspect\'s versions', async () => {
    assert.deepEqual(await schemaOf(ORDERS, 1), {
      name: 'orders',
      platformUrn: 'urn:li:dataPlatform:hive',
      version: 1,
      hash: 'h1',
      fields: [
        { fieldPath: 'id', type: 'NUMBER', nativeDataType: 'bigint', description: null, nullable: false, isPartOfKey: true, globalTags: null, glossaryTerms: null },
        { fieldPath: 'note', type: 'STRING', nativeDataType: 'string', description: null, nullable: false, isPartOfKey: null, globalTags: null, glossaryTerms: null },
      ],
    });
    // The latest is version 2 too (the second value written); there is no third.
    assert.deepEqual(await schemaOf(ORDERS, 2), latest);
    assert.equal(await schemaOf(ORDERS, 3), null);
  });

  it('answers null for a dataset without a schema', async () => {
    assert.equal(await schemaOf(BARE), null);
    assert.equal(await schemaOf(BARE, 1), null);
  });

  it('refuses a version that is not a whole number at least 0', async () => {
    for (const [version, shown] of [[-1, '-1'], [1.5, '1.5'], ['2', '"2"']] as const) {
      const { status, body } = await graphql(t, QUERY, { urn: ORDERS, version });
      assert.equal(status, 200);
      assert.deepEqual(body.errors.map((e: { message: string; path: unknown; extensions: unknown }) => [e.message, e.path, e.extensions]), [
        [`version: expected a whole number at least 0 (0: the latest), got ${shown}`, ['dataset', 'schemaMetadata'], { code: 400, type: 'BAD_REQUEST' }],
      ]);
      assert.deepEqual(body.data, { dataset: { schemaMetadata: null } });
    }
  });

  it('answers the editable schema', async () => {
    const { body } = await graphql(t, `query q($urn: String!) { dataset(urn: $urn) { editableSchemaMetadata { editableSchemaFieldInfo {
      fieldPath description globalTags { tags { tag { urn properties { name } } } } glossaryTerms { terms { term { urn } } } } } } }`, { urn: ORDERS });
    assert.deepEqual(body, {
      data: { dataset: { editableSchemaMetadata: { editableSchemaFieldInfo: [{ fieldPath: 'total', description: 'Gross, in euros', globalTags: { tags: [{ tag: { urn: PII, properties: null } }] }, glossaryTerms: null }] } } },
    });
    const bare = await graphql(t, `query q($urn: String!) { dataset(urn: $urn) { editableSchemaMetadata { editableSchemaFieldInfo { fieldPath } } } }`, { urn: BARE });
    assert.deepEqual(bare.body, { data: { dataset: { editableSchemaMetadata: null } } });
  });

  it("reads the latest schemas of an operation's datasets in one batch of their own", async () => {
    const { result, reads } = await latestReads(t, () =>
      graphql(t, `query q($a: String!, $b: String!, $c: String!) {
        a: dataset(urn: $a) { schemaMetadata { version } editableSchemaMetadata { editableSchemaFieldInfo { fieldPath } } }
        b: dataset(urn: $b) { schemaMetadata { version } }
        c: dataset(urn: $c) { schemaMetadata { version } }
      }`, { a: ORDERS, b: USERS, c: BARE }),
    );
    assert.deepEqual(result.body.data, { a: { schemaMetadata: { version: 2 }, editableSchemaMetadata: { editableSchemaFieldInfo: [{ fieldPath: 'total' }] } }, b: { schemaMetadata: { version: 7 } }, c: { schemaMetadata: null } });
    // One read for the datasets, one for their schemas: the schemas are never read with the other aspects.
    assert.equal(reads.length, 2);
    assert.ok(!reads[0]?.includes('schemaMetadata'));
    assert.deepEqual([...(reads[1] ?? [])].sort(), ['datasetKey', 'editableSchemaMetadata', 'schemaMetadata']);
  });
});
