import assert from 'node:assert/strict';
import { request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { after, before, describe, it } from 'node:test';
import { datasetUrn, enc, testApp, V2, type TestApp } from '../helpers.js';

const ADMIN = 'urnb_logs-admin-token-0123456789abcdefghijklmnopq';

/** Collects the app's log lines, parsed. */
class LogCapture extends Writable {
  readonly lines: Array<Record<string, unknown>> = [];
  text = '';
  override _write(chunk: Buffer, _encoding: string, done: () => void): void {
    this.text += chunk.toString();
    for (const line of chunk.toString().split('\n').filter(Boolean)) this.lines.push(JSON.parse(line) as Record<string, unknown>);
    done();
  }
}

describe('request logs', () => {
  const logs = new LogCapture();
  let t: TestApp;
  before(async () => (t = await testApp({ auth: true, adminToken: ADMIN, logLevel: 'info', logStream: logs })));
  after(() => t.app.close());
  const auth = { authorization: `Bearer ${ADMIN}` };

  it('are JSON lines carrying the request id the caller sent, which the answer echoes', async () => {
    const res = await t.call({ method: 'GET', url: `${V2}/dataset/${enc(datasetUrn('logs.a'))}/datasetProperties`, headers: { ...auth, 'x-request-id': 'trace-42.a' } });
    assert.equal(res.status, 404);
    assert.equal(res.headers['x-request-id'], 'trace-42.a');
    const mine = logs.lines.filter((l) => l.reqId === 'trace-42.a');
    assert.deepEqual(mine.map((l) => l.msg), ['request completed']);
  });

  it('hold one line per request, at completion, with what an access log needs', async () => {
    const url = `${V2}/dataset/${enc(datasetUrn('logs.c'))}/globalTags`;
    const written = await t.call({ method: 'POST', url, headers: { ...auth, 'x-request-id': 'access-1' }, payload: { tags: [{ tag: 'urn:li:tag:pii' }] } });
    assert.equal(written.status, 200);
    const refused = await t.call({ method: 'GET', url: `${V2}/dataset/not-a-urn`, headers: { ...auth, 'x-request-id': 'access-2' } });
    assert.equal(refused.status, 400);
    for (const [id, method, path, status] of [['access-1', 'POST', url, 200], ['access-2', 'GET', `${V2}/dataset/not-a-urn`, 400]] as const) {
      const mine = logs.lines.filter((l) => l.reqId === id);
      assert.equal(mine.length, 1, `${id}: one line`);
      const [line] = mine;
      assert.equal(line.msg, 'request completed');
      assert.equal(line.level, 30);
      assert.equal(typeof line.time, 'number');
      assert.deepEqual(line.req, { method, url: path, remoteAddress: '127.0.0.1' });
      assert.deepEqual(line.res, { statusCode: status });
      assert.equal(typeof line.responseTime, 'number');
      assert.ok((line.responseTime as number) >= 0 && (line.responseTime as number) < 60_000, `${id}: response time ${String(line.responseTime)} ms`);
    }
  });

  it('hold one line for a request its client abandoned before the answer, and no completion line', async () => {
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    const { port } = t.app.server.address() as AddressInfo;
    // A long poll on the change log: nothing newer comes, so it waits until the client hangs up.
    const waiting = request({ host: '127.0.0.1', port, path: '/openapi/v2/events?after=999999999&wait=20', headers: { ...auth, 'x-request-id': 'gone-1' } });
    waiting.on('error', () => {});
    waiting.end();
    for (let i = 0; i < 100 && t.app.server.connections === 0; i++) await new Promise((resolve) => setTimeout(resolve, 10));
    await new Promise((resolve) => setTimeout(resolve, 100));
    waiting.destroy();
    for (let i = 0; i < 100 && !logs.lines.some((l) => l.reqId === 'gone-1'); i++) await new Promise((resolve) => setTimeout(resolve, 10));
    await new Promise((resolve) => setTimeout(resolve, 100));
    const mine = logs.lines.filter((l) => l.reqId === 'gone-1');
    assert.deepEqual(
      mine.map((l) => [l.level, l.msg, l.req]),
      [[30, 'request aborted by the client', { method: 'GET', url: '/openapi/v2/events?after=999999999&wait=20', remoteAddress: '127.0.0.1' }]],
    );
  });

  it('make up a request id when none is sent, one per request', async () => {
    const [a, b] = [await t.call({ method: 'GET', url: '/health' }), await t.call({ method: 'GET', url: '/health' })];
    const [idA, idB] = [String(a.headers['x-request-id']), String(b.headers['x-request-id'])];
    assert.match(idA, /^req-[0-9a-f-]{36}$/);
    assert.notEqual(idA, idB);
    assert.ok(logs.lines.some((l) => l.reqId === idA && l.msg === 'request completed'));
  });

  it('cut a request id to safe characters and 128 of them', async () => {
    const res = await t.call({ method: 'GET', url: '/health', headers: { 'x-request-id': `evil"} {"msg":"forged<>${'x'.repeat(300)}` } });
    const id = String(res.headers['x-request-id']);
    assert.equal(id, `evilmsg:forged${'x'.repeat(300)}`.slice(0, 128));
    const unusable = await t.call({ method: 'GET', url: '/health', headers: { 'x-request-id': '"<>"' } });
    assert.match(String(unusable.headers['x-request-id']), /^req-[0-9a-f-]{36}$/);
  });

  it('never hold a token: not the Authorization header, not a created token', async () => {
    const res = await t.call({ method: 'POST', url: '/openapi/v2/auth/tokens', headers: auth, payload: { name: 'ci', role: 'viewer' } });
    assert.equal(res.status, 201);
    const created = res.body.token as string;
    const failed = await t.call({ method: 'GET', url: `${V2}/dataset/${enc(datasetUrn('logs.b'))}`, headers: { authorization: 'Bearer urnb_not-a-real-token-but-secret-looking-0000000000' } });
    assert.equal(failed.status, 401);
    await t.call({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${created}` } });
    assert.ok(logs.lines.length > 5);
    assert.ok(!logs.text.includes(ADMIN), 'the admin token is not logged');
    assert.ok(!logs.text.includes(created), 'a created token is not logged');
    assert.ok(!logs.text.includes('urnb_not-a-real-token'), 'a rejected token is not logged');
    assert.ok(!logs.text.toLowerCase().includes('authorization'), 'no Authorization header is logged');
  });
});
