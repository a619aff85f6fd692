import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ADMIN, assertAccessible, BROWSER_SKIP, consoleFixture } from './harness.js';

describe('console: sign in', { skip: BROWSER_SKIP }, () => {
  const f = consoleFixture();

  it('a wrong token is refused with the server\'s message; the right one signs in, and the token is in no URL', async () => {
    const page = await (await f.context()).newPage();
    const urls: string[] = [];
    page.on('request', (request) => urls.push(request.url()));
    await page.goto(f.url());
    await page.waitForURL(/#\/sign-in/);
    await assertAccessible(page, 'sign-in');
    await page.getByLabel('Access token').fill('urnb_wrong-0000000000000000000000000000000000');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('alert').getByText('401: Invalid, expired or revoked token').waitFor();
    await page.getByLabel('Access token').fill(ADMIN);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(/#\/search/);
    await page.getByText('admin (admin)').waitFor();
    assert.ok(urls.every((url) => !url.includes(ADMIN)), 'the token never appears in a URL');
  });

  it('signing out returns to the sign-in page, and so does a token revoked while signed in', async () => {
    const made = await f.served.client.call('POST', '/openapi/v2/auth/tokens', { name: 'short-lived', role: 'viewer' });
    const { id, token } = made.body as { id: string; token: string };
    const page = await f.signedIn(token);
    await page.getByText('short-lived (viewer)').waitFor();
    assert.equal((await f.served.client.call('DELETE', `/openapi/v2/auth/tokens/${id}`)).status, 204);
    await page.goto(f.url('#/search?query=x'));
    await page.reload();
    await page.waitForURL(/#\/sign-in/);
    const admin = await f.signedIn();
    await admin.getByRole('button', { name: 'Sign out' }).click();
    await admin.waitForURL(/#\/sign-in/);
  });
});
