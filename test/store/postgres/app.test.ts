import assert from 'node:assert/strict';
import net from 'node:net';
import { after, before, describe, it } from 'node:test';
import { datasetUrn, enc, testApp, V2, type TestApp } from '../../helpers.js';
import { createTestDatabase, postgresAvailable, PG_SKIP_MESSAGE, type TestDatabase } from '../../pg.js';

const skip = (await postgresAvailable()) ? undefined : PG_SKIP_MESSAGE;
if (skip) console.log(`# ${skip}`);

describe('PostgreSQL: two replicas on one database', { skip }, () => {
  let database: TestDatabase;
  const apps: TestApp[] = [];
  before(async () => {
    database = await createTestDatabase();
    // Two apps, two pools: like two replicas, their in-process locks do not see each other.
    for (let i = 0; i < 2; i++) apps.push(await testApp({ databaseUrl: database.url, dbPool: 5 }));
  });
  after(async () => {
    for (const t of apps) await t.app.close();
    await database.drop();
  });

  it('loses no update when 50 concurrent JSON PATCHes add tags to one dataset through both', async () => {
    const urn = datasetUrn('replicas.race');
    const tags = Array.from({ length: 50 }, (_, i) => `urn:li:tag:replica${i}`);
    const responses = await Promise.all(
      tags.map((tag, i) =>
        apps[i % 2].call({
          method: 'PATCH',
          url: `${V2}/dataset/${enc(urn)}/globalTags`,
          headers: { 'content-type': 'application/json-patch+json' },
          payload: JSON.stringify({ patch: [{ op: 'add', path: `/tags/${tag}`, value: { tag } }], arrayPrimaryKeys: { tags: ['tag'] } }),
        }),
      ),
    );
    assert.deepEqual(responses.map((r) => r.status), tags.map(() => 200));
    for (const t of apps) {
      const read = await t.call({ method: 'GET', url: `${V2}/dataset/${enc(urn)}/globalTags` });
      assert.equal(read.status, 200);
      assert.deepEqual(read.body.value.tags.map((x: { tag: string }) => x.tag).sort(), [...tags].sort());
    }
    // Versions strictly increase in commit (change-log) order: 1, 2, …, 50.
    const events = (await apps[0].services.store.readEvents(0, 1000)).filter((e) => e.urn === urn && e.aspect === 'globalTags');
    assert.deepEqual(events.map((e) => e.systemMetadata?.version), tags.map((_, i) => String(i + 1)));
  });

  it('applies a batch all-or-nothing: one invalid aspect writes nothing, on either replica', async () => {
    const urn = datasetUrn('replicas.batch');
    const res = await apps[0].call({
      method: 'POST',
      url: `${V2}/dataset`,
      payload: [{ urn, status: { value: { removed: false } }, globalTags: { value: { tags: 'not a list' } } }],
    });
    assert.equal(res.status, 400);
    for (const t of apps) assert.equal((await t.call({ method: 'GET', url: `${V2}/dataset/${enc(urn)}/status` })).status, 404);
  });
});

/** A TCP proxy to PostgreSQL that a test can cut (refusing and dropping connections) and restore. */
class CuttableProxy {
  private server?: net.Server;
  private readonly sockets = new Set<net.Socket>();
  port = 0;

  /** Forwards connections; `stalled`: accepts them and never answers (a database that hangs). */
  async start(stalled = false): Promise<void> {
    this.server = net.createServer((client) => {
      if (stalled) {
        this.sockets.add(client);
        client.on('error', () => {});
        client.on('close', () => this.sockets.delete(client));
        return;
      }
      const upstream = net.connect(5432, '127.0.0.1');
      for (const s of [client, upstream]) {
        this.sockets.add(s);
        s.on('error', () => {});
        s.on('close', () => this.sockets.delete(s));
      }
      client.pipe(upstream).pipe(client);
    });
    await new Promise<void>((resolve) => this.server!.listen(this.port, '127.0.0.1', resolve));
    this.port = (this.server.address() as net.AddressInfo).port;
  }

  async cut(): Promise<void> {
    const closed = new Promise<void>((resolve) => this.server!.close(() => resolve()));
    for (const s of this.sockets) s.destroy();
    await closed;
  }
}

describe('PostgreSQL: a lost connection', { skip }, () => {
  let database: TestDatabase;
  const proxy = new CuttableProxy();
  let t: TestApp;
  before(async () => {
    database = await createTestDatabase();
    await proxy.start();
    const url = new URL(database.url);
    url.host = `127.0.0.1:${proxy.port}`;
    t = await testApp({ databaseUrl: url.toString(), dbTimeout: 2000, dbPool: 3 });
  });
  after(async () => {
    await t.app.close();
    await proxy.cut().catch(() => {});
    await database.drop();
  });

  it('answers 503 with Retry-After within the timeout while the database is away, and recovers by itself', async () => {
    const urn = datasetUrn('lost.connection');
    const url = `${V2}/dataset/${enc(urn)}/status`;
    assert.equal((await t.call({ method: 'POST', url, payload: { removed: false } })).status, 200);
    await proxy.cut();
    for (const request of [{ method: 'GET' as const, url }, { method: 'POST' as const, url, payload: { removed: true } }]) {
      const started = Date.now();
      const res = await t.call(request);
      assert.equal(res.status, 503);
      assert.equal(res.headers['retry-after'], '2');
      assert.equal(res.body.error, 'Service Unavailable');
      assert.match(res.body.message, /^The database is unavailable: /);
      assert.ok(Date.now() - started < 2000 + 1000, `answered in ${Date.now() - started} ms`);
    }
    await proxy.start();
    const back = await t.call({ method: 'GET', url });
    assert.equal(back.status, 200);
    assert.deepEqual(back.body.value, { removed: false });
  });

  it('answers 503 after the timeout when the database accepts connections but never answers', async () => {
    const url = `${V2}/dataset/${enc(datasetUrn('lost.connection'))}/status`;
    await proxy.cut();
    await proxy.start(true);
    // Let the pool notice that its idle connections were dropped, so the request needs a new one.
    await new Promise((r) => setTimeout(r, 300));
    const started = Date.now();
    const res = await t.call({ method: 'GET', url });
    const took = Date.now() - started;
    assert.equal(res.status, 503);
    assert.equal(res.headers['retry-after'], '2');
    assert.ok(took >= 1500 && took < 2000 + 1500, `answered in ${took} ms`);
    await proxy.cut();
    await proxy.start();
    assert.equal((await t.call({ method: 'GET', url })).status, 200);
  });
});
