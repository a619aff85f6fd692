import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { datasetUrn, type TestApp } from '../helpers.js';
import { badRequest, mutationApp, WRITER, type MutationApp } from './mutation-app.js';
import { graphql } from './queries.js';

/** batchAddOwners, batchRemoveOwners, batchSetDomain: every resource changed in one write, or none. */

const SALES = datasetUrn('batch.sales');
const ORDERS = datasetUrn('batch.orders');
const MISSING = datasetUrn('batch.missing');
const CHART = 'urn:li:chart:(looker,batch)';
const JANE = 'urn:li:corpuser:jane';
const ANALYSTS = 'urn:li:corpGroup:analysts';
const STEWARD_TYPE = 'urn:li:ownershipType:steward';
const FINANCE = 'urn:li:domain:finance';

const BATCH_ADD = 'mutation batchAddOwners($input: BatchAddOwnersInput!) { batchAddOwners(input: $input) }';
const BATCH_REMOVE = 'mutation batchRemoveOwners($input: BatchRemoveOwnersInput!) { batchRemoveOwners(input: $input) }';
const BATCH_DOMAIN = 'mutation batchSetDomain($input: BatchSetDomainInput!) { batchSetDomain(input: $input) }';

const resources = (...urns: string[]) => urns.map((resourceUrn) => ({ resourceUrn }));
const JANE_OWNER = { ownerUrn: JANE, ownerEntityType: 'CORP_USER', type: 'TECHNICAL_OWNER' };
const ANALYSTS_OWNER = { ownerUrn: ANALYSTS, ownerEntityType: 'CORP_GROUP', ownershipTypeUrn: STEWARD_TYPE };
const JANE_ENTRY = { owner: JANE, type: 'TECHNICAL_OWNER', source: { type: 'MANUAL' } };
const ANALYSTS_ENTRY = { owner: ANALYSTS, type: 'CUSTOM', typeUrn: STEWARD_TYPE, source: { type: 'MANUAL' } };

describe('GraphQL batch owner and domain mutations', () => {
  let m: MutationApp;
  let t: TestApp;
  const ownersOf = async (urn: string) => (await m.aspectOf(urn, 'ownership'))?.owners;
  const events = () => t.services.store.readEvents(0, 100_000);
  const refused = (field: string, query: string, message: string) => ({ data: { [field]: null }, errors: [badRequest(message, query, field)] });

  before(async () => {
    m = await mutationApp();
    t = m.t;
    await t.services.ingest.ingest(
      [
        { urn: SALES, aspect: 'datasetProperties', changeType: 'UPSERT', value: { name: 'sales' } },
        { urn: ORDERS, aspect: 'datasetProperties', changeType: 'UPSERT', value: { name: 'orders' } },
        { urn: CHART, aspect: 'chartInfo', changeType: 'UPSERT', value: { title: 'Batch', description: '', lastModified: { created: { time: 1, actor: WRITER }, lastModified: { time: 1, actor: WRITER } } } },
        { urn: JANE, aspect: 'corpUserInfo', changeType: 'UPSERT', value: { active: true, displayName: 'Jane' } },
        { urn: ANALYSTS, aspect: 'corpGroupInfo', changeType: 'UPSERT', value: { displayName: 'Analysts', admins: [], members: [], groups: [] } },
        { urn: STEWARD_TYPE, aspect: 'ownershipTypeInfo', changeType: 'UPSERT', value: { name: 'Steward', created: { time: 1, actor: WRITER }, lastModified: { time: 1, actor: WRITER } } },
        { urn: FINANCE, aspect: 'domainProperties', changeType: 'UPSERT', value: { name: 'Finance' } },
      ],
      { actor: WRITER, source: 'test' },
    );
  });
  after(() => t.app.close());

  it('batchAddOwners adds every owner to every resource in one write, once; read back on GraphQL', async () => {
    const before = (await events()).length;
    const input = { owners: [JANE_OWNER, ANALYSTS_OWNER], resources: resources(SALES, ORDERS, CHART) };
    assert.deepEqual(await m.mutate(BATCH_ADD, { input }), { data: { batchAddOwners: true } });
    for (const urn of [SALES, ORDERS, CHART]) assert.deepEqual(await ownersOf(urn), [JANE_ENTRY, ANALYSTS_ENTRY], urn);
    const written = (await events()).slice(before);
    assert.deepEqual(written.map((e) => [e.urn, e.aspect, e.created.actor]), [SALES, ORDERS, CHART].map((urn) => [urn, 'ownership', WRITER]));
    // One request: one transaction, so every event has the same time.
    assert.equal(new Set(written.map((e) => e.created.time)).size, 1);
    // Again: nothing changes, nothing is written.
    assert.deepEqual(await m.mutate(BATCH_ADD, { input }), { data: { batchAddOwners: true } });
    assert.equal((await events()).length, before + 3);
    const fetched = await graphql(t, `{ chart(urn: "${CHART}") { ownership { owners { owner { ... on CorpUser { urn } ... on CorpGroup { urn } } } } } }`, undefined, m.viewer);
    assert.deepEqual(fetched.body, { data: { chart: { ownership: { owners: [{ owner: { urn: JANE } }, { owner: { urn: ANALYSTS } }] } } } });
  });

  it('batchRemoveOwners removes the owners of that type only, or of every type; literal form', async () => {
    const input = { ownerUrns: [JANE, ANALYSTS], ownershipTypeUrn: STEWARD_TYPE, resources: resources(SALES, ORDERS) };
    assert.deepEqual(await m.mutate(BATCH_REMOVE, { input }), { data: { batchRemoveOwners: true } });
    assert.deepEqual(await ownersOf(SALES), [JANE_ENTRY]);
    assert.deepEqual(await ownersOf(ORDERS), [JANE_ENTRY]);
    assert.deepEqual(await ownersOf(CHART), [JANE_ENTRY, ANALYSTS_ENTRY]);
    const literal = `mutation { batchRemoveOwners(input: {ownerUrns: ["${JANE}", "${ANALYSTS}"], resources: [{resourceUrn: "${SALES}"}, {resourceUrn: "${CHART}"}]}) }`;
    assert.deepEqual(await m.mutate(literal), { data: { batchRemoveOwners: true } });
    assert.deepEqual([await ownersOf(SALES), await ownersOf(ORDERS), await ownersOf(CHART)], [[], [JANE_ENTRY], []]);
  });

  it('refuses a batch with one bad resource or owner, writing nothing to any', async () => {
    const before = await events();
    const cases: Array<[string, string, Record<string, unknown>, string]> = [
      ['batchAddOwners', BATCH_ADD, { owners: [JANE_OWNER], resources: resources(SALES, MISSING) }, `Failed to change ownership for resource ${MISSING}. Resource does not exist.`],
      ['batchAddOwners', BATCH_ADD, { owners: [JANE_OWNER, { ownerUrn: 'urn:li:corpuser:nobody', ownerEntityType: 'CORP_USER', type: 'DATAOWNER' }], resources: resources(SALES) }, 'Failed to change ownership for resource(s). Owner with urn urn:li:corpuser:nobody does not exist.'],
      ['batchAddOwners', BATCH_ADD, { owners: [JANE_OWNER], resources: [{ resourceUrn: SALES, subResourceType: 'DATASET_FIELD', subResource: 'id' }] }, `Failed to update resource with urn ${SALES}: this mutation is of the entity itself, not of a schema field (subResource)`],
      ['batchRemoveOwners', BATCH_REMOVE, { ownerUrns: [JANE], resources: resources(ORDERS, MISSING) }, `Failed to change ownership for resource ${MISSING}. Resource does not exist.`],
      ['batchSetDomain', BATCH_DOMAIN, { domainUrn: FINANCE, resources: resources(SALES, MISSING) }, `Failed to update resource with urn ${MISSING}. Entity does not exist.`],
      ['batchSetDomain', BATCH_DOMAIN, { domainUrn: 'urn:li:domain:none', resources: resources(SALES) }, 'Failed to validate Domain with urn urn:li:domain:none. Urn does not exist.'],
      ['batchSetDomain', BATCH_DOMAIN, { domainUrn: JANE, resources: resources(SALES) }, `Failed to validate Domain with urn ${JANE}. Urn does not exist.`],
    ];
    for (const [field, query, input, message] of cases) assert.deepEqual(await m.mutate(query, { input }), refused(field, query, message), message);
    assert.deepEqual(await events(), before);
    assert.deepEqual(await ownersOf(ORDERS), [JANE_ENTRY]);
  });

  it('batchSetDomain puts every resource in the domain, and null takes them out', async () => {
    assert.deepEqual(await m.mutate(BATCH_DOMAIN, { input: { domainUrn: FINANCE, resources: resources(SALES, CHART) } }), { data: { batchSetDomain: true } });
    assert.deepEqual([await m.aspectOf(SALES, 'domains'), await m.aspectOf(CHART, 'domains'), await m.aspectOf(ORDERS, 'domains')], [{ domains: [FINANCE] }, { domains: [FINANCE] }, undefined]);
    const fetched = await graphql(t, `{ chart(urn: "${CHART}") { domain { domain { urn } } } }`, undefined, m.viewer);
    assert.deepEqual(fetched.body, { data: { chart: { domain: { domain: { urn: FINANCE } } } } });
    const literal = `mutation { batchSetDomain(input: {domainUrn: null, resources: [{resourceUrn: "${SALES}"}, {resourceUrn: "${CHART}"}]}) }`;
    assert.deepEqual(await m.mutate(literal), { data: { batchSetDomain: true } });
    assert.deepEqual([await m.aspectOf(SALES, 'domains'), await m.aspectOf(CHART, 'domains')], [{ domains: [] }, { domains: [] }]);
    // domainUrn left out: unset too.
    const before = (await events()).length;
    assert.deepEqual(await m.mutate(BATCH_DOMAIN, { input: { resources: resources(SALES) } }), { data: { batchSetDomain: true } });
    assert.equal((await events()).length, before);
  });

  it('refuses every batch mutation to a viewer token with UNAUTHORIZED, writing nothing', async () => {
    await m.refusedToViewer([
      ['batchAddOwners', BATCH_ADD, { input: { owners: [JANE_OWNER], resources: resources(SALES) } }],
      ['batchRemoveOwners', BATCH_REMOVE, { input: { ownerUrns: [JANE], resources: resources(ORDERS) } }],
      ['batchSetDomain', BATCH_DOMAIN, { input: { domainUrn: FINANCE, resources: resources(SALES) } }],
      // The role is checked before the input is.
      ['batchAddOwners', BATCH_ADD, { input: { owners: [JANE_OWNER], resources: [{ resourceUrn: SALES, subResourceType: 'DATASET_FIELD', subResource: 'id' }] } }],
    ]);
  });
});
