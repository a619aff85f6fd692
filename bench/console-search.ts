import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { Client } from '../test/reliability/client.js';
import { startServer } from '../test/server-process.js';
import { CHROMIUM } from '../test/console/harness.js';
import { seedDatasets, seedDefinitions } from '../test/console/demo-catalog.js';

/**
 * The console's search on a large catalog, as a user sees it: a fresh SQLite catalog of N demo
 * datasets (default 100,000), the search page in Chromium, a query typed key by key; measured from
 * the last keystroke to the results of that query on screen. Usage:
 *   npm run build && node dist/bench/console-search.js [datasets]
 */
const N = Number(process.argv[2] ?? 100_000);
const ADMIN = 'urnb_bench-console-admin-0123456789abcdefghijk';
const QUERIES = ['orders_24', 'customers_13', 'payments_14', 'sessions_75', 'invoices_16', 'shipments_17', 'products_18', 'refunds_19', 'campaigns_20', 'tickets_21'];

const dir = mkdtempSync(join(tmpdir(), 'urnbase-bench-console-'));
const server = await startServer({ args: ['--data-dir', join(dir, 'data'), '--log-level', 'warn', '--tests-on-change', 'false', '--tests-interval', '0'], env: { URNBASE_ADMIN_TOKEN: ADMIN } });
const browser = await chromium.launch({ executablePath: CHROMIUM, args: process.getuid?.() === 0 ? ['--no-sandbox'] : [] });
try {
  const client = new Client(server.base, ADMIN);
  const seeding = performance.now();
  await seedDefinitions(client);
  await seedDatasets(client, 0, N, 1000);
  console.log(`seeded ${N} datasets in ${((performance.now() - seeding) / 1000).toFixed(0)} s`);

  const page = await (await browser.newContext({ viewport: { width: 1280, height: 800 } })).newPage();
  await page.goto(`${server.base}/#/sign-in`);
  await page.getByLabel('Access token').fill(ADMIN);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL(/#\/search/);
  const box = page.getByLabel('Search the catalog');
  await box.waitFor();
  await page.waitForTimeout(2000); // the opening page's own requests settle
  const times: number[] = [];
  for (const query of QUERIES) {
    await box.fill('');
    await page.waitForTimeout(500);
    await box.pressSequentially(query.slice(0, -1), { delay: 60 });
    const last = performance.now();
    await box.press(query.slice(-1));
    // The results of this query: the status line names them once they have arrived.
    await page.getByRole('link', { name: `analytics.${query}`, exact: true }).first().waitFor({ timeout: 30_000 });
    times.push(performance.now() - last);
    await page.waitForTimeout(600);
  }
  const sorted = [...times].sort((a, b) => a - b);
  const median = sorted[Math.floor(sorted.length / 2)];
  console.log(`search as you type on ${N} datasets, last keystroke to results (ms): ${times.map((t) => t.toFixed(0)).join(', ')}`);
  console.log(`median ${median.toFixed(0)} ms, slowest ${sorted.at(-1)!.toFixed(0)} ms (the debounce is 150 ms of it)`);
} finally {
  await browser.close();
  await server.stop();
  rmSync(dir, { recursive: true, force: true });
}
