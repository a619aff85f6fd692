import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { after, before } from 'node:test';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { serveFresh, type ServedCatalog } from '../reliability/target.js';

/**
 * End-to-end tests of the console: Debian's Chromium (no browser is downloaded) driven by
 * playwright-core against a real `urnbase serve` on a fresh store (SQLite, or PostgreSQL under
 * `npm run test:postgres`). Without Chromium the tests are skipped with a message, unless
 * URNBASE_REQUIRE_BROWSER=1 (CI sets it, and installs Chromium) makes that a failure.
 */
export const CHROMIUM = process.env.URNBASE_CHROMIUM ?? '/usr/bin/chromium';
const required = process.env.URNBASE_REQUIRE_BROWSER === '1';
export const BROWSER_SKIP: string | false = existsSync(CHROMIUM) || required ? false : `no Chromium at ${CHROMIUM} (apt-get install chromium, or set URNBASE_CHROMIUM)`;

export const ADMIN = 'urnb_console-e2e-admin-0123456789abcdefghijklmnop';

export interface ConsoleFixture {
  readonly served: ServedCatalog;
  readonly browser: Browser;
  /** A fresh browser context (its own sessionStorage), at 1280×800 unless told otherwise. */
  context(options?: { width?: number; height?: number }): Promise<BrowserContext>;
  /** A new page in a fresh context, signed in with `token` (the admin's by default). */
  signedIn(token?: string, options?: { width?: number; height?: number }): Promise<Page>;
  /** The URL of a console view: `#/search?query=x` → http://…/#/search?query=x. */
  url(hash?: string): string;
}

/** A server and a browser for the tests of one describe block, closed after them. */
export function consoleFixture(): ConsoleFixture {
  const kind = process.env.URNBASE_TEST_POSTGRES === '1' ? 'postgres' : 'sqlite';
  const served = serveFresh(kind, ADMIN);
  let browser: Browser | undefined;
  const contexts: BrowserContext[] = [];
  before(async () => {
    // As root (CI containers) Chromium's sandbox cannot start.
    browser = await chromium.launch({ executablePath: CHROMIUM, args: process.getuid?.() === 0 ? ['--no-sandbox'] : [] });
  });
  after(async () => {
    for (const context of contexts) await context.close().catch(() => undefined);
    await browser?.close();
  });
  const fixture: ConsoleFixture = {
    served,
    get browser() {
      return browser ?? assert.fail('the browser has not started');
    },
    async context(options = {}) {
      // bypassCSP lets the tests inject axe-core; the page itself runs under the server's CSP.
      const context = await fixture.browser.newContext({ viewport: { width: options.width ?? 1280, height: options.height ?? 800 }, bypassCSP: true });
      context.setDefaultTimeout(15_000);
      contexts.push(context);
      return context;
    },
    async signedIn(token = ADMIN, options = {}) {
      const page = await (await fixture.context(options)).newPage();
      await page.goto(fixture.url('#/sign-in'));
      await page.getByLabel('Access token').fill(token);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.waitForURL(/#\/search/);
      return page;
    },
    url(hash = '') {
      return `${served.server.base}/${hash}`;
    },
  };
  return fixture;
}

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** The serious and critical accessibility violations axe-core finds on the page as it is now. */
export async function axeViolations(page: Page): Promise<string[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.addScriptTag({ content: AXE_SOURCE });
  const violations = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run: (context: Document, options: unknown) => Promise<{ violations: Array<{ id: string; impact: string; help: string; nodes: Array<{ target: unknown }> }> }> } }).axe;
    const result = await axe.run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'] } });
    return result.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, targets: v.nodes.map((n) => JSON.stringify(n.target)).slice(0, 3) }));
  });
  return violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id} (${v.impact}): ${v.help} at ${v.targets.join(', ')}`);
}

/** Asserts axe finds nothing serious or critical, naming what it found. */
export async function assertAccessible(page: Page, where: string): Promise<void> {
  assert.deepEqual(await axeViolations(page), [], `${where}: accessibility violations`);
}
