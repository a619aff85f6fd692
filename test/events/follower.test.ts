import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { datasetUrn, enc, testApp, V2, type TestApp } from '../helpers.js';
import { brief, defineTest, evaluate, write } from '../metatests/fixtures.js';

const ADMIN = 'urnb_follower-admin-secret-0123456789abcdefghij';
const admin = { authorization: `Bearer ${ADMIN}` };

/** Polls `check` until it holds or `ms` pass; returns how long it took. */
async function within(ms: number, check: () => Promise<boolean>): Promise<number> {
  const began = Date.now();
  while (!(await check())) {
    if (Date.now() - began > ms) throw new Error(`not within ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return Date.now() - began;
}

/**
 * Two processes on one store (here two apps on one SQLite data dir, as replicas share a
 * PostgreSQL database): what one caches follows changes made through the other within a second.
 */
describe('caches follow changes made by another process', () => {
  let dir: string;
  let one: TestApp;
  let two: TestApp;
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'urnbase-follow-'));
    const options = { dataDir: dir, followChanges: true, auth: true, adminToken: ADMIN };
    one = await testApp(options);
    two = await testApp(options);
  });
  after(async () => {
    await one.app.close();
    await two.app.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('a write through one is read through the other at once', async () => {
    const urn = datasetUrn('follow.write');
    const res = await one.call({ method: 'POST', url: `${V2}/dataset/${enc(urn)}/globalTags`, headers: admin, payload: { tags: [{ tag: 'urn:li:tag:a' }] } });
    assert.equal(res.status, 200);
    const read = await two.call({ method: 'GET', url: `${V2}/dataset/${enc(urn)}/globalTags`, headers: admin });
    assert.equal(read.status, 200);
    assert.deepEqual(read.body.value, { tags: [{ tag: 'urn:li:tag:a' }] });
  });

  it('a metadata test defined through one is evaluated by the other within a second', async () => {
    const urn = datasetUrn('follow.tested');
    const withAuth = (t: TestApp): TestApp => ({ ...t, call: (o) => t.call({ ...o, headers: { ...admin, ...(o.headers ?? {}) } }) });
    await write(withAuth(one), 'dataset', urn, 'datasetProperties', { name: 'tested' });
    // The other has loaded (and cached) the tests before this one exists.
    assert.deepEqual(brief((await evaluate(withAuth(two), { urn })).body.value), { passing: [], failing: [] });
    const test = await defineTest(withAuth(one), 'follow', { on: { types: ['dataset'] }, rules: { property: 'datasetProperties.name', operator: 'exists' } });
    const took = await within(1000, async () => brief((await evaluate(withAuth(two), { urn })).body.value).passing.includes(test));
    assert.ok(took <= 1000);
  });

  it('a token revoked through one is refused by the other within a second', async () => {
    const created = await one.call({ method: 'POST', url: '/openapi/v2/auth/tokens', headers: admin, payload: { name: 'follower', role: 'viewer' } });
    assert.equal(created.status, 201);
    const bearer = { authorization: `Bearer ${created.body.token}` };
    assert.equal((await two.call({ method: 'GET', url: `${V2}/dataset`, headers: bearer })).status, 200);
    assert.equal((await one.call({ method: 'DELETE', url: `/openapi/v2/auth/tokens/${created.body.id}`, headers: admin })).status, 204);
    await within(1000, async () => (await two.call({ method: 'GET', url: `${V2}/dataset`, headers: bearer })).status === 401);
  });
});
