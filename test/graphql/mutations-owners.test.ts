import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { datasetUrn, type TestApp } from '../helpers.js';
import { badRequest, mutationApp, WRITER, type MutationApp } from './mutation-app.js';
import { graphql } from './queries.js';

/** addOwner, addOwners, removeOwner: the ownership aspect rewritten through Ingest, read back on REST and GraphQL. */

const SALES = datasetUrn('owners.sales');
const MISSING = datasetUrn('owners.missing');
const JANE = 'urn:li:corpuser:jane';
const ANALYSTS = 'urn:li:corpGroup:analysts';
const STEWARD_TYPE = 'urn:li:ownershipType:steward';

const ADD_OWNER = 'mutation addOwner($input: AddOwnerInput!) { addOwner(input: $input) }';
const ADD_OWNERS = 'mutation addOwners($input: AddOwnersInput!) { addOwners(input: $input) }';
const REMOVE_OWNER = 'mutation removeOwner($input: RemoveOwnerInput!) { removeOwner(input: $input) }';

describe('GraphQL owner mutations', () => {
  let m: MutationApp;
  let t: TestApp;
  let viewer: Record<string, string>;
  const ownershipOf = (urn: string) => m.aspectOf(urn, 'ownership');
  const ownersOf = async (urn: string) => (await ownershipOf(urn))?.owners;
  const mutate = (query: string, variables?: Record<string, unknown>) => m.mutate(query, variables);

  before(async () => {
    m = await mutationApp();
    ({ t, viewer } = m);
    await t.services.ingest.ingest(
      [
        { urn: SALES, aspect: 'datasetProperties', changeType: 'UPSERT', value: { name: 'sales' } },
        { urn: JANE, aspect: 'corpUserInfo', changeType: 'UPSERT', value: { active: true, displayName: 'Jane' } },
        { urn: ANALYSTS, aspect: 'corpGroupInfo', changeType: 'UPSERT', value: { displayName: 'Analysts', admins: [], members: [], groups: [] } },
        { urn: STEWARD_TYPE, aspect: 'ownershipTypeInfo', changeType: 'UPSERT', value: { name: 'Steward', created: { time: 1, actor: WRITER }, lastModified: { time: 1, actor: WRITER } } },
      ],
      { actor: WRITER, source: 'test' },
    );
  });
  after(() => t.app.close());

  it('addOwner adds an owner once, with the actor stamped; read back on REST and GraphQL', async () => {
    const input = { ownerUrn: JANE, ownerEntityType: 'CORP_USER', type: 'TECHNICAL_OWNER', resourceUrn: SALES };
    assert.deepEqual(await mutate(ADD_OWNER, { input }), { data: { addOwner: true } });
    assert.deepEqual(await mutate(ADD_OWNER, { input }), { data: { addOwner: true } });
    const ownership = await ownershipOf(SALES);
    assert.deepEqual(ownership.owners, [{ owner: JANE, type: 'TECHNICAL_OWNER', source: { type: 'MANUAL' } }]);
    assert.equal(ownership.lastModified.actor, WRITER);
    const events = (await t.services.store.readEvents(0, 100_000)).filter((e) => e.urn === SALES && e.aspect === 'ownership');
    assert.deepEqual(events.map((e) => [e.changeType, e.created.actor]), [['UPSERT', WRITER]]);
    const fetched = await graphql(t, `{ dataset(urn: "${SALES}") { ownership { owners { owner { ... on CorpUser { urn username } } type } } } }`, undefined, viewer);
    assert.deepEqual(fetched.body, { data: { dataset: { ownership: { owners: [{ owner: { urn: JANE, username: 'jane' }, type: 'TECHNICAL_OWNER' }] } } } });
  });

  it('addOwners in literal form adds a group under a custom ownership type', async () => {
    const query = `mutation { addOwners(input: {resourceUrn: "${SALES}", owners: [{ownerUrn: "${ANALYSTS}", ownerEntityType: CORP_GROUP, ownershipTypeUrn: "${STEWARD_TYPE}"}]}) }`;
    assert.deepEqual(await mutate(query), { data: { addOwners: true } });
    assert.deepEqual(await ownersOf(SALES), [
      { owner: JANE, type: 'TECHNICAL_OWNER', source: { type: 'MANUAL' } },
      { owner: ANALYSTS, type: 'CUSTOM', typeUrn: STEWARD_TYPE, source: { type: 'MANUAL' } },
    ]);
  });

  it('an owner holds several types, one entry each: adding a second type keeps the first, adding a type again replaces only it', async () => {
    const urn = datasetUrn('owners.roles');
    await t.services.ingest.ingest([{ urn, aspect: 'datasetProperties', changeType: 'UPSERT', value: { name: 'roles' } }], { actor: WRITER, source: 'test' });
    const add = (type: string) => mutate(ADD_OWNER, { input: { ownerUrn: JANE, ownerEntityType: 'CORP_USER', type, resourceUrn: urn } });
    assert.deepEqual(await add('TECHNICAL_OWNER'), { data: { addOwner: true } });
    assert.deepEqual(await add('DATA_STEWARD'), { data: { addOwner: true } });
    assert.deepEqual(await add('TECHNICAL_OWNER'), { data: { addOwner: true } });
    assert.deepEqual(await ownersOf(urn), [
      { owner: JANE, type: 'TECHNICAL_OWNER', source: { type: 'MANUAL' } },
      { owner: JANE, type: 'DATA_STEWARD', source: { type: 'MANUAL' } },
    ]);
    // Removing one type leaves the other.
    assert.deepEqual(await mutate(REMOVE_OWNER, { input: { ownerUrn: JANE, ownershipTypeUrn: 'urn:li:ownershipType:__system__technical_owner', resourceUrn: urn } }), { data: { removeOwner: true } });
    assert.deepEqual(await ownersOf(urn), [{ owner: JANE, type: 'DATA_STEWARD', source: { type: 'MANUAL' } }]);
  });

  it('removeOwner removes the owner of that type only, or of every type without one', async () => {
    assert.deepEqual(await mutate(REMOVE_OWNER, { input: { ownerUrn: ANALYSTS, ownershipTypeUrn: 'urn:li:ownershipType:__system__technical_owner', resourceUrn: SALES } }), { data: { removeOwner: true } });
    assert.equal((await ownersOf(SALES)).length, 2);
    assert.deepEqual(await mutate(REMOVE_OWNER, { input: { ownerUrn: JANE, ownershipTypeUrn: 'urn:li:ownershipType:__system__technical_owner', resourceUrn: SALES } }), { data: { removeOwner: true } });
    assert.deepEqual(await ownersOf(SALES), [{ owner: ANALYSTS, type: 'CUSTOM', typeUrn: STEWARD_TYPE, source: { type: 'MANUAL' } }]);
    assert.deepEqual(await mutate(`mutation { removeOwner(input: {ownerUrn: "${ANALYSTS}", resourceUrn: "${SALES}"}) }`), { data: { removeOwner: true } });
    assert.deepEqual(await ownersOf(SALES), []);
  });

  it('a write that overtakes the read is kept: the owners are read and changed again', async () => {
    const reader = t.services.reader;
    const read = reader.getAspect.bind(reader);
    let overtaken = false;
    reader.getAspect = async (urn, aspect, version) => {
      const found = await read(urn, aspect, version);
      if (!overtaken && aspect === 'ownership') {
        overtaken = true;
        await t.services.ingest.ingest([{ urn: SALES, aspect: 'ownership', changeType: 'UPSERT', value: { owners: [{ owner: ANALYSTS, type: 'DATAOWNER' }] } }], { actor: WRITER, source: 'test' });
      }
      return found;
    };
    try {
      assert.deepEqual(await mutate(ADD_OWNER, { input: { ownerUrn: JANE, ownerEntityType: 'CORP_USER', type: 'DATAOWNER', resourceUrn: SALES } }), { data: { addOwner: true } });
    } finally {
      reader.getAspect = read;
    }
    assert.equal(overtaken, true);
    assert.deepEqual(await ownersOf(SALES), [{ owner: ANALYSTS, type: 'DATAOWNER' }, { owner: JANE, type: 'DATAOWNER', source: { type: 'MANUAL' } }]);
    assert.deepEqual(await mutate(REMOVE_OWNER, { input: { ownerUrn: ANALYSTS, resourceUrn: SALES } }), { data: { removeOwner: true } });
    assert.deepEqual(await mutate(REMOVE_OWNER, { input: { ownerUrn: JANE, resourceUrn: SALES } }), { data: { removeOwner: true } });
  });

  it('refuses, writing nothing, an unknown resource, owner or ownership type, a mismatched owner type, no type at all', async () => {
    const before = await t.services.store.readEvents(0, 100_000);
    const refusals: Array<[Record<string, unknown>, string]> = [
      [{ ownerUrn: JANE, ownerEntityType: 'CORP_USER', type: 'DATAOWNER', resourceUrn: MISSING }, `Failed to change ownership for resource ${MISSING}. Resource does not exist.`],
      [{ ownerUrn: 'urn:li:corpuser:nobody', ownerEntityType: 'CORP_USER', type: 'DATAOWNER', resourceUrn: SALES }, 'Failed to change ownership for resource(s). Owner with urn urn:li:corpuser:nobody does not exist.'],
      [{ ownerUrn: ANALYSTS, ownerEntityType: 'CORP_USER', type: 'DATAOWNER', resourceUrn: SALES }, `Failed to change ownership for resource(s). Expected a corp user urn, found ${ANALYSTS}.`],
      [{ ownerUrn: JANE, ownerEntityType: 'CORP_GROUP', type: 'DATAOWNER', resourceUrn: SALES }, `Failed to change ownership for resource(s). Expected a corp group urn, found ${JANE}`],
      [{ ownerUrn: JANE, ownerEntityType: 'CORP_USER', ownershipTypeUrn: 'urn:li:ownershipType:none', resourceUrn: SALES }, 'Failed to change ownership for resource(s). Custom Ownership type with urn urn:li:ownershipType:none does not exist.'],
      [{ ownerUrn: JANE, ownerEntityType: 'CORP_USER', resourceUrn: SALES }, 'Failed to change ownership for resource(s). Expected either type or ownershipTypeUrn to be specified.'],
    ];
    for (const [input, message] of refusals) {
      assert.deepEqual(await mutate(ADD_OWNER, { input }), { data: { addOwner: null }, errors: [badRequest(message, ADD_OWNER, 'addOwner')] }, message);
    }
    // One unknown owner among several: none is added.
    const owners = [{ ownerUrn: JANE, ownerEntityType: 'CORP_USER', type: 'DATAOWNER' }, { ownerUrn: 'urn:li:corpuser:nobody', ownerEntityType: 'CORP_USER', type: 'DATAOWNER' }];
    assert.deepEqual(await mutate(ADD_OWNERS, { input: { owners, resourceUrn: SALES } }), {
      data: { addOwners: null },
      errors: [badRequest('Failed to change ownership for resource(s). Owner with urn urn:li:corpuser:nobody does not exist.', ADD_OWNERS, 'addOwners')],
    });
    assert.deepEqual(await mutate(REMOVE_OWNER, { input: { ownerUrn: JANE, resourceUrn: MISSING } }), {
      data: { removeOwner: null },
      errors: [badRequest(`Failed to change ownership for resource ${MISSING}. Resource does not exist.`, REMOVE_OWNER, 'removeOwner')],
    });
    assert.deepEqual(await t.services.store.readEvents(0, 100_000), before);
  });

  it('refuses every owner mutation to a viewer token with UNAUTHORIZED, writing nothing', async () => {
    await m.refusedToViewer([
      ['addOwner', ADD_OWNER, { input: { ownerUrn: JANE, ownerEntityType: 'CORP_USER', type: 'DATAOWNER', resourceUrn: SALES } }],
      ['addOwners', ADD_OWNERS, { input: { owners: [{ ownerUrn: JANE, ownerEntityType: 'CORP_USER', type: 'DATAOWNER' }], resourceUrn: SALES } }],
      ['removeOwner', REMOVE_OWNER, { input: { ownerUrn: ANALYSTS, resourceUrn: SALES } }],
    ]);
  });
});
