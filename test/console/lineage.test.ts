import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import type { Locator, Page } from 'playwright-core';
import { assertAccessible, BROWSER_SKIP, consoleFixture } from './harness.js';
import { CLEAN, FAN, HUB, MART, PING, RAW, REPORT, seedLineage } from './lineage-seed.js';

const entityUrl = (urn: string) => `#/entity?${new URLSearchParams({ urn })}`;

/** Polls `read` until it answers `expected` (names arrive after the nodes); fails with the last answer. */
async function eventually<T>(read: () => Promise<T>, expected: T, ms = 10_000): Promise<void> {
  const until = Date.now() + ms;
  let last = await read();
  while (!isDeepEqual(last, expected) && Date.now() < until) {
    await new Promise((r) => setTimeout(r, 50));
    last = await read();
  }
  assert.deepEqual(last, expected);
}
const isDeepEqual = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** The nodes of one hop (the list so named), each as `name (kind · platform · …)`. */
async function hop(page: Page, list: string): Promise<string[]> {
  const ul = page.getByRole('list', { name: list, exact: true });
  await ul.waitFor();
  return ul
    .locator(':scope > li > .node-row')
    .evaluateAll((rows) => rows.map((r) => `${(r.querySelector('.node-name') as HTMLElement).innerText} (${(r.querySelector('.node-meta') as HTMLElement).innerText})`));
}

/** The columns of a column walk (the list so named), as they read. */
async function columns(scope: Page | Locator, list: string): Promise<string[]> {
  const ul = scope.getByRole('list', { name: list, exact: true });
  await ul.waitFor();
  return ul.locator(':scope > li').allInnerTexts();
}

/** Presses Tab until `target` has the focus; fails when it is not reached within `most` presses. */
async function tabTo(page: Page, target: Locator, most = 150): Promise<void> {
  for (let i = 0; i < most; i++) {
    await page.keyboard.press('Tab');
    if (await target.evaluate((el) => el === document.activeElement)) return;
  }
  assert.fail(`${target} was not reached by ${most} presses of Tab`);
}

describe('console: the lineage view of the entity page', { skip: BROWSER_SKIP }, () => {
  const f = consoleFixture();
  before(async () => seedLineage(f.served.client));

  /** The entity's page, once its name is shown; the lineage section. */
  async function openEntity(page: Page, urn: string, heading: string): Promise<Locator> {
    await page.goto(f.url(entityUrl(urn)));
    await page.getByRole('heading', { level: 1, name: heading, exact: true }).waitFor();
    return page.locator('section.lineage');
  }

  it('shows one hop each way around the entity, named readably, each node linked to its page, with how far lineage reaches', async () => {
    const page = await f.signedIn();
    const lineage = await openEntity(page, MART, 'orders_mart');
    await lineage.getByRole('heading', { level: 2, name: 'Lineage' }).waitFor();
    assert.equal(await lineage.locator('.lineage-root .node-name').innerText(), 'orders_mart');
    assert.equal(await lineage.locator('.lineage-root .node-meta').innerText(), 'Dataset · snowflake · sales.orders_mart');
    // Recorded names once read (datasetProperties.name, dataJobInfo.name), with the URN's name beside them.
    await eventually(() => hop(page, 'Upstream of orders_mart'), ['clean_orders (Dataset · hive · etl.clean_orders)']);
    await eventually(() => hop(page, 'Downstream of orders_mart'), ['Copy orders to S3 (Job · airflow · copy_orders · in exports)', 'revenue_report (Dataset · snowflake · sales.revenue_report)']);
    assert.equal(await lineage.getByRole('link', { name: 'clean_orders', exact: true }).getAttribute('href'), entityUrl(CLEAN));
    // The whole walk counted by distance: the job is one hop, the export behind it two.
    await lineage.locator('.lineage-upstream .lineage-footprint').getByText('1 at 1 hop · 1 at 2 hops', { exact: true }).waitFor();
    await lineage.locator('.lineage-downstream .lineage-footprint').getByText('2 at 1 hop · 1 at 2 hops', { exact: true }).waitFor();
    // Nothing further is read until asked: a toggle per node, closed.
    assert.deepEqual(await lineage.locator('button.node-toggle').evaluateAll((bs) => bs.map((b) => b.getAttribute('aria-expanded'))), ['false', 'false', 'false']);
    assert.equal(await lineage.locator('.lineage-next').count(), 0);
    await assertAccessible(page, 'lineage view');
  });

  it('opens a node to its next hop (a walk from it, the same way), keeps it when closed, and follows a node to its page', async () => {
    const page = await f.signedIn();
    const walks: string[] = [];
    page.on('request', (request) => {
      const url = new URL(request.url());
      if (url.pathname.startsWith('/openapi/v3/lineage/')) walks.push(`${decodeURIComponent(url.pathname.split('/').pop() ?? '')} ${url.searchParams.get('direction')} ${url.searchParams.get('maxHops')}`);
    });
    const lineage = await openEntity(page, MART, 'orders_mart');
    const upstream = lineage.getByRole('button', { name: 'Upstream of clean_orders', exact: true });
    await upstream.click();
    assert.equal(await upstream.getAttribute('aria-expanded'), 'true');
    await eventually(() => hop(page, 'Upstream of clean_orders'), ['raw_orders (Dataset · hive · etl.raw_orders)']);
    assert.ok(walks.includes(`${CLEAN} UPSTREAM 1`), walks.join('\n'));
    // A node with nothing further says so in its own row.
    await lineage.getByRole('button', { name: 'Upstream of raw_orders', exact: true }).click();
    const raw = page.getByRole('list', { name: 'Upstream of clean_orders', exact: true }).locator(':scope > li > .node-row');
    await raw.locator('.node-end').waitFor();
    assert.equal(await raw.locator('.node-meta').innerText(), 'Dataset · hive · etl.raw_orders · nothing further');
    assert.equal(await raw.locator('.node-toggle [aria-hidden="true"]').innerText(), '–');

    // Downstream through the job to what it writes: a dataset known only by its URN.
    await lineage.getByRole('button', { name: 'Downstream of Copy orders to S3', exact: true }).click();
    await eventually(() => hop(page, 'Downstream of Copy orders to S3'), ['exports/orders (Dataset · s3)']);
    await assertAccessible(page, 'lineage view, opened two hops each way');

    // Closed, the hop is hidden and kept: opening it again reads nothing.
    const before = walks.length;
    await upstream.click();
    assert.equal(await upstream.getAttribute('aria-expanded'), 'false');
    assert.equal(await page.getByRole('list', { name: 'Upstream of clean_orders', exact: true }).isVisible(), false);
    await upstream.click();
    assert.equal(await page.getByRole('list', { name: 'Upstream of clean_orders', exact: true }).isVisible(), true);
    assert.equal(walks.length, before);

    await lineage.getByRole('link', { name: 'raw_orders', exact: true }).click();
    await page.waitForURL((url) => url.hash === entityUrl(RAW));
    await page.getByRole('heading', { level: 1, name: 'raw_orders', exact: true }).waitFor();
    await page.getByText('Nothing upstream of raw_orders.', { exact: true }).waitFor();
    await eventually(() => hop(page, 'Downstream of raw_orders'), ['clean_orders (Dataset · hive · etl.clean_orders)']);
  });

  it('shows columns on demand, and for the column chosen the columns upstream and downstream of it', async () => {
    const page = await f.signedIn();
    const lineage = await openEntity(page, MART, 'orders_mart');
    // The entity's own columns, from the schema already read.
    await lineage.getByRole('button', { name: 'Columns of orders_mart', exact: true }).click();
    const own = lineage.locator('.lineage-root-columns');
    const select = own.getByLabel('Column of orders_mart', { exact: true });
    assert.deepEqual(await select.locator('option').allInnerTexts(), ['Choose a column (2)', 'order_id', 'amount']);
    await select.selectOption('order_id');
    await eventually(() => columns(own, 'Upstream of order_id (2)'), ['id\nin clean_orders · hive · 1 hop', 'order_no\nin raw_orders · hive · 2 hops']);
    await eventually(() => columns(own, 'Downstream of order_id (1)'), ['order_id\nin revenue_report · snowflake · 1 hop']);
    assert.equal(await own.getByRole('link', { name: 'raw_orders', exact: true }).getAttribute('href'), entityUrl(RAW));
    await select.selectOption('amount');
    await own.getByText('No upstream columns recorded.', { exact: true }).waitFor();
    await own.getByText('No downstream columns recorded.', { exact: true }).waitFor();

    // A node's columns, read when asked.
    await lineage.getByRole('button', { name: 'Columns of clean_orders', exact: true }).click();
    const node = lineage.locator('li.lineage-node', { has: page.getByRole('button', { name: 'Columns of clean_orders', exact: true }) });
    await node.getByLabel('Column of clean_orders', { exact: true }).selectOption('id');
    await eventually(() => columns(node, 'Upstream of id (1)'), ['order_no\nin raw_orders · hive · 1 hop']);
    await eventually(() => columns(node, 'Downstream of id (2)'), ['order_id\nin orders_mart · snowflake · 1 hop', 'order_id\nin revenue_report · snowflake · 2 hops']);
    await assertAccessible(page, 'lineage view with column lineage');

    // A dataset without a schema says so.
    await lineage.getByRole('button', { name: 'Downstream of Copy orders to S3', exact: true }).click();
    await lineage.getByRole('button', { name: 'Columns of exports/orders', exact: true }).click();
    await lineage.getByText('No columns recorded for exports/orders.', { exact: true }).waitFor();
  });

  it('shows a hop of many nodes a page at a time, with how many there are, focus going to the first node shown more', async () => {
    const page = await f.signedIn();
    const lineage = await openEntity(page, HUB, 'page_views');
    const list = page.getByRole('list', { name: 'Downstream of page_views', exact: true });
    await list.waitFor();
    assert.equal(await list.locator(':scope > li').count(), 20);
    await lineage.getByText('20 of 23 shown', { exact: true }).waitFor();
    await lineage.locator('.lineage-downstream .lineage-footprint').getByText('23 at 1 hop', { exact: true }).waitFor();
    await lineage.getByRole('button', { name: 'Show 3 more downstream of page_views', exact: true }).click();
    await eventually(() => list.locator(':scope > li .node-name').allInnerTexts(), Array.from({ length: 23 }, (_, i) => `events.view_${String(i).padStart(2, '0')}`));
    assert.equal(await lineage.getByRole('button', { name: /^Show \d+ more/ }).count(), 0);
    const first = lineage.getByRole('button', { name: 'Downstream of events.view_20', exact: true });
    await page.waitForFunction((el) => el === document.activeElement, await first.elementHandle());
  });

  it('stays quick with 55 nodes open: no main-thread task past a second', async (t) => {
    const page = await f.signedIn();
    const lineage = await openEntity(page, FAN, 'fan');
    await page.getByRole('list', { name: 'Downstream of fan', exact: true }).waitFor();
    await page.evaluate(() => {
      const w = window as unknown as { longTasks: number[] };
      w.longTasks = [];
      new PerformanceObserver((list) => w.longTasks.push(...list.getEntries().map((e) => e.duration))).observe({ type: 'longtask' });
    });
    const started = Date.now();
    for (let i = 0; i < 5; i++) await lineage.getByRole('button', { name: `Downstream of fan.c${i}`, exact: true }).click();
    for (let i = 0; i < 5; i++) await eventually(() => page.getByRole('list', { name: `Downstream of fan.c${i}`, exact: true }).locator(':scope > li').count(), 10);
    const opened = Date.now() - started;
    assert.equal(await lineage.locator('li.lineage-node').count(), 55);
    const longest = Math.max(0, ...(await page.evaluate(() => (window as unknown as { longTasks: number[] }).longTasks)));
    t.diagnostic(`five nodes opened to 50 more in ${opened} ms; the longest main-thread task ${Math.round(longest)} ms`);
    assert.ok(longest < 1000, `a main-thread task of ${Math.round(longest)} ms`);
  });

  it('works by keyboard alone: Tab reaches a node\'s toggle, its columns and its link, with a visible focus ring; Enter, Space and the arrow keys operate them', async () => {
    const page = await f.signedIn();
    const lineage = await openEntity(page, MART, 'orders_mart');
    await lineage.getByRole('link', { name: 'clean_orders', exact: true }).waitFor();
    const upstream = lineage.getByRole('button', { name: 'Upstream of clean_orders', exact: true });
    await tabTo(page, upstream);
    const ring = await upstream.evaluate((el) => {
      const style = getComputedStyle(el);
      return `${style.outlineStyle} ${style.outlineWidth} ${style.outlineColor}`;
    });
    assert.equal(ring, 'solid 3px rgb(242, 169, 0)');
    await page.keyboard.press('Enter');
    await eventually(() => hop(page, 'Upstream of clean_orders'), ['raw_orders (Dataset · hive · etl.raw_orders)']);

    await tabTo(page, lineage.getByRole('button', { name: 'Columns of clean_orders', exact: true }));
    await page.keyboard.press('Space');
    const select = lineage.getByLabel('Column of clean_orders', { exact: true });
    await select.waitFor();
    await page.keyboard.press('Tab');
    assert.equal(await select.evaluate((el) => el === document.activeElement), true);
    await page.keyboard.press('ArrowDown');
    assert.equal(await select.inputValue(), 'id');
    const node = lineage.locator('li.lineage-node', { has: page.getByLabel('Column of clean_orders', { exact: true }) });
    await eventually(() => columns(node, 'Downstream of id (2)'), ['order_id\nin orders_mart · snowflake · 1 hop', 'order_id\nin revenue_report · snowflake · 2 hops']);

    await tabTo(page, lineage.getByRole('button', { name: 'Downstream of Copy orders to S3', exact: true }));
    await page.keyboard.press('Space');
    await eventually(() => hop(page, 'Downstream of Copy orders to S3'), ['exports/orders (Dataset · s3)']);
    await tabTo(page, page.getByRole('list', { name: 'Downstream of orders_mart', exact: true }).getByRole('link', { name: 'revenue_report', exact: true }));
    await page.keyboard.press('Enter');
    await page.waitForURL((url) => url.hash === entityUrl(REPORT));
    await page.getByRole('heading', { level: 1, name: 'revenue_report', exact: true }).waitFor();
  });

  it('says when the server cut a walk short', async () => {
    const page = await f.signedIn();
    // The server marks a walk partial when it runs out of its time budget; here every answer says so.
    await page.route('**/openapi/v3/lineage/**', async (route) => {
      const response = await route.fetch();
      await route.fulfill({ response, json: { ...(await response.json()), partial: true } });
    });
    const lineage = await openEntity(page, MART, 'orders_mart');
    await eventually(() => lineage.getByRole('note').allInnerTexts(), [
      'The walk ran out of time: entities further away may be missing.',
      'The walk ran out of time: entities further away may be missing.',
    ]);
    await lineage.locator('.lineage-upstream .lineage-footprint').getByText('At least 1 at 1 hop · 1 at 2 hops', { exact: true }).waitFor();
    await assertAccessible(page, 'lineage view with a partial walk');
  });

  it('ends a cycle: a node already on the path is shown, not opened again', async () => {
    const page = await f.signedIn();
    const lineage = await openEntity(page, PING, 'app.ping');
    await lineage.getByRole('button', { name: 'Downstream of app.pong', exact: true }).click();
    await eventually(() => hop(page, 'Downstream of app.pong'), ['app.ping (Dataset · postgres)']);
    const back = page.getByRole('list', { name: 'Downstream of app.pong', exact: true }).locator(':scope > li');
    assert.equal(await back.locator('.node-cycle').textContent(), '↻ (a cycle: already on the path)');
    assert.equal(await back.getByRole('button', { name: 'Downstream of app.ping' }).count(), 0);
  });

  it('fits a 375-px window, and is not shown for entities without lineage', async () => {
    const page = await f.signedIn(undefined, { width: 375, height: 740 });
    const lineage = await openEntity(page, MART, 'orders_mart');
    await lineage.getByRole('button', { name: 'Upstream of clean_orders', exact: true }).click();
    await eventually(() => hop(page, 'Upstream of clean_orders'), ['raw_orders (Dataset · hive · etl.raw_orders)']);
    assert.equal(await page.evaluate(() => document.documentElement.scrollWidth), 375);
    await assertAccessible(page, 'lineage view at 375 px');

    const tag = 'urn:li:tag:finance';
    assert.equal((await f.served.client.call('POST', `/openapi/v2/entity/tag/${encodeURIComponent(tag)}/tagProperties`, { name: 'finance' })).status, 200);
    await openEntity(page, tag, 'finance');
    // A tag has no tags of its own (no Tags card): the page is shown once its Structured properties are.
    await page.getByRole('heading', { level: 2, name: 'Structured properties' }).waitFor();
    assert.equal(await page.getByRole('heading', { level: 2, name: 'Lineage' }).count(), 0);
  });
});
