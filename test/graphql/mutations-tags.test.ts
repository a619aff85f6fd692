import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { datasetUrn, type TestApp } from '../helpers.js';
import { badRequest, mutationApp, WRITER, type MutationApp } from './mutation-app.js';
import { graphql } from './queries.js';

/** createTag and the tag mutations: written through Ingest, read back on REST and GraphQL, refused whole. */

const ORDERS = datasetUrn('tags.orders');
const USERS = datasetUrn('tags.users');
const MISSING = datasetUrn('tags.missing');
const PII = 'urn:li:tag:pii';
const GOLD = 'urn:li:tag:gold';

const ADD_TAGS = 'mutation addTags($input: AddTagsInput!) { addTags(input: $input) }';
const BATCH_ADD = 'mutation batchAddTags($input: BatchAddTagsInput!) { batchAddTags(input: $input) }';
const BATCH_REMOVE = 'mutation batchRemoveTags($input: BatchRemoveTagsInput!) { batchRemoveTags(input: $input) }';
const REMOVE_TAG = 'mutation removeTag($input: TagAssociationInput!) { removeTag(input: $input) }';
const ADD_TAG = 'mutation addTag($input: TagAssociationInput!) { addTag(input: $input) }';
const CREATE_TAG = 'mutation createTag($input: CreateTagInput!) { createTag(input: $input) }';

describe('GraphQL tag mutations', () => {
  let m: MutationApp;
  let t: TestApp;
  let viewer: Record<string, string>;
  const tagsOf = (urn: string) => m.aspectOf(urn, 'globalTags');
  const eventsOf = async (urn: string) => (await t.services.store.readEvents(0, 100_000)).filter((e) => e.urn === urn).map((e) => `${e.changeType} ${e.aspect}`);
  const mutate = (query: string, variables?: Record<string, unknown>) => m.mutate(query, variables);

  before(async () => {
    m = await mutationApp();
    ({ t, viewer } = m);
    await t.services.ingest.ingest(
      [ORDERS, USERS].map((urn) => ({ urn, aspect: 'datasetProperties', changeType: 'UPSERT' as const, value: { name: urn } })),
      { actor: WRITER, source: 'test' },
    );
  });
  after(() => t.app.close());

  it('createTag writes tagProperties and answers the URN; an id already taken is refused', async () => {
    assert.deepEqual(await mutate(CREATE_TAG, { input: { id: 'pii', name: 'PII', description: 'Personal data' } }), { data: { createTag: PII } });
    assert.deepEqual(await m.aspectOf(PII, 'tagProperties'), { name: 'PII', description: 'Personal data' });
    const fetched = await graphql(t, `{ tag(urn: "${PII}") { urn name properties { name description } } }`, undefined, viewer);
    assert.deepEqual(fetched.body, { data: { tag: { urn: PII, name: 'pii', properties: { name: 'PII', description: 'Personal data' } } } });
    assert.deepEqual(await mutate(CREATE_TAG, { input: { id: 'pii', name: 'Other' } }), {
      data: { createTag: null },
      errors: [badRequest('This Tag already exists!', CREATE_TAG, 'createTag')],
    });
    assert.deepEqual(await m.aspectOf(PII, 'tagProperties'), { name: 'PII', description: 'Personal data' });
    assert.deepEqual(await eventsOf(PII), ['UPSERT tagKey', 'CREATE_ENTITY tagProperties']);
  });

  it('createTag in literal form, without an id: a UUID names the tag', async () => {
    const { data } = await mutate('mutation { createTag(input: {id: "gold", name: "Gold"}) }', undefined);
    assert.equal(data.createTag, GOLD);
    const { data: generated } = await mutate('mutation { createTag(input: {name: "Nameless"}) }', undefined);
    assert.match(generated.createTag, /^urn:li:tag:[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
  });

  it('addTags adds the tags, once however often it is sent; read back on REST and GraphQL', async () => {
    const input = { tagUrns: [PII, GOLD], resourceUrn: ORDERS };
    assert.deepEqual(await mutate(ADD_TAGS, { input }), { data: { addTags: true } });
    assert.deepEqual(await mutate(ADD_TAGS, { input }), { data: { addTags: true } });
    assert.deepEqual(await tagsOf(ORDERS), { tags: [{ tag: PII }, { tag: GOLD }] });
    const fetched = await graphql(t, `{ dataset(urn: "${ORDERS}") { tags { tags { tag { urn properties { name } } } } } }`, undefined, viewer);
    assert.deepEqual(fetched.body.data.dataset.tags.tags, [
      { tag: { urn: PII, properties: { name: 'PII' } } },
      { tag: { urn: GOLD, properties: { name: 'Gold' } } },
    ]);
    // The second, unchanged request wrote nothing: one globalTags event.
    assert.deepEqual((await eventsOf(ORDERS)).filter((e) => e.endsWith('globalTags')), ['PATCH globalTags']);
    const [event] = (await t.services.store.readEvents(0, 100_000)).filter((e) => e.urn === ORDERS && e.aspect === 'globalTags');
    assert.equal(event?.created.actor, WRITER);
    assert.deepEqual(event?.value, { tags: [{ tag: PII }, { tag: GOLD }] });
  });

  it('removeTag removes one tag; a tag not there, or no longer existing, is no error', async () => {
    assert.deepEqual(await mutate(REMOVE_TAG, { input: { tagUrn: GOLD, resourceUrn: ORDERS } }), { data: { removeTag: true } });
    assert.deepEqual(await tagsOf(ORDERS), { tags: [{ tag: PII }] });
    assert.deepEqual(await mutate(REMOVE_TAG, { input: { tagUrn: 'urn:li:tag:never', resourceUrn: ORDERS } }), { data: { removeTag: true } });
    assert.deepEqual(await tagsOf(ORDERS), { tags: [{ tag: PII }] });
  });

  it('addTag in literal form, as the CLI sends it', async () => {
    const body = await mutate(`mutation { addTag(input: {tagUrn: "${GOLD}", resourceUrn: "${USERS}"}) }`, undefined);
    assert.deepEqual(body, { data: { addTag: true } });
    assert.deepEqual(await tagsOf(USERS), { tags: [{ tag: GOLD }] });
  });

  it('batchAddTags and batchRemoveTags change every resource', async () => {
    const resources = [{ resourceUrn: ORDERS }, { resourceUrn: USERS }];
    assert.deepEqual(await mutate(BATCH_ADD, { input: { tagUrns: [PII, GOLD], resources } }), { data: { batchAddTags: true } });
    assert.deepEqual(await tagsOf(ORDERS), { tags: [{ tag: PII }, { tag: GOLD }] });
    assert.deepEqual(await tagsOf(USERS), { tags: [{ tag: GOLD }, { tag: PII }] });
    assert.deepEqual(await mutate(BATCH_REMOVE, { input: { tagUrns: [GOLD], resources } }), { data: { batchRemoveTags: true } });
    assert.deepEqual(await tagsOf(ORDERS), { tags: [{ tag: PII }] });
    assert.deepEqual(await tagsOf(USERS), { tags: [{ tag: PII }] });
  });

  it('a batch naming an unknown resource or tag writes nothing and names it', async () => {
    const before = await t.services.store.readEvents(0, 100_000);
    const resources = [{ resourceUrn: ORDERS }, { resourceUrn: MISSING }];
    assert.deepEqual(await mutate(BATCH_ADD, { input: { tagUrns: [GOLD], resources } }), {
      data: { batchAddTags: null },
      errors: [badRequest(`Failed to update resource with urn ${MISSING}. Entity does not exist.`, BATCH_ADD, 'batchAddTags')],
    });
    assert.deepEqual(await mutate(BATCH_REMOVE, { input: { tagUrns: [PII], resources } }), {
      data: { batchRemoveTags: null },
      errors: [badRequest(`Failed to update resource with urn ${MISSING}. Entity does not exist.`, BATCH_REMOVE, 'batchRemoveTags')],
    });
    assert.deepEqual(await mutate(BATCH_ADD, { input: { tagUrns: [GOLD, 'urn:li:tag:unknown'], resources: [{ resourceUrn: ORDERS }] } }), {
      data: { batchAddTags: null },
      errors: [badRequest('Failed to validate label with urn urn:li:tag:unknown. Urn does not exist.', BATCH_ADD, 'batchAddTags')],
    });
    assert.deepEqual(await mutate(ADD_TAGS, { input: { tagUrns: ['urn:li:glossaryTerm:x'], resourceUrn: ORDERS } }), {
      data: { addTags: null },
      errors: [badRequest('Failed to validate label with urn urn:li:glossaryTerm:x. Urn type does not match entity type tag..', ADD_TAGS, 'addTags')],
    });
    assert.deepEqual(await t.services.store.readEvents(0, 100_000), before);
    assert.deepEqual(await tagsOf(ORDERS), { tags: [{ tag: PII }] });
    assert.equal(await tagsOf(MISSING), undefined);
  });

  it('refuses tags of a schema field its dataset has no schema for, writing nothing (fields: mutations-fields.test.ts)', async () => {
    const body = await mutate(ADD_TAG, { input: { tagUrn: GOLD, resourceUrn: ORDERS, subResourceType: 'DATASET_FIELD', subResource: 'id' } });
    assert.deepEqual(body, {
      data: { addTag: null },
      errors: [badRequest(`Failed to update ${ORDERS} & field id. ${ORDERS} has no schema.`, ADD_TAG, 'addTag')],
    });
    assert.deepEqual(await tagsOf(ORDERS), { tags: [{ tag: PII }] });
    assert.equal(await m.aspectOf(ORDERS, 'editableSchemaMetadata'), undefined);
  });

  it('refuses every tag mutation to a viewer token with UNAUTHORIZED, writing nothing', async () => {
    await m.refusedToViewer([
      ['createTag', CREATE_TAG, { input: { id: 'viewer-tag', name: 'V' } }],
      ['addTag', ADD_TAG, { input: { tagUrn: GOLD, resourceUrn: ORDERS } }],
      ['addTags', ADD_TAGS, { input: { tagUrns: [GOLD], resourceUrn: ORDERS } }],
      ['removeTag', REMOVE_TAG, { input: { tagUrn: PII, resourceUrn: ORDERS } }],
      ['batchAddTags', BATCH_ADD, { input: { tagUrns: [GOLD], resources: [{ resourceUrn: ORDERS }] } }],
      ['batchRemoveTags', BATCH_REMOVE, { input: { tagUrns: [PII], resources: [{ resourceUrn: ORDERS }] } }],
    ]);
  });
});
