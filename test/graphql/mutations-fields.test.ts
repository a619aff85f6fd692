import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { datasetUrn, type TestApp } from '../helpers.js';
import { badRequest, mutationApp, WRITER, type MutationApp } from './mutation-app.js';
import { graphql } from './queries.js';

/** Tags and terms of a schema field (subResourceType DATASET_FIELD): the dataset's editableSchemaMetadata, per field. */

const ORDERS = datasetUrn('fields.orders');
const USERS = datasetUrn('fields.users');
const BARE = datasetUrn('fields.bare');
const CHART = 'urn:li:chart:(looker,fields.chart)';
const PII = 'urn:li:tag:pii';
const GOLD = 'urn:li:tag:gold';
const REVENUE = 'urn:li:glossaryTerm:revenue';
const SEED = { time: 1_700_000_000_000, actor: 'urn:li:corpuser:seed' };

const ADD_TAG = 'mutation addTag($input: TagAssociationInput!) { addTag(input: $input) }';
const ADD_TAGS = 'mutation addTags($input: AddTagsInput!) { addTags(input: $input) }';
const REMOVE_TAG = 'mutation removeTag($input: TagAssociationInput!) { removeTag(input: $input) }';
const BATCH_ADD_TAGS = 'mutation batchAddTags($input: BatchAddTagsInput!) { batchAddTags(input: $input) }';
const BATCH_REMOVE_TAGS = 'mutation batchRemoveTags($input: BatchRemoveTagsInput!) { batchRemoveTags(input: $input) }';
const ADD_TERM = 'mutation addTerm($input: TermAssociationInput!) { addTerm(input: $input) }';
const ADD_TERMS = 'mutation addTerms($input: AddTermsInput!) { addTerms(input: $input) }';
const REMOVE_TERM = 'mutation removeTerm($input: TermAssociationInput!) { removeTerm(input: $input) }';
const BATCH_ADD_TERMS = 'mutation batchAddTerms($input: BatchAddTermsInput!) { batchAddTerms(input: $input) }';
const BATCH_REMOVE_TERMS = 'mutation batchRemoveTerms($input: BatchRemoveTermsInput!) { batchRemoveTerms(input: $input) }';

const field = (fieldPath: string) => ({ fieldPath, nativeDataType: 'string', type: { type: { 'com.linkedin.schema.StringType': {} } } });
const schema = (...paths: string[]) => ({ schemaName: 's', platform: 'urn:li:dataPlatform:hive', version: 0, hash: '', platformSchema: { 'com.linkedin.schema.OtherSchema': { rawSchema: '' } }, fields: paths.map(field) });
const on = (resourceUrn: string, subResource: string) => ({ resourceUrn, subResourceType: 'DATASET_FIELD', subResource });

describe('GraphQL label mutations of schema fields', () => {
  let m: MutationApp;
  let t: TestApp;
  const mutate = (query: string, variables?: Record<string, unknown>) => m.mutate(query, variables);
  const editable = (urn: string) => m.aspectOf(urn, 'editableSchemaMetadata');
  /** Each field entry's fieldPath, tag URNs and term URNs (with the terms' stamp actor). */
  const labels = async (urn: string) =>
    ((await editable(urn))?.editableSchemaFieldInfo ?? []).map((info: any) => ({
      fieldPath: info.fieldPath,
      ...(info.description !== undefined ? { description: info.description } : {}),
      ...(info.globalTags ? { tags: info.globalTags.tags.map((a: { tag: string }) => a.tag) } : {}),
      ...(info.glossaryTerms ? { terms: info.glossaryTerms.terms.map((a: { urn: string }) => a.urn), termsBy: info.glossaryTerms.auditStamp.actor } : {}),
    }));
  const events = () => t.services.store.readEvents(0, 100_000);

  before(async () => {
    m = await mutationApp();
    t = m.t;
    await t.services.ingest.ingest(
      [
        { urn: ORDERS, aspect: 'schemaMetadata', changeType: 'UPSERT', value: schema('id', 'total', 'a/b', 'customer.email') },
        { urn: USERS, aspect: 'schemaMetadata', changeType: 'UPSERT', value: schema('email', 'name') },
        // A field already described: labels join what is there, the description is kept.
        { urn: USERS, aspect: 'editableSchemaMetadata', changeType: 'UPSERT', value: { created: SEED, lastModified: SEED, editableSchemaFieldInfo: [{ fieldPath: 'email', description: 'Contact address' }] } },
        { urn: BARE, aspect: 'datasetProperties', changeType: 'UPSERT', value: { name: 'bare' } },
        { urn: CHART, aspect: 'chartInfo', changeType: 'UPSERT', value: { title: 'Revenue', description: '', lastModified: { created: SEED, lastModified: SEED } } },
        { urn: PII, aspect: 'tagProperties', changeType: 'UPSERT', value: { name: 'PII' } },
        { urn: GOLD, aspect: 'tagProperties', changeType: 'UPSERT', value: { name: 'Gold' } },
        { urn: REVENUE, aspect: 'glossaryTermInfo', changeType: 'UPSERT', value: { name: 'Revenue', definition: 'Money in', termSource: 'INTERNAL' } },
      ],
      { actor: SEED.actor, source: 'test' },
    );
  });
  after(() => t.app.close());

  it('addTags on a field writes its entry in editableSchemaMetadata (made with the aspect), once however often sent; the dataset\'s own tags untouched', async () => {
    const input = { tagUrns: [PII, GOLD], ...on(ORDERS, 'total') };
    assert.deepEqual(await mutate(ADD_TAGS, { input }), { data: { addTags: true } });
    assert.deepEqual(await mutate(ADD_TAGS, { input }), { data: { addTags: true } });
    const value = await editable(ORDERS);
    assert.deepEqual(value.editableSchemaFieldInfo, [{ fieldPath: 'total', globalTags: { tags: [{ tag: PII }, { tag: GOLD }] } }]);
    assert.equal(value.created.actor, WRITER);
    assert.equal(value.lastModified.actor, WRITER);
    assert.equal(await m.aspectOf(ORDERS, 'globalTags'), undefined);
    const written = (await events()).filter((e) => e.urn === ORDERS && e.aspect === 'editableSchemaMetadata');
    assert.deepEqual(written.map((e) => `${e.changeType} ${e.created.actor}`), [`PATCH ${WRITER}`]);
  });

  it('the read side shows them: editableSchemaMetadata on GraphQL, with the field\'s tags', async () => {
    const { body } = await graphql(t, `query q($urn: String!) { dataset(urn: $urn) { tags { tags { tag { urn } } } editableSchemaMetadata { editableSchemaFieldInfo { fieldPath globalTags { tags { tag { urn properties { name } } associatedUrn } } glossaryTerms { terms { term { urn } } } } } } }`, { urn: ORDERS }, m.viewer);
    assert.deepEqual(body, {
      data: {
        dataset: {
          tags: null,
          editableSchemaMetadata: {
            editableSchemaFieldInfo: [
              {
                fieldPath: 'total',
                globalTags: { tags: [{ tag: { urn: PII, properties: { name: 'PII' } }, associatedUrn: ORDERS }, { tag: { urn: GOLD, properties: { name: 'Gold' } }, associatedUrn: ORDERS }] },
                glossaryTerms: null,
              },
            ],
          },
        },
      },
    });
  });

  it('addTag, removeTag on fields: each field its own entry (a path with / too), the others kept', async () => {
    assert.deepEqual(await mutate(ADD_TAG, { input: { tagUrn: PII, ...on(ORDERS, 'a/b') } }), { data: { addTag: true } });
    assert.deepEqual(await mutate(ADD_TAG, { input: { tagUrn: GOLD, ...on(ORDERS, 'customer.email') } }), { data: { addTag: true } });
    assert.deepEqual(await mutate(REMOVE_TAG, { input: { tagUrn: PII, ...on(ORDERS, 'total') } }), { data: { removeTag: true } });
    // Removing what is not there, or from a field with no entry, writes nothing.
    const before = await events();
    assert.deepEqual(await mutate(REMOVE_TAG, { input: { tagUrn: PII, ...on(ORDERS, 'total') } }), { data: { removeTag: true } });
    assert.deepEqual(await mutate(REMOVE_TAG, { input: { tagUrn: PII, ...on(ORDERS, 'id') } }), { data: { removeTag: true } });
    assert.deepEqual(await events(), before);
    assert.deepEqual(await labels(ORDERS), [
      { fieldPath: 'total', tags: [GOLD] },
      { fieldPath: 'a/b', tags: [PII] },
      { fieldPath: 'customer.email', tags: [GOLD] },
    ]);
  });

  it('terms on a field carry the writer\'s audit stamp; an entry already there keeps its description', async () => {
    assert.deepEqual(await mutate(ADD_TERM, { input: { termUrn: REVENUE, ...on(USERS, 'email') } }), { data: { addTerm: true } });
    assert.deepEqual(await mutate(ADD_TERMS, { input: { termUrns: [REVENUE], ...on(USERS, 'name') } }), { data: { addTerms: true } });
    assert.deepEqual(await labels(USERS), [
      { fieldPath: 'email', description: 'Contact address', terms: [REVENUE], termsBy: WRITER },
      { fieldPath: 'name', terms: [REVENUE], termsBy: WRITER },
    ]);
    const value = await editable(USERS);
    // The aspect's own stamps were there: kept.
    assert.deepEqual(value.created, SEED);
    assert.deepEqual(await mutate(REMOVE_TERM, { input: { termUrn: REVENUE, ...on(USERS, 'name') } }), { data: { removeTerm: true } });
    assert.deepEqual(await labels(USERS), [
      { fieldPath: 'email', description: 'Contact address', terms: [REVENUE], termsBy: WRITER },
      { fieldPath: 'name', terms: [], termsBy: WRITER },
    ]);
    const { body } = await graphql(t, `query q($urn: String!) { dataset(urn: $urn) { editableSchemaMetadata { editableSchemaFieldInfo { fieldPath description glossaryTerms { terms { term { urn name } } } } } } }`, { urn: USERS }, m.viewer);
    assert.deepEqual(body.data.dataset.editableSchemaMetadata.editableSchemaFieldInfo, [
      { fieldPath: 'email', description: 'Contact address', glossaryTerms: { terms: [{ term: { urn: REVENUE, name: 'revenue' } }] } },
      { fieldPath: 'name', description: null, glossaryTerms: { terms: [] } },
    ]);
  });

  it('batch mutations mix fields, datasets and whole entities in one write', async () => {
    const resources = [on(ORDERS, 'id'), on(USERS, 'name'), { resourceUrn: BARE }, on(ORDERS, 'total')];
    const before = (await events()).length;
    assert.deepEqual(await mutate(BATCH_ADD_TAGS, { input: { tagUrns: [PII], resources } }), { data: { batchAddTags: true } });
    assert.deepEqual(await mutate(BATCH_ADD_TERMS, { input: { termUrns: [REVENUE], resources: [on(ORDERS, 'id')] } }), { data: { batchAddTerms: true } });
    assert.deepEqual(await labels(ORDERS), [
      { fieldPath: 'total', tags: [GOLD, PII] },
      { fieldPath: 'a/b', tags: [PII] },
      { fieldPath: 'customer.email', tags: [GOLD] },
      { fieldPath: 'id', tags: [PII], terms: [REVENUE], termsBy: WRITER },
    ]);
    assert.deepEqual(await m.aspectOf(BARE, 'globalTags'), { tags: [{ tag: PII }] });
    assert.deepEqual((await labels(USERS))[1], { fieldPath: 'name', tags: [PII], terms: [], termsBy: WRITER });
    assert.deepEqual(await mutate(BATCH_REMOVE_TAGS, { input: { tagUrns: [PII], resources: [on(ORDERS, 'id'), on(ORDERS, 'total')] } }), { data: { batchRemoveTags: true } });
    assert.deepEqual(await mutate(BATCH_REMOVE_TERMS, { input: { termUrns: [REVENUE], resources: [on(ORDERS, 'id')] } }), { data: { batchRemoveTerms: true } });
    assert.deepEqual((await labels(ORDERS)).filter((l: { fieldPath: string }) => l.fieldPath === 'id' || l.fieldPath === 'total'), [
      { fieldPath: 'total', tags: [GOLD] },
      { fieldPath: 'id', tags: [], terms: [], termsBy: WRITER },
    ]);
    assert.ok((await events()).length > before);
  });

  it('refuses a field the schema lacks, a dataset without schema, half a sub-resource, with DataHub\'s messages, writing nothing', async () => {
    const before = await events();
    const refusals: Array<[string, string, Record<string, unknown>, string]> = [
      [ADD_TAG, 'addTag', { tagUrn: PII, ...on(ORDERS, 'nope') }, `Failed to update ${ORDERS} & field nope. Field nope does not exist in the datasets schema.`],
      [REMOVE_TERM, 'removeTerm', { termUrn: REVENUE, ...on(ORDERS, 'Total') }, `Failed to update ${ORDERS} & field Total. Field Total does not exist in the datasets schema.`],
      [ADD_TAG, 'addTag', { tagUrn: PII, ...on(BARE, 'id') }, `Failed to update ${BARE} & field id. ${BARE} has no schema.`],
      // A type without schemas has none either.
      [ADD_TAG, 'addTag', { tagUrn: PII, ...on(CHART, 'id') }, `Failed to update ${CHART} & field id. ${CHART} has no schema.`],
      [ADD_TAG, 'addTag', { tagUrn: PII, resourceUrn: ORDERS, subResourceType: 'DATASET_FIELD' }, `Failed to update resource with urn ${ORDERS}. SubResourceType (DATASET_FIELD) provided without a subResource.`],
      [ADD_TAG, 'addTag', { tagUrn: PII, resourceUrn: ORDERS, subResourceType: 'DATASET_FIELD', subResource: '' }, `Failed to update resource with urn ${ORDERS}. SubResourceType (DATASET_FIELD) provided without a subResource.`],
      [ADD_TERM, 'addTerm', { termUrn: REVENUE, resourceUrn: ORDERS, subResource: 'id' }, `Failed to updates resource with urn ${ORDERS}. SubResource (id) provided without a subResourceType.`],
      [ADD_TAG, 'addTag', { tagUrn: PII, ...on(datasetUrn('fields.missing'), 'id') }, `Failed to update resource with urn ${datasetUrn('fields.missing')}. Entity does not exist.`],
      [ADD_TAG, 'addTag', { tagUrn: 'urn:li:tag:never', ...on(ORDERS, 'id') }, 'Failed to validate label with urn urn:li:tag:never. Urn does not exist.'],
    ];
    for (const [query, name, input, message] of refusals) {
      assert.deepEqual(await mutate(query, { input }), { data: { [name]: null }, errors: [badRequest(message, query, name)] }, message);
    }
    // A batch with one bad field writes nothing for the good ones either.
    const batch = { tagUrns: [GOLD], resources: [on(ORDERS, 'a/b'), { resourceUrn: BARE }, on(USERS, 'nope')] };
    assert.deepEqual(await mutate(BATCH_ADD_TAGS, { input: batch }), {
      data: { batchAddTags: null },
      errors: [badRequest(`Failed to update ${USERS} & field nope. Field nope does not exist in the datasets schema.`, BATCH_ADD_TAGS, 'batchAddTags')],
    });
    assert.deepEqual(await events(), before);
  });

  it('refuses field label mutations to a viewer token with UNAUTHORIZED, writing nothing', async () => {
    await m.refusedToViewer([
      ['addTag', ADD_TAG, { input: { tagUrn: GOLD, ...on(ORDERS, 'id') } }],
      ['addTerms', ADD_TERMS, { input: { termUrns: [REVENUE], ...on(ORDERS, 'id') } }],
      ['batchRemoveTags', BATCH_REMOVE_TAGS, { input: { tagUrns: [GOLD], resources: [on(ORDERS, 'total')] } }],
    ]);
  });
});
