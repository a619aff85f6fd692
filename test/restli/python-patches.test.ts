import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { datasetUrn, enc, testApp, V2, type TestApp } from '../helpers.js';
import { pythonEmit, pythonEmitBatch, restliError, type Mcp } from './clients.js';

/**
 * What DataHub's Python SDK patch builders (DatasetPatchBuilder and its helpers, 0.15–1.x) send:
 * one PATCH proposal per aspect, a bare list of operations whose paths name array items by
 * their keys (`/tags/<tag urn>`, `/owners/<owner>/<type>`), no arrayPrimaryKeys. urnbase keys
 * them as DataHub's patch templates do.
 */
const RETENTION = 'urn:li:structuredProperty:com.example.privacy.retentionTime';
const urn = datasetUrn('restli.patches.orders', 'snowflake');
const JANE = 'urn:li:corpuser:jane';

/** MetadataPatchProposal.build(): one MCP per aspect, its operations as JSON Patch. */
const patchMcp = (aspectName: string, operations: Array<{ op: string; path: string; value: unknown }>): Mcp => ({
  entityType: 'dataset',
  entityUrn: urn,
  changeType: 'PATCH',
  aspectName,
  aspect: operations,
  contentType: 'application/json-patch+json',
});

describe('DataHub\'s Python SDK patch builders over Rest.li', () => {
  let t: TestApp;
  before(async () => {
    t = await testApp();
    const res = await t.call({
      method: 'POST',
      url: `${V2}/structuredProperty/${enc(RETENTION)}/propertyDefinition`,
      payload: { qualifiedName: 'com.example.privacy.retentionTime', valueType: 'urn:li:dataType:datahub.number', cardinality: 'SINGLE', entityTypes: ['urn:li:entityType:datahub.dataset'] },
    });
    assert.equal(res.status, 200);
  });
  after(() => t.app.close());

  const read = async (aspect: string) => (await t.call({ method: 'GET', url: `${V2}/dataset/${enc(urn)}/${aspect}` })).body?.value;

  it('add_tag, add_term, add_owner, add_custom_property, set_structured_property and for_field().add_tag write what the builder meant', async () => {
    const res = await t.call(
      pythonEmitBatch([
        patchMcp('globalTags', [{ op: 'add', path: '/tags/urn:li:tag:pii', value: { tag: 'urn:li:tag:pii' } }]),
        patchMcp('glossaryTerms', [{ op: 'add', path: '/terms/urn:li:glossaryTerm:customer', value: { urn: 'urn:li:glossaryTerm:customer' } }]),
        patchMcp('ownership', [
          { op: 'add', path: `/owners/${JANE}/DATAOWNER`, value: { owner: JANE, type: 'DATAOWNER' } },
          { op: 'add', path: `/owners/${JANE}/TECHNICAL_OWNER`, value: { owner: JANE, type: 'TECHNICAL_OWNER' } },
          { op: 'add', path: '/owners/urn:li:corpuser:bob/DATAOWNER', value: { owner: 'urn:li:corpuser:bob', type: 'DATAOWNER' } },
        ]),
        patchMcp('datasetProperties', [{ op: 'add', path: '/customProperties/team', value: 'sales' }]),
        patchMcp('structuredProperties', [
          { op: 'remove', path: `/properties/${RETENTION}`, value: {} },
          { op: 'add', path: `/properties/${RETENTION}`, value: { propertyUrn: RETENTION, values: [{ double: 90 }] } },
        ]),
        patchMcp('editableSchemaMetadata', [{ op: 'add', path: '/editableSchemaFieldInfo/customer_id/globalTags/tags/urn:li:tag:pii', value: { tag: 'urn:li:tag:pii' } }]),
      ]),
    );
    assert.equal(res.status, 200, res.raw);
    assert.deepEqual(res.body, { value: 'success' });
    assert.deepEqual(await read('globalTags'), { tags: [{ tag: 'urn:li:tag:pii' }] });
    assert.deepEqual((await read('glossaryTerms')).terms, [{ urn: 'urn:li:glossaryTerm:customer' }]);
    assert.deepEqual((await read('ownership')).owners, [
      { owner: JANE, type: 'DATAOWNER' },
      { owner: JANE, type: 'TECHNICAL_OWNER' },
      { owner: 'urn:li:corpuser:bob', type: 'DATAOWNER' },
    ]);
    assert.deepEqual((await read('datasetProperties')).customProperties, { team: 'sales' });
    assert.deepEqual(await read('structuredProperties'), { properties: [{ propertyUrn: RETENTION, values: [{ double: 90 }] }] });
    assert.deepEqual((await read('editableSchemaMetadata')).editableSchemaFieldInfo, [{ fieldPath: 'customer_id', globalTags: { tags: [{ tag: 'urn:li:tag:pii' }] } }]);
  });

  it('remove_owner(owner) removes that owner of every type; remove_tag and remove_term remove one; set_structured_property replaces the values', async () => {
    const res = await t.call(
      pythonEmitBatch([
        patchMcp('ownership', [{ op: 'remove', path: `/owners/${JANE}`, value: JANE }]),
        patchMcp('globalTags', [
          { op: 'add', path: '/tags/urn:li:tag:gold', value: { tag: 'urn:li:tag:gold' } },
          { op: 'remove', path: '/tags/urn:li:tag:pii', value: {} },
        ]),
        patchMcp('glossaryTerms', [{ op: 'remove', path: '/terms/urn:li:glossaryTerm:customer', value: {} }]),
        patchMcp('structuredProperties', [
          { op: 'remove', path: `/properties/${RETENTION}`, value: {} },
          { op: 'add', path: `/properties/${RETENTION}`, value: { propertyUrn: RETENTION, values: [{ double: 30 }] } },
        ]),
      ]),
    );
    assert.equal(res.status, 200, res.raw);
    assert.deepEqual((await read('ownership')).owners, [{ owner: 'urn:li:corpuser:bob', type: 'DATAOWNER' }]);
    assert.deepEqual(await read('globalTags'), { tags: [{ tag: 'urn:li:tag:gold' }] });
    assert.deepEqual((await read('glossaryTerms')).terms, []);
    assert.deepEqual(await read('structuredProperties'), { properties: [{ propertyUrn: RETENTION, values: [{ double: 30 }] }] });
  });

  it('a patch the rules refuse gets the Rest.li 400, and none of the batch is written', async () => {
    const res = await t.call(
      pythonEmitBatch([
        patchMcp('globalTags', [{ op: 'add', path: '/tags/urn:li:tag:silver', value: { tag: 'urn:li:tag:silver' } }]),
        patchMcp('structuredProperties', [{ op: 'add', path: `/properties/${RETENTION}`, value: { propertyUrn: RETENTION, values: [{ string: 'ninety' }] } }]),
      ]),
    );
    assert.equal(res.status, 400);
    assert.deepEqual(res.body, restliError(400, `Property: ${RETENTION}, value: {string=ninety} should be a number (a "double" member)`));
    assert.deepEqual(await read('globalTags'), { tags: [{ tag: 'urn:li:tag:gold' }] });
  });

  it("the newest SDKs' paths are written as meant: typeUrn and attribution keys, bare and in the arrayPrimaryKeys envelope", async () => {
    const newer = datasetUrn('restli.patches.newer', 'snowflake');
    const STEWARD = 'urn:li:ownershipType:steward';
    const BOB = 'urn:li:corpuser:bob';
    const on = (aspectName: string, aspect: unknown): Mcp => ({ ...patchMcp(aspectName, []), entityUrn: newer, aspect });
    const written = await t.call(
      pythonEmitBatch([
        // HasOwnershipPatch.add_owner: (owner, type, typeUrn, source), absent ones empty; an older one wrote None.
        on('ownership', [
          { op: 'add', path: `/owners/${JANE}/DATAOWNER//`, value: { owner: JANE, type: 'DATAOWNER' } },
          { op: 'add', path: `/owners/${JANE}/DATAOWNER/${STEWARD}/`, value: { owner: JANE, type: 'DATAOWNER', typeUrn: STEWARD } },
          { op: 'add', path: `/owners/${BOB}/TECHNICAL_OWNER/None`, value: { owner: BOB, type: 'TECHNICAL_OWNER' } },
        ]),
        // HasTagsPatch.add_tag in the envelope keyed (attribution.source, tag).
        on('globalTags', { arrayPrimaryKeys: { tags: ['attribution\u241Fsource', 'tag'] }, patch: [{ op: 'add', path: '/tags//urn:li:tag:pii', value: { tag: 'urn:li:tag:pii' } }] }),
        on('glossaryTerms', [{ op: 'add', path: '/terms/urn:li:glossaryTerm:customer/', value: { urn: 'urn:li:glossaryTerm:customer' } }]),
        on('structuredProperties', [{ op: 'add', path: `/properties/${RETENTION}/`, value: { propertyUrn: RETENTION, values: [{ double: 60 }] } }]),
      ]),
    );
    assert.equal(written.status, 200, written.raw);
    assert.deepEqual(written.body, { value: 'success' });
    const readNewer = async (aspect: string) => (await t.call({ method: 'GET', url: `${V2}/dataset/${enc(newer)}/${aspect}` })).body?.value;
    assert.deepEqual((await readNewer('ownership')).owners, [
      { owner: JANE, type: 'DATAOWNER' },
      { owner: JANE, type: 'DATAOWNER', typeUrn: STEWARD },
      { owner: BOB, type: 'TECHNICAL_OWNER' },
    ]);
    assert.deepEqual(await readNewer('globalTags'), { tags: [{ tag: 'urn:li:tag:pii' }] });
    assert.deepEqual((await readNewer('glossaryTerms')).terms, [{ urn: 'urn:li:glossaryTerm:customer' }]);
    assert.deepEqual(await readNewer('structuredProperties'), { properties: [{ propertyUrn: RETENTION, values: [{ double: 60 }] }] });

    // remove_owner(JANE, type_urn=STEWARD): the wildcards last, in the envelope's reordered keys.
    const removed = await t.call(
      pythonEmit(on('ownership', { arrayPrimaryKeys: { owners: ['owner', 'typeUrn', 'type', 'attribution\u241Fsource'] }, patch: [{ op: 'remove', path: `/owners/${JANE}/${STEWARD}`, value: {} }] })),
    );
    assert.equal(removed.status, 200, removed.raw);
    assert.deepEqual(removed.body, { value: 'success' });
    assert.deepEqual((await readNewer('ownership')).owners, [
      { owner: JANE, type: 'DATAOWNER' },
      { owner: BOB, type: 'TECHNICAL_OWNER' },
    ]);
  });

  it('an add by part of an owner\'s key is refused, in the Rest.li shape', async () => {
    const res = await t.call(pythonEmit(patchMcp('ownership', [{ op: 'add', path: `/owners/${JANE}`, value: { owner: JANE, type: 'DATAOWNER' } }])));
    assert.equal(res.status, 400);
    assert.deepEqual(res.body, restliError(400, `Patch path /owners/${JANE} needs 2 key segment(s) for owners`));
  });
});
