import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { CONSOLE_CSP } from '../../src/api/console.js';
import { testApp, type TestApp } from '../helpers.js';

describe('the console\'s files at /', () => {
  let t: TestApp;
  before(async () => (t = await testApp({ auth: true, adminToken: 'urnb_console-files-admin-0123456789abcdefghijk' })));
  after(() => t.app.close());

  it('serves the page without a token, under a Content-Security-Policy that allows no inline script or style', async () => {
    const res = await t.call({ method: 'GET', url: '/' });
    assert.equal(res.status, 200);
    assert.match(String(res.headers['content-type']), /^text\/html/);
    assert.equal(
      res.headers['content-security-policy'],
      "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
    );
    assert.equal(res.headers['x-content-type-options'], 'nosniff');
    assert.equal(res.headers['cache-control'], 'no-cache');
    assert.doesNotMatch(res.raw, /<script(?![^>]*\bsrc=)[^>]*>/, 'no inline script');
    assert.doesNotMatch(res.raw, /\sstyle=/, 'no inline style');
  });

  it('serves the hashed assets the page names, cached for good, and 404s an unknown one', async () => {
    const page = (await t.call({ method: 'GET', url: '/' })).raw;
    const assets = [...page.matchAll(/(?:src|href)="(\/assets\/[^"]+)"/g)].map((m) => m[1]);
    assert.ok(assets.some((a) => a.endsWith('.js')) && assets.some((a) => a.endsWith('.css')), `assets: ${assets.join(', ')}`);
    for (const asset of assets) {
      const res = await t.call({ method: 'GET', url: asset });
      assert.equal(res.status, 200, asset);
      assert.equal(res.headers['cache-control'], 'public, max-age=31536000, immutable');
    }
    assert.equal((await t.call({ method: 'GET', url: '/assets/nope.js' })).status, 404);
  });

  it('GraphiQL: /api/graphiql (DataHub\'s path) and /graphiql lead to /graphiql/, served without a token under the same CSP, its assets too', async () => {
    for (const url of ['/api/graphiql', '/graphiql', '/api/graphiql?x=1']) {
      const res = await t.call({ method: 'GET', url });
      assert.equal(res.status, 302, url);
      assert.equal(res.headers.location, '/graphiql/', url);
    }
    const res = await t.call({ method: 'GET', url: '/graphiql/' });
    assert.equal(res.status, 200);
    assert.equal(res.headers['content-security-policy'], CONSOLE_CSP);
    assert.equal(res.headers['cache-control'], 'no-cache');
    assert.doesNotMatch(res.raw, /<script(?![^>]*\bsrc=)[^>]*>/, 'no inline script');
    assert.doesNotMatch(res.raw, /\sstyle=|<style/, 'no inline style');
    const assets = [...res.raw.matchAll(/(?:src|href)="(\/assets\/[^"]+)"/g)].map((m) => m[1]);
    assert.ok(assets.some((a) => /\/graphiql-[^/]+\.js$/.test(a)) && assets.some((a) => /\/graphiql-[^/]+\.css$/.test(a)), `assets: ${assets.join(', ')}`);
    for (const asset of assets) assert.equal((await t.call({ method: 'GET', url: asset })).status, 200, asset);
    // Nothing else under the name is public.
    assert.equal((await t.call({ method: 'GET', url: '/graphiql/other' })).status, 401);
  });

  it('keeps every API route behind its token', async () => {
    assert.equal((await t.call({ method: 'GET', url: '/openapi/v2/auth/me' })).status, 401);
    assert.equal((await t.call({ method: 'GET', url: '/openapi/v2/entity/dataset' })).status, 401);
  });
});
