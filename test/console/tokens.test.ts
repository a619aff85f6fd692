import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
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
    assert.deepEqual(cells.slice(0, 3), [listed.id.slice(0, 8), 'editor', 'urn:li:corpuser:ci-bot']);
    assert.match(cells[3]!, /^\d{4}-\d\d-\d\d \d\d:\d\d$/, 'created');
    assert.equal(cells[4], 'admin', 'created by');
    assert.match(cells[5]!, /^\d{4}-\d\d-\d\d \d\d:\d\d$/, 'expires');
    assert.equal(cells[6], 'never', 'last used: the list was read before the API call');
    assert.equal(cells[7], 'no', 'revoked');

    // Done: the secret is gone, and a reload shows it nowhere.
    await page.getByRole('button', { name: 'Done' }).click();
    await page.getByRole('heading', { name: 'Token ci-bot created' }).waitFor({ state: 'detached' });
    await page.reload();
    await page.getByRole('rowheader', { name: 'ci-bot', exact: true }).waitFor();
    assert.ok(!(await page.content()).includes(secret), 'the secret is not shown again');
    assert.ok(!(await page.evaluate(() => JSON.stringify(sessionStorage) + JSON.stringify(localStorage))).includes(secret), 'nor kept');
    // Used since: the list says so.
    assert.match(await row.getByRole('cell').nth(6).innerText(), /^\d{4}-\d\d-\d\d \d\d:\d\d$/);
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
    await page.getByRole('status').getByText('Revoked token to-revoke.', { exact: true }).waitFor();
    await row.getByRole('cell').nth(7).getByText(/^\d{4}-\d\d-\d\d \d\d:\d\d$/).waitFor();
    assert.equal(await row.getByRole('button', { name: 'Revoke to-revoke' }).count(), 0);

    const refused = await as(made.token).call('GET', '/openapi/v2/entity/tag');
    assert.equal(refused.status, 401);
    assert.equal(refused.body.message, 'Invalid, expired or revoked token');
    const listed = (await f.served.client.call('GET', '/openapi/v2/auth/tokens')).body.find((t: { name: string }) => t.name === 'to-revoke');
    assert.ok(listed.revokedAt);
  });

  it('a refused token name says why in words and marks the Name field', async () => {
    const page = await f.signedIn();
    await page.goto(f.url('#/tokens'));
    await page.getByLabel('Name').fill('has spaces');
    await page.getByRole('button', { name: 'Create token' }).click();
    await page.getByRole('alert').getByText('A token name is 1 to 100 letters, digits, ".", "_", "@" or "-", with no spaces: e.g. ci-loader.', { exact: true }).waitFor();
    // The server's own words, with the status, under Details; the Name field is marked and tied to the refusal.
    await page.getByRole('alert').getByText('Details').click();
    await page.getByRole('alert').getByText('400: name must be 1 to 100 letters, digits, ".", "_", "@" or "-"', { exact: true }).waitFor();
    assert.equal(await page.getByLabel('Name').getAttribute('aria-invalid'), 'true');
    assert.match((await page.getByLabel('Name').getAttribute('aria-describedby')) ?? '', /\btoken-create-error\b/);
    assert.equal(await page.getByLabel(/Secret of/).count(), 0);
    await assertAccessible(page, 'tokens: a refusal');
  });

  it('an error goes when a later action succeeds: a refused name after a revocation, a failed revocation after a creation', async () => {
    const made = (await f.served.client.call('POST', '/openapi/v2/auth/tokens', { name: 'later-ok', role: 'viewer' })).body as { id: string };
    const gone = (await f.served.client.call('POST', '/openapi/v2/auth/tokens', { name: 'gone-meanwhile', role: 'viewer' })).body as { id: string };
    const page = await f.signedIn();
    await page.goto(f.url('#/tokens'));
    const refused = page.getByRole('alert').getByText('A token name is 1 to 100 letters, digits, ".", "_", "@" or "-", with no spaces: e.g. ci-loader.', { exact: true });
    await page.getByLabel('Name').fill('has spaces');
    await page.getByRole('button', { name: 'Create token' }).click();
    await refused.waitFor();
    // A revocation succeeds: the refusal goes, the revocation is confirmed.
    const row = page.getByRole('row').filter({ has: page.getByRole('rowheader', { name: 'later-ok', exact: true }) });
    await row.getByRole('button', { name: 'Revoke later-ok' }).click();
    await row.getByRole('button', { name: 'Yes, revoke later-ok' }).click();
    await page.getByRole('status').getByText('Revoked token later-ok.', { exact: true }).waitFor();
    assert.equal(await refused.count(), 0, 'the refusal is gone');
    assert.equal((await f.served.client.call('GET', '/openapi/v2/auth/tokens')).body.find((t: { id: string }) => t.id === made.id).revokedAt !== null, true);

    // Revoked elsewhere meanwhile: the revocation fails, and says so.
    assert.equal((await f.served.client.call('DELETE', `/openapi/v2/auth/tokens/${gone.id}`)).status, 204);
    const other = page.getByRole('row').filter({ has: page.getByRole('rowheader', { name: 'gone-meanwhile', exact: true }) });
    await other.getByRole('button', { name: 'Revoke gone-meanwhile' }).click();
    await other.getByRole('button', { name: 'Yes, revoke gone-meanwhile' }).click();
    // A message errors.ts does not know: the server's own, without its status.
    const failed = page.getByRole('alert').getByText(`No live token with id ${gone.id}`, { exact: true });
    await failed.waitFor();
    assert.equal(await page.getByText('Revoked token later-ok.').count(), 0, 'the earlier confirmation is gone');
    await assertAccessible(page, 'tokens: a failed revocation');
    // A creation succeeds: the failure goes.
    await page.getByLabel('Name').fill('after-failure');
    await page.getByRole('button', { name: 'Create token' }).click();
    await page.getByRole('heading', { name: 'Token after-failure created' }).waitFor();
    assert.equal(await failed.count(), 0, 'the failure is gone');
  });

  it('tokens of one name are told apart: their ids, creators and times, and a warning when making another', async () => {
    const first = (await f.served.client.call('POST', '/openapi/v2/auth/tokens', { name: 'twin', role: 'viewer' })).body as { id: string };
    const second = (await f.served.client.call('POST', '/openapi/v2/auth/tokens', { name: 'twin', role: 'editor' })).body as { id: string };
    const page = await f.signedIn();
    await page.goto(f.url('#/tokens'));
    const rows = page.getByRole('row').filter({ has: page.getByRole('rowheader', { name: 'twin', exact: true }) });
    await rows.nth(1).waitFor();
    const ids = await rows.evaluateAll((trs) => trs.map((tr) => (tr.querySelectorAll('td')[0] as HTMLElement).innerText));
    assert.deepEqual(ids.sort(), [first.id.slice(0, 8), second.id.slice(0, 8)].sort());
    // Each revoke button names its token by name and short id.
    await page.getByRole('button', { name: `Revoke twin (${first.id.slice(0, 8)})`, exact: true }).click();
    await page.getByText(`Revoke twin (${first.id.slice(0, 8)})? Clients using it are refused at once.`, { exact: true }).waitFor();
    await page.getByRole('button', { name: `Yes, revoke twin (${first.id.slice(0, 8)})` }).click();
    await page.getByRole('status').getByText(`Revoked token twin (${first.id.slice(0, 8)}).`, { exact: true }).waitFor();
    // The other one is alone now among the live tokens: its name is enough again.
    await page.getByRole('button', { name: 'Revoke twin', exact: true }).waitFor();
    const listed = (await f.served.client.call('GET', '/openapi/v2/auth/tokens')).body as Array<{ id: string; revokedAt: string | null }>;
    assert.ok(listed.find((t) => t.id === first.id)!.revokedAt);
    assert.equal(listed.find((t) => t.id === second.id)!.revokedAt, null);

    // Typing a name a live token has warns, and still allows it.
    await page.getByLabel('Name').fill('twin');
    await page.getByText(/^A live token has this name already \(id [0-9a-f]{8}, created \d{4}-\d\d-\d\d \d\d:\d\d\): the list tells them apart by their ids\.$/).waitFor();
    await assertAccessible(page, 'tokens: a name in use');
    await page.getByRole('button', { name: 'Create token' }).click();
    await page.getByRole('heading', { name: 'Token twin created' }).waitFor();
  });

  it('an editor or a viewer does not get the page', async () => {
    for (const role of ['editor', 'viewer']) {
      const token = (await f.served.client.call('POST', '/openapi/v2/auth/tokens', { name: `no-tokens-${role}`, role })).body.token as string;
      const page = await f.signedIn(token);
      await page.getByText(`no-tokens-${role} (${role})`).waitFor();
      assert.equal(await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Tokens' }).count(), 0, `${role}: no Tokens link`);
      await page.goto(f.url('#/tokens'));
      await page.getByRole('heading', { name: 'Tokens', level: 1 }).waitFor();
      await page.getByRole('alert').getByText(`Tokens are for admins only: you are signed in as no-tokens-${role}, with the ${role} role.`).waitFor();
      assert.equal(await page.getByText('There is no page').count(), 0);
      await assertAccessible(page, `tokens: a ${role}`);
      assert.equal(await page.getByLabel('Name').count(), 0, `${role}: no form`);
    }
  });

  it('a token made by `urnbase token create` shows as created by the command line, not by __datahub_system', async () => {
    const main = fileURLToPath(new URL('../../src/main.js', import.meta.url));
    const made = spawnSync(process.execPath, [main, 'token', 'create', '--name', 'from-cli', '--role', 'viewer', ...f.served.target.args], { encoding: 'utf8' });
    assert.deepEqual([made.status, made.stderr], [0, '']);
    const listed = (await f.served.client.call('GET', '/openapi/v2/auth/tokens')).body.find((t: { name: string }) => t.name === 'from-cli');
    assert.equal(listed.createdBy, 'urn:li:corpuser:__datahub_system', 'the stored actor is unchanged');
    const page = await f.signedIn();
    await page.goto(f.url('#/tokens'));
    const row = page.getByRole('row').filter({ has: page.getByRole('rowheader', { name: 'from-cli', exact: true }) });
    const creator = row.getByRole('cell').nth(4);
    assert.equal(await creator.innerText(), 'command line or first start');
    assert.equal(await creator.getAttribute('title'), 'urn:li:corpuser:__datahub_system');
    assert.equal(await page.getByText('__datahub_system', { exact: true }).count(), 0);
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
