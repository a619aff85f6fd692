import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { testApp, type TestApp } from '../helpers.js';
import { graphql } from './queries.js';

/** The endpoint itself: tokens and roles, the error shapes, the limits, introspection, GET. */

const ADMIN_SECRET = 'urnb_graphql-admin-secret-0123456789abcdefghij';
const TOTAL = '{ searchAcrossEntities(input: {query: "*", types: [DATASET]}) { total } }';
const bearer = (secret: string) => ({ authorization: `Bearer ${secret}` });
const badRequest = (message: string, classification: string, locations = [{ line: 1, column: 1 }]) => ({
  errors: [{ message, locations, extensions: { code: 400, type: 'BAD_REQUEST', classification } }],
});

describe('POST /api/graphql', () => {
  let t: TestApp;
  let viewer: string;
  before(async () => {
    t = await testApp({ auth: true, adminToken: ADMIN_SECRET, authFailureLimit: 100_000 });
    const made = await t.call({ method: 'POST', url: '/openapi/v2/auth/tokens', headers: bearer(ADMIN_SECRET), payload: { name: 'reader', role: 'viewer' } });
    assert.equal(made.status, 201);
    viewer = made.body.token;
  });
  after(() => t.app.close());

  it('answers a viewer token', async () => {
    const { status, body } = await graphql(t, TOTAL, undefined, bearer(viewer));
    assert.equal(status, 200);
    assert.deepEqual(body, { data: { searchAcrossEntities: { total: 0 } } });
  });

  it('answers a document sent again and again (compiled at its third use) as at its first, and refuses an operation it lacks', async () => {
    const query = 'query total { searchAcrossEntities(input: {query: "*", types: [DATASET]}) { total } }';
    for (let i = 0; i < 4; i++) assert.deepEqual((await graphql(t, query, undefined, bearer(viewer))).body, { data: { searchAcrossEntities: { total: 0 } } }, `use ${i + 1}`);
    const other = await t.call({ method: 'POST', url: '/api/graphql', headers: bearer(viewer), payload: { query, operationName: 'other' } });
    assert.deepEqual(other.body, { errors: [{ message: 'Unknown operation named "other".', extensions: { code: 400, type: 'BAD_REQUEST', classification: 'ValidationError' } }] });
  });

  it('refuses a request without a token with 401, as every route does', async () => {
    const { status, body, headers } = await graphql(t, TOTAL);
    assert.equal(status, 401);
    assert.equal(headers['www-authenticate'], 'Bearer');
    assert.deepEqual(body, { error: 'Unauthorized', message: 'Authentication required: send Authorization: Bearer <token>' });
    const wrong = await graphql(t, TOTAL, undefined, bearer('urnb_nope'));
    assert.deepEqual([wrong.status, wrong.body], [401, { error: 'Unauthorized', message: 'Invalid, expired or revoked token' }]);
  });

  it('answers GET with the query, variables and operation name in the query string', async () => {
    const query = 'query a { searchAcrossEntities(input: {query: "*"}) { start } } query b($n: Int) { searchAcrossEntities(input: {query: "*", count: $n}) { count } }';
    const url = `/api/graphql?query=${encodeURIComponent(query)}&operationName=b&variables=${encodeURIComponent('{"n": 0}')}`;
    const { status, body } = await t.call({ method: 'GET', url, headers: bearer(viewer) });
    assert.equal(status, 200);
    assert.deepEqual(body, { data: { searchAcrossEntities: { count: 0 } } });
    const bad = await t.call({ method: 'GET', url: '/api/graphql?query=%7B__typename%7D&variables=%7Bnope', headers: bearer(viewer) });
    assert.deepEqual([bad.status, bad.body], [400, { error: 'Validation Error', message: 'variables must be a JSON object' }]);
  });

  it('answers the introspection the SDK sends to probe SearchFlags', async () => {
    const { status, body } = await graphql(t, '{ __type(name: "SearchFlags") { inputFields { name } } }', undefined, bearer(viewer));
    assert.equal(status, 200);
    const names = body.data.__type.inputFields.map((f: { name: string }) => f.name);
    assert.ok(names.includes('skipCache') && names.includes('includeSoftDeleted') && names.includes('skipAggregates'), names.join());
    const schema = await graphql(t, '{ __schema { queryType { name } } }', undefined, bearer(viewer));
    assert.deepEqual(schema.body, { data: { __schema: { queryType: { name: 'Query' } } } });
  });

  it('is left out of the OpenAPI document: GraphQL describes itself by introspection', async () => {
    const { body } = await t.call({ method: 'GET', url: '/openapi/v3/api-docs' });
    assert.deepEqual(Object.keys(body.paths).filter((path) => path.includes('graphql')), []);
  });

  it('answers an unknown field with a BAD_REQUEST validation error', async () => {
    const { status, body } = await graphql(t, '{ searchAcrossEntities(input: {query: "*"}) { nope } }', undefined, bearer(viewer));
    assert.equal(status, 200);
    assert.deepEqual(body, badRequest('Cannot query field "nope" on type "SearchResults".', 'ValidationError', [{ line: 1, column: 47 }]));
  });

  it('answers a syntax error, and JSON sent as the query, with a BAD_REQUEST syntax error', async () => {
    const broken = await graphql(t, '{ searchAcrossEntities(', undefined, bearer(viewer));
    assert.deepEqual([broken.status, broken.body], [200, badRequest('Syntax Error: Expected Name, found <EOF>.', 'InvalidSyntax', [{ line: 1, column: 24 }])]);
    const json = await graphql(t, '{"kind": "Document", "definitions": []}', undefined, bearer(viewer));
    assert.deepEqual([json.status, json.body], [200, badRequest('Syntax Error: Expected Name, found String "kind".', 'InvalidSyntax', [{ line: 1, column: 2 }])]);
  });

  it('answers variables of the wrong type with a BAD_REQUEST error', async () => {
    const { status, body } = await graphql(t, 'query q($n: Int) { searchAcrossEntities(input: {query: "*", count: $n}) { count } }', { n: 'many' }, bearer(viewer));
    assert.equal(status, 200);
    assert.deepEqual(body, badRequest('Variable "$n" got invalid value "many"; Int cannot represent non-integer value: "many"', 'ValidationError', [{ line: 1, column: 9 }]));
  });

  it('refuses subscriptions, which this schema does not have', async () => {
    const { body } = await graphql(t, 'subscription { createTag(input: {id: "x"}) }', undefined, bearer(viewer));
    assert.deepEqual(body, badRequest('Schema is not configured to execute subscription operation.', 'ValidationError'));
  });

  it('refuses a mutation sent with GET, before it runs', async () => {
    const query = 'mutation { createTag(input: {id: "by-get", name: "x"}) }';
    const { status, body } = await t.call({ method: 'GET', url: `/api/graphql?query=${encodeURIComponent(query)}`, headers: bearer(ADMIN_SECRET) });
    assert.equal(status, 200);
    assert.deepEqual(body, badRequest('Mutations are not accepted with GET: send them with POST', 'ValidationError'));
    assert.equal(await t.services.reader.exists('urn:li:tag:by-get'), false);
  });

  it('refuses an operation nested deeper than 50 fields', async () => {
    const deep = `{ __schema { types { fields { type { ${'ofType { '.repeat(47)}name${' }'.repeat(47)} } } } } }`;
    const { status, body } = await graphql(t, deep, undefined, bearer(viewer));
    assert.equal(status, 200);
    assert.deepEqual(body, badRequest('The operation nests fields 52 deep; the depth limit is 50', 'ValidationError'));
  });

  it('refuses an operation selecting more than 2,000 fields, counting fragments at each use', async () => {
    const query = `query wide { ${Array.from({ length: 125 }, (_, i) => `a${i}: __schema { ...Types }`).join(' ')} }
      fragment Types on __Schema { types { ...Type } }
      fragment Type on __Type { name kind description f: fields { name } i: inputFields { name } e: enumValues { name } p: possibleTypes { name } o: ofType { name kind } s: specifiedByURL }`;
    const { status, body } = await graphql(t, query, undefined, bearer(viewer));
    assert.equal(status, 200);
    assert.deepEqual(body, badRequest('Operation wide selects 2,125 fields (fragments counted at each use); the complexity limit is 2,000', 'ValidationError'));
  });

  it('refuses an operation running more than 10 searches, through fragments too', async () => {
    const query = `query many { ...Six ...Six }
      fragment Six on Query { ${Array.from({ length: 6 }, (_, i) => `s${i}: searchAcrossEntities(input: {query: "*", count: 10000}) { total }`).join(' ')} }`;
    const { status, body } = await graphql(t, query, undefined, bearer(viewer));
    assert.equal(status, 200);
    assert.deepEqual(body, badRequest('Operation many runs 12 searches; at most 10 may run in one operation', 'ValidationError'));
  });

  it('measures fragments spread in fragments once each, however often they are spread', async () => {
    const levels = Array.from({ length: 40 }, (_, i) => `fragment F${i} on Query { ${i === 39 ? '__typename' : `...F${i + 1} ...F${i + 1}`} }`).join('\n');
    const started = Date.now();
    const { body } = await graphql(t, `query deep { ...F0 }\n${levels}`, undefined, bearer(viewer));
    assert.ok(Date.now() - started < 2_000);
    assert.deepEqual(body, badRequest('Operation deep selects 549,755,813,888 fields (fragments counted at each use); the complexity limit is 2,000', 'ValidationError'));
  });

  it('refuses a body that is not a GraphQL request with 400', async () => {
    const post = (payload: unknown) => t.call({ method: 'POST', url: '/api/graphql', headers: bearer(viewer), payload: payload as object });
    assert.deepEqual((await post([{ query: TOTAL }])).body, { error: 'Validation Error', message: 'The body must be a JSON object: {query, variables?, operationName?}' });
    assert.deepEqual((await post({ variables: {} })).body, { error: 'Validation Error', message: 'query: expected a GraphQL document (a non-empty string)' });
    assert.deepEqual((await post({ query: TOTAL, variables: [1] })).body, { error: 'Validation Error', message: 'variables must be a JSON object' });
    assert.deepEqual((await post({ query: TOTAL, operationName: 3 })).body, { error: 'Validation Error', message: 'operationName must be a string' });
    assert.equal((await post({ query: TOTAL, operationName: 3 })).status, 400);
  });

  it('refuses a body over the limit of a route that reads (here the app\'s 1 MiB, below 2 MiB) with 413', async () => {
    const padding = ' '.repeat(1024 * 1024);
    const { status, body } = await t.call({ method: 'POST', url: '/api/graphql', headers: { ...bearer(viewer), 'content-type': 'application/json' }, payload: `{"query": "${TOTAL.replaceAll('"', '\\"')}${padding}"}` });
    assert.equal(status, 413);
    assert.deepEqual(body, { error: 'Payload Too Large', message: 'Request body is too large: this route takes at most 1,048,576 bytes' });
  });

  it('refuses a document of more than 15,000 tokens', async () => {
    const { body } = await graphql(t, `{ ${'__typename '.repeat(15_000)} }`, undefined, bearer(viewer));
    assert.deepEqual(body, badRequest('Syntax Error: Document contains more that 15000 tokens. Parsing aborted.', 'InvalidSyntax', [{ line: 1, column: 164_992 }]));
  });

  it('refuses a document nested too deeply to be parsed', async () => {
    const { status, body } = await graphql(t, `{ ${'a { '.repeat(7_000)}${' }'.repeat(7_000)} }`, undefined, bearer(viewer));
    assert.equal(status, 200);
    assert.deepEqual(body, { errors: [{ message: 'Syntax Error: the document nests too deeply to be parsed', extensions: { code: 400, type: 'BAD_REQUEST', classification: 'InvalidSyntax' } }] });
  });
});
