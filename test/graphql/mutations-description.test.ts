import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { datasetUrn, type TestApp } from '../helpers.js';
import { badRequest, mutationApp, WRITER, type MutationApp } from './mutation-app.js';
import { graphql } from './queries.js';

/** updateDescription: the description written (PATCH through Ingest) where DataHub keeps it for each entity type, read back on REST and GraphQL. */

const ORDERS = datasetUrn('description.orders');
const MISSING = datasetUrn('description.missing');
const CHART = 'urn:li:chart:(looker,description)';
const TERM = 'urn:li:glossaryTerm:Description.Revenue';
const NODE = 'urn:li:glossaryNode:Description';
const TAG = 'urn:li:tag:description';
const DOMAIN = 'urn:li:domain:description';
const BARE_DOMAIN = 'urn:li:domain:bare';
const MODEL = 'urn:li:mlModel:(urn:li:dataPlatform:sagemaker,description,PROD)';
const USER = 'urn:li:corpuser:description';
const PII = 'urn:li:tag:pii';
const EARLIER = { time: 1_700_000_000_000, actor: 'urn:li:corpuser:ingestion' };

const UPDATE = 'mutation updateDescription($input: DescriptionUpdateInput!) { updateDescription(input: $input) }';
const field = (fieldPath: string) => ({ fieldPath, nativeDataType: 'string', type: { type: { 'com.linkedin.schema.StringType': {} } } });
const SCHEMA = { schemaName: 'orders', platform: 'urn:li:dataPlatform:hive', version: 0, hash: 'h', platformSchema: { 'com.linkedin.schema.OtherSchema': { rawSchema: '' } }, fields: [field('id'), field('total'), field('a/b')] };

describe('GraphQL updateDescription', () => {
  let m: MutationApp;
  let t: TestApp;
  const update = (input: Record<string, unknown>) => m.mutate(UPDATE, { input });
  const refused = (message: string) => ({ data: { updateDescription: null }, errors: [badRequest(message, UPDATE, 'updateDescription')] });
  /** The stamp of an update just made: the writer's, at a time within the test. */
  const stamped = (stamp: { time: number; actor: string }, since: number) => {
    assert.equal(stamp.actor, WRITER);
    assert.ok(stamp.time >= since && stamp.time <= Date.now(), JSON.stringify(stamp));
  };

  before(async () => {
    m = await mutationApp();
    t = m.t;
    await t.services.ingest.ingest(
      [
        { urn: ORDERS, aspect: 'datasetProperties', changeType: 'UPSERT', value: { name: 'orders', description: 'from ingestion' } },
        { urn: ORDERS, aspect: 'schemaMetadata', changeType: 'UPSERT', value: SCHEMA },
        { urn: ORDERS, aspect: 'editableSchemaMetadata', changeType: 'UPSERT', value: { created: EARLIER, lastModified: EARLIER, editableSchemaFieldInfo: [{ fieldPath: 'total', globalTags: { tags: [{ tag: PII }] } }] } },
        { urn: CHART, aspect: 'chartInfo', changeType: 'UPSERT', value: { title: 'Revenue', description: '', lastModified: { created: EARLIER, lastModified: EARLIER } } },
        { urn: TERM, aspect: 'glossaryTermInfo', changeType: 'UPSERT', value: { name: 'Revenue', definition: 'old', termSource: 'INTERNAL' } },
        { urn: NODE, aspect: 'glossaryNodeInfo', changeType: 'UPSERT', value: { name: 'Description', definition: 'old' } },
        { urn: TAG, aspect: 'tagProperties', changeType: 'UPSERT', value: { name: 'description' } },
        { urn: DOMAIN, aspect: 'domainProperties', changeType: 'UPSERT', value: { name: 'Description' } },
        { urn: BARE_DOMAIN, aspect: 'ownership', changeType: 'UPSERT', value: { owners: [] } },
        { urn: MODEL, aspect: 'mlModelProperties', changeType: 'UPSERT', value: { description: 'churn' } },
        { urn: USER, aspect: 'corpUserInfo', changeType: 'UPSERT', value: { active: true } },
      ],
      { actor: WRITER, source: 'test' },
    );
  });
  after(() => t.app.close());

  it("a dataset's description goes to editableDatasetProperties, created once and stamped each time; read back on GraphQL", async () => {
    const since = Date.now();
    assert.deepEqual(await update({ description: 'Orders, one a row', resourceUrn: ORDERS }), { data: { updateDescription: true } });
    const first = await m.aspectOf(ORDERS, 'editableDatasetProperties');
    assert.equal(first.description, 'Orders, one a row');
    stamped(first.created, since);
    stamped(first.lastModified, since);
    assert.deepEqual(Object.keys(first).sort(), ['created', 'description', 'lastModified']);
    assert.deepEqual(await update({ description: 'Orders', resourceUrn: ORDERS }), { data: { updateDescription: true } });
    const second = await m.aspectOf(ORDERS, 'editableDatasetProperties');
    assert.deepEqual([second.description, second.created], ['Orders', first.created]);
    // What ingestion wrote stays where it was.
    assert.equal((await m.aspectOf(ORDERS, 'datasetProperties')).description, 'from ingestion');
    const events = (await t.services.store.readEvents(0, 100_000)).filter((e) => e.urn === ORDERS && e.aspect === 'editableDatasetProperties');
    assert.deepEqual(events.map((e) => [e.changeType, e.created.actor]), [['PATCH', WRITER], ['PATCH', WRITER]]);
    const fetched = await graphql(t, `{ dataset(urn: "${ORDERS}") { editableProperties { description } } }`, undefined, m.viewer);
    assert.deepEqual(fetched.body, { data: { dataset: { editableProperties: { description: 'Orders' } } } });
  });

  it("a dataset field's description goes to its editableSchemaFieldInfo item: an existing item keeps its tags, a new one is added", async () => {
    const since = Date.now();
    assert.deepEqual(await update({ description: 'Gross total', resourceUrn: ORDERS, subResourceType: 'DATASET_FIELD', subResource: 'total' }), { data: { updateDescription: true } });
    // Literal form, as the CLI sends it; a field path with a slash is one key.
    const literal = `mutation { updateDescription(input: {description: "Nested", resourceUrn: "${ORDERS}", subResourceType: DATASET_FIELD, subResource: "a/b"}) }`;
    assert.deepEqual(await m.mutate(literal), { data: { updateDescription: true } });
    const editable = await m.aspectOf(ORDERS, 'editableSchemaMetadata');
    assert.deepEqual(editable.editableSchemaFieldInfo, [
      { fieldPath: 'total', globalTags: { tags: [{ tag: PII }] }, description: 'Gross total' },
      { fieldPath: 'a/b', description: 'Nested' },
    ]);
    assert.deepEqual(editable.created, EARLIER);
    stamped(editable.lastModified, since);
    const fetched = await graphql(t, `{ dataset(urn: "${ORDERS}") { editableSchemaMetadata { editableSchemaFieldInfo { fieldPath description } } } }`, undefined, m.viewer);
    assert.deepEqual(fetched.body.data.dataset.editableSchemaMetadata.editableSchemaFieldInfo, [
      { fieldPath: 'total', description: 'Gross total' },
      { fieldPath: 'a/b', description: 'Nested' },
    ]);
  });

  it("a field of a dataset without editableSchemaMetadata makes the aspect, stamped", async () => {
    const other = datasetUrn('description.other');
    await t.services.ingest.ingest([{ urn: other, aspect: 'schemaMetadata', changeType: 'UPSERT', value: SCHEMA }], { actor: WRITER, source: 'test' });
    const since = Date.now();
    assert.deepEqual(await update({ description: 'Key', resourceUrn: other, subResourceType: 'DATASET_FIELD', subResource: 'id' }), { data: { updateDescription: true } });
    const editable = await m.aspectOf(other, 'editableSchemaMetadata');
    assert.deepEqual(editable.editableSchemaFieldInfo, [{ fieldPath: 'id', description: 'Key' }]);
    stamped(editable.created, since);
    stamped(editable.lastModified, since);
  });

  it("other entity types: each in its aspect (a glossary entity's definition), the rest of the aspect kept", async () => {
    const cases: Array<[string, string, string]> = [
      [CHART, 'editableChartProperties', 'description'],
      [TERM, 'glossaryTermInfo', 'definition'],
      [NODE, 'glossaryNodeInfo', 'definition'],
      [TAG, 'tagProperties', 'description'],
      [DOMAIN, 'domainProperties', 'description'],
      [MODEL, 'editableMlModelProperties', 'description'],
    ];
    for (const [urn, aspect, key] of cases) {
      assert.deepEqual(await update({ description: `About ${urn}`, resourceUrn: urn }), { data: { updateDescription: true } }, urn);
      assert.equal((await m.aspectOf(urn, aspect))[key], `About ${urn}`, urn);
    }
    assert.deepEqual(await m.aspectOf(TERM, 'glossaryTermInfo'), { name: 'Revenue', definition: `About ${TERM}`, termSource: 'INTERNAL' });
    assert.deepEqual(await m.aspectOf(TAG, 'tagProperties'), { name: 'description', description: `About ${TAG}` });
    assert.deepEqual(await m.aspectOf(MODEL, 'editableMlModelProperties'), { description: `About ${MODEL}` });
    const fetched = await graphql(t, `{ glossaryTerm(urn: "${TERM}") { properties { definition } } }`, undefined, m.viewer);
    assert.deepEqual(fetched.body, { data: { glossaryTerm: { properties: { definition: `About ${TERM}` } } } });
  });

  it('refuses, writing nothing, an unknown entity or field, an unsupported type, a field of a non-dataset, a domain without properties', async () => {
    const before = await t.services.store.readEvents(0, 100_000);
    const refusals: Array<[Record<string, unknown>, string]> = [
      [{ description: 'x', resourceUrn: MISSING }, `Failed to update ${MISSING}. ${MISSING} does not exist.`],
      [{ description: 'x', resourceUrn: USER }, `Failed to update description. Unsupported resource type ${USER} provided.`],
      [{ description: 'x', resourceUrn: CHART, subResourceType: 'DATASET_FIELD', subResource: 'x' }, `Failed to update description. Unsupported resource type ${CHART} provided.`],
      [{ description: 'x', resourceUrn: ORDERS, subResourceType: 'DATASET_FIELD', subResource: 'nope' }, `Failed to update ${ORDERS} & field nope. Field nope does not exist.`],
      [{ description: 'x', resourceUrn: ORDERS, subResourceType: 'DATASET_FIELD' }, `Failed to update ${ORDERS}: a field's description needs subResourceType DATASET_FIELD and the field's path as subResource`],
      [{ description: 'x', resourceUrn: BARE_DOMAIN }, 'Properties for this Domain do not yet exist!'],
    ];
    for (const [input, message] of refusals) assert.deepEqual(await update(input), refused(message), message);
    const invalid = await update({ description: 'x', resourceUrn: 'not-a-urn' });
    assert.equal(invalid.errors[0].extensions.code, 400);
    assert.deepEqual(invalid.data, { updateDescription: null });
    assert.deepEqual(await t.services.store.readEvents(0, 100_000), before);
  });

  it('refuses a viewer token with UNAUTHORIZED, writing nothing', async () => {
    await m.refusedToViewer([['updateDescription', UPDATE, { input: { description: 'x', resourceUrn: ORDERS } }]]);
  });
});
