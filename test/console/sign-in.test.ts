import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { before, describe, it } from 'node:test';
import { startServer } from '../server-process.js';
import { ADMIN, assertAccessible, BROWSER_SKIP, consoleFixture } from './harness.js';

const CLICKS = 'urn:li:dataset:(urn:li:dataPlatform:hive,web.clicks,PROD)';
const EXPIRED = 'Your token was revoked or has expired — sign in again.';

describe('console: sign in', { skip: BROWSER_SKIP }, () => {
  const f = consoleFixture();
  before(async () => {
    const written = await f.served.client.call('POST', '/openapi/v2/entity/dataset?async=false', [
      { urn: CLICKS, aspects: { datasetProperties: { value: { name: 'clicks' } }, globalTags: { value: { tags: [{ tag: 'urn:li:tag:pii' }] } } } },
    ]);
    assert.ok(written.status < 300, JSON.stringify(written.body));
  });

  /** A viewer's token, made for one test. */
  async function viewer(name: string): Promise<{ id: string; token: string }> {
    const made = await f.served.client.call('POST', '/openapi/v2/auth/tokens', { name, role: 'viewer' });
    return made.body as { id: string; token: string };
  }

  it('a wrong token is refused with the server\'s message; the right one signs in, and the token is in no URL', async () => {
    const page = await (await f.context()).newPage();
    const urls: string[] = [];
    page.on('request', (request) => urls.push(request.url()));
    await page.goto(f.url());
    await page.waitForURL(/#\/sign-in/);
    // This server's admin token is the operator's, from the environment.
    await page.getByText('The admin token is the value of URNBASE_ADMIN_TOKEN the server was started with; an admin creates others under Tokens. The token stays in this tab only.', { exact: true }).waitFor();
    await assertAccessible(page, 'sign-in');
    await page.getByLabel('Access token').fill('urnb_wrong-0000000000000000000000000000000000');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('alert').getByText('The server does not accept this token: it is mistyped, expired or revoked. Check it, or ask an admin for a new one.', { exact: true }).waitFor();
    await page.getByLabel('Access token').fill(ADMIN);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(/#\/search/);
    await page.getByText('admin (admin)').waitFor();
    assert.ok(urls.every((url) => !url.includes(ADMIN)), 'the token never appears in a URL');
  });

  it('the hint names the admin.token the server wrote, wherever its data dir is', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'urnbase-sign-in-'));
    const dataDir = join(dir, 'catalogs', 'team one');
    // No URNBASE_ADMIN_TOKEN: the first start writes the admin token to the data dir.
    const server = await startServer({ args: ['--data-dir', dataDir, '--log-level', 'warn'], env: { URNBASE_ADMIN_TOKEN: '' } });
    try {
      const file = resolve(dataDir, 'admin.token');
      const answer = await fetch(`${server.base}/openapi/v2/auth/sign-in-hint`);
      assert.equal(answer.status, 200);
      assert.deepEqual(await answer.json(), { adminToken: 'file', file });
      const page = await (await f.context({ width: 375, height: 800 })).newPage();
      await page.goto(`${server.base}/`);
      await page.waitForURL(/#\/sign-in/);
      const hint = page.locator('form p.muted');
      await hint.getByText(file, { exact: true }).waitFor();
      assert.equal(await hint.innerText(), `The first admin token is in ${file}; an admin creates others under Tokens. The token stays in this tab only.`);
      assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= 375), 'a long path wraps at 375 px');
      await assertAccessible(page, 'sign-in with the path of admin.token');
      await page.getByLabel('Access token').fill(readFileSync(file, 'utf8').trim());
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.getByText('admin (admin)').waitFor();
      // A new catalog holds only its own entities: the empty search says where they are.
      await page.locator('section.search-results[aria-busy="false"]').getByRole('status').getByText('0 results', { exact: true }).waitFor();
      await page.getByText('The catalog holds only its own entities so far (data platforms, data types, entity types): check Show system entities to see them, or write some metadata.', { exact: true }).waitFor();
      // The file gone (the operator keeps the token elsewhere): the hint says to ask for one.
      rmSync(file);
      assert.deepEqual(await (await fetch(`${server.base}/openapi/v2/auth/sign-in-hint`)).json(), { adminToken: 'none' });
    } finally {
      await server.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a token revoked while searching: sign-in says why, and returns to the same search afterwards', async () => {
    const { id, token } = await viewer('revoked-searching');
    const page = await f.signedIn(token);
    const search = '#/search?query=clicks&tags=urn%3Ali%3Atag%3Apii';
    await page.goto(f.url(search));
    await page.locator('section.search-results[aria-busy="false"]').getByRole('status').waitFor();
    // The facets too: counted later, they would otherwise meet the revocation first.
    await page.locator('aside.search-filters[aria-busy="false"]').getByRole('button', { name: 'pii (1)' }).waitFor();
    assert.equal((await f.served.client.call('DELETE', `/openapi/v2/auth/tokens/${id}`)).status, 204);
    // The next request is refused: the page goes to sign-in, with the reason and the way back.
    await page.getByLabel('Search the catalog').fill('clicks web');
    await page.getByRole('alert').getByText(EXPIRED, { exact: true }).waitFor();
    const signIn = new URL(page.url()).hash;
    assert.equal(new URLSearchParams(signIn.split('?')[1]).get('reason'), 'expired');
    const next = new URLSearchParams(signIn.split('?')[1]).get('next') ?? '';
    assert.equal(next.split('?')[0], '/search');
    assert.deepEqual([...new URLSearchParams(next.split('?')[1])].sort(), [['query', 'clicks web'], ['tags', 'urn:li:tag:pii']]);
    await assertAccessible(page, 'sign-in after a revoked token');
    await page.getByLabel('Access token').fill(ADMIN);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(/#\/search\?.*query=clicks/);
    assert.equal(await page.getByLabel('Search the catalog').inputValue(), 'clicks web');
    assert.equal(await page.getByRole('alert').getByText(EXPIRED).count(), 0);
  });

  it("a token revoked on an entity's page: sign-in returns to that entity, its URN whole, and the tab's other storage stays", async () => {
    const { id, token } = await viewer('revoked-reading');
    const page = await f.signedIn(token);
    const entity = `#/entity?${new URLSearchParams({ urn: CLICKS })}`;
    await page.goto(f.url(entity));
    await page.getByRole('heading', { name: 'clicks', level: 1 }).waitFor();
    // What another page keeps in the tab (an unsaved draft) outlives the session.
    await page.evaluate(() => sessionStorage.setItem('urnbase.draft.test', 'kept'));
    // Every request of the page answered: the reload below is what meets the revocation.
    await page.waitForLoadState('networkidle');
    assert.equal((await f.served.client.call('DELETE', `/openapi/v2/auth/tokens/${id}`)).status, 204);
    await page.reload();
    await page.getByRole('alert').getByText(EXPIRED, { exact: true }).waitFor();
    assert.equal(new URLSearchParams(new URL(page.url()).hash.split('?')[1]).get('next'), entity.slice(1));
    assert.equal(await page.evaluate(() => sessionStorage.getItem('urnbase.draft.test')), 'kept');
    assert.equal(await page.evaluate(() => sessionStorage.getItem('urnbase.session')), null, 'the session is gone');
    await page.getByLabel('Access token').fill(ADMIN);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'clicks', level: 1 }).waitFor();
    assert.equal(new URL(page.url()).hash, entity);
  });

  it('signing out returns to the sign-in page without a reason', async () => {
    const admin = await f.signedIn();
    await admin.getByRole('button', { name: 'Sign out' }).click();
    await admin.waitForURL(/#\/sign-in/);
    await admin.getByLabel('Access token').waitFor();
    assert.equal(await admin.getByText(EXPIRED).count(), 0);
  });
});
