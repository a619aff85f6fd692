import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { InjectOptions } from 'fastify';
import { hashSecret } from '../../src/auth/tokens.js';
import { datasetUrn, enc, testApp, V2, type TestApp } from '../helpers.js';

const ADMIN_SECRET = 'urnb_matrix-admin-secret-0123456789abcdefghij';
const ds = datasetUrn('auth.matrix');
const entity = `${V2}/dataset/${enc(ds)}`;

interface Route {
  name: string;
  request: () => InjectOptions;
  needs: 'read' | 'write' | 'admin';
  /** Status of a successful call. */
  ok: number;
}

/** Every route that needs a token, what it needs, and its success status. */
const routes: Route[] = [
  { name: 'GET /{type}', needs: 'read', ok: 200, request: () => ({ method: 'GET', url: `${V2}/dataset` }) },
  { name: 'POST /{type}', needs: 'write', ok: 202, request: () => ({ method: 'POST', url: `${V2}/dataset`, payload: [{ urn: ds, aspects: { status: { value: { removed: false } } } }] }) },
  { name: 'GET /{type}/{urn}', needs: 'read', ok: 200, request: () => ({ method: 'GET', url: entity }) },
  { name: 'HEAD /{type}/{urn}', needs: 'read', ok: 204, request: () => ({ method: 'HEAD', url: entity }) },
  { name: 'GET /{type}/{urn}/{aspect}', needs: 'read', ok: 200, request: () => ({ method: 'GET', url: `${entity}/status` }) },
  { name: 'HEAD /{type}/{urn}/{aspect}', needs: 'read', ok: 204, request: () => ({ method: 'HEAD', url: `${entity}/status` }) },
  { name: 'POST /{type}/{urn}/{aspect}', needs: 'write', ok: 200, request: () => ({ method: 'POST', url: `${entity}/status`, payload: { removed: false } }) },
  {
    name: 'PATCH /{type}/{urn}/{aspect}',
    needs: 'write',
    ok: 200,
    request: () => ({ method: 'PATCH', url: `${entity}/status`, payload: { patch: [{ op: 'add', path: '/removed', value: false }] } }),
  },
  { name: 'DELETE /{type}/{urn}/{aspect}', needs: 'write', ok: 200, request: () => ({ method: 'DELETE', url: `${entity}/globalTags` }) },
  { name: 'DELETE /{type}/{urn}', needs: 'write', ok: 200, request: () => ({ method: 'DELETE', url: `${V2}/dataset/${enc(datasetUrn('auth.other'))}` }) },
  { name: 'POST /gms/test evaluate', needs: 'read', ok: 200, request: () => ({ method: 'POST', url: '/gms/test?action=evaluate', payload: { urn: ds } }) },
  { name: 'POST /gms/test evaluate push', needs: 'write', ok: 200, request: () => ({ method: 'POST', url: '/gms/test?action=evaluate', payload: { urn: ds, push: true } }) },
  { name: 'POST /openapi/v2/auth/tokens', needs: 'admin', ok: 201, request: () => ({ method: 'POST', url: '/openapi/v2/auth/tokens', payload: { name: 'made', role: 'viewer' } }) },
  { name: 'GET /openapi/v2/events', needs: 'read', ok: 200, request: () => ({ method: 'GET', url: '/openapi/v2/events?limit=1' }) },
  { name: 'GET /openapi/v2/auth/tokens', needs: 'admin', ok: 200, request: () => ({ method: 'GET', url: '/openapi/v2/auth/tokens' }) },
];

const OPERATION = { read: 'read entities', write: 'write entities', admin: 'manage access tokens' } as const;

describe('authentication and roles on every route', () => {
  let t: TestApp;
  const secrets: Record<string, string> = {};

  before(async () => {
    t = await testApp({ auth: true, adminToken: ADMIN_SECRET, authFailureLimit: 100_000 });
    const create = async (name: string, role: string, extra: object = {}) => {
      const res = await t.call({ method: 'POST', url: '/openapi/v2/auth/tokens', headers: { authorization: `Bearer ${ADMIN_SECRET}` }, payload: { name, role, ...extra } });
      assert.equal(res.status, 201, JSON.stringify(res.body));
      return res.body as { id: string; token: string };
    };
    for (const role of ['viewer', 'editor', 'admin']) secrets[role] = (await create(`${role}1`, role)).token;
    const revoked = await create('revoked1', 'editor');
    await t.call({ method: 'DELETE', url: `/openapi/v2/auth/tokens/${revoked.id}`, headers: { authorization: `Bearer ${ADMIN_SECRET}` } });
    secrets.revoked = revoked.token;
    secrets.expired = 'urnb_expired-secret-0123456789abcdefghijklmnopq';
    await t.services.store.insertToken({
      id: 'expired-id',
      name: 'expired1',
      role: 'admin',
      actor: 'urn:li:corpuser:expired1',
      hash: hashSecret(secrets.expired),
      createdAt: Date.now() - 10_000,
      createdBy: 'test',
      expiresAt: Date.now() - 1,
      lastUsedAt: null,
      revokedAt: null,
    });
    // A dataset for the reads and the test evaluation to find.
    const res = await t.call({ method: 'POST', url: `${entity}/status`, headers: { authorization: `Bearer ${ADMIN_SECRET}` }, payload: { removed: false } });
    assert.equal(res.status, 200);
  });
  after(() => t.app.close());

  const call = (route: Route, authorization?: string) => {
    const request = route.request();
    return t.call({ ...request, headers: { ...(request.headers ?? {}), ...(authorization === undefined ? {} : { authorization }) } });
  };

  const failures: Array<[string, () => string | undefined, string]> = [
    ['no token', () => undefined, 'Authentication required: send Authorization: Bearer <token>'],
    ['a malformed header', () => 'Token abc', 'Malformed Authorization header: expected "Bearer <token>"'],
    ['an unknown token', () => 'Bearer urnb_unknown-0000000000000000000000000000000', 'Invalid, expired or revoked token'],
    ['an expired token', () => `Bearer ${secrets.expired}`, 'Invalid, expired or revoked token'],
    ['a revoked token', () => `Bearer ${secrets.revoked}`, 'Invalid, expired or revoked token'],
  ];

  for (const route of routes) {
    for (const [why, header, message] of failures) {
      it(`${route.name} with ${why} → 401`, async () => {
        const res = await call(route, header());
        assert.equal(res.status, 401);
        assert.equal(res.headers['www-authenticate'], 'Bearer');
        if (route.request().method !== 'HEAD') assert.deepEqual(res.body, { error: 'Unauthorized', message });
      });
    }
    for (const role of ['viewer', 'editor', 'admin'] as const) {
      const allowed = role === 'admin' || (role === 'editor' && route.needs !== 'admin') || (role === 'viewer' && route.needs === 'read');
      it(`${route.name} as ${role} → ${allowed ? route.ok : 403}`, async () => {
        const res = await call(route, `Bearer ${secrets[role]}`);
        assert.equal(res.status, allowed ? route.ok : 403, JSON.stringify(res.body));
        if (!allowed && route.request().method !== 'HEAD') {
          const operation = route.name.endsWith('push') ? 'push test results' : OPERATION[route.needs];
          assert.deepEqual(res.body, { error: 'Forbidden', message: `urn:li:corpuser:${role}1 is unauthorized to ${operation}.` });
        }
      });
    }
  }

  it('revoking a token as admin answers 204, and 404 for an unknown id', async () => {
    const made = await t.call({ method: 'POST', url: '/openapi/v2/auth/tokens', headers: { authorization: `Bearer ${ADMIN_SECRET}` }, payload: { name: 'gone', role: 'viewer' } });
    const revoke = (id: string, secret: string) => t.call({ method: 'DELETE', url: `/openapi/v2/auth/tokens/${id}`, headers: { authorization: `Bearer ${secret}` } });
    assert.equal((await revoke(made.body.id, secrets.editor)).status, 403);
    assert.equal((await revoke(made.body.id, secrets.admin)).status, 204);
    const again = await revoke(made.body.id, secrets.admin);
    assert.equal(again.status, 404);
    assert.deepEqual(again.body, { error: 'Not Found', message: `No live token with id ${made.body.id}` });
  });

  for (const url of ['/health', '/config', '/openapi/v3/api-docs', '/openapi/swagger-ui/']) {
    it(`${url} needs no token`, async () => {
      assert.equal((await t.call({ method: 'GET', url })).status, 200);
    });
  }

  it('an unknown route needs a token too (it does not reveal what exists)', async () => {
    assert.equal((await t.call({ method: 'GET', url: '/nope' })).status, 401);
    assert.equal((await t.call({ method: 'GET', url: '/nope', headers: { authorization: `Bearer ${secrets.viewer}` } })).status, 404);
  });
});
