import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { InjectOptions } from 'fastify';
import { datasetUrn, enc, testApp, V2, type TestApp } from '../helpers.js';
import { pyDumps, pythonEmit, pythonEmitBatch, pythonHeaders, pythonSystemMetadata, restliError, type Mcp } from './clients.js';

/**
 * Bad proposals get the 4xx a v2 call gets for the same mistake, in Rest.li's error shape (which
 * the emitters read: `message`), with X-RestLi-Error-Response, and write nothing at all.
 */

const ADMIN = 'urnb_restli-refusals-admin-0123456789abcdefghijklm';
const PROPERTY = 'urn:li:structuredProperty:restli.ref.tier';

describe('Rest.li ingestion refuses bad proposals and writes nothing', () => {
  let t: TestApp;
  let viewer = '';
  const auth = { authorization: `Bearer ${ADMIN}` };

  before(async () => {
    t = await testApp({ auth: true, adminToken: ADMIN, authFailureLimit: 100_000 });
    const token = await t.call({ method: 'POST', url: '/openapi/v2/auth/tokens', headers: auth, payload: { name: 'reader', role: 'viewer' } });
    viewer = token.body.token;
    const property = await t.call(
      pythonEmit(
        {
          entityType: 'structuredProperty',
          entityUrn: PROPERTY,
          changeType: 'UPSERT',
          aspectName: 'propertyDefinition',
          aspect: {
            qualifiedName: 'restli.ref.tier',
            valueType: 'urn:li:dataType:datahub.string',
            entityTypes: ['urn:li:entityType:datahub.dataset'],
            allowedValues: [{ value: { string: 'gold' } }],
          },
        },
        ADMIN,
      ),
    );
    assert.equal(property.status, 200, property.raw);
  });
  after(() => t.app.close());

  const upsert = (urn: string, aspectName: string, value: unknown, extra: Partial<Mcp> = {}): Mcp => ({
    entityType: 'dataset',
    entityUrn: urn,
    changeType: 'UPSERT',
    aspectName,
    aspect: value,
    ...extra,
  });

  /** The request is refused with `status` and `message` in Rest.li's shape, and the change log does not move. */
  const refused = async (request: InjectOptions, status: number, message: string) => {
    const before = (await t.services.store.readEvents(0, 100_000)).length;
    const res = await t.call(request);
    assert.equal(res.status, status, res.raw);
    assert.deepEqual(res.body, restliError(status, message));
    assert.equal(res.headers['x-restli-error-response'], 'true');
    assert.equal(res.headers['x-restli-protocol-version'], '2.0.0');
    assert.equal((await t.services.store.readEvents(0, 100_000)).length, before, 'nothing written');
    return res;
  };
  const absent = async (urn: string) => assert.equal((await t.call({ method: 'HEAD', url: `${V2}/dataset/${enc(urn)}`, headers: auth })).status, 404);

  it('an aspect value its schema refuses: 400, as v2 answers', async () => {
    const urn = datasetUrn('restli.ref.schema');
    const v2 = await t.call({ method: 'POST', url: `${V2}/dataset/${enc(urn)}/datasetProperties`, headers: auth, payload: { description: 5 } });
    assert.equal(v2.status, 400);
    await refused(pythonEmit(upsert(urn, 'datasetProperties', { description: 5 }), ADMIN), 400, v2.body.message);
    assert.equal(v2.body.message, 'Aspect datasetProperties is invalid: field description must be string');
    await absent(urn);
  });

  it('a structured property value its definition does not allow: 400, as v2 answers', async () => {
    const urn = datasetUrn('restli.ref.value');
    const values = { properties: [{ propertyUrn: PROPERTY, values: [{ string: 'bronze' }] }] };
    const v2 = await t.call({ method: 'POST', url: `${V2}/dataset/${enc(urn)}/structuredProperties`, headers: auth, payload: values });
    assert.equal(v2.status, 400);
    await refused(pythonEmit(upsert(urn, 'structuredProperties', values), ADMIN), 400, v2.body.message);
    assert.equal(v2.body.message, `Property: ${PROPERTY}, value: {string=bronze} should be one of [{string=gold}]`);
    await absent(urn);
  });

  it('a value for a structured property that does not exist: 400', async () => {
    const ghost = 'urn:li:structuredProperty:restli.ref.ghost';
    await refused(
      pythonEmit(upsert(datasetUrn('restli.ref.ghost'), 'structuredProperties', { properties: [{ propertyUrn: ghost, values: [{ string: 'x' }] }] }), ADMIN),
      400,
      `Structured Property ${ghost} does not exist`,
    );
  });

  it('an unknown entity type: 400 "Invalid urn!"', async () => {
    await refused(pythonEmit({ ...upsert('urn:li:foobar:x', 'status', { removed: false }), entityType: 'foobar' }, ADMIN), 400, 'Invalid urn!: urn:li:foobar:x');
  });

  it('a URN that does not parse: 400 "Invalid urn!"', async () => {
    await refused(pythonEmit(upsert('not-a-urn', 'status', { removed: false }), ADMIN), 400, 'Invalid urn!: not-a-urn');
    await refused(pythonEmit(upsert('urn:li:dataset:(urn:li:dataPlatform:hive,x,NOWHERE)', 'status', { removed: false }), ADMIN), 400, 'Invalid urn!: urn:li:dataset:(urn:li:dataPlatform:hive,x,NOWHERE)');
  });

  it('an entityType that is not the URN\'s: 400', async () => {
    await refused(
      pythonEmit({ ...upsert(datasetUrn('restli.ref.type'), 'status', { removed: false }), entityType: 'chart' }, ADMIN),
      400,
      'proposal.entityType chart does not match the URN urn:li:dataset:(urn:li:dataPlatform:hive,restli.ref.type,PROD), which is of entity type dataset',
    );
  });

  it('an aspect the entity type does not have: 400', async () => {
    await refused(pythonEmit(upsert(datasetUrn('restli.ref.aspect'), 'chartInfo', { title: 'x' }), ADMIN), 400, 'Unknown aspect chartInfo for entity type dataset');
  });

  it('an aspect value that is not JSON: 400', async () => {
    const request = pythonEmit(upsert(datasetUrn('restli.ref.json'), 'status', { removed: false }), ADMIN);
    request.payload = String(request.payload).replace('"{\\"removed\\": false}"', '"{removed: false"');
    await refused(request, 400, 'proposal.aspect.value is not valid JSON: it must be the aspect serialized as a JSON string');
  });

  it('an aspect value with a key that reaches the prototype, or nested too deep: 400', async () => {
    const proto = pythonEmit(upsert(datasetUrn('restli.ref.proto'), 'status', { removed: false }), ADMIN);
    proto.payload = String(proto.payload).replace('"{\\"removed\\": false}"', JSON.stringify('{"removed": false, "__proto__": {"x": 1}}'));
    await refused(proto, 400, 'proposal.aspect.value has a forbidden key __proto__');
    const deep = pythonEmit(upsert(datasetUrn('restli.ref.deep'), 'status', { removed: false }), ADMIN);
    deep.payload = String(deep.payload).replace('"{\\"removed\\": false}"', JSON.stringify(`{"x": ${'['.repeat(1001)}${']'.repeat(1001)}}`));
    await refused(deep, 400, 'proposal.aspect.value nests deeper than 1000 levels');
  });

  it('an aspect without its JSON string, or of another content type: 400', async () => {
    const noValue = pythonEmit(upsert(datasetUrn('restli.ref.novalue'), 'status', undefined), ADMIN);
    await refused(noValue, 400, 'proposal.aspect must be {"value": "<the aspect as a JSON string>", "contentType": "application/json"}');
    await refused(
      pythonEmit({ ...upsert(datasetUrn('restli.ref.ctype'), 'status', { removed: false }), contentType: 'application/xml' }, ADMIN),
      400,
      'proposal.aspect.contentType must be application/json, got "application/xml"',
    );
  });

  it('change types urnbase does not take: UPDATE, RESTATE, and unknown ones: 400', async () => {
    const urn = datasetUrn('restli.ref.change');
    await refused(
      pythonEmit(upsert(urn, 'status', { removed: false }, { changeType: 'UPDATE' }), ADMIN),
      400,
      'proposal: changeType UPDATE is not supported (DataHub does not implement it either): use UPSERT or PATCH',
    );
    await refused(
      pythonEmit(upsert(urn, 'status', { removed: false }, { changeType: 'RESTATE' }), ADMIN),
      400,
      'proposal: changeType RESTATE is not supported: it re-emits an unchanged aspect to rebuild indexes, which urnbase keeps in step with every write',
    );
    await refused(pythonEmit(upsert(urn, 'status', { removed: false }, { changeType: 'MERGE' }), ADMIN), 400, 'proposal.changeType must be one of UPSERT, CREATE, CREATE_ENTITY, PATCH, DELETE');
  });

  it('a body without its proposal, with a wrong async, or an MCP missing its parts: 400', async () => {
    const post = (payload: unknown): InjectOptions => ({ method: 'POST', url: '/aspects?action=ingestProposal', headers: pythonHeaders(ADMIN), payload: pyDumps(payload) });
    await refused(post({ async: 'false' }), 400, 'proposal is required');
    await refused(post({ proposal: 'x' }), 400, 'proposal must be an object (a MetadataChangeProposal)');
    const ok = { entityType: 'dataset', entityUrn: datasetUrn('restli.ref.body'), changeType: 'UPSERT', aspectName: 'status', aspect: { value: '{}', contentType: 'application/json' } };
    await refused(post({ proposal: ok, async: 'maybe' }), 400, 'async must be "true" or "false", got "maybe"');
    await refused(post({ proposal: { ...ok, entityType: undefined } }), 400, 'proposal.entityType is required');
    await refused(post({ proposal: { ...ok, entityUrn: undefined } }), 400, 'proposal.entityUrn is required');
    await refused(post({ proposal: { ...ok, entityUrn: undefined, entityKeyAspect: { value: '{}', contentType: 'application/json' } } }), 400, 'proposal.entityUrn is required: an entityKeyAspect alone is not supported');
    await refused(post({ proposal: { ...ok, aspectName: undefined } }), 400, 'proposal.aspectName is required');
    await refused(post({ proposal: { ...ok, systemMetadata: { lastObserved: 'yesterday' } } }), 400, 'proposal.systemMetadata.lastObserved must be an integer (epoch milliseconds)');
    await refused(post({ proposal: { ...ok, headers: { 'If-Modified-Since': '1' } } }), 400, 'proposal.headers: the If-Modified-Since condition is not supported; use If-Version-Match');
  });

  it('a batch with one bad proposal: 400, and none of the others written', async () => {
    const a = datasetUrn('restli.ref.batch.a');
    const b = datasetUrn('restli.ref.batch.b');
    const batch = [
      upsert(a, 'status', { removed: false }, { systemMetadata: pythonSystemMetadata() }),
      upsert(b, 'datasetProperties', { description: 'fine' }),
      upsert(b, 'structuredProperties', { properties: [{ propertyUrn: PROPERTY, values: [{ string: 'bronze' }] }] }),
    ];
    const v2 = await t.call({ method: 'POST', url: `${V2}/dataset/${enc(b)}/structuredProperties`, headers: auth, payload: { properties: [{ propertyUrn: PROPERTY, values: [{ string: 'bronze' }] }] } });
    await refused(pythonEmitBatch(batch, ADMIN), 400, v2.body.message);
    await absent(a);
    await absent(b);
    // A proposal that does not even translate is named by its place in the batch.
    await refused(pythonEmitBatch([batch[0], { ...batch[1], changeType: 'UPDATE' }], ADMIN), 400, 'proposals[1]: changeType UPDATE is not supported (DataHub does not implement it either): use UPSERT or PATCH');
    await absent(a);
  });

  it('CREATE of an existing aspect and CREATE_ENTITY of an existing entity: 409, as v2 answers', async () => {
    const urn = datasetUrn('restli.ref.create');
    assert.equal((await t.call(pythonEmit(upsert(urn, 'status', { removed: false }), ADMIN))).status, 200);
    await refused(
      pythonEmit(upsert(urn, 'status', { removed: true }, { changeType: 'CREATE' }), ADMIN),
      409,
      `Cannot perform CREATE since the aspect status of ${urn} already exists`,
    );
    await refused(
      pythonEmit(upsert(urn, 'globalTags', { tags: [] }, { changeType: 'CREATE_ENTITY' }), ADMIN),
      409,
      `Cannot perform CREATE_ENTITY since the entity ${urn} already exists`,
    );
  });

  it('an If-Version-Match header that does not hold: 412', async () => {
    const urn = datasetUrn('restli.ref.version');
    assert.equal((await t.call(pythonEmit(upsert(urn, 'status', { removed: false }), ADMIN))).status, 200);
    await refused(
      pythonEmit(upsert(urn, 'status', { removed: true }, { headers: { 'If-Version-Match': '7' } }), ADMIN),
      412,
      `Expected version 7, actual version 1 for aspect status of ${urn}`,
    );
    const held = await t.call(pythonEmit(upsert(urn, 'status', { removed: true }, { headers: { 'If-Version-Match': '1' } }), ADMIN));
    assert.equal(held.status, 200, held.raw);
  });

  it('a viewer\'s token: 403; no token: 401; a bad one: 401', async () => {
    const urn = datasetUrn('restli.ref.auth');
    await refused(pythonEmit(upsert(urn, 'status', { removed: false }), viewer), 403, 'urn:li:corpuser:reader is unauthorized to write entities.');
    const none = await refused(pythonEmit(upsert(urn, 'status', { removed: false })), 401, 'Authentication required: send Authorization: Bearer <token>');
    assert.equal(none.headers['www-authenticate'], 'Bearer');
    await refused(pythonEmit(upsert(urn, 'status', { removed: false }), 'urnb_nope'), 401, 'Invalid, expired or revoked token');
    await absent(urn);
  });

  it('a body that is not JSON, not JSON at all, or too large: 400, 415, 413', async () => {
    const url = '/aspects?action=ingestProposal';
    await refused({ method: 'POST', url, headers: pythonHeaders(ADMIN), payload: '{' }, 400, "Body is not valid JSON but content-type is set to 'application/json'");
    await refused({ method: 'POST', url, headers: { ...pythonHeaders(ADMIN), 'content-type': 'text/xml' }, payload: '<x/>' }, 415, 'Content type text/xml is not supported; send application/json');
    await refused({ method: 'POST', url, headers: pythonHeaders(ADMIN), payload: pyDumps({ pad: 'x'.repeat(2 * 1024 * 1024) }) }, 413, 'Request body is too large: this route takes at most 1,048,576 bytes');
  });

  it('actions urnbase does not serve: 400 naming the ones it does', async () => {
    const post = (url: string): InjectOptions => ({ method: 'POST', url, headers: pythonHeaders(ADMIN), payload: '{}' });
    // getTimeseriesAspectValues is served since timeseries aspects are (test/timeseries/reads.test.ts).
    await refused(post('/aspects?action=getCount'), 400, 'Action getCount on /aspects is not served by urnbase (served: ingestProposal, ingestProposalBatch, getTimeseriesAspectValues)');
    await refused(post('/aspects'), 400, 'POST /aspects needs ?action=ingestProposal|ingestProposalBatch|getTimeseriesAspectValues');
    await refused(post('/entities?action=search'), 400, 'Action search on /entities is not served by urnbase (served: batchIngest, delete, ingest)');
  });
});

describe('a real fault on a Rest.li route', () => {
  it('answers 500 in Rest.li\'s shape with the request id, never the internal message', async () => {
    const { buildApp } = await import('../../src/app.js');
    const { SqliteStore } = await import('../../src/store/sqlite/store.js');
    const store = new SqliteStore(':memory:');
    const { app } = await buildApp({ dataDir: ':memory:', logLevel: 'silent', bodyLimit: 1024 * 1024, store });
    try {
      store.getVersion = async () => {
        throw new Error('disk on fire at /secret/path');
      };
      const res = await app.inject({ method: 'GET', url: `/aspects/${encodeURIComponent(datasetUrn('restli.fault'))}?aspect=status` });
      assert.equal(res.statusCode, 500);
      const body = JSON.parse(res.body);
      assert.match(body.requestId, /^req-/);
      assert.deepEqual(body, { ...restliError(500, 'Internal server error occurred'), requestId: body.requestId });
      assert.equal(res.headers['x-restli-error-response'], 'true');
      assert.doesNotMatch(res.body, /secret|fire/);
    } finally {
      await app.close();
    }
  });
});
