import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { datasetUrn, type TestApp } from '../helpers.js';
import { badRequest, mutationApp, WRITER, type MutationApp } from './mutation-app.js';
import { graphql } from './queries.js';

/**
 * deleteTag, deleteDomain, deleteGlossaryEntity (the key's DELETE through Ingest, as the REST
 * delete), batchUpdateSoftDeleted (status.removed), updateDeprecation and batchUpdateDeprecation.
 */

const SALES = datasetUrn('deletes.sales');
const ORDERS = datasetUrn('deletes.orders');
const MISSING = datasetUrn('deletes.missing');
const PII = 'urn:li:tag:deletes-pii';
const PARENT = 'urn:li:domain:deletes-parent';
const CHILD = 'urn:li:domain:deletes-child';
const TERM = 'urn:li:glossaryTerm:Deletes.Revenue';
const NODE = 'urn:li:glossaryNode:Deletes';

const DELETE_TAG = 'mutation deleteTag($urn: String!) { deleteTag(urn: $urn) }';
const DELETE_DOMAIN = 'mutation deleteDomain($urn: String!) { deleteDomain(urn: $urn) }';
const DELETE_GLOSSARY = 'mutation deleteGlossaryEntity($urn: String!) { deleteGlossaryEntity(urn: $urn) }';
const SOFT_DELETE = 'mutation batchUpdateSoftDeleted($input: BatchUpdateSoftDeletedInput!) { batchUpdateSoftDeleted(input: $input) }';
const DEPRECATE = 'mutation updateDeprecation($input: UpdateDeprecationInput!) { updateDeprecation(input: $input) }';
const BATCH_DEPRECATE = 'mutation batchUpdateDeprecation($input: BatchUpdateDeprecationInput!) { batchUpdateDeprecation(input: $input) }';

describe('GraphQL delete, soft delete and deprecation mutations', () => {
  let m: MutationApp;
  let t: TestApp;
  const events = () => t.services.store.readEvents(0, 100_000);
  const refused = (field: string, query: string, message: string) => ({ data: { [field]: null }, errors: [badRequest(message, query, field)] });
  const exists = (urn: string) => t.services.reader.exists(urn);
  /** The events written since `count` events: [urn, aspect, changeType, actor]. */
  const since = async (count: number) => (await events()).slice(count).map((e) => [e.urn, e.aspect, e.changeType, e.created.actor]);
  /** The aspects a hard delete took (every one of the entity's, each a DELETE event), by the writer. */
  const deleted = async (count: number) => (await since(count)).map(([urn, aspect, changeType, actor]) => `${urn} ${aspect} ${changeType} ${actor}`).sort();
  const deletes = (urn: string, ...aspects: string[]) => aspects.map((aspect) => `${urn} ${aspect} DELETE ${WRITER}`);

  before(async () => {
    m = await mutationApp();
    t = m.t;
    await t.services.ingest.ingest(
      [
        { urn: SALES, aspect: 'datasetProperties', changeType: 'UPSERT', value: { name: 'sales' } },
        { urn: ORDERS, aspect: 'datasetProperties', changeType: 'UPSERT', value: { name: 'orders' } },
        { urn: PII, aspect: 'tagProperties', changeType: 'UPSERT', value: { name: 'pii' } },
        { urn: SALES, aspect: 'globalTags', changeType: 'UPSERT', value: { tags: [{ tag: PII }] } },
        { urn: PARENT, aspect: 'domainProperties', changeType: 'UPSERT', value: { name: 'Parent' } },
        { urn: CHILD, aspect: 'domainProperties', changeType: 'UPSERT', value: { name: 'Child', parentDomain: PARENT } },
        { urn: SALES, aspect: 'domains', changeType: 'UPSERT', value: { domains: [CHILD] } },
        { urn: NODE, aspect: 'glossaryNodeInfo', changeType: 'UPSERT', value: { name: 'Deletes', definition: 'd' } },
        { urn: TERM, aspect: 'glossaryTermInfo', changeType: 'UPSERT', value: { name: 'Revenue', definition: 'd', termSource: 'INTERNAL', parentNode: NODE } },
      ],
      { actor: WRITER, source: 'test' },
    );
  });
  after(() => t.app.close());

  it('deleteTag deletes the tag for good; the entities tagged keep naming it; a second delete writes nothing', async () => {
    const count = (await events()).length;
    assert.deepEqual(await m.mutate(DELETE_TAG, { urn: PII }), { data: { deleteTag: true } });
    assert.deepEqual(await deleted(count), deletes(PII, 'tagKey', 'tagProperties'));
    assert.equal(await exists(PII), false);
    assert.equal(await m.aspectOf(PII, 'tagProperties'), undefined);
    // References are left, as the REST delete leaves them (DataHub removes them later, asynchronously).
    assert.deepEqual(await m.aspectOf(SALES, 'globalTags'), { tags: [{ tag: PII }] });
    assert.deepEqual(await m.mutate(`mutation { deleteTag(urn: "${PII}") }`), { data: { deleteTag: true } });
    assert.equal((await events()).length, count + 2);
  });

  it('deleteDomain refuses a domain with child domains; the child, then the parent, go', async () => {
    const count = (await events()).length;
    assert.deepEqual(await m.mutate(DELETE_DOMAIN, { urn: PARENT }), refused('deleteDomain', DELETE_DOMAIN, `Cannot delete domain ${PARENT} which has child domains`));
    assert.equal((await events()).length, count);
    assert.deepEqual(await m.mutate(DELETE_DOMAIN, { urn: CHILD }), { data: { deleteDomain: true } });
    assert.deepEqual(await m.mutate(`mutation { deleteDomain(urn: "${PARENT}") }`), { data: { deleteDomain: true } });
    assert.deepEqual(await deleted(count), [...deletes(CHILD, 'domainKey', 'domainProperties'), ...deletes(PARENT, 'domainKey', 'domainProperties')]);
    assert.deepEqual([await exists(CHILD), await exists(PARENT)], [false, false]);
    assert.deepEqual(await m.aspectOf(SALES, 'domains'), { domains: [CHILD] });
  });

  it('deleteGlossaryEntity deletes a term or a node; an unknown one is refused', async () => {
    const count = (await events()).length;
    assert.deepEqual(await m.mutate(DELETE_GLOSSARY, { urn: TERM }), { data: { deleteGlossaryEntity: true } });
    assert.deepEqual(await m.mutate(DELETE_GLOSSARY, { urn: NODE }), { data: { deleteGlossaryEntity: true } });
    assert.deepEqual(await deleted(count), [...deletes(NODE, 'glossaryNodeInfo', 'glossaryNodeKey'), ...deletes(TERM, 'glossaryTermInfo', 'glossaryTermKey')]);
    assert.deepEqual([await exists(TERM), await exists(NODE)], [false, false]);
    assert.deepEqual(await m.mutate(DELETE_GLOSSARY, { urn: TERM }), refused('deleteGlossaryEntity', DELETE_GLOSSARY, `This urn does not exist: ${TERM}`));
    assert.equal((await events()).length, count + 4);
  });

  it('each delete refuses the URN of another entity type, deleting nothing', async () => {
    const before = await events();
    assert.deepEqual(await m.mutate(DELETE_TAG, { urn: SALES }), refused('deleteTag', DELETE_TAG, `Failed to delete ${SALES}: it is not the URN of a tag`));
    assert.deepEqual(await m.mutate(DELETE_DOMAIN, { urn: SALES }), refused('deleteDomain', DELETE_DOMAIN, `Failed to delete ${SALES}: it is not the URN of a domain`));
    assert.deepEqual(await m.mutate(DELETE_GLOSSARY, { urn: SALES }), refused('deleteGlossaryEntity', DELETE_GLOSSARY, `Failed to delete ${SALES}: it is not the URN of a glossary term or node`));
    assert.deepEqual(await events(), before);
    assert.equal(await exists(SALES), true);
  });

  it('batchUpdateSoftDeleted sets status.removed on every entity in one write, and restores them', async () => {
    const count = (await events()).length;
    assert.deepEqual(await m.mutate(SOFT_DELETE, { input: { urns: [SALES, ORDERS], deleted: true } }), { data: { batchUpdateSoftDeleted: true } });
    assert.deepEqual(await since(count), [[SALES, 'status', 'PATCH', WRITER], [ORDERS, 'status', 'PATCH', WRITER]]);
    assert.deepEqual([await m.aspectOf(SALES, 'status'), await m.aspectOf(ORDERS, 'status')], [{ removed: true }, { removed: true }]);
    const fetched = await graphql(t, `{ dataset(urn: "${SALES}") { status { removed } } }`, undefined, m.viewer);
    assert.deepEqual(fetched.body, { data: { dataset: { status: { removed: true } } } });
    // Soft-deleted entities still exist: they can be restored (literal form), and one already restored is not written.
    assert.deepEqual(await m.mutate(`mutation { batchUpdateSoftDeleted(input: {urns: ["${SALES}"], deleted: false}) }`), { data: { batchUpdateSoftDeleted: true } });
    assert.deepEqual(await m.mutate(SOFT_DELETE, { input: { urns: [SALES, ORDERS], deleted: false } }), { data: { batchUpdateSoftDeleted: true } });
    assert.deepEqual(await since(count + 2), [[SALES, 'status', 'PATCH', WRITER], [ORDERS, 'status', 'PATCH', WRITER]]);
    assert.deepEqual([await m.aspectOf(SALES, 'status'), await m.aspectOf(ORDERS, 'status')], [{ removed: false }, { removed: false }]);
  });

  it('updateDeprecation writes the deprecation with the actor; undeprecating drops the time and empties the note', async () => {
    const input = { urn: SALES, deprecated: true, note: 'Use orders', decommissionTime: 1_900_000_000_000, replacement: ORDERS };
    assert.deepEqual(await m.mutate(DEPRECATE, { input }), { data: { updateDeprecation: true } });
    assert.deepEqual(await m.aspectOf(SALES, 'deprecation'), { deprecated: true, note: 'Use orders', actor: WRITER, decommissionTime: 1_900_000_000_000, replacement: ORDERS });
    const fetched = await graphql(t, `{ dataset(urn: "${SALES}") { deprecation { deprecated note decommissionTime actor } } }`, undefined, m.viewer);
    assert.deepEqual(fetched.body, { data: { dataset: { deprecation: { deprecated: true, note: 'Use orders', decommissionTime: 1_900_000_000_000, actor: WRITER } } } });
    assert.deepEqual(await m.mutate(`mutation { updateDeprecation(input: {urn: "${SALES}", deprecated: false}) }`), { data: { updateDeprecation: true } });
    assert.deepEqual(await m.aspectOf(SALES, 'deprecation'), { deprecated: false, note: '', actor: WRITER });
  });

  it('batchUpdateDeprecation deprecates every resource in one write', async () => {
    const count = (await events()).length;
    const input = { deprecated: true, note: 'Old', resources: [{ resourceUrn: SALES }, { resourceUrn: ORDERS }] };
    assert.deepEqual(await m.mutate(BATCH_DEPRECATE, { input }), { data: { batchUpdateDeprecation: true } });
    assert.deepEqual(await since(count), [[SALES, 'deprecation', 'UPSERT', WRITER], [ORDERS, 'deprecation', 'UPSERT', WRITER]]);
    for (const urn of [SALES, ORDERS]) assert.deepEqual(await m.aspectOf(urn, 'deprecation'), { deprecated: true, note: 'Old', actor: WRITER }, urn);
  });

  it('refuses, writing nothing, an unknown entity among several, a sub-resource', async () => {
    const before = await events();
    assert.deepEqual(
      await m.mutate(SOFT_DELETE, { input: { urns: [ORDERS, MISSING], deleted: true } }),
      refused('batchUpdateSoftDeleted', SOFT_DELETE, `Failed to soft delete entity with urn ${MISSING}. Entity does not exist.`),
    );
    assert.deepEqual(
      await m.mutate(DEPRECATE, { input: { urn: MISSING, deprecated: true } }),
      refused('updateDeprecation', DEPRECATE, `Failed to update deprecation for Entity ${MISSING}. Entity does not exist.`),
    );
    assert.deepEqual(
      await m.mutate(DEPRECATE, { input: { urn: SALES, deprecated: true, subResourceType: 'DATASET_FIELD', subResource: 'id' } }),
      refused('updateDeprecation', DEPRECATE, `Failed to update resource with urn ${SALES}: this mutation is of the entity itself, not of a schema field (subResource)`),
    );
    assert.deepEqual(
      await m.mutate(BATCH_DEPRECATE, { input: { deprecated: false, resources: [{ resourceUrn: ORDERS }, { resourceUrn: MISSING }] } }),
      refused('batchUpdateDeprecation', BATCH_DEPRECATE, `Failed to update resource with urn ${MISSING}. Entity does not exist.`),
    );
    assert.deepEqual(await events(), before);
  });

  it('refuses every one to a viewer token with UNAUTHORIZED, writing nothing', async () => {
    await t.services.ingest.ingest([{ urn: 'urn:li:tag:kept', aspect: 'tagProperties', changeType: 'UPSERT', value: { name: 'kept' } }], { actor: WRITER, source: 'test' });
    await m.refusedToViewer([
      ['deleteTag', DELETE_TAG, { urn: 'urn:li:tag:kept' }],
      ['deleteDomain', DELETE_DOMAIN, { urn: PARENT }],
      ['deleteGlossaryEntity', DELETE_GLOSSARY, { urn: TERM }],
      ['batchUpdateSoftDeleted', SOFT_DELETE, { input: { urns: [SALES], deleted: true } }],
      ['updateDeprecation', DEPRECATE, { input: { urn: SALES, deprecated: false } }],
      ['batchUpdateDeprecation', BATCH_DEPRECATE, { input: { deprecated: false, resources: [{ resourceUrn: SALES }] } }],
    ]);
    assert.equal(await exists('urn:li:tag:kept'), true);
  });
});
