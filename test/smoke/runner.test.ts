import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { FixtureError, ignoredResponseKeys, parseFixture } from './fixture.js';
import { parseLexical, type LexicalJson } from './lexical-json.js';
import { buildRequest, encodeParams, quotePlus, requoteUri, runFixture, type Transport } from './runner.js';

type Sent = Parameters<Transport>[0];

/** A server that answers from a list and records what it was sent. */
function scripted(answers: Array<{ status: number; body: string }>): { transport: Transport; sent: Sent[] } {
  const sent: Sent[] = [];
  return {
    sent,
    transport: async (request) => {
      sent.push(request);
      const answer = answers.shift();
      if (!answer) throw new Error('no more answers');
      return answer;
    },
  };
}

describe('requests as Python requests sends them', () => {
  it('encodes params with quote_plus and str(): booleans as True/False', () => {
    const params = parseLexical('{"query": "qualifiedName:sales\\\\.orders*", "async": false, "count": 1, "x": 2.0, "sort": ["a", "b c"], "none": null}');
    assert.equal(encodeParams(params as Record<string, LexicalJson>), 'query=qualifiedName%3Asales%5C.orders%2A&async=False&count=1&x=2.0&sort=a&sort=b+c');
    assert.equal(quotePlus("a/b(c)'~ç"), 'a%2Fb%28c%29%27~%C3%A7');
  });

  it('appends params to a query the URL already has, repeating a key if both name it', () => {
    const request = buildRequest({ url: '/openapi/v2/entity/x?createIfNotExists=false', method: 'post', params: { createIfNotExists: 'false' } });
    assert.equal(request.url, '/openapi/v2/entity/x?createIfNotExists=false&createIfNotExists=false');
  });

  it('requotes the URL: unreserved escapes decoded, characters a URI cannot hold escaped, the rest untouched', () => {
    assert.equal(requoteUri('/a%2Fb%41%7e c{d}?q=*&r=%3A'), '/a%2FbA~%20c%7Bd%7D?q=*&r=%3A');
  });

  it('sends json bodies with numbers as written, the token, and no body for json null', () => {
    const withBody = buildRequest({ url: '/u', method: 'patch', json: parseLexical('{"double": 60.0}') }, 'secret');
    assert.deepEqual(withBody, {
      method: 'PATCH',
      url: '/u',
      headers: { accept: '*/*', 'user-agent': 'python-requests/2.32.3', authorization: 'Bearer secret', 'content-type': 'application/json' },
      body: '{"double":60.0}',
    });
    const none = buildRequest({ url: '/u', method: 'delete', json: null });
    assert.equal(none.body, undefined);
    assert.equal(none.headers['content-type'], undefined);
  });
});

describe('reading a fixture file', () => {
  it('defaults the method to post and the status codes to 200, 201, 202, 204', () => {
    const [step] = parseFixture('[{"request": {"url": "/x", "description": "d"}}]');
    assert.ok(step && step.kind === 'request');
    assert.equal(step.request.method, 'post');
    assert.deepEqual(step.response.statusCodes, [200, 201, 202, 204]);
    assert.equal(step.response.json, undefined);
  });

  it('substitutes placeholders everywhere: URL, body, expected body', () => {
    const [step] = parseFixture('[{"request": {"url": "/e/p{unique_id}", "json": {"n": "p{unique_id}"}}, "response": {"json": {"urn": "u:{unique_id}"}}}]', { unique_id: '42' });
    assert.ok(step && step.kind === 'request');
    assert.equal(step.request.url, '/e/p42');
    assert.deepEqual(step.request.json, { n: 'p42' });
    assert.deepEqual(step.response.json, { urn: 'u:42' });
  });

  it('reads wait steps, true meaning one second as time.sleep(True) does', () => {
    const steps = parseFixture('[{"request": {"wait": 2}}, {"request": {"wait": true, "description": "d"}}]');
    assert.deepEqual(steps, [
      { index: 0, kind: 'wait', description: undefined, seconds: 2 },
      { index: 1, kind: 'wait', description: 'd', seconds: 1 },
    ]);
  });

  it('refuses what it does not implement rather than pass it unchecked', () => {
    assert.throws(() => parseFixture('[{"request": {"url": "/x", "data": "a=b"}}]'), new FixtureError('step 0: request key "data" is not supported by this runner'));
    assert.throws(() => parseFixture('[{"request": {"url": "/x"}, "expect": {}}]'), new FixtureError('step 0: unknown step key "expect"'));
    assert.throws(() => parseFixture('[{"request": {"url": "/x", "method": "fetch"}}]'), new FixtureError('step 0: unknown method "fetch"'));
    assert.throws(() => parseFixture('[{"request": {"url": "/x"}, "response": {"status_codes": [200.0]}}]'), /status_codes must be a list of integers/);
    assert.throws(() => parseFixture('{"request": {}}'), /a list of steps/);
  });

  it('reports response keys the runner does not read (they check nothing)', () => {
    assert.deepEqual([...ignoredResponseKeys('[{"request": {"url": "/x"}, "response": {"value": {}, "status_codes": [200]}}]')], [[0, ['value']]]);
  });
});

describe('running the steps', () => {
  it('passes a step whose status is allowed and whose body matches', async () => {
    const steps = parseFixture('[{"request": {"url": "/a", "method": "get"}, "response": {"json": {"x": [1, 2]}}}]');
    const server = scripted([{ status: 200, body: '{"x": [2, 1]}' }]);
    assert.deepEqual(await runFixture(steps, { transport: server.transport }), [{ index: 0, description: undefined, outcome: 'pass', sent: 'GET /a' }]);
  });

  it('fails a status outside status_codes with the body, and a wrong body with the difference', async () => {
    const steps = parseFixture(`[
      {"request": {"url": "/a"}},
      {"request": {"url": "/b"}, "response": {"status_codes": [412], "json": {"error": "Precondition Error"}, "exclude_regex_paths": ["root\\\\['message'\\\\]"]}},
      {"request": {"url": "/c"}, "response": {"json": {"double": 30.0}}},
      {"request": {"url": "/d"}, "response": {"json": {}}}
    ]`);
    const server = scripted([
      { status: 404, body: '' },
      { status: 412, body: '{"error": "Validation Error", "message": "m"}' },
      { status: 200, body: '{"double": 30}' },
      { status: 204, body: '' },
    ]);
    const results = await runFixture(steps, { transport: server.transport });
    assert.deepEqual(
      results.map((r) => [r.outcome, r.reason]),
      [
        ['fail', 'status 404 not in [200, 201, 202, 204]; body: (empty)'],
        ['fail', "body differs: root['error']: \"Validation Error\", expected \"Precondition Error\""],
        ['fail', "body differs: root['double']: type int 30, expected float 30.0"],
        ['fail', 'body is not JSON (unexpected token at offset 0): (empty)'],
      ],
    );
    assert.equal(server.sent.length, 4, 'a failed step does not stop the file');
  });

  it('checks only the status when the response has no json', async () => {
    const steps = parseFixture('[{"request": {"url": "/a"}, "response": {"status_codes": [404]}}, {"request": {"url": "/b"}, "response": {"value": {"x": 1}}}]');
    const server = scripted([{ status: 404, body: 'not json' }, { status: 200, body: '{"anything": true}' }]);
    assert.deepEqual((await runFixture(steps, { transport: server.transport })).map((r) => r.outcome), ['pass', 'pass']);
  });

  it('waits, skips without sending, and never passes a route the server does not serve', async () => {
    const steps = parseFixture(`[
      {"request": {"wait": true}},
      {"request": {"url": "/skipped"}, "skip": "backend rejects it"},
      {"request": {"url": "/cleanup", "method": "delete"}, "response": {"status_codes": [200, 404]}}
    ]`);
    const server = scripted([{ status: 404, body: '{"error": "No endpoint DELETE /cleanup."}' }]);
    const slept: number[] = [];
    const results = await runFixture(steps, {
      transport: server.transport,
      token: 't',
      sleep: async (s) => void slept.push(s),
      unserved: (a) => (a.status === 404 && a.body.includes('No endpoint') ? a.body : undefined),
    });
    assert.deepEqual(slept, [1]);
    assert.deepEqual(server.sent.map((s) => `${s.method} ${s.url} ${s.headers.authorization}`), ['DELETE /cleanup Bearer t']);
    assert.deepEqual(
      results.map((r) => [r.index, r.outcome, r.reason]),
      [
        [0, 'waited', undefined],
        [1, 'skipped', 'backend rejects it'],
        [2, 'fail', 'route not served: {"error": "No endpoint DELETE /cleanup."}'],
      ],
    );
  });
});
