import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { datasetUrn, enc, testApp, V2, type TestApp } from '../helpers.js';
import { V3, v3Url } from './v3-fixtures.js';

/** Requests as generic clients send them: default headers on every method, URNs of every length. */

/** Sends raw bytes and reads the whole answer (the request asks the server to close). */
function exchange(port: number, bytes: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: '127.0.0.1', port }, () => socket.write(bytes, 'latin1'));
    let received = '';
    socket.on('data', (chunk: Buffer) => (received += chunk.toString('latin1')));
    socket.on('error', reject);
    socket.on('close', () => resolve(received));
    socket.setTimeout(5000, () => reject(new Error(`no close within 5 s; received ${JSON.stringify(received)}`)));
  });
}

describe('a request without a body, whatever its Content-Type says', () => {
  const ADMIN = 'urnb_requests-admin-secret-0123456789abcdefghij';
  let t: TestApp;
  const auth = { authorization: `Bearer ${ADMIN}` };
  before(async () => (t = await testApp({ auth: true, adminToken: ADMIN })));
  after(() => t.app.close());

  const seed = async (urn: string) => {
    const res = await t.call({ method: 'POST', url: `${V2}/dataset/${enc(urn)}/status`, headers: auth, payload: { removed: false } });
    assert.equal(res.status, 200);
  };

  it('revokes a token by DELETE with Content-Type: application/json (it was 400 "Body cannot be empty")', async () => {
    const made = await t.call({ method: 'POST', url: '/openapi/v2/auth/tokens', headers: auth, payload: { name: 'doomed', role: 'viewer' } });
    const res = await t.call({ method: 'DELETE', url: `/openapi/v2/auth/tokens/${made.body.id}`, headers: { ...auth, 'content-type': 'application/json' } });
    assert.equal(res.status, 204, res.raw);
    const gone = await t.call({ method: 'GET', url: `${V2}/dataset`, headers: { authorization: `Bearer ${made.body.token}` } });
    assert.equal(gone.status, 401);
  });

  it('deletes entities and aspects on v2 and v3 with any Content-Type and no body', async () => {
    const cases: Array<[string, (urn: string) => string]> = [
      ['application/json', (urn) => `${V2}/dataset/${enc(urn)}`],
      ['application/json', (urn) => `${V2}/dataset/${enc(urn)}/status`],
      ['application/json', (urn) => v3Url('dataset', urn)],
      ['application/json-patch+json', (urn) => v3Url('dataset', urn, 'status')],
      ['text/xml', (urn) => v3Url('dataset', urn)],
    ];
    for (const [i, [contentType, url]] of cases.entries()) {
      const urn = datasetUrn(`bodiless.${i}`);
      await seed(urn);
      const res = await t.call({ method: 'DELETE', url: url(urn), headers: { ...auth, 'content-type': contentType } });
      assert.equal(res.status, 200, `${contentType} ${url(urn)}: ${res.raw}`);
      assert.equal((await t.call({ method: 'HEAD', url: `${V2}/dataset/${enc(urn)}/status`, headers: auth })).status, 404);
    }
  });

  it('reads with Content-Type: application/json and no body', async () => {
    const urn = datasetUrn('bodiless.read');
    await seed(urn);
    for (const url of [`${V2}/dataset/${enc(urn)}`, v3Url('dataset', urn), `${V3}/dataset`, '/openapi/v2/events?limit=1']) {
      const res = await t.call({ method: 'GET', url, headers: { ...auth, 'content-type': 'application/json' } });
      assert.equal(res.status, 200, url);
    }
    assert.equal((await t.call({ method: 'HEAD', url: v3Url('dataset', urn), headers: { ...auth, 'content-type': 'application/json' } })).status, 204);
  });

  it('answers a write without a body with the route\'s own 400, not a parser error', async () => {
    const urn = datasetUrn('bodiless.write');
    const v2 = await t.call({ method: 'POST', url: `${V2}/dataset/${enc(urn)}/status`, headers: { ...auth, 'content-type': 'application/json' } });
    assert.deepEqual([v2.status, v2.body], [400, { error: 'Validation Error', message: 'Missing value for aspect status' }]);
    const batch = await t.call({ method: 'POST', url: `${V3}/dataset`, headers: { ...auth, 'content-type': 'application/json', 'content-length': '0' } });
    assert.deepEqual([batch.status, batch.body], [400, { error: 'Validation Error', message: 'The body must be a JSON array of entities: [{"urn": …, "<aspect>": {"value": …}}, …]' }]);
  });

  it('still refuses a body that is there and not JSON (415), or not valid JSON (400)', async () => {
    const urn = datasetUrn('bodiless.bad');
    const xml = await t.call({ method: 'POST', url: `${V2}/dataset/${enc(urn)}/status`, headers: { ...auth, 'content-type': 'text/xml' }, payload: '<x/>' });
    assert.equal(xml.status, 415);
    const broken = await t.call({ method: 'DELETE', url: `${V2}/dataset/${enc(urn)}`, headers: { ...auth, 'content-type': 'application/json' }, payload: '{' });
    assert.equal(broken.status, 400);
    assert.equal(broken.body.error, 'Bad Request');
  });

  it('takes an empty chunked body as no body', async () => {
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const port = (t.app.server.address() as { port: number }).port;
    const urn = datasetUrn('bodiless.chunked');
    await seed(urn);
    const raw = await exchange(
      port,
      `DELETE ${v3Url('dataset', urn)} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${ADMIN}\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n0\r\n\r\n`,
    );
    assert.match(raw, /^HTTP\/1\.1 200 OK\r\n/);
    assert.equal((await t.call({ method: 'HEAD', url: v3Url('dataset', urn), headers: auth })).status, 404);
  });
});

describe('URNs are at most 2048 bytes long, on every route', () => {
  let t: TestApp;
  before(async () => (t = await testApp()));
  after(() => t.app.close());

  const longName = 'x'.repeat(20_000);
  const long = datasetUrn(longName);
  const message = (urn: string) => `A URN may be at most 2048 bytes long (UTF-8); this one has ${Buffer.byteLength(urn)}: ${urn.slice(0, 100)}…`;

  it('refuses a 20,000-character URN in a batch body with 400, writing nothing (it was stored, then unreadable: 431)', async () => {
    const good = datasetUrn('limit.good');
    const requests = [
      { method: 'POST' as const, url: `${V2}/dataset?async=false`, payload: [{ urn: good, aspects: { status: { value: { removed: false } } } }, { urn: long, aspects: { status: { value: { removed: false } } } }] },
      { method: 'POST' as const, url: `${V3}/dataset`, payload: [{ urn: good, status: { value: { removed: false } } }, { urn: long, status: { value: { removed: false } } }] },
      { method: 'PATCH' as const, url: `${V3}/dataset`, payload: [{ urn: good, status: { value: { patch: [] } } }, { urn: long, status: { value: { patch: [] } } }] },
      { method: 'POST' as const, url: `${V3}/generic`, payload: { dataset: [{ urn: good, status: { value: { removed: false } } }, { urn: long, status: { value: { removed: false } } }] } },
      { method: 'POST' as const, url: `${V3}/dataset/batchGet`, payload: [{ urn: good }, { urn: long }] },
    ];
    for (const request of requests) {
      const res = await t.call(request);
      assert.equal(res.status, 400, `${request.method} ${request.url}`);
      assert.deepEqual(res.body, { error: 'Validation Error', message: message(long) });
    }
    assert.equal((await t.call({ method: 'HEAD', url: v3Url('dataset', good) })).status, 404);
  });

  it('refuses a URN over the limit in a path with 400, on v2 and v3, reads and writes', async () => {
    const over = datasetUrn('y'.repeat(2100));
    const urls = [`${V2}/dataset/${enc(over)}`, `${V2}/dataset/${enc(over)}/status`, v3Url('dataset', over), v3Url('dataset', over, 'status')];
    for (const url of urls) {
      for (const method of ['GET', 'DELETE'] as const) {
        const res = await t.call({ method, url });
        assert.equal(res.status, 400, `${method} ${url}`);
        assert.deepEqual(res.body, { error: 'Validation Error', message: message(over) });
      }
      assert.equal((await t.call({ method: 'HEAD', url })).status, 400);
    }
    const write = await t.call({ method: 'POST', url: v3Url('dataset', over, 'status'), payload: { value: { removed: false } } });
    assert.deepEqual([write.status, write.body], [400, { error: 'Validation Error', message: message(over) }]);
  });

  it('refuses a path segment longer than the router takes with 400 naming the URN limit', async () => {
    for (const url of [`${V2}/dataset/${enc(long)}`, v3Url('dataset', long, 'status')]) {
      const res = await t.call({ method: 'GET', url });
      assert.equal(res.status, 400, url);
      assert.deepEqual(res.body, { error: 'Validation Error', message: 'A path segment is too long: a URN may be at most 2048 bytes long (UTF-8)' });
    }
  });

  it('refuses a URN over the limit inside an aspect value', async () => {
    const res = await t.call({ method: 'POST', url: v3Url('dataset', datasetUrn('limit.value'), 'globalTags'), payload: { value: { tags: [{ tag: `urn:li:tag:${'t'.repeat(2100)}` }] } } });
    assert.equal(res.status, 400);
    assert.equal(res.body.message, 'Aspect globalTags is invalid: field tags[0].tag must be a URN of type tag');
  });

  it('writes a URN of 2048 bytes by batch and reads it back by path over HTTP, percent-encoded', async () => {
    // 'é' is 2 UTF-8 bytes and 6 characters percent-encoded: the longest request line a URN can make.
    const prefix = datasetUrn('');
    const room = 2048 - Buffer.byteLength(prefix);
    const name = 'a'.repeat(room % 2) + 'é'.repeat(Math.floor(room / 2));
    const urn = datasetUrn(name);
    assert.equal(Buffer.byteLength(urn), 2048);
    const write = await t.call({ method: 'POST', url: `${V3}/dataset?async=false`, payload: [{ urn, status: { value: { removed: false } } }] });
    assert.equal(write.status, 200, write.raw);
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const port = (t.app.server.address() as { port: number }).port;
    for (const url of [`${V2}/dataset/${enc(urn)}/status`, v3Url('dataset', urn, 'status')]) {
      const res = await fetch(`http://127.0.0.1:${port}${url}`);
      assert.equal(res.status, 200, url);
      assert.deepEqual(await res.json(), { value: { removed: false } });
    }
  });
});

describe('query parameters, read as DataHub (Spring) reads them', () => {
  let t: TestApp;
  before(async () => (t = await testApp()));
  after(() => t.app.close());
  const urn = datasetUrn('spring.params');

  it('takes booleans in any case, and on/off, yes/no, 1/0 (Python requests sends async=False)', async () => {
    const write = await t.call({ method: 'POST', url: `${V2}/dataset?async=False`, payload: [{ urn, aspects: { status: { value: { removed: false } } } }] });
    assert.equal(write.status, 200, write.raw);
    for (const [flag, status] of [['TRUE', 409], ['yes', 409], ['1', 409], ['off', 200], ['No', 200], ['0', 200]] as const) {
      const res = await t.call({ method: 'POST', url: `${V2}/dataset/${enc(urn)}/status?createIfNotExists=${flag}`, payload: { removed: false } });
      assert.equal(res.status, status, `createIfNotExists=${flag}: ${res.raw}`);
    }
  });

  it('takes the first value of a single-valued parameter given twice', async () => {
    const first = await t.call({ method: 'POST', url: `${V2}/dataset/${enc(urn)}/status?createIfNotExists=false&createIfNotExists=true`, payload: { removed: false } });
    assert.equal(first.status, 200, first.raw);
    const again = await t.call({ method: 'POST', url: `${V2}/dataset/${enc(urn)}/status?createIfNotExists=true&createIfNotExists=false`, payload: { removed: false } });
    assert.equal(again.status, 409, again.raw);
  });

  it('still refuses a boolean that is none of those words', async () => {
    const res = await t.call({ method: 'POST', url: `${V2}/dataset/${enc(urn)}/status?createIfNotExists=maybe`, payload: { removed: false } });
    assert.equal(res.status, 400);
    assert.deepEqual(res.body, { error: 'Validation Error', message: 'querystring/createIfNotExists must be boolean' });
  });
});
