import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { BrowserContext, Page } from 'playwright-core';
import { CONSOLE_CSP } from '../../src/api/console.js';
import { ADMIN, BROWSER_SKIP, consoleFixture, type ConsoleFixture } from './harness.js';
import { seedCatalog } from './search-seed.js';

/** The seeded catalog's datasets, counted by GraphQL: the four of search-seed. */
const COUNT_DATASETS = '{ searchAcrossEntities(input: { types: [DATASET], query: "*", count: 1 }) { total } }';

/**
 * A page under the server's CSP: the harness's contexts bypass it (to inject axe-core), these do
 * not. Every violation the page reports is kept, with the console's CSP messages.
 */
async function enforcingPage(f: ConsoleFixture, contexts: BrowserContext[]): Promise<{ page: Page; violations: () => Promise<string[]> }> {
  const context = await f.browser.newContext({ viewport: { width: 1280, height: 800 } });
  context.setDefaultTimeout(15_000);
  contexts.push(context);
  await context.addInitScript(() => {
    const seen: string[] = [];
    (window as unknown as { cspViolations: string[] }).cspViolations = seen;
    document.addEventListener('securitypolicyviolation', (e) => seen.push(`${e.violatedDirective} ${e.blockedURI} at ${e.sourceFile}:${e.lineNumber}`));
  });
  const page = await context.newPage();
  const logged: string[] = [];
  page.on('console', (message) => {
    if (message.text().includes('Content Security Policy')) logged.push(message.text());
  });
  return { page, violations: async () => [...(await page.evaluate(() => (window as unknown as { cspViolations: string[] }).cspViolations)), ...logged] };
}

async function signIn(page: Page, token: string): Promise<void> {
  await page.getByLabel('Access token').fill(token);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

/** The text of one of GraphiQL's CodeMirror editors. */
async function editorText(page: Page, selector: string): Promise<string> {
  return page.locator(`${selector} .CodeMirror`).first().evaluate((el) => (el as unknown as { CodeMirror: { getValue(): string } }).CodeMirror.getValue());
}

async function runQuery(page: Page, query: string): Promise<unknown> {
  await page.locator('.graphiql-query-editor .CodeMirror').first().evaluate((el, text) => (el as unknown as { CodeMirror: { setValue(v: string): void } }).CodeMirror.setValue(text), query);
  await page.getByRole('button', { name: 'Execute query (Ctrl-Enter)' }).click();
  await page.waitForFunction(() => {
    const el = document.querySelector('.result-window .CodeMirror') as unknown as { CodeMirror?: { getValue(): string } } | null;
    return (el?.CodeMirror?.getValue() ?? '').includes('"data"');
  });
  return JSON.parse(await editorText(page, '.result-window'));
}

describe('console: GraphiQL', { skip: BROWSER_SKIP }, () => {
  const f = consoleFixture();
  const contexts: BrowserContext[] = [];
  before(async () => seedCatalog(f));
  after(async () => {
    for (const context of contexts) await context.close().catch(() => undefined);
  });

  it('runs a query with the session\'s token and shows its result; the schema comes by introspection; the CSP reports nothing', async () => {
    const { page, violations } = await enforcingPage(f, contexts);
    const calls: Array<{ authorization: string | undefined; query: string }> = [];
    page.on('request', (request) => {
      if (new URL(request.url()).pathname !== '/api/graphql') return;
      calls.push({ authorization: request.headers().authorization, query: String((request.postDataJSON() as { query?: unknown }).query) });
    });
    await page.goto(f.url('graphiql/'));
    // No session in this tab yet: to sign-in, which brings the tab back.
    await page.waitForURL(/\/#\/sign-in\?next=%2Fgraphql$/);
    assert.equal(calls.length, 0, 'no call to /api/graphql without a token');
    await signIn(page, ADMIN);
    await page.waitForURL(/\/graphiql\/$/);
    await page.getByText('admin (admin)').waitFor();

    assert.deepEqual(await runQuery(page, COUNT_DATASETS), { data: { searchAcrossEntities: { total: 4 } } });
    assert.ok(calls.some((c) => c.query.includes('__schema')), 'the schema was introspected');
    assert.ok(calls.some((c) => c.query === COUNT_DATASETS), 'the query was sent');
    assert.deepEqual(new Set(calls.map((c) => c.authorization)), new Set([`Bearer ${ADMIN}`]), 'every call carries the session\'s token');
    // Each editor's textarea (what a screen reader meets) is named after its editor.
    assert.deepEqual(await page.locator('.CodeMirror textarea').evaluateAll((areas) => areas.map((a) => a.getAttribute('aria-label'))), ['Query Editor', 'Variables', 'Result Window']);

    // The docs, from introspection: the root types and a field of Query.
    await page.getByRole('button', { name: 'Show Documentation Explorer' }).click();
    await page.locator('.graphiql-doc-explorer').getByText('Query', { exact: true }).click();
    await page.locator('.graphiql-doc-explorer').getByText('searchAcrossEntities', { exact: true }).first().waitFor();

    // A dialog locks the page's scrolling with styles of its own, adopted rather than inline.
    await page.getByRole('button', { name: 'Open settings dialog' }).click();
    await page.getByRole('dialog').waitFor();
    assert.equal(await page.evaluate(() => getComputedStyle(document.body).overflow), 'hidden');
    await page.keyboard.press('Escape');
    await page.getByRole('dialog').waitFor({ state: 'detached' });
    assert.equal(await page.evaluate(() => getComputedStyle(document.body).overflow), 'visible');

    assert.deepEqual(await violations(), []);
  });

  it('is in the console\'s navigation, in the same tab (the session\'s), and Back returns to the console', async () => {
    const page = await f.signedIn();
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'GraphQL', exact: true }).click();
    await page.waitForURL(/\/graphiql\/$/);
    await page.locator('.graphiql-query-editor').waitFor();
    await page.goBack();
    await page.waitForURL(/\/#\/search$/);
    // Its logo leads back to the console too.
    await page.goto(f.url('graphiql/'));
    await page.getByRole('link', { name: 'urnbase' }).click();
    await page.waitForURL(/\/#\/search$/);
  });

  it('a token revoked while signed in ends the session at the first call, as in the console', async () => {
    const made = await f.served.client.call('POST', '/openapi/v2/auth/tokens', { name: 'graphiql-viewer', role: 'viewer' });
    const { id, token } = made.body as { id: string; token: string };
    const { page, violations } = await enforcingPage(f, contexts);
    await page.goto(f.url('graphiql/'));
    await signIn(page, token);
    await page.waitForURL(/\/graphiql\/$/);
    // A viewer reads: the same query, the same answer.
    assert.deepEqual(await runQuery(page, COUNT_DATASETS), { data: { searchAcrossEntities: { total: 4 } } });
    assert.equal((await f.served.client.call('DELETE', `/openapi/v2/auth/tokens/${id}`)).status, 204);
    await page.reload();
    await page.waitForURL(/\/#\/sign-in\?next=%2Fgraphql&reason=expired$/);
    await page.getByRole('alert').getByText('Your token was revoked or has expired — sign in again.', { exact: true }).waitFor();
    assert.equal(await page.evaluate(() => sessionStorage.getItem('urnbase.session')), null);
    assert.deepEqual(await violations(), []);
  });

  it('/api/graphiql (DataHub\'s path) and /graphiql lead to the page, which is public and served under the console\'s CSP', async () => {
    for (const path of ['/api/graphiql', '/graphiql']) {
      const res = await fetch(`${f.served.server.base}${path}`, { redirect: 'manual' });
      assert.equal(res.status, 302, path);
      assert.equal(res.headers.get('location'), '/graphiql/', path);
    }
    const res = await fetch(`${f.served.server.base}/graphiql/`);
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('content-security-policy'), CONSOLE_CSP);
    assert.equal(res.headers.get('content-type'), 'text/html; charset=utf-8');
    const html = await res.text();
    assert.match(html, /<title>GraphiQL · urnbase<\/title>/);
    // Only its own files: no inline script or style, nothing from elsewhere.
    assert.deepEqual([...html.matchAll(/<script\b[^>]*>([^<]*)<\/script>/g)].map((m) => m[1]), ['']);
    assert.doesNotMatch(html, /<style|style=|https?:\/\//);
    // The API itself still wants a token.
    const anonymous = await fetch(`${f.served.server.base}/api/graphql`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query: COUNT_DATASETS }) });
    assert.equal(anonymous.status, 401);
  });
});
