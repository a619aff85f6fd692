import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { tokenCommand } from '../../src/cli/token.js';
import { datasetUrn, enc, testApp, V2, type TestApp } from '../helpers.js';

const ADMIN = 'urnb_tokens-admin-secret-0123456789abcdefghijk';
const admin = { authorization: `Bearer ${ADMIN}` };

describe('the token API', () => {
  let t: TestApp;
  before(async () => (t = await testApp({ auth: true, adminToken: ADMIN })));
  after(() => t.app.close());

  it('creates a token with 256 bits of secret, shown once, and lists tokens without secrets', async () => {
    const res = await t.call({ method: 'POST', url: '/openapi/v2/auth/tokens', headers: admin, payload: { name: 'ci', role: 'editor', expiresInDays: 90 } });
    assert.equal(res.status, 201);
    assert.deepEqual(Object.keys(res.body).sort(), ['actorUrn', 'expiresAt', 'id', 'name', 'role', 'token']);
    assert.equal(res.body.actorUrn, 'urn:li:corpuser:ci');
    assert.equal(res.body.role, 'editor');
    assert.match(res.body.token, /^urnb_[A-Za-z0-9_-]{43}$/);
    const days = (Date.parse(res.body.expiresAt) - Date.now()) / 86_400_000;
    assert.ok(days > 89.9 && days <= 90);
    const list = await t.call({ method: 'GET', url: '/openapi/v2/auth/tokens', headers: admin });
    const listed = list.body.find((x: { id: string }) => x.id === res.body.id);
    assert.deepEqual(Object.keys(listed).sort(), ['actorUrn', 'createdAt', 'createdBy', 'expiresAt', 'id', 'lastUsedAt', 'name', 'revokedAt', 'role']);
    assert.equal(listed.createdBy, 'urn:li:corpuser:admin');
    assert.doesNotMatch(list.raw, new RegExp(res.body.token));
  });

  const invalid: Array<[unknown, string]> = [
    [{ role: 'viewer' }, 'name must be 1 to 100 letters, digits, ".", "_", "@" or "-"'],
    [{ name: 'has space', role: 'viewer' }, 'name must be 1 to 100 letters, digits, ".", "_", "@" or "-"'],
    [{ name: 'x', role: 'owner' }, 'role must be one of admin, editor, viewer'],
    [{ name: 'x', role: 'viewer', expiresInDays: 0 }, 'expiresInDays must be a whole number of days from 1 to 3650'],
    [{ name: 'x', role: 'viewer', expiresInDays: 1.5 }, 'expiresInDays must be a whole number of days from 1 to 3650'],
  ];
  for (const [payload, message] of invalid) {
    it(`rejects ${JSON.stringify(payload)} with 400`, async () => {
      const res = await t.call({ method: 'POST', url: '/openapi/v2/auth/tokens', headers: admin, payload: payload as object });
      assert.equal(res.status, 400);
      assert.deepEqual(res.body, { error: 'Validation Error', message });
    });
  }

  it('records the acting token on writes: system metadata, change log and test results', async () => {
    const made = await t.call({ method: 'POST', url: '/openapi/v2/auth/tokens', headers: admin, payload: { name: 'writer', role: 'editor' } });
    const writer = { authorization: `Bearer ${made.body.token}` };
    const urn = datasetUrn('auth.actor');
    await t.call({ method: 'POST', url: `${V2}/dataset/${enc(urn)}/status`, headers: writer, payload: { removed: false } });
    const read = await t.call({ method: 'GET', url: `${V2}/dataset/${enc(urn)}/status?systemMetadata=true`, headers: writer });
    assert.equal(read.body.systemMetadata.aspectModified.actor, 'urn:li:corpuser:writer');
    const [row] = await t.services.store.getLatest(urn, ['status']);
    assert.equal(row.systemMetadata.aspectCreated.actor, 'urn:li:corpuser:writer');
    await t.call({
      method: 'POST',
      url: `${V2}/test/${enc('urn:li:test:any')}/testInfo`,
      headers: admin,
      payload: { name: 'any', category: 'x', definition: { type: 'JSON', json: JSON.stringify({ on: { types: ['dataset'] }, rules: [] }) } },
    });
    const evaluated = await t.call({ method: 'POST', url: '/gms/test?action=evaluate', headers: writer, payload: { urn, push: true } });
    assert.equal(evaluated.body.value.passing[0].lastComputed.actor, 'urn:li:corpuser:writer');
  });

  it('revocation takes effect at once, even for a token just used', async () => {
    const made = await t.call({ method: 'POST', url: '/openapi/v2/auth/tokens', headers: admin, payload: { name: 'short', role: 'viewer' } });
    const bearer = { authorization: `Bearer ${made.body.token}` };
    assert.equal((await t.call({ method: 'GET', url: `${V2}/dataset`, headers: bearer })).status, 200);
    await t.call({ method: 'DELETE', url: `/openapi/v2/auth/tokens/${made.body.id}`, headers: admin });
    assert.equal((await t.call({ method: 'GET', url: `${V2}/dataset`, headers: bearer })).status, 401);
  });
});

describe('repeated failed authentication', () => {
  it('is slowed down with 429 and Retry-After, while valid tokens from the same address still work', async () => {
    const t = await testApp({ auth: true, adminToken: ADMIN, authFailureLimit: 5 });
    const bad = { authorization: 'Bearer urnb_wrong-0000000000000000000000000000000000' };
    for (let i = 0; i < 5; i++) assert.equal((await t.call({ method: 'GET', url: `${V2}/dataset`, headers: bad })).status, 401);
    const limited = await t.call({ method: 'GET', url: `${V2}/dataset`, headers: bad });
    assert.equal(limited.status, 429);
    assert.deepEqual(limited.body, { error: 'Too Many Requests', message: 'Too many failed authentication attempts from this address; retry later' });
    assert.ok(Number(limited.headers['retry-after']) >= 1);
    assert.equal((await t.call({ method: 'GET', url: `${V2}/dataset`, headers: admin })).status, 200);
    await t.app.close();
  });
});

describe('bootstrap, CLI and logs', () => {
  const dir = mkdtempSync(join(tmpdir(), 'urnbase-auth-'));
  after(() => rmSync(dir, { recursive: true, force: true }));
  const MAIN = fileURLToPath(new URL('../../src/main.js', import.meta.url));

  it('the first start writes an admin token to <data-dir>/admin.token (0600), logs the path but never a token', async () => {
    const port = 20000 + Math.floor(Math.random() * 20000);
    const env: NodeJS.ProcessEnv = { ...process.env, URNBASE_PORT: String(port), URNBASE_DATA_DIR: dir, URNBASE_LOG_LEVEL: 'info' };
    delete env.URNBASE_ADMIN_TOKEN;
    const child = spawn(process.execPath, [MAIN, 'serve'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let logs = '';
    child.stdout.on('data', (d) => (logs += d));
    child.stderr.on('data', (d) => (logs += d));
    const base = `http://127.0.0.1:${port}`;
    for (let i = 0; i < 100 && !(await fetch(`${base}/health`).then((r) => r.ok, () => false)); i++) await new Promise((r) => setTimeout(r, 100));
    const file = join(dir, 'admin.token');
    assert.equal(statSync(file).mode & 0o777, 0o600);
    assert.equal(statSync(dir).mode & 0o777, 0o700);
    const token = readFileSync(file, 'utf8').trim();
    const headers = { authorization: `Bearer ${token}` };
    assert.equal((await fetch(`${base}/openapi/v2/entity/dataset`, { headers })).status, 200);
    assert.equal((await fetch(`${base}/openapi/v2/entity/dataset`, { headers: { authorization: 'Bearer urnb_wrong-secret-0000000000000000000000000' } })).status, 401);
    await new Promise<void>((resolve) => {
      child.once('exit', () => resolve());
      child.kill('SIGTERM');
    });
    assert.match(logs, /created the first admin token; read it from this file/);
    assert.ok(logs.includes(file), 'the log names the file');
    assert.ok(!logs.includes(token), 'the token never appears in the log');
    assert.ok(!logs.includes('urnb_wrong-secret'), 'nor do rejected tokens');
    assert.ok(!/authorization/i.test(logs), 'nor Authorization headers');
  });

  it('urnbase token create / list / revoke work on the data dir', async () => {
    const lines: string[] = [];
    const out = (line: string) => lines.push(line);
    assert.equal(await tokenCommand(['create', '--name', 'ci', '--role', 'editor', '--expires', '90d', '--data-dir', dir], out), 0);
    const id = lines.find((l) => l.startsWith('id '))!.slice(8);
    const token = lines.find((l) => l.startsWith('token '))!.slice(8);
    assert.match(token, /^urnb_/);
    assert.equal(lines.at(-1), '(the token is shown only now: store it safely)');
    lines.length = 0;
    assert.equal(await tokenCommand(['list', '--data-dir', dir], out), 0);
    assert.ok(lines.some((l) => l.startsWith(`${id}  ci  editor  active  never used`)));
    assert.ok(lines.every((l) => !l.includes(token)));
    lines.length = 0;
    assert.equal(await tokenCommand(['revoke', id, '--data-dir', dir], out), 0);
    assert.deepEqual(lines, [`revoked ${id}`]);
    const db = new Database(join(dir, 'urnbase.db'), { readonly: true });
    const row = db.prepare('SELECT hash, revoked_at FROM tokens WHERE id = ?').get(id) as { hash: string; revoked_at: number };
    db.close();
    assert.match(row.hash, /^[0-9a-f]{64}$/, 'only the hash is stored');
    assert.ok(row.revoked_at > 0);
  });
});

describe('revocation made elsewhere', () => {
  it('reaches a running process within seconds (the CLI revokes on the data dir)', async () => {
    const t = await testApp({ auth: true, adminToken: ADMIN });
    const made = await t.call({ method: 'POST', url: '/openapi/v2/auth/tokens', headers: admin, payload: { name: 'elsewhere', role: 'viewer' } });
    const bearer = { authorization: `Bearer ${made.body.token}` };
    assert.equal((await t.call({ method: 'GET', url: `${V2}/dataset`, headers: bearer })).status, 200);
    // As another process would: straight in the store, bypassing this process's token cache.
    await t.services.store.revokeToken(made.body.id, Date.now());
    let status = 200;
    for (let i = 0; i < 80 && status === 200; i++) {
      await new Promise((r) => setTimeout(r, 100));
      status = (await t.call({ method: 'GET', url: `${V2}/dataset`, headers: bearer })).status;
    }
    assert.equal(status, 401);
    await t.app.close();
  });
});
