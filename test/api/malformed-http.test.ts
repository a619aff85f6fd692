import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { testApp, type TestApp } from '../helpers.js';

/** Writes raw bytes to the server and reads everything it sends until it closes the connection. */
function exchange(port: number, bytes: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: '127.0.0.1', port }, () => socket.write(bytes, 'latin1'));
    let received = '';
    socket.on('data', (chunk: Buffer) => (received += chunk.toString('latin1')));
    socket.on('error', () => {});
    socket.on('close', () => resolve(received));
    socket.setTimeout(5000, () => reject(new Error(`no close within 5 s; received ${JSON.stringify(received)}`)));
  });
}

/** The status line and the body of a raw answer. */
function parse(raw: string): { statusLine: string; contentLength: string | undefined; body: string } {
  const [head, ...rest] = raw.split('\r\n\r\n');
  const lines = head.split('\r\n');
  return { statusLine: lines[0], contentLength: /^content-length: (\d+)$/im.exec(head)?.[1], body: rest.join('\r\n\r\n') };
}

describe('HTTP that does not parse, and URLs that do not decode', () => {
  let t: TestApp;
  let port: number;
  before(async () => {
    t = await testApp();
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    port = (t.app.server.address() as { port: number }).port;
  });
  after(() => t.app.close());

  it('answers a malformed request 400 in the usual error shape, and closes', async () => {
    const answer = parse(await exchange(port, 'GET /health HTTP/1.1\r\nHost: x\r\nBad Header\r\n\r\n'));
    assert.equal(answer.statusLine, 'HTTP/1.1 400 Bad Request');
    assert.deepEqual(JSON.parse(answer.body), { error: 'Bad Request', message: 'Malformed HTTP request' });
  });

  it('answers a malformed HEAD request 400 without a body, which HEAD answers never have', async () => {
    const answer = parse(await exchange(port, 'HEAD /health HTTP/1.1\r\nHost: x\r\nBad Header\r\n\r\n'));
    assert.deepEqual([answer.statusLine, answer.contentLength, answer.body], ['HTTP/1.1 400 Bad Request', '0', '']);
  });

  it('answers headers over 16 KB with 431', async () => {
    const answer = parse(await exchange(port, `GET /health HTTP/1.1\r\nHost: x\r\nX-Big: ${'b'.repeat(20_000)}\r\n\r\n`));
    assert.equal(answer.statusLine, 'HTTP/1.1 431 Request Header Fields Too Large');
    assert.deepEqual(JSON.parse(answer.body), { error: 'Request Header Fields Too Large', message: 'The request headers are too large' });
  });

  it('sends one answer only when a request it already answered is followed by bytes that do not parse', async () => {
    // The unknown route is answered 404 at once; the junk after it is a parse error on a closing connection.
    const raw = await exchange(port, 'GET /nowhere HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n\u0000junk\r\n\r\n');
    assert.equal(raw.match(/HTTP\/1\.1 /g)?.length, 1, raw);
    assert.equal(parse(raw).statusLine, 'HTTP/1.1 404 Not Found');
  });

  it('answers a path that is not valid percent-encoding 400 in the usual error shape', async () => {
    const res = await t.call({ method: 'GET', url: '/openapi/v2/entity/dataset/urn%3Ali%3A%FF' });
    assert.equal(res.status, 400);
    assert.deepEqual(res.body, { error: 'Bad Request', message: "'/openapi/v2/entity/dataset/urn%3Ali%3A%FF' is not a valid url component" });
  });
});
