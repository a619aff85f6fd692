import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import type { Locator, Page } from 'playwright-core';
import { assertAccessible, BROWSER_SKIP, consoleFixture } from './harness.js';

/** One long underscore-joined word, as warehouses name their tables. */
const LONG = 'customer_lifetime_value_aggregated_monthly_snapshot_partitioned_by_region_and_segment';
const UPSTREAM_NAME = 'raw_customer_lifetime_value_events_deduplicated_and_enriched_daily';
const dataset = (name: string) => `urn:li:dataset:(urn:li:dataPlatform:bigquery,analytics_warehouse_production_project.${name},PROD)`;
const URN = dataset(LONG);
const UPSTREAM = dataset(UPSTREAM_NAME);

/**
 * How a name is laid out: its parts between separators (each a text node of its own, split by
 * <wbr>), how many lines each part takes, and the CSS that could let a part break inside.
 */
async function layout(name: Locator) {
  return name.evaluate((element) => {
    const walker = document.createTreeWalker(element, NodeFilter.SHOW_TEXT);
    const parts: Array<{ text: string; lines: number; top: number }> = [];
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      if (!node.textContent?.trim()) continue;
      const range = document.createRange();
      range.selectNodeContents(node);
      parts.push({ text: node.textContent, lines: range.getClientRects().length, top: Math.round(range.getBoundingClientRect().top) });
    }
    const style = getComputedStyle(element);
    return { parts, wbr: element.querySelectorAll('wbr').length, overflowWrap: style.overflowWrap, wordBreak: style.wordBreak };
  });
}

/** The name wraps (it is longer than a 375-px line), but only after a separator: no part is split. */
async function assertBreaksAfterSeparators(name: Locator, what: string, { wraps = true } = {}): Promise<void> {
  const { parts, wbr, overflowWrap, wordBreak } = await layout(name);
  assert.ok(wbr > 0, `${what}: <wbr> after its separators`);
  assert.notEqual(overflowWrap, 'anywhere', `${what}: overflow-wrap`);
  assert.ok(!['break-all', 'break-word'].includes(wordBreak), `${what}: word-break is ${wordBreak}`);
  assert.deepEqual(parts.filter((p) => p.lines !== 1), [], `${what}: no part broken inside`);
  if (wraps) assert.ok(new Set(parts.map((p) => p.top)).size > 1, `${what}: wraps at 375 px`);
  // Each line but the last ends with a separator.
  const lines = new Map<number, string>();
  for (const part of parts) lines.set(part.top, (lines.get(part.top) ?? '') + part.text);
  for (const line of [...lines.values()].slice(0, -1)) assert.match(line.trimEnd(), /[._/:,·]$/, `${what}: the line "${line}" ends at a separator`);
}

async function assertNoSideScroll(page: Page, where: string): Promise<void> {
  assert.ok((await page.evaluate(() => document.documentElement.scrollWidth)) <= 375, `${where}: the page does not scroll sideways`);
}

/** Every header cell's words on one line: none crushed into "Ti me" or "U P S E R T". */
async function assertHeadersWhole(table: Locator, what: string): Promise<void> {
  const broken = await table.locator('thead th').evaluateAll((ths) =>
    ths
      // Visible words only (a screen-reader-only "Actions" is a 1-px box).
      .filter((th) => th.textContent?.trim() && ![...th.children].some((child) => child.getBoundingClientRect().width <= 1))
      .map((th) => {
        const range = document.createRange();
        range.selectNodeContents(th);
        return { text: th.textContent!.trim(), lines: new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size };
      })
      .filter((h) => h.lines !== 1),
  );
  assert.deepEqual(broken, [], `${what}: every header on one line`);
}

describe('console: long names and tables at 375 px', { skip: BROWSER_SKIP }, () => {
  const f = consoleFixture();
  before(async () => {
    const post = async (urn: string, aspect: string, value: unknown) =>
      assert.equal((await f.served.client.call('POST', `/openapi/v2/entity/dataset/${encodeURIComponent(urn)}/${aspect}`, value)).status, 200);
    await post(UPSTREAM, 'datasetProperties', { name: UPSTREAM_NAME });
    await post(URN, 'datasetProperties', { name: LONG, description: 'Lifetime value per customer' });
    await post(URN, 'upstreamLineage', { upstreams: [{ dataset: UPSTREAM, type: 'TRANSFORMED', auditStamp: { time: 0, actor: 'urn:li:corpuser:datahub' } }] });
  });

  it('search: a result title wraps after its separators only, and the page fits', async () => {
    const page = await f.signedIn(undefined, { width: 375, height: 800 });
    await page.goto(f.url(`#/search?query=${encodeURIComponent('Lifetime value per customer')}`));
    const title = page.locator('ol.results > li h3 a', { hasText: LONG });
    await title.waitFor();
    assert.equal(await title.innerText(), LONG);
    await assertBreaksAfterSeparators(title, 'search result title');
    await assertBreaksAfterSeparators(page.locator('ol.results > li', { hasText: LONG }).locator('.result-urn'), 'search result URN');
    await assertNoSideScroll(page, 'search');
    await assertAccessible(page, 'search at 375 px, a long name');
  });

  it('entity and lineage: the name, "Nothing downstream of …" and the lineage cards wrap after separators, and the page fits', async () => {
    const page = await f.signedIn(undefined, { width: 375, height: 800 });
    await page.goto(f.url(`#/entity?${new URLSearchParams({ urn: URN })}`));
    const heading = page.getByRole('heading', { level: 1 });
    await heading.getByText(LONG).waitFor();
    await assertBreaksAfterSeparators(heading, 'entity name');
    const lineage = page.locator('section.lineage');
    const none = lineage.locator('.lineage-none');
    await none.waitFor();
    assert.equal(await none.innerText(), `Nothing downstream of ${LONG}.`);
    await assertBreaksAfterSeparators(none, 'Nothing downstream of …');
    // The entity's own card: its name, and the URN's qualified name under it.
    await assertBreaksAfterSeparators(lineage.locator('.lineage-root .node-name'), 'lineage card name');
    const meta = lineage.locator('.lineage-root .node-meta');
    assert.equal(await meta.innerText(), `Dataset · bigquery · analytics_warehouse_production_project.${LONG}`);
    await assertBreaksAfterSeparators(meta, 'lineage card qualified name');
    // An upstream node's card likewise.
    const upstream = lineage.getByRole('list', { name: `Upstream of ${LONG}` }).locator(':scope > li');
    await upstream.getByRole('link', { name: UPSTREAM_NAME }).waitFor();
    await assertBreaksAfterSeparators(upstream.locator('.node-meta'), 'upstream card qualified name');
    await assertNoSideScroll(page, 'entity');
    await lineage.scrollIntoViewIfNeeded();
    await assertNoSideScroll(page, 'lineage');
    await assertAccessible(page, 'entity and lineage at 375 px, a long name');
  });

  it('activity: the table scrolls in its own box with whole words, not the page', async () => {
    const page = await f.signedIn(undefined, { width: 375, height: 800 });
    await page.goto(f.url('#/activity'));
    const table = page.locator('table.activity');
    await table.locator('tbody tr').first().waitFor();
    await assertHeadersWhole(table, 'activity');
    // The one-word cells (aspect, change) are whole too.
    const cells = await table.locator('tbody tr:first-child td').evaluateAll((tds) =>
      tds.slice(3, 5).map((td) => {
        const range = document.createRange();
        range.selectNodeContents(td);
        return { text: td.textContent, lines: range.getClientRects().length };
      }),
    );
    assert.deepEqual(cells.map((c) => c.lines), [1, 1], JSON.stringify(cells));
    const box = await page.locator('.activity-scroll').evaluate((el) => ({ scroll: el.scrollWidth, client: el.clientWidth }));
    assert.ok(box.scroll > box.client, 'the table scrolls inside its box');
    await assertNoSideScroll(page, 'activity');
    await assertAccessible(page, 'activity at 375 px');
  });

  it('tokens: the table scrolls in its own box with whole words, not the page', async () => {
    assert.equal((await f.served.client.call('POST', '/openapi/v2/auth/tokens', { name: 'nightly_loader', role: 'editor' })).status, 201);
    const page = await f.signedIn(undefined, { width: 375, height: 800 });
    await page.goto(f.url('#/tokens'));
    const table = page.locator('.tokens-scroll table');
    await table.locator('tbody tr').first().waitFor();
    await assertHeadersWhole(table, 'tokens');
    // The actor's URN wraps after its colons only, if at all.
    await assertBreaksAfterSeparators(table.locator('tbody tr').first().locator('td').nth(2), 'token actor', { wraps: false });
    await assertNoSideScroll(page, 'tokens');
    await assertAccessible(page, 'tokens at 375 px');
  });
});
