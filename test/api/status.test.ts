import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { testApp, type TestApp } from '../helpers.js';

describe('server status, API document and unknown routes', () => {
  let t: TestApp;
  before(async () => (t = await testApp()));
  after(() => t.app.close());

  it('GET /health answers 200 {"status":"ok"}', async () => {
    const res = await t.call({ method: 'GET', url: '/health' });
    assert.equal(res.status, 200);
    assert.deepEqual(res.body, { status: 'ok' });
  });

  it('GET /config answers the fields DataHub\'s clients check, as a self-hosted DataHub 1.0.1', async () => {
    const res = await t.call({ method: 'GET', url: '/config', headers: { host: 'catalog.example:8080' } });
    assert.equal(res.status, 200);
    assert.deepEqual(res.body, {
      versions: { urnbase: { version: '0.1.0' }, 'acryldata/datahub': { version: 'v1.0.1', commit: 'urnbase-0.1.0' } },
      noCode: 'true',
      patchCapable: true,
      statefulIngestionCapable: true,
      supportsImpactAnalysis: false,
      retention: 'true',
      timeZone: 'GMT',
      baseUrl: 'http://catalog.example:8080',
      telemetry: { enabledCli: false, enabledIngestion: false },
      managedIngestion: { enabled: false },
      datahub: { serverType: 'urnbase', serverEnv: 'core' },
      datasetUrnNameCasing: false,
      models: {},
    });
  });

  it('GET /config turns on what urnbase serves in DataHub\'s clients, and nothing else', async () => {
    const { body } = await t.call({ method: 'GET', url: '/config' });
    // As the Python SDK (server_config_util.py) and the Java v2 client (ServerConfig) decide.
    const [major, minor, patch] = /^v?(\d+)\.(\d+)\.(\d+)/.exec(body.versions['acryldata/datahub'].version)!.slice(1).map(Number);
    const atLeast = (a: number, b: number, c: number) => major * 1e6 + minor * 1e3 + patch >= a * 1e6 + b * 1e3 + c;
    const cloud = Boolean(body.datahub.serverEnv) && body.datahub.serverEnv !== 'core';
    assert.equal(cloud, false, 'a self-hosted (core) server for both clients');
    assert.equal(atLeast(1, 0, 1), true, 'OPEN_API_SDK: the SDK emits through /openapi/v3/entity');
    assert.equal(atLeast(1, 0, 2), false, 'no later release is claimed');
    assert.equal(body.noCode === 'true', true, 'the emitters accept the server as GMS');
    assert.equal(body.statefulIngestionCapable === true, true, 'ingestion checkpoints are kept (datahubIngestionCheckpoint)');
    assert.equal(body.telemetry.enabledCli, false, 'clients do not report usage to a third party');
  });

  it('serves an OpenAPI 3 document listing every entity route', async () => {
    const res = await t.call({ method: 'GET', url: '/openapi/v3/api-docs' });
    assert.equal(res.status, 200);
    assert.match(res.body.openapi, /^3\./);
    const paths = res.body.paths as Record<string, Record<string, unknown>>;
    assert.deepEqual(Object.keys(paths['/openapi/v2/entity/{type}']).sort(), ['get', 'post']);
    assert.deepEqual(Object.keys(paths['/openapi/v2/entity/{type}/{urn}']).sort(), ['delete', 'get', 'head']);
    assert.deepEqual(Object.keys(paths['/openapi/v2/entity/{type}/{urn}/{aspect}']).sort(), ['delete', 'get', 'head', 'patch', 'post']);
    assert.ok(paths['/health'] && paths['/config']);
  });

  it('serves Swagger UI with its assets from the package (offline)', async () => {
    const page = await t.call({ method: 'GET', url: '/openapi/swagger-ui/' });
    assert.equal(page.status, 200);
    assert.match(page.raw, /<html/i);
    const asset = await t.call({ method: 'GET', url: '/openapi/swagger-ui/static/swagger-ui-bundle.js' });
    assert.equal(asset.status, 200);
    assert.ok(asset.raw.length > 100_000);
    const init = await t.call({ method: 'GET', url: '/openapi/swagger-ui/static/swagger-initializer.js' });
    assert.match(init.raw, /\/openapi\/v3\/api-docs/);
  });

  it('answers an unknown route with 404 JSON naming it', async () => {
    const res = await t.call({ method: 'GET', url: '/nope?x=1' });
    assert.equal(res.status, 404);
    assert.deepEqual(res.body, { error: 'No endpoint GET /nope?x=1.' });
  });

  it('answers an unsupported method on a known path with 404 JSON', async () => {
    const res = await t.call({ method: 'PUT', url: '/openapi/v2/entity/dataset' });
    assert.equal(res.status, 404);
    assert.deepEqual(res.body, { error: 'No endpoint PUT /openapi/v2/entity/dataset.' });
  });
});

describe('real faults', () => {
  it('answer 500 with a generic body and the request id, never the internal message', async () => {
    const { buildApp } = await import('../../src/app.js');
    const { SqliteStore } = await import('../../src/store/sqlite/store.js');
    const store = new SqliteStore(':memory:');
    const { app } = await buildApp({ dataDir: ':memory:', logLevel: 'silent', bodyLimit: 1024, store });
    store.getLatest = async () => {
      throw new Error('disk on fire at /secret/path');
    };
    const res = await app.inject({ method: 'GET', url: `/openapi/v2/entity/tag/${encodeURIComponent('urn:li:tag:x')}` });
    assert.equal(res.statusCode, 500);
    const body = JSON.parse(res.body);
    assert.deepEqual(Object.keys(body).sort(), ['error', 'requestId']);
    assert.equal(body.error, 'Internal server error occurred');
    assert.match(body.requestId, /^req-/);
    assert.doesNotMatch(res.body, /secret/);
    const health = await app.inject({ method: 'GET', url: '/health' });
    assert.equal(health.statusCode, 200, 'the server keeps answering');
    await app.close();
  });
});
