import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { Agent } from 'node:http';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, describe, it } from 'node:test';
import { hashSecret } from '../../src/auth/tokens.js';
import { openStore } from '../../src/store/open.js';
import { datasetUrn, enc, V2 } from '../helpers.js';
import { startServer, type ServerProcess } from '../server-process.js';
import { runMatrix, startBackground } from './auth-load.js';
import { expectedAnswer, failingCredentials, matrixRoutes, mismatch, MATRIX_DATASET, type Credential } from './auth-matrix.js';
import { agentFrom, send, SourceAddresses, type SecurityAnswer, type SecurityRequest } from './source-addresses.js';
import { level, reliabilityStores, storeTarget, type StoreTarget } from './target.js';

const MAIN = fileURLToPath(new URL('../../src/main.js', import.meta.url));
const ENV_ADMIN = 'urnb_reliability-security-env-admin-0123456789abcdef';
const ROUNDS = level(4, 40);
const IN_FLIGHT = level(32, 64);
const WRITERS = level(2, 4);
/** What the limiter allows per address and minute (src/auth/limiter.ts). */
const FAILURE_LIMIT = 20;
/** The tokens that may write: the matrix's editor and admins, and the background writer. */
const WRITERS_ALLOWED = ['urn:li:corpuser:editor1', 'urn:li:corpuser:admin1', 'urn:li:corpuser:admin', 'urn:li:corpuser:writer1'];

/** The mode bits of a file or directory. */
const mode = (path: string) => (statSync(path).mode & 0o777).toString(8);

/** Occurrences of a string in a text. */
const count = (text: string, part: string) => text.split(part).length - 1;

/**
 * The server's output once it has logged everything before now: a marked request's line (written
 * at its completion) comes last, so no earlier line is still on its way through the pipe.
 */
async function settledOutput(server: ServerProcess): Promise<string> {
  const marker = `settle-${Math.random().toString(36).slice(2)}`;
  await fetch(`${server.base}/health`, { headers: { 'x-request-id': marker } });
  for (let i = 0; i < 100 && !server.output().includes(`"reqId":"${marker}","req"`); i++) await new Promise((resolve) => setTimeout(resolve, 50));
  return server.output();
}

/** A store's `serve` flags with another data dir. */
const withDataDir = (target: StoreTarget, dataDir: string) => target.args.map((arg) => (arg === target.dataDir ? dataDir : arg));

for (const { kind, skip } of await reliabilityStores()) {
  describe(`security on ${kind}`, { skip }, () => {
    describe('the auth matrix under load', () => {
      let target: StoreTarget;
      let server: ServerProcess;
      let base: URL;
      const agent = new Agent({ keepAlive: true });
      const sources = new SourceAddresses(15, 10);
      const secrets: Record<string, string> = {};
      const victims: string[] = [];
      const victimSecrets: string[] = [];
      let credentials: Credential[] = [];
      const routes = matrixRoutes(() => victims.pop() ?? assert.fail('more revokes than victims'));
      let createdSecrets: string[] = [];

      const admin = (req: SecurityRequest) => send(base, agent, { ...req, authorization: `Bearer ${ENV_ADMIN}` });
      const createToken = async (name: string, role: string) => {
        const made = await admin({ method: 'POST', path: '/openapi/v2/auth/tokens', body: { name, role } });
        assert.equal(made.status, 201, made.text);
        return made.body as { id: string; token: string };
      };

      before(async () => {
        target = await storeTarget(kind);
        server = await startServer({
          args: [...target.args, '--log-level', 'trace', '--tests-interval', '0'],
          env: { URNBASE_ADMIN_TOKEN: ENV_ADMIN },
          capture: true,
        });
        base = new URL(server.base);
        // The CLI refuses expiries under a day: the token goes in through the store, as `token create`
        // writes it, valid for a moment. It is used (and cached) while valid, and expires while the
        // other tokens are made.
        secrets.expired = 'urnb_reliability-security-expiring-0123456789abcdef';
        const expiresAt = Date.now() + 2500;
        const urlFlag = target.args.indexOf('--database-url');
        const store = await openStore({ dataDir: target.dataDir, databaseUrl: urlFlag < 0 ? undefined : target.args[urlFlag + 1] });
        await store.insertToken({
          id: 'expiring', name: 'expiring1', role: 'admin', actor: 'urn:li:corpuser:expiring1', hash: hashSecret(secrets.expired),
          createdAt: Date.now(), createdBy: 'test', expiresAt, lastUsedAt: null, revokedAt: null,
        });
        await store.close();
        const seeded = await send(base, agent, { method: 'POST', path: `${V2}/dataset/${enc(MATRIX_DATASET)}/status`, body: { removed: false }, authorization: `Bearer ${secrets.expired}` });
        assert.equal(seeded.status, 200, `the expiring token works before its expiry: ${seeded.text}`);
        for (const role of ['viewer', 'editor', 'admin', 'writer']) secrets[role] = (await createToken(`${role}1`, role === 'writer' ? 'editor' : role)).token;
        const revoked = await createToken('revoked1', 'editor');
        assert.equal((await admin({ method: 'DELETE', path: `/openapi/v2/auth/tokens/${revoked.id}` })).status, 204);
        secrets.revoked = revoked.token;
        credentials = [
          ...failingCredentials(secrets.revoked, secrets.expired),
          ...(['viewer', 'editor', 'admin'] as const).map((role) => ({ name: `a ${role} token`, authorization: `Bearer ${secrets[role]}`, principal: { role, actor: `urn:li:corpuser:${role}1` } })),
          { name: 'URNBASE_ADMIN_TOKEN', authorization: `Bearer ${ENV_ADMIN}`, principal: { role: 'admin' as const, actor: 'urn:li:corpuser:admin' } },
        ];
        // One live token for each revoke the matrix sends, whoever sends it.
        const revokes = ROUNDS * credentials.length;
        for (let i = 0; i < revokes; i += 16) {
          const batch = await Promise.all(Array.from({ length: Math.min(16, revokes - i) }, (_, j) => createToken(`victim${i + j}`, 'viewer')));
          victims.push(...batch.map((v) => v.id));
          victimSecrets.push(...batch.map((v) => v.token));
        }
        await new Promise((resolve) => setTimeout(resolve, Math.max(0, expiresAt - Date.now() + 50)));
      });
      after(async () => {
        agent.destroy();
        sources.destroy();
        await server?.stop();
        await target?.remove();
      });

      it(`every route answers every credential exactly as the matrix says, ${ROUNDS} rounds ${IN_FLIGHT} in flight while ${WRITERS} writers write`, async (t) => {
        const newestBefore = await newestSequence();
        const background = startBackground({ base, agent, sources, writerToken: secrets.writer, adminToken: ENV_ADMIN, writers: WRITERS });
        const began = performance.now();
        const figures = await runMatrix({ base, routes, credentials, rounds: ROUNDS, inFlight: IN_FLIGHT, agent, sources });
        const seconds = (performance.now() - began) / 1000;
        const done = await background.stop();
        createdSecrets = [...figures.createdSecrets, ...done.secrets];
        const statuses = [...figures.statuses].sort(([a], [b]) => a - b).map(([status, n]) => `${n} × ${status}`).join(', ');
        t.diagnostic(
          `${kind}: ${figures.requests} matrix requests (${routes.length} routes × ${credentials.length} credentials × ${ROUNDS}) in ${seconds.toFixed(1)} s, ` +
            `${figures.mismatches.length} mismatches; ${statuses}; meanwhile ${done.writes} background writes and ${done.churns} create-use-revoke-refuse cycles; ` +
            `failures sent from ${sources.used} loopback addresses`,
        );
        assert.deepEqual(figures.mismatches.slice(0, 10), [], `${figures.mismatches.length} of ${figures.requests} answers differ from the matrix`);
        assert.deepEqual(done.failures.slice(0, 10), [], 'background writes and token churn');
        assert.equal(figures.requests, routes.length * credentials.length * ROUNDS);

        // Refused calls changed nothing: a refused revoke left its token live...
        const listed = await admin({ method: 'GET', path: '/openapi/v2/auth/tokens' });
        const revokedAt = new Map((listed.body as Array<{ id: string; revokedAt: string | null }>).map((token) => [token.id, token.revokedAt]));
        assert.deepEqual(figures.revokedVictims.filter((id) => revokedAt.get(id) === null), [], 'allowed revokes revoked');
        assert.deepEqual(figures.keptVictims.filter((id) => revokedAt.get(id) !== null), [], 'refused revokes revoked nothing');
        assert.equal(figures.revokedVictims.length, ROUNDS * 2);
        // ...and every change written meanwhile was written by a token that may write.
        const actors = await actorsAfter(newestBefore);
        t.diagnostic(`${kind}: changes written during the load, by actor: ${[...actors].map(([actor, n]) => `${actor} ${n}`).join(', ')}`);
        assert.deepEqual([...actors.keys()].filter((actor) => !WRITERS_ALLOWED.includes(actor)), []);
      });

      it(`an address past ${FAILURE_LIMIT} failures a minute gets 429 with Retry-After for further failures, and its valid tokens keep their answers`, async (t) => {
        const limited = agentFrom('127.250.0.1');
        try {
          const route = routes.find((r) => r.name === 'GET /{type}/{urn}')!;
          const failing = credentials.filter((c) => !c.principal);
          const answers: SecurityAnswer[] = [];
          for (let i = 0; i < FAILURE_LIMIT + 5; i++) {
            answers.push(await send(base, limited, { ...route.request(), authorization: failing[i % failing.length].authorization }));
          }
          answers.slice(0, FAILURE_LIMIT).forEach((answer, i) => assert.equal(mismatch('GET', expectedAnswer(route, failing[i % failing.length]), answer), undefined, `failure ${i + 1}`));
          for (const answer of answers.slice(FAILURE_LIMIT)) {
            assert.equal(answer.status, 429);
            assert.deepEqual(answer.body, { error: 'Too Many Requests', message: 'Too many failed authentication attempts from this address; retry later' });
            const retryAfter = String(answer.headers['retry-after']);
            assert.ok(/^\d+$/.test(retryAfter) && Number(retryAfter) >= 1 && Number(retryAfter) <= 60, `Retry-After ${retryAfter}`);
          }
          let valid = 0;
          for (const r of routes.filter((r) => r.needs !== 'admin' || r.name === 'GET /openapi/v2/auth/tokens')) {
            for (const credential of credentials.filter((c) => c.principal)) {
              const request = r.request();
              const answer = await send(base, limited, { ...request, authorization: credential.authorization });
              assert.equal(mismatch(request.method, expectedAnswer(r, credential), answer), undefined, `${r.name} with ${credential.name} from a limited address`);
              valid++;
            }
          }
          const publicAnswer = await send(base, limited, { method: 'GET', path: '/health', authorization: failing[2].authorization });
          assert.equal(publicAnswer.status, 200, 'public routes ignore credentials, even from a limited address');
          t.diagnostic(`${kind}: from one address, ${FAILURE_LIMIT} exact 401s, then ${answers.length - FAILURE_LIMIT} × 429 (Retry-After ${answers.at(-1)!.headers['retry-after']} s); then ${valid} calls with valid tokens got their matrix answers`);
        } finally {
          limited.destroy();
        }
      });

      it('the trace-level log of all this holds no token and no Authorization header', async (t) => {
        const log = await settledOutput(server);
        const known = [ENV_ADMIN, ...Object.values(secrets), ...victimSecrets, ...createdSecrets, ...credentials.flatMap((c) => (c.authorization ? [c.authorization] : []))];
        assert.ok(createdSecrets.length > 0);
        assert.deepEqual(known.filter((secret) => log.includes(secret)), []);
        assert.equal(count(log, 'urnb_'), 0, 'nothing that looks like a token');
        assert.equal(count(log.toLowerCase(), 'authorization'), 0);
        t.diagnostic(`${kind}: ${log.split('\n').length} log lines (${count(log, '"msg":"request completed"')} requests) searched for ${known.length} secrets: none found`);
      });

      /** The change log's newest sequence now. */
      async function newestSequence(): Promise<number> {
        let after = 0;
        for (;;) {
          const page = (await admin({ method: 'GET', path: `/openapi/v2/events?after=${after}&limit=1000` })).body as { events: unknown[]; nextAfter: number };
          if (page.events.length === 0) return after;
          after = page.nextAfter;
        }
      }

      /** Who wrote the changes after `sequence`, with how many each. */
      async function actorsAfter(sequence: number): Promise<Map<string, number>> {
        const actors = new Map<string, number>();
        for (let after = sequence; ; ) {
          const page = (await admin({ method: 'GET', path: `/openapi/v2/events?after=${after}&limit=1000` })).body as { events: Array<{ created: { actor: string } }>; nextAfter: number };
          if (page.events.length === 0) return actors;
          for (const event of page.events) actors.set(event.created.actor, (actors.get(event.created.actor) ?? 0) + 1);
          after = page.nextAfter;
        }
      }
    });

    describe('a first start without URNBASE_ADMIN_TOKEN', () => {
      let target: StoreTarget;
      let server: ServerProcess;
      let dataDir: string;
      let bootstrapped: string;
      const agent = new Agent({ keepAlive: true });
      before(async () => {
        target = await storeTarget(kind);
        // Neither the data dir nor its parent exists yet.
        dataDir = join(target.dataDir, 'catalog');
        server = await startServer({ args: [...withDataDir(target, dataDir), '--log-level', 'trace', '--tests-interval', '0'], env: { URNBASE_ADMIN_TOKEN: '' }, capture: true });
        bootstrapped = readFileSync(join(dataDir, 'admin.token'), 'utf8').trim();
      });
      after(async () => {
        agent.destroy();
        await server?.stop();
        await target?.remove();
      });

      const call = (authorization: string | undefined, method: string, path: string, body?: unknown, headers?: Record<string, string>) =>
        send(new URL(server.base), agent, { method, path, body, authorization, headers });

      it('creates the data dir and its parent 0700, and admin.token 0600 holding a working admin token', async () => {
        assert.deepEqual([mode(target.dataDir), mode(dataDir), mode(join(dataDir, 'admin.token'))], ['700', '700', '600']);
        assert.match(bootstrapped, /^urnb_[A-Za-z0-9_-]{43}$/);
        const listed = await call(`Bearer ${bootstrapped}`, 'GET', '/openapi/v2/auth/tokens');
        assert.equal(listed.status, 200);
        assert.deepEqual((listed.body as Array<{ name: string; role: string }>).map((t) => [t.name, t.role]), [['admin', 'admin']]);
        if (kind === 'sqlite') {
          // The catalog (token hashes included) is owner-only too, its log and shared-memory files alike.
          const files = readdirSync(dataDir).filter((f) => f.startsWith('urnbase.db')).sort();
          assert.deepEqual(files, ['urnbase.db', 'urnbase.db-shm', 'urnbase.db-wal']);
          assert.deepEqual(files.map((f) => mode(join(dataDir, f))), ['600', '600', '600']);
        } else {
          assert.deepEqual(readdirSync(dataDir), ['admin.token']);
        }
      });

      it("logs the token file's path, never the token", async () => {
        const log = await settledOutput(server);
        const lines = log.split('\n').filter((line) => line.includes('created the first admin token'));
        assert.equal(lines.length, 1);
        assert.equal(JSON.parse(lines[0]).file, join(dataDir, 'admin.token'));
        assert.ok(!log.includes(bootstrapped));
      });

      it('no token and no Authorization header reaches the trace log or an error body, whatever the requests', async (t) => {
        const admin = `Bearer ${bootstrapped}`;
        const made: Record<string, { id: string; token: string }> = {};
        for (const role of ['viewer', 'editor', 'admin']) {
          const answer = await call(admin, 'POST', '/openapi/v2/auth/tokens', { name: `logged-${role}`, role, expiresInDays: 30 });
          assert.equal(answer.status, 201);
          made[role] = answer.body as { id: string; token: string };
        }
        const secrets = [bootstrapped, ...Object.values(made).map((m) => m.token)];
        const rejected = ['urnb_rejected-secret-0000000000000000000000000000000000', 'urnb_malformed-secret-000000000000000000000000000000000'];
        const urn = datasetUrn('reliability.security.logged');
        const path = `${V2}/dataset/${enc(urn)}/datasetProperties`;
        const unauthorized = (message: string) => ({ status: 401, body: { error: 'Unauthorized', message } });
        const cases: Array<[string, () => Promise<SecurityAnswer>, { status: number; body?: unknown }]> = [
          ['an editor writes', () => call(`Bearer ${made.editor.token}`, 'POST', path, { description: 'logged' }), { status: 200 }],
          ['a viewer reads', () => call(`Bearer ${made.viewer.token}`, 'GET', path), { status: 200 }],
          ['a viewer scrapes metrics', () => call(`Bearer ${made.viewer.token}`, 'GET', '/metrics'), { status: 200 }],
          ['an admin lists tokens', () => call(`Bearer ${made.admin.token}`, 'GET', '/openapi/v2/auth/tokens'), { status: 200 }],
          ['a viewer writes', () => call(`Bearer ${made.viewer.token}`, 'POST', path, { description: 'no' }), { status: 403, body: { error: 'Forbidden', message: 'urn:li:corpuser:logged-viewer is unauthorized to write entities.' } }],
          ['an editor creates a token', () => call(`Bearer ${made.editor.token}`, 'POST', '/openapi/v2/auth/tokens', { name: 'x', role: 'admin' }), { status: 403, body: { error: 'Forbidden', message: 'urn:li:corpuser:logged-editor is unauthorized to manage access tokens.' } }],
          ['an unknown token', () => call(`Bearer ${rejected[0]}`, 'GET', path), unauthorized('Invalid, expired or revoked token')],
          ['a malformed header', () => call(`Basic ${rejected[1]}`, 'GET', path), unauthorized('Malformed Authorization header: expected "Bearer <token>"')],
          ['no token', () => call(undefined, 'GET', path), unauthorized('Authentication required: send Authorization: Bearer <token>')],
          ['a token with a bad role', () => call(admin, 'POST', '/openapi/v2/auth/tokens', { name: 'bad', role: 'root' }), { status: 400 }],
          ['a body that is not JSON', () => call(admin, 'POST', path, '{"description":', { 'content-type': 'application/json' }), { status: 400 }],
          ['an invalid URN', () => call(admin, 'GET', `${V2}/dataset/not-a-urn`), { status: 400 }],
          ['a missing entity', () => call(admin, 'GET', `${V2}/dataset/${enc(datasetUrn('reliability.security.missing'))}`), { status: 404 }],
          ['an unknown route', () => call(admin, 'GET', '/openapi/v2/nope'), { status: 404, body: { error: 'No endpoint GET /openapi/v2/nope.' } }],
          ['a stale If-Version-Match', () => call(admin, 'POST', path, { description: 'late' }, { 'If-Version-Match': '7' }), { status: 412 }],
          ['revoking the viewer token', () => call(admin, 'DELETE', `/openapi/v2/auth/tokens/${made.viewer.id}`), { status: 204 }],
          ['the revoked viewer token', () => call(`Bearer ${made.viewer.token}`, 'GET', path), unauthorized('Invalid, expired or revoked token')],
          ['revoking it again', () => call(admin, 'DELETE', `/openapi/v2/auth/tokens/${made.viewer.id}`), { status: 404, body: { error: 'Not Found', message: `No live token with id ${made.viewer.id}` } }],
        ];
        for (const [what, request, expected] of cases) {
          const answer = await request();
          assert.equal(answer.status, expected.status, `${what}: ${answer.text}`);
          if (expected.body !== undefined) assert.deepEqual(answer.body, expected.body, what);
          assert.deepEqual([...secrets, ...rejected].filter((s) => answer.text.includes(s)), [], `${what}: no token in the answer`);
        }
        const log = await settledOutput(server);
        assert.ok(count(log, '"msg":"request completed"') >= cases.length, 'every request was logged');
        assert.deepEqual([...secrets, ...rejected].filter((s) => log.includes(s)), []);
        assert.equal(count(log, 'urnb_'), 0, 'nothing that looks like a token');
        assert.equal(count(log.toLowerCase(), 'authorization'), 0);
        t.diagnostic(`${kind}: ${cases.length} requests (${new Set(cases.map(([, , e]) => e.status)).size} statuses) logged in ${log.split('\n').length} lines at trace level: no token, no Authorization header`);
      });

      it('urnbase token create prints the token once, on its own line, and list and revoke never print it', async () => {
        // On the server's own store: its data dir, or its PostgreSQL database.
        const store = kind === 'postgres' ? ['--database-url', target.args[target.args.indexOf('--database-url') + 1]] : ['--data-dir', dataDir];
        const cli = (...args: string[]) => spawnSync(process.execPath, [MAIN, 'token', ...args, ...store], { encoding: 'utf8' });
        const created = cli('create', '--name', 'cli1', '--role', 'viewer', '--expires', '30d');
        assert.deepEqual([created.status, created.stderr], [0, '']);
        const lines = created.stdout.trimEnd().split('\n');
        assert.deepEqual(lines.map((l) => l.split(' ')[0]), ['id', 'actor', 'role', 'expires', 'token', '(the']);
        const token = /^token {3}(urnb_[A-Za-z0-9_-]{43})$/.exec(lines[4])![1];
        const id = lines[0].slice('id      '.length);
        assert.equal(count(created.stdout, token), 1);
        assert.equal(count(created.stdout, 'urnb_'), 1);
        // The running server sees the token the CLI wrote beside it.
        assert.equal((await call(`Bearer ${token}`, 'GET', '/openapi/v2/events?limit=1')).status, 200);
        const listed = cli('list');
        assert.deepEqual([listed.status, listed.stderr, count(listed.stdout, 'urnb_')], [0, '', 0]);
        assert.match(listed.stdout, new RegExp(`^${id} {2}cli1 {2}viewer {2}active {2}last used `, 'm'));
        const revoked = cli('revoke', id);
        assert.deepEqual([revoked.status, revoked.stdout, revoked.stderr], [0, `revoked ${id}\n`, '']);
        // Revoked from another process: the server's lookup cache lets it live at most 0.8 s more.
        const deadline = Date.now() + 3000;
        let status = 200;
        while (status === 200 && Date.now() < deadline) {
          status = (await call(`Bearer ${token}`, 'GET', '/openapi/v2/events?limit=1')).status;
          if (status === 200) await new Promise((resolve) => setTimeout(resolve, 100));
        }
        assert.equal(status, 401);
        assert.ok(!(await settledOutput(server)).includes(token), 'the CLI token never reaches the server log');
      });
    });
  });
}
