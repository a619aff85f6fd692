import assert from 'node:assert/strict';
import { connect, type Socket } from 'node:net';
import { before, describe, it } from 'node:test';
import { datasetUrn, enc, V2 } from '../helpers.js';
import { Client } from './client.js';
import { HealthProbe, show, stats } from './health-probe.js';
import { agentFrom, send } from './source-addresses.js';
import { FULL, level, reliabilityStores, serveFresh } from './target.js';

/**
 * Issue 32's attacks, each while /health is probed: the lowest role (a viewer, or no one) must not
 * be able to hold the server, and neither may an editor's absurd request. Every attack gets the
 * answer its limit gives, and /health answers in under 100 ms (p99) meanwhile. The figures go to
 * the test's diagnostics (docs/reliability.md quotes a full run).
 */
const ADMIN = 'urnb_reliability-stall-admin-0123456789abcdefgh';
const V3 = '/openapi/v3/entity';
/** How long a sustained attack runs. */
const SUSTAIN_MS = level(1_500, 8_000);
/** Datasets written first, for the batchGet at the limit to find. */
const SEEDED = level(2_000, 10_000);
/**
 * The target, asserted in the full run (`npm run test:reliability`: one file at a time, so the
 * server has a core to itself). The short run inside `npm test` shares two cores with another
 * test file: it reports the same figures and holds a bound that still catches a stall (the
 * findings held the event loop for 9 to 89 s).
 */
const HEALTH_P99_MS = FULL ? 100 : 1_000;

/** Runs `attack` in `lanes` loops until `ms` have passed (each lane at least once); returns every answer. */
async function sustain<T>(ms: number, lanes: number, attack: () => Promise<T>): Promise<T[]> {
  const until = performance.now() + ms;
  const answers: T[] = [];
  await Promise.all(
    Array.from({ length: lanes }, async () => {
      do answers.push(await attack());
      while (performance.now() < until);
    }),
  );
  return answers;
}

for (const { kind, skip } of await reliabilityStores()) {
  describe(`the lowest role cannot stall the server on ${kind}`, { skip }, () => {
    const served = serveFresh(kind, ADMIN, { args: ['--tests-on-change', 'false', '--request-timeout', '3s'] });
    const tokens: Record<string, string> = {};
    const as = (role: string) => new Client(served.server.base, tokens[role]);

    before(async () => {
      for (const role of ['viewer', 'editor']) {
        const res = await served.client.call('POST', '/openapi/v2/auth/tokens', { name: `stall-${role}`, role });
        assert.equal(res.status, 201);
        tokens[role] = res.body.token;
      }
      for (let i = 0; i < SEEDED; i += 1000) {
        const batch = Array.from({ length: Math.min(1000, SEEDED - i) }, (_, j) => ({ urn: datasetUrn(`stall.${i + j}`), datasetProperties: { value: { name: `stall ${i + j}` } } }));
        assert.equal((await as('editor').call('POST', `${V3}/dataset?async=false`, batch)).status, 200);
      }
    });

    /**
     * Probes /health while `attack` runs; asserts the probe's p99 and returns the attack's result.
     * `warm`, one of the attack's requests, is made once before, unprobed: a route's first call
     * compiles its validator and warms the JIT, once in the life of the process, which no attacker
     * can make again.
     */
    async function whileProbed<T>(t: { diagnostic(message: string): void }, what: string, attack: () => Promise<T>, warm?: () => Promise<unknown>): Promise<T> {
      await warm?.();
      const probe = new HealthProbe(served.server.base);
      const result = await attack();
      const health = await probe.stop();
      t.diagnostic(`${kind}: ${what}: /health ${show(health)}`);
      assert.ok(health.p99 < HEALTH_P99_MS, `${what}: /health p99 ${health.p99.toFixed(0)} ms (${show(health)})`);
      return result;
    }

    it('a viewer batchGet of 40,000 URNs (1.2 MB) is a fast 413, on the typed and the generic route', async (t) => {
      const body = JSON.stringify(Array.from({ length: 40_000 }, (_, i) => ({ urn: `urn:li:tag:t${i}` })));
      const generic = JSON.stringify({ tag: JSON.parse(body) });
      const both = async () => [await as('viewer').call('POST', `${V3}/tag/batchGet`, body), await as('viewer').call('POST', `${V3}/generic/batchGet`, generic)];
      const answers = await whileProbed(t, 'batchGet of 40,000 URNs', () => sustain(SUSTAIN_MS, 2, both), both);
      for (const answer of answers.flat()) {
        assert.equal(answer.status, 413);
        assert.deepEqual(answer.body, { error: 'Payload Too Large', message: 'A batchGet may name at most 10,000 URNs; this one names 40,000' });
      }
    });

    it('a viewer batchGet at the limit (10,000 URNs) is answered while /health keeps answering', async (t) => {
      const body = JSON.stringify(Array.from({ length: 10_000 }, (_, i) => ({ urn: datasetUrn(`stall.${i}`), datasetProperties: {} })));
      const read = () => as('viewer').call('POST', `${V3}/dataset/batchGet`, body);
      const answers = await whileProbed(t, 'batchGet of 10,000 URNs', () => sustain(SUSTAIN_MS, 1, read), read);
      for (const answer of answers) {
        assert.equal(answer.status, 200);
        assert.equal(answer.body.length, SEEDED);
      }
    });

    it('a viewer evaluateDefinition of 100,000 regex leaves (8.9 MB) is refused by its size; one past 1,000 predicates by its count', async (t) => {
      const leaves = (n: number) => Array.from({ length: n }, (_, i) => ({ property: 'datasetProperties.description', operator: 'regex_match', value: `a${i}+b` }));
      const huge = JSON.stringify({ urn: datasetUrn('stall.1'), definition: JSON.stringify({ on: { types: ['dataset'] }, rules: { or: leaves(100_000) } }) });
      const many = JSON.stringify({ urn: datasetUrn('stall.1'), definition: { on: { types: ['dataset'] }, rules: { or: leaves(1_000) } } });
      const atLimit = JSON.stringify({ urn: datasetUrn('stall.1'), definition: { on: { types: ['dataset'] }, rules: { or: leaves(999) } } });
      const three = async () => {
        const viewer = as('viewer');
        const refused = await viewer.call('POST', '/gms/test?action=evaluateDefinition', huge).catch((error: Error) => error);
        return [refused, await viewer.call('POST', '/gms/test?action=evaluateDefinition', many), await viewer.call('POST', '/gms/test?action=evaluateDefinition', atLimit)] as const;
      };
      const answers = await whileProbed(t, 'evaluateDefinition of 100,000 leaves, 1,001 predicates and 1,000', () => sustain(SUSTAIN_MS, 2, three), three);
      for (const [refused, many, atLimit] of answers) {
        // The server may answer 413 and close before the whole body is sent: the client then fails writing it.
        if (!(refused instanceof Error)) {
          assert.equal(refused.status, 413);
          assert.deepEqual(refused.body, { error: 'Payload Too Large', message: 'Request body is too large: this route takes at most 2,097,152 bytes' });
        }
        assert.deepEqual([many.status, many.body], [400, { error: 'Validation Error', message: 'rules.or[999]: a definition may have at most 1,000 predicates' }]);
        assert.deepEqual([atLimit.status, atLimit.body.value.result], [200, 'FAIL']);
      }
    });

    it('bad tokens from one address: 429 after 20, no token lookup after that, and another address is not slowed', async (t) => {
      const base = new URL(served.server.base);
      const lookups = async () => {
        const text: string = (await served.client.call('GET', '/metrics')).body;
        const line = text.split('\n').find((l) => l.startsWith('urnbase_store_operation_duration_seconds_count{operation="tokenByHash"'));
        return line ? Number(line.split(' ').pop()) : 0;
      };
      const lookupsBefore = await lookups();
      const attacker = agentFrom('127.32.0.1');
      const good = agentFrom('127.32.0.2');
      const goodTimes: number[] = [];
      const statuses = new Map<number, number>();
      try {
        await whileProbed(t, 'bad tokens from one address, 8 at a time', async () => {
          let attacking = true;
          const goodClient = (async () => {
            while (attacking) {
              const began = performance.now();
              const answer = await send(base, good, { method: 'GET', path: `${V2}/dataset?count=1`, authorization: `Bearer ${tokens.viewer}` });
              assert.equal(answer.status, 200);
              goodTimes.push(performance.now() - began);
              await new Promise((r) => setTimeout(r, 10));
            }
          })();
          let n = 0;
          await sustain(SUSTAIN_MS, 8, async () => {
            const answer = await send(base, attacker, { method: 'GET', path: `${V2}/dataset?count=1`, authorization: `Bearer urnb_made-up-${++n}-0123456789abcdefghijklmnopqrstuv` });
            statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
          });
          attacking = false;
          await goodClient;
        });
      } finally {
        attacker.destroy();
        good.destroy();
      }
      const goodStats = stats(goodTimes);
      const looked = (await lookups()) - lookupsBefore;
      t.diagnostic(`${kind}: ${[...statuses].map(([s, n]) => `${n} × ${s}`).join(', ')}; ${looked} token lookups; the other address: ${show(goodStats)}`);
      assert.deepEqual([...statuses.keys()].sort(), [401, 429]);
      assert.equal(statuses.get(401), 20);
      // The 20 failures, the 8 in flight when the limit was reached, and the viewer's token, checked
      // again every 0.8 s (some slack for timers); nothing for the requests refused with 429.
      const allowed = 20 + 8 + 2 * Math.ceil(SUSTAIN_MS / 800);
      assert.ok(looked <= allowed, `${looked} token lookups (at most ${allowed}), for ${statuses.get(429)} refused requests`);
      assert.ok(goodStats.p99 < HEALTH_P99_MS, `the other address: ${show(goodStats)}`);
    });

    it('a scroll of 5,000 criteria is a fast 400 that never reaches the database', async (t) => {
      const criteria = Array.from({ length: 5_000 }, (_, i) => ({ field: 'name', condition: 'CONTAIN', values: [`v${i}`] }));
      const body = { entities: ['dataset'], filter: { and: [{ criteria }] } };
      const scroll = () => as('viewer').call('POST', `${V3}/scroll?count=10`, body);
      const answers = await whileProbed(t, 'scrolls of 5,000 criteria', () => sustain(SUSTAIN_MS, 2, scroll), scroll);
      for (const answer of answers) {
        assert.equal(answer.status, 400);
        assert.deepEqual(answer.body, { error: 'Validation Error', message: 'A search may have at most 100 conditions (query clauses and filter criteria together); this one has 5,000' });
      }
    });

    it('1,000 leading NOTs or dashes in a query are answered 200', async (t) => {
      const queries = [`${'NOT '.repeat(1_000)}stall`, `${'-'.repeat(1_000)}stall`];
      const search = () => Promise.all(queries.map((q) => as('viewer').call('GET', `${V2}/dataset?query=${enc(q)}&count=1`)));
      const answers = await whileProbed(t, '1,000 leading NOTs', () => sustain(SUSTAIN_MS, 2, search), search);
      for (const answer of answers.flat()) assert.equal(answer.status, 200, JSON.stringify(answer.body));
    });

    it('a lone surrogate in a URN and invalid UTF-8 in a body are 400s, and nothing is stored', async (t) => {
      const lone = '[{"urn":"urn:li:tag:s\\ud800x","tagProperties":{"value":{"name":"x"}}}]';
      const bytes = Buffer.concat([Buffer.from('[{"urn":"urn:li:tag:bad","tagProperties":{"value":{"name":"a'), Buffer.from([0xff, 0xfe]), Buffer.from('"}}}]')]);
      const both = async () => [await as('editor').call('POST', `${V3}/tag`, lone), await as('editor').call('POST', `${V3}/tag`, bytes)];
      const answers = await whileProbed(t, 'lone surrogates and invalid UTF-8', () => sustain(SUSTAIN_MS, 2, both), both);
      for (const [surrogate, invalid] of answers) {
        assert.deepEqual([surrogate.status, surrogate.body.message], [400, 'The request body holds a lone UTF-16 surrogate (an unpaired \\ud800-\\udfff escape) at [0].urn']);
        assert.deepEqual([invalid.status, invalid.body.message], [400, 'The request body is not valid UTF-8']);
      }
      assert.equal((await served.client.call('GET', `${V2}/tag/${enc('urn:li:tag:bad')}/tagProperties`)).status, 404);
    });

    it("an editor's 50,000-entity batch is a fast 413, and nothing is written", async (t) => {
      const body = JSON.stringify(Array.from({ length: 50_000 }, (_, i) => ({ urn: datasetUrn(`stall.bulk.${i}`), status: { value: { removed: false } } })));
      const write = () => as('editor').call('POST', `${V3}/dataset`, body);
      const answers = await whileProbed(t, '50,000-entity batches', () => sustain(SUSTAIN_MS, 1, write), write);
      for (const answer of answers) {
        assert.equal(answer.status, 413);
        assert.deepEqual(answer.body, { error: 'Payload Too Large', message: 'A write request may carry at most 10,000 aspect changes; this one carries more. Split it into smaller requests' });
      }
      assert.equal((await served.client.call('GET', `${V2}/dataset/${enc(datasetUrn('stall.bulk.0'))}/status`)).status, 404);
    });

    it("an editor's 200,000 tags on one dataset are a fast 400; 20,000 (the limit) are written while /health keeps answering", async (t) => {
      const urn = datasetUrn('stall.tags');
      const tags = (n: number) => JSON.stringify({ tags: Array.from({ length: n }, (_, i) => ({ tag: `urn:li:tag:stall.${i}` })) });
      const [huge, atLimit] = [tags(200_000), tags(20_000)];
      const tooMany = () => as('editor').call('POST', `${V2}/dataset/${enc(urn)}/globalTags`, huge);
      const answers = await whileProbed(t, '200,000 tags', () => sustain(SUSTAIN_MS, 1, tooMany), tooMany);
      for (const answer of answers) {
        assert.deepEqual([answer.status, answer.body.message], [400, `Aspect globalTags of ${urn} holds more than 20,000 values to index (tags, owners, terms, property values, …), the most an aspect may hold`]);
      }
      const written = await whileProbed(t, '20,000 tags', () => as('editor').call('POST', `${V2}/dataset/${enc(urn)}/globalTags`, atLimit));
      assert.equal(written.status, 200);
      const found = await as('viewer').call('GET', `${V2}/dataset?query=${enc('tags:"urn:li:tag:stall.19999"')}`);
      assert.deepEqual(found.body.results.map((r: { urn: string }) => r.urn), [urn]);
    });

    it('200 slow connections: unauthenticated ones are closed after their 401, the others after the request timeout (3 s)', async (t) => {
      const base = new URL(served.server.base);
      // Each from an address of its own, so that the anonymous ones meet the limiter's 401, not its 429.
      const open = (authorized: boolean, n: number) =>
        new Promise<{ closedMs: number; answer: string }>((resolve) => {
          const began = performance.now();
          const socket: Socket = connect({ host: base.hostname, port: Number(base.port), localAddress: `127.33.0.${n + 1}` });
          const chunks: Buffer[] = [];
          let trickle: NodeJS.Timeout | undefined;
          socket.on('connect', () => {
            const auth = authorized ? `Authorization: Bearer ${tokens.editor}\r\n` : '';
            socket.write(`POST ${V2}/dataset/${enc(datasetUrn('stall.slow'))}/status HTTP/1.1\r\nHost: x\r\n${auth}Content-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"removed":`);
            // One byte a second: far slower than any real client.
            trickle = setInterval(() => socket.write(' '), 1000);
          });
          socket.on('data', (chunk: Buffer) => chunks.push(chunk));
          socket.on('error', () => {});
          socket.on('close', () => {
            clearInterval(trickle);
            resolve({ closedMs: performance.now() - began, answer: Buffer.concat(chunks).toString('latin1') });
          });
        });
      const closed = await whileProbed(t, '200 slow connections', () => Promise.all(Array.from({ length: 200 }, (_, i) => open(i % 2 === 0, i))));
      const [authorized, anonymous] = [closed.filter((_, i) => i % 2 === 0), closed.filter((_, i) => i % 2 === 1)];
      t.diagnostic(`${kind}: the anonymous closed within ${Math.max(...anonymous.map((c) => c.closedMs)).toFixed(0)} ms, the authorized within ${Math.max(...authorized.map((c) => c.closedMs)).toFixed(0)} ms`);
      for (const c of anonymous) {
        assert.match(c.answer, /^HTTP\/1\.1 401 /);
        assert.ok(c.closedMs < 2_000, `an anonymous slow connection stayed open ${c.closedMs.toFixed(0)} ms`);
      }
      for (const c of authorized) {
        assert.match(c.answer, /^HTTP\/1\.1 408 |^$/);
        assert.ok(c.closedMs < 3_000 + 2_500, `an authorized slow connection stayed open ${c.closedMs.toFixed(0)} ms`);
      }
    });
  });
}
