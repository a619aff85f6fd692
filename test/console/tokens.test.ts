import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Client } from '../reliability/client.js';
import { assertAccessible, BROWSER_SKIP, consoleFixture } from './harness.js';

describe('console: tokens', { skip: BROWSER_SKIP }, () => {
  const f = consoleFixture();
  const as = (token: string) => new Client(f.served.server.base, token);

  it('creates a token: its secret is shown once, with a warning and a copy button, and works against the API', async () => {
    const page = await f.signedIn();
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: f.served.server.base });
    await page.getByRole('link', { name: 'Tokens' }).click();
    await page.getByRole('heading', { name: 'Tokens', level: 1 }).waitFor();
    await assertAccessible(page, 'tokens: the page');

    await page.getByLabel('Name').fill('ci-bot');
    await page.getByLabel('Role').selectOption('editor');
    await page.getByLabel('Expires in days').fill('30');
    await page.getByRole('button', { name: 'Create token' }).click();
    await page.getByRole('heading', { name: 'Token ci-bot created' }).waitFor();
    await page.getByText('Copy the secret now: it will not be shown again.').waitFor();
    const secret = await page.getByLabel('Secret of ci-bot').inputValue();
    assert.match(secret, /^urnb_[A-Za-z0-9_-]{43}$/);
    await assertAccessible(page, 'tokens: the secret shown');

    // The secret is the token: the API knows who it is.
    const me = await as(secret).call('GET', '/openapi/v2/auth/me');
    assert.equal(me.status, 200);
    assert.deepEqual(me.body, { actor: 'urn:li:corpuser:ci-bot', role: 'editor' });

    await page.getByRole('button', { name: 'Copy' }).click();
    await page.getByRole('status').getByText('Copied to the clipboard.').waitFor();
    assert.equal(await page.evaluate(() => navigator.clipboard.readText()), secret);

    // Listed, as the server lists it.
    const listed = (await f.served.client.call('GET', '/openapi/v2/auth/tokens')).body.find((t: { name: string }) => t.name === 'ci-bot');
    assert.equal(listed.role, 'editor');
    assert.ok(listed.expiresAt && Date.parse(listed.expiresAt) - Date.now() > 29 * 86_400_000);
    const row = page.getByRole('row').filter({ has: page.getByRole('rowheader', { name: 'ci-bot', exact: true }) });
    const cells = await row.getByRole('cell').allInnerTexts();
    assert.deepEqual(cells.slice(0, 2), ['editor', 'urn:li:corpuser:ci-bot']);
    assert.match(cells[2]!, /^\d{4}-\d\d-\d\d \d\d:\d\d$/, 'created');
    assert.match(cells[3]!, /^\d{4}-\d\d-\d\d \d\d:\d\d$/, 'expires');
    assert.equal(cells[4], 'never', 'last used: the list was read before the API call');
    assert.equal(cells[5], 'no', 'revoked');

    // Done: the secret is gone, and a reload shows it nowhere.
    await page.getByRole('button', { name: 'Done' }).click();
    await page.getByRole('heading', { name: 'Token ci-bot created' }).waitFor({ state: 'detached' });
    await page.reload();
    await page.getByRole('rowheader', { name: 'ci-bot', exact: true }).waitFor();
    assert.ok(!(await page.content()).includes(secret), 'the secret is not shown again');
    assert.ok(!(await page.evaluate(() => JSON.stringify(sessionStorage) + JSON.stringify(localStorage))).includes(secret), 'nor kept');
    // Used since: the list says so.
    assert.match(await row.getByRole('cell').nth(4).innerText(), /^\d{4}-\d\d-\d\d \d\d:\d\d$/);
  });

  it('revokes a token after a confirmation; the API refuses it from then on', async () => {
    const made = (await f.served.client.call('POST', '/openapi/v2/auth/tokens', { name: 'to-revoke', role: 'viewer' })).body as { token: string };
    assert.equal((await as(made.token).call('GET', '/openapi/v2/auth/me')).status, 200);
    const page = await f.signedIn();
    await page.goto(f.url('#/tokens'));
    const row = page.getByRole('row').filter({ has: page.getByRole('rowheader', { name: 'to-revoke', exact: true }) });
    await row.getByRole('button', { name: 'Revoke to-revoke' }).click();
    await row.getByText('Revoke to-revoke? Clients using it are refused at once.').waitFor();
    assert.ok(await row.getByRole('button', { name: 'Cancel' }).evaluate((el) => el === document.activeElement), 'focus moves to Cancel');
    await assertAccessible(page, 'tokens: confirming a revocation');
    // Cancel keeps it.
    await row.getByRole('button', { name: 'Cancel' }).click();
    await row.getByRole('button', { name: 'Revoke to-revoke' }).click();
    assert.equal((await as(made.token).call('GET', '/openapi/v2/auth/me')).status, 200, 'not revoked before the confirmation');
    await row.getByRole('button', { name: 'Yes, revoke to-revoke' }).click();
    await row.getByRole('cell').nth(5).getByText(/^\d{4}-\d\d-\d\d \d\d:\d\d$/).waitFor();
    assert.equal(await row.getByRole('button', { name: 'Revoke to-revoke' }).count(), 0);

    const refused = await as(made.token).call('GET', '/openapi/v2/entity/tag');
    assert.equal(refused.status, 401);
    assert.equal(refused.body.message, 'Invalid, expired or revoked token');
    const listed = (await f.served.client.call('GET', '/openapi/v2/auth/tokens')).body.find((t: { name: string }) => t.name === 'to-revoke');
    assert.ok(listed.revokedAt);
  });

  it('shows the server\'s message when a token is refused', async () => {
    const page = await f.signedIn();
    await page.goto(f.url('#/tokens'));
    await page.getByLabel('Name').fill('has spaces');
    await page.getByRole('button', { name: 'Create token' }).click();
    await page.getByRole('alert').getByText('400: name must be 1 to 100 letters, digits, ".", "_", "@" or "-"', { exact: true }).waitFor();
    assert.equal(await page.getByLabel(/Secret of/).count(), 0);
    await assertAccessible(page, 'tokens: a refusal');
  });

  it('an editor or a viewer does not get the page', async () => {
    for (const role of ['editor', 'viewer']) {
      const token = (await f.served.client.call('POST', '/openapi/v2/auth/tokens', { name: `no-tokens-${role}`, role })).body.token as string;
      const page = await f.signedIn(token);
      await page.getByText(`no-tokens-${role} (${role})`).waitFor();
      assert.equal(await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Tokens' }).count(), 0, `${role}: no Tokens link`);
      await page.goto(f.url('#/tokens'));
      await page.getByRole('heading', { name: 'Not found', level: 1 }).waitFor();
      assert.equal(await page.getByLabel('Name').count(), 0, `${role}: no form`);
    }
  });

  it('fits a 375-px-wide window', async () => {
    const page = await f.signedIn(undefined, { width: 375, height: 800 });
    await page.goto(f.url('#/tokens'));
    await page.getByLabel('Name').fill('narrow');
    await page.getByRole('button', { name: 'Create token' }).click();
    await page.getByLabel('Secret of narrow').waitFor();
    await page.getByRole('rowheader', { name: 'narrow', exact: true }).waitFor();
    assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= 375), 'no horizontal overflow');
  });
});
