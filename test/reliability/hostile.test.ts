import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import fc from 'fast-check';
import { enc, V2 } from '../helpers.js';
import { restliError } from '../restli/clients.js';
import { CatalogWatch } from './catalog-watch.js';
import type { Client } from './client.js';
import { acceptedWrites, hostileRequest, requestPerRoute, RESTLI_ROUTE, ROUTE_NAMES, type HostileRequest } from './hostile-requests.js';
import { SEED_DATASETS, SEED_PROPERTY, SEED_TEST } from './hostile-values.js';
import { send, sendBody, sendBytes, type RawAnswer } from './raw-http.js';
import { level, reliabilityStores, serveFresh } from './target.js';

const ADMIN = 'urnb_reliability-hostile-admin-0123456789abcdef';
const BODY_LIMIT = 512 * 1024;
const RUNS = level(600, 6000);
const RAW_RUNS = level(60, 1500);
// A fixed seed replays a failure: URNBASE_FUZZ_SEED=<the seed the report printed>.
const SEED = process.env.URNBASE_FUZZ_SEED ? Number(process.env.URNBASE_FUZZ_SEED) : Math.floor(Math.random() * 2 ** 31);

for (const { kind, skip } of await reliabilityStores()) {
  describe(`hostile input on ${kind}: never a 5xx, never a hang, never a change by a rejected request`, { skip }, () => {
    // No test runs after changes: the change log must move only by the requests sent.
    const served = serveFresh(kind, ADMIN, { args: ['--tests-on-change', 'false', '--body-limit', '512kb'], capture: true });
    let watch: CatalogWatch;
    before(async () => {
      await seedCatalog(served.client);
      watch = new CatalogWatch(served.client);
      await watch.catchUp();
    });

    it(`${RUNS} generated requests over every route (seed ${SEED})`, async (t) => {
      const base = new URL(served.server.base);
      const byRoute = new Map<string, Map<number, number>>(ROUTE_NAMES.map((r) => [r, new Map()]));
      let slowest = { ms: 0, what: '' };
      let cutOffs = 0;
      await holds(
        fc.asyncProperty(hostileRequest(ADMIN), async (request) => {
          const answer = await send(base, request, allowedMs(request)).catch(async (error: Error & { code?: string }) => {
            // The server may answer and close before a body it refuses has all arrived (401, 413 by
            // Content-Length); the client then fails writing the rest. Nothing may have changed.
            const cutOff = request.body !== undefined && (error.code === 'EPIPE' || error.code === 'ECONNRESET');
            if (!cutOff) throw new Error(`${describeRequest(request)}\n→ no answer: ${error.message}`);
            const changed = await watch.changes();
            if (changed) throw new Error(`${describeRequest(request)}\n→ connection closed while sending the body, yet ${changed}`);
            return undefined;
          });
          if (answer === undefined) {
            cutOffs++;
            return;
          }
          const statuses = byRoute.get(request.route)!;
          statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
          if (answer.ms > slowest.ms) slowest = { ms: answer.ms, what: `${request.method} ${request.path.slice(0, 80)}` };
          const problem = await judge(request, answer, watch);
          if (problem) throw new Error(`${describeRequest(request)}\n→ ${answer.status} ${answer.text.slice(0, 500)}\n${problem}`);
          const health = await send(base, { method: 'GET', path: '/health', headers: {} }, 5_000);
          if (health.status !== 200) throw new Error(`${describeRequest(request)}\n→ afterwards /health answered ${health.status}`);
        }),
        { numRuns: RUNS, seed: SEED, endOnFailure: true, examples: [...acceptedWrites(ADMIN), ...requestPerRoute(ADMIN, SEED)].map((request) => [request]) },
      );
      const total = [...byRoute.values()].flatMap((s) => [...s.values()]).reduce((a, b) => a + b, 0);
      const fiveHundreds = [...byRoute.values()].flatMap((s) => [...s].filter(([status]) => status >= 500).map(([, n]) => n)).reduce((a, b) => a + b, 0);
      t.diagnostic(
        `${kind}: ${total + cutOffs} requests (seed ${SEED}), ${fiveHundreds} × 5xx, ${cutOffs} refused before their body was sent, ${watch.events} committed aspect changes; slowest ${slowest.ms.toFixed(0)} ms (${slowest.what})`,
      );
      for (const [route, statuses] of byRoute) {
        t.diagnostic(`  ${route}: ${[...statuses].sort(([a], [b]) => a - b).map(([s, n]) => `${s}×${n}`).join(' ')}`);
      }
      // Every route was tried, and the coherent ones got past validation now and then.
      for (const route of ROUTE_NAMES) assert.ok([...byRoute.get(route)!.values()].reduce((a, b) => a + b, 0) > 0, `${route} was never tried`);
      for (const route of ['POST /{type}/{urn}/{aspect}', 'v3 POST /{type}', 'Rest.li POST /aspects']) {
        // 202 is an accepted write too: v3 batches answer it when async (the default), committed all the same.
        assert.ok([...byRoute.get(route)!.keys()].some((s) => s === 200 || s === 202), `some writes were accepted on ${route}`);
      }
      assert.doesNotMatch(served.server.output(), /"level":(50|60)/, 'nothing was logged as an error');
    });

    it(`${RAW_RUNS} malformed HTTP messages: answered 4xx or closed, never a hung connection`, async (t) => {
      const base = new URL(served.server.base);
      const valid = `POST ${V2}/dataset/${enc(SEED_DATASETS[0])}/status HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${ADMIN}\r\nContent-Type: application/json\r\nContent-Length: 17\r\n\r\n{"removed":false}`;
      const message = fc.oneof(
        fc.uint8Array({ maxLength: 2000 }).map((bytes) => Buffer.from(bytes)),
        fc.tuple(fc.nat(), fc.nat(), fc.uint8Array({ minLength: 1, maxLength: 8 })).map(([at, cut, bytes]) => {
          const text = Buffer.from(valid, 'latin1');
          const i = at % text.length;
          return Buffer.concat([text.subarray(0, i), Buffer.from(bytes), text.subarray(i + (cut % 4))]);
        }),
        fc.constantFrom(
          'GET / HTTP/1.1\r\n\r\n',
          'GET /health HTTP/9.9\r\nHost: x\r\n\r\n',
          `GET /${'a'.repeat(100_000)} HTTP/1.1\r\nHost: x\r\n\r\n`,
          `GET /health HTTP/1.1\r\nHost: x\r\nX-Big: ${'b'.repeat(100_000)}\r\n\r\n`,
          'POST /gms/test?action=evaluate HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nContent-Length: 6\r\n\r\n{}{}{',
          'POST /gms/test?action=evaluate HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\nContent-Length: 3\r\n\r\n0\r\n\r\n',
          'POST /gms/test?action=evaluate HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n{}\r\n0\r\n\r\n',
          'GET /health HTTP/1.1\r\nHost: x\r\nBad Header\r\n\r\n',
        ).map((text) => Buffer.from(text, 'latin1')),
      );
      let answered = 0;
      await holds(
        fc.asyncProperty(message, async (bytes) => {
          const { statuses } = await sendBytes(base, bytes, 10_000);
          const shown = JSON.stringify(bytes.toString('latin1').slice(0, 300));
          if (statuses.some((s) => s >= 500)) throw new Error(`${shown} → ${statuses.join(', ')}`);
          if (statuses.length > 0) answered++;
          // A write that survived the mutation may commit: it was answered 2xx, or not answered at
          // all (the connection closed while it ran). Every other outcome must leave the catalog be.
          if (statuses.length === 0 || statuses.some((s) => s < 300)) return watch.settle();
          const problem = await watch.changes();
          if (problem) throw new Error(`${shown} → ${statuses.join(', ')}, yet ${problem}`);
        }),
        { numRuns: RAW_RUNS, seed: SEED, endOnFailure: true },
      );
      assert.equal((await served.client.call('GET', '/health')).status, 200);
      t.diagnostic(`${kind}: ${RAW_RUNS} raw messages, ${answered} answered with a status, the rest closed; none hung`);
    });

    it(`a body over the configured limit (${BODY_LIMIT} bytes) gets 413 on every route that takes one, declared or chunked, and changes nothing`, async () => {
      const base = new URL(served.server.base);
      const routes: Array<[string, string, string]> = [
        ['POST', `${V2}/dataset/${enc(SEED_DATASETS[0])}/datasetProperties`, 'application/json'],
        ['PATCH', `${V2}/dataset/${enc(SEED_DATASETS[0])}/datasetProperties`, 'application/json-patch+json'],
        ['POST', `${V2}/dataset`, 'application/json'],
        ['POST', `${V2}/scroll`, 'application/json'],
        ['POST', '/openapi/v3/entity/scroll', 'application/json'],
        ['POST', '/gms/test?action=evaluate', 'application/json'],
        ['POST', '/openapi/v2/auth/tokens', 'application/json'],
        ['POST', '/openapi/v3/entity/dataset', 'application/json'],
        ['PATCH', '/openapi/v3/entity/generic', 'application/json'],
        ['POST', '/openapi/v3/entity/generic/batchGet', 'application/json'],
        ['POST', `/openapi/v3/entity/dataset/${enc(SEED_DATASETS[0])}/datasetProperties`, 'application/json'],
        ['POST', '/aspects?action=ingestProposal', 'application/json'],
        ['POST', '/entities?action=ingest', 'application/json'],
        ['POST', '/api/graphql', 'application/json'],
      ];
      const ofSize = (bytes: number) => {
        const frame = '{"description":""}';
        return Buffer.from(`{"description":"${'x'.repeat(bytes - frame.length)}"}`, 'utf8');
      };
      for (const [method, path, contentType] of routes) {
        for (const chunked of [false, true]) {
          const over = await answered(() => sendBody(base, { method, path, headers: { authorization: `Bearer ${ADMIN}`, 'content-type': contentType }, body: ofSize(BODY_LIMIT + 1), chunked }, 10_000));
          assert.equal(over.status, 413, `${method} ${path}${chunked ? ' (chunked)' : ''}: ${over.text}`);
          const restli = /^\/(aspects|entities)\?/.test(path);
          const message = `Request body is too large: this route takes at most ${BODY_LIMIT.toLocaleString('en-US')} bytes`;
          assert.deepEqual(JSON.parse(over.text), restli ? restliError(413, message) : { error: 'Payload Too Large', message });
          const atLimit = await answered(() => sendBody(base, { method, path, headers: { authorization: `Bearer ${ADMIN}`, 'content-type': contentType }, body: ofSize(BODY_LIMIT), chunked }, 10_000));
          assert.ok(atLimit.status !== 413 && atLimit.status < 500, `${method} ${path} at the limit: ${atLimit.status} ${atLimit.text.slice(0, 200)}`);
          await watch.catchUp();
        }
      }
      // And a client that only announces a huge body is refused before sending it.
      const announced = await send(base, { method: 'POST', path: `${V2}/dataset`, headers: { authorization: `Bearer ${ADMIN}`, 'content-type': 'application/json', 'content-length': String(10 * 1024 ** 3) } }, 10_000);
      assert.equal(announced.status, 413);
      assert.equal(await watch.changes(), undefined);
    });
  });
}

/**
 * A request refused while its body is still being sent: the server answers, then closes the
 * connection. sendBody stops sending once the answer begins and reads it even after a broken
 * pipe; only when the reset came before any of the answer was read is it sent again (the
 * refusal changed nothing either way: the callers check).
 */
async function answered(request: () => Promise<RawAnswer>): Promise<RawAnswer> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await request();
    } catch (error) {
      const code = (error as { code?: string }).code;
      if (attempt >= 10 || (code !== 'EPIPE' && code !== 'ECONNRESET')) throw error;
      await new Promise((settle) => setTimeout(settle, 20 * attempt));
    }
  }
}

/** Runs a property; a failure reads as the request, its answer and what was wrong, with the seed to replay it. */
async function holds<T>(property: fc.IAsyncProperty<T>, parameters: fc.Parameters<T>): Promise<void> {
  const details = await fc.check(property, parameters);
  if (details.failed) assert.fail(`seed ${details.seed}, run ${details.numRuns}:\n${(details.errorInstance as Error | undefined)?.message ?? String(details.errorInstance)}`);
}

/** The oracle: what any answer to a hostile request must satisfy. */
async function judge(request: HostileRequest, answer: RawAnswer, watch: CatalogWatch): Promise<string | undefined> {
  if (answer.status >= 500 || answer.status < 200) return `status ${answer.status}`;
  if (answer.status >= 400 && request.method.toUpperCase() !== 'HEAD') {
    let body: unknown;
    try {
      body = JSON.parse(answer.text);
    } catch {
      return 'a 4xx whose body is not JSON';
    }
    const { message } = (body ?? {}) as { message?: unknown };
    // Rest.li routes refuse in Rest.li's shape; everything else as {error, message}: unmatched
    // paths, and HTTP that does not parse (refused by the socket, before there is a request).
    const beforeRequest = /^\{"error":"No endpoint /.test(answer.text) || ['Malformed HTTP request', 'The request headers are too large', 'The request was not received in time'].includes(String(message));
    const restli = RESTLI_ROUTE.test(request.route) && !beforeRequest;
    if (restli !== (answer.headers['x-restli-error-response'] === 'true')) return `a 4xx ${restli ? 'without' : 'with'} X-RestLi-Error-Response: ${answer.text.slice(0, 200)}`;
    if (restli) {
      const { exceptionClass, status } = (body ?? {}) as { exceptionClass?: unknown; status?: unknown };
      if (typeof exceptionClass !== 'string' || typeof message !== 'string' || status !== answer.status) return `a 4xx body not in Rest.li's shape: ${answer.text.slice(0, 200)}`;
    } else {
      const { error } = (body ?? {}) as { error?: unknown };
      if (typeof error !== 'string' || (message !== undefined && typeof message !== 'string')) return `a 4xx body without {error, message}: ${answer.text.slice(0, 200)}`;
    }
  }
  const reads = ['GET', 'HEAD', 'OPTIONS'].includes(request.method.toUpperCase());
  if (answer.status >= 300 || reads) {
    const changed = await watch.changes();
    if (changed) return `${answer.status >= 300 ? 'a rejected request' : 'a read'} changed the catalog: ${changed}`;
  } else {
    await watch.catchUp();
  }
  return undefined;
}

/** A long poll may take the wait it asked for; anything else must answer within 15 s. */
function allowedMs(request: HostileRequest): number {
  const wait = /[?&]wait=([\d.]+)(&|$)/.exec(request.path);
  return 15_000 + (wait ? Math.min(60, Number(wait[1]) || 0) * 1000 : 0);
}

function describeRequest(request: HostileRequest): string {
  const body = request.body ? `${request.body.length} bytes${request.chunked ? ', chunked' : ''}: ${JSON.stringify(request.body.subarray(0, 400).toString('latin1'))}` : 'no body';
  return `${request.route}: ${request.method} ${request.path.slice(0, 400)}\nheaders ${JSON.stringify(request.headers).slice(0, 400)}\nbody ${body}`;
}

/** Entities the generated requests aim at: datasets with aspects, a property with values, a test. */
async function seedCatalog(client: Client): Promise<void> {
  const ok = async (method: string, path: string, body: unknown) => {
    const answer = await client.call(method, path, body);
    assert.ok(answer.status < 300, `${method} ${path}: ${answer.status} ${JSON.stringify(answer.body)}`);
  };
  await ok('POST', `${V2}/structuredProperty/${enc(SEED_PROPERTY)}/propertyDefinition`, {
    qualifiedName: 'hostile.retention',
    valueType: 'urn:li:dataType:datahub.number',
    cardinality: 'SINGLE',
    entityTypes: ['urn:li:entityType:datahub.dataset'],
  });
  for (const [i, urn] of SEED_DATASETS.entries()) {
    await ok('POST', `${V2}/dataset?async=false`, [
      {
        urn,
        aspects: {
          datasetProperties: { value: { name: `hostile ${i}`, description: 'seeded for the hostile-input suite' } },
          globalTags: { value: { tags: [{ tag: 'urn:li:tag:gold' }] } },
          ownership: { value: { owners: [{ owner: 'urn:li:corpuser:alice', type: 'DATAOWNER' }] } },
          structuredProperties: { value: { properties: [{ propertyUrn: SEED_PROPERTY, values: [{ double: 30 + i }] }] } },
        },
      },
    ]);
  }
  const definition = { on: { types: ['dataset'] }, rules: [{ property: 'ownership.owners.owner', operator: 'exists' }], actions: { passing: [{ type: 'ADD_TAGS', params: { values: ['urn:li:tag:owned'] } }] } };
  await ok('POST', `${V2}/test/${enc(SEED_TEST)}/testInfo`, { name: 'owned', category: 'Governance', definition: { type: 'JSON', json: JSON.stringify(definition) } });
}
