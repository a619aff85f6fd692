import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { assertAccessible, BROWSER_SKIP, consoleFixture } from './harness.js';
import { CLICKS, ORDERS, seedCatalog } from './search-seed.js';

/** The names of the results shown, in order. */
async function resultNames(page: Page): Promise<string[]> {
  return page.locator('ol.results > li h3').allInnerTexts();
}

/** Waits for the search to settle on `count` (the status line, e.g. "2 results"). */
async function settled(page: Page, status: string | RegExp): Promise<void> {
  await page.locator('section.search-results[aria-busy="false"]').getByRole('status').getByText(status, typeof status === 'string' ? { exact: true } : {}).waitFor();
}

describe('console: search', { skip: BROWSER_SKIP }, () => {
  const f = consoleFixture();
  before(async () => seedCatalog(f, { kafka: 25 }));

  it('searches as you type, debounced: the URL holds the query and a reload shows the same results', async () => {
    const page = await f.signedIn();
    // The requests for result pages: their query, and what they ask for.
    const queries: string[] = [];
    const bodies: Array<{ aspects?: string[]; facets?: string[] }> = [];
    page.on('request', (request) => {
      const url = new URL(request.url());
      if (url.pathname !== '/openapi/v3/entity/scroll' || url.searchParams.get('count') !== '20') return;
      queries.push(url.searchParams.get('query') ?? '');
      bodies.push(request.postDataJSON() as { aspects?: string[]; facets?: string[] });
    });
    await page.getByLabel('Search the catalog').pressSequentially('order');
    await page.waitForURL(/#\/search\?query=order$/);
    await settled(page, '2 results');
    assert.deepEqual((await resultNames(page)).sort(), ['order_items', 'orders']);
    const typed = queries.filter((q) => q !== '');
    assert.equal(typed[typed.length - 1], 'order');
    assert.ok(typed.length < 5, `one search per pause in typing, not one per keystroke: ${JSON.stringify(typed)}`);
    // Small requests: a page of 20, the aspects a result shows, and no facets (they come separately).
    const last = bodies[bodies.length - 1];
    assert.deepEqual(last.facets, []);
    const aspects = last.aspects ?? [];
    assert.ok(aspects.includes('datasetProperties') && aspects.includes('globalTags'), JSON.stringify(aspects));
    assert.ok(!aspects.includes('schemaMetadata') && !aspects.includes('ownership'), 'only the aspects a result shows');

    const first = page.getByRole('link', { name: 'orders', exact: true });
    assert.equal(await first.getAttribute('href'), `#/entity?${new URLSearchParams({ urn: ORDERS })}`);
    const item = page.locator('ol.results > li', { has: first });
    await item.getByText('Placed orders, one row each').waitFor();
    await item.getByText('snowflake', { exact: true }).waitFor();
    await item.getByText('dataset', { exact: true }).waitFor();
    assert.deepEqual(await item.locator('.chip').allInnerTexts(), ['pii']);

    await page.reload();
    await settled(page, '2 results');
    assert.equal(await page.getByLabel('Search the catalog').inputValue(), 'order');
    assert.deepEqual((await resultNames(page)).sort(), ['order_items', 'orders']);

  });

  it('typing on while a search is still unanswered aborts it (the server then stops it): only the last search is answered', async () => {
    const page = await f.signedIn();
    await settled(page, / results$/);
    // Each result page's answer is held up here for a second, so that every keystroke (typed after
    // the debounce) finds the previous search still running.
    const held = new Set<string>();
    await page.route('**/openapi/v3/entity/scroll?*', async (route) => {
      const url = new URL(route.request().url());
      if (url.searchParams.get('count') !== '20') return route.continue();
      held.add(url.searchParams.get('query') ?? '');
      await new Promise((r) => setTimeout(r, 1000));
      await route.continue().catch(() => undefined); // aborted by the page meanwhile
    });
    const aborted: string[] = [];
    const answered: string[] = [];
    const queryOf = (url: string) => new URL(url).searchParams.get('query') ?? '';
    page.on('requestfailed', (request) => {
      if (request.url().includes('/openapi/v3/entity/scroll') && new URL(request.url()).searchParams.get('count') === '20') aborted.push(queryOf(request.url()));
    });
    page.on('requestfinished', (request) => {
      if (request.url().includes('/openapi/v3/entity/scroll') && new URL(request.url()).searchParams.get('count') === '20') answered.push(queryOf(request.url()));
    });
    const box = page.getByLabel('Search the catalog');
    for (const character of 'ord') {
      await box.press(character);
      await page.waitForTimeout(300); // past the debounce: each prefix is searched
    }
    await settled(page, '2 results');
    assert.deepEqual([...held], ['o', 'or', 'ord']);
    assert.deepEqual(aborted, ['o', 'or']);
    assert.deepEqual(answered, ['ord']);
  });

  it('a search the server cannot run says why in the results, and the filters do not wait for ever', async () => {
    const page = await f.signedIn();
    await page.goto(f.url('#/search?query=order'));
    await settled(page, '2 results');
    const filters = page.getByRole('complementary', { name: 'Filters' });
    await filters.getByRole('button', { name: 'dataset (2)' }).waitFor();
    await page.getByLabel('Search the catalog').fill('name:(orders');
    const alert = page.locator('section.search-results').getByRole('alert');
    await alert.getByText(/^This search cannot be run: Invalid query at column 6: /).waitFor();
    await filters.getByText('No filters until the search can be run.', { exact: true }).waitFor();
    assert.equal(await filters.getAttribute('aria-busy'), 'false');
    assert.equal(await filters.getByText('Loading…').count(), 0);
    await assertAccessible(page, 'search: a query the server refuses');
    // Mended, the search runs and the filters come back.
    await page.getByLabel('Search the catalog').fill('name:orders');
    await settled(page, '1 result');
    await filters.getByRole('button', { name: 'dataset (1)' }).waitFor();
    assert.equal(await alert.count(), 0);
  });

  it("hides the catalog's own entities (platforms, data types, entity types) unless asked, in the results and the Type facet", async () => {
    // What the catalog seeds itself, by entity type, as the registry has it.
    const { Registry } = await import('../../src/registry/registry.js');
    const seeded = [...new Set(Registry.load().seed().map((e) => e.urn.split(':')[2]!))].sort();
    const counted = await f.served.client.call('POST', '/openapi/v3/entity/scroll?count=1', { facets: ['entity'] });
    const byType = (counted.body as { facets: Array<{ aggregations: Record<string, number> }> }).facets[0]!.aggregations;
    const all = (counted.body as { totalCount: number }).totalCount;
    const own = all - seeded.reduce((sum, type) => sum + (byType[type] ?? 0), 0);
    assert.ok(seeded.every((type) => (byType[type] ?? 0) > 0), `each seeded type has entities: ${JSON.stringify(byType)}`);

    const page = await f.signedIn();
    await page.goto(f.url('#/search'));
    await settled(page, `1–20 of ${own} results`);
    const type = page.getByRole('list', { name: 'Type', exact: true });
    await type.getByRole('button', { name: /^dataset \(/ }).waitFor();
    const shown = await type.getByRole('button').allInnerTexts();
    assert.deepEqual(shown.filter((label) => seeded.some((t) => label.startsWith(`${t} (`))), [], 'no system type in the Type facet');
    const names = await resultNames(page);
    assert.ok(!names.includes('hive') && !names.includes('Number'), `no platform or data type among ${JSON.stringify(names)}`);

    // Asked for, they are back, and the URL keeps the choice.
    await page.getByLabel('Show system entities').check();
    await page.waitForURL(/system=1/);
    await settled(page, `1–20 of ${all} results`);
    for (const t of seeded) await type.getByRole('button', { name: `${t} (${byType[t]})` }).waitFor();
    await page.reload();
    await settled(page, `1–20 of ${all} results`);
    assert.equal(await page.getByLabel('Show system entities').isChecked(), true);
    await assertAccessible(page, 'search: system entities shown');
    // Chosen in the Type facet, a system type is searched whatever the toggle says.
    await page.getByLabel('Show system entities').uncheck();
    await settled(page, `1–20 of ${own} results`);
    await page.goto(f.url('#/search?type=dataType'));
    await settled(page, `${byType.dataType} results`);
  });

  it('at 375 px the results come first, and the filters open from a button', async () => {
    const page = await f.signedIn(undefined, { width: 375, height: 800 });
    await page.goto(f.url('#/search?query=order'));
    await settled(page, '2 results');
    const top = await page.locator('ol.results > li').first().evaluate((el) => el.getBoundingClientRect().top);
    assert.ok(top < 400, `the first result starts ${top} px down`);
    const filters = page.getByRole('complementary', { name: 'Filters' });
    assert.equal(await filters.isVisible(), false, 'the filters are closed');
    const toggle = page.getByRole('button', { name: 'Filters', exact: true });
    assert.equal(await toggle.getAttribute('aria-expanded'), 'false');
    await assertAccessible(page, 'search at 375 px, filters closed');
    await toggle.click();
    assert.equal(await page.getByRole('button', { name: 'Hide filters' }).getAttribute('aria-expanded'), 'true');
    await filters.getByRole('button', { name: 'dataset (2)' }).click();
    await page.waitForURL(/type=dataset/);
    await settled(page, '2 results');
    // The count of filters in force is on the button; the panel stays open while filtering.
    await page.getByRole('button', { name: 'Hide filters (1 in force)' }).click();
    await page.getByRole('button', { name: 'Filters (1 in force)' }).waitFor();
    assert.equal(await filters.isVisible(), false);
    assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= 375), 'no horizontal overflow at 375 px');
    // A wide window has no button: the filters are always there.
    await page.setViewportSize({ width: 1280, height: 800 });
    assert.equal(await filters.isVisible(), true);
    assert.equal(await page.getByRole('button', { name: /^Filters/ }).isVisible(), false);
  });

  it('clicking a facet filters, and removing it unfilters', async () => {
    const page = await f.signedIn();
    await page.goto(f.url('#/search'));
    await page.getByRole('button', { name: 'dataset (29)' }).click();
    await page.waitForURL(/type=dataset/);
    await settled(page, '1–20 of 29 results');
    await page.getByRole('button', { name: 'hive (2)' }).click();
    await page.waitForURL(/platform=urn%3Ali%3AdataPlatform%3Ahive/);
    await settled(page, '2 results');
    assert.deepEqual((await resultNames(page)).sort(), ['clicks', 'sessions']);
    assert.equal(await page.getByRole('button', { name: 'hive (2)' }).getAttribute('aria-pressed'), 'true');
    await page.getByRole('button', { name: 'pii (1)' }).click();
    await settled(page, '1 result');
    assert.deepEqual(await resultNames(page), ['clicks']);
    // Facets and filters are checked against the API's own answer.
    const api = await f.served.client.call('POST', '/openapi/v3/entity/scroll?count=20', {
      entities: ['dataset'],
      filter: { and: [{ criteria: [{ field: 'platform', values: ['urn:li:dataPlatform:hive'] }, { field: 'tags', values: ['urn:li:tag:pii'] }] }] },
    });
    assert.deepEqual((api.body as { entities: Array<{ urn: string }> }).entities.map((e) => e.urn), [CLICKS]);

    await page.getByRole('button', { name: 'Remove filter Platform: hive' }).click();
    await settled(page, '2 results');
    assert.deepEqual((await resultNames(page)).sort(), ['clicks', 'orders']);
    assert.doesNotMatch(page.url(), /platform=/);
    await page.getByRole('button', { name: 'Clear all filters' }).click();
    await page.waitForURL(/#\/search$/);
  });

  it('structured-property filters: a number range and allowed values narrow the results', async () => {
    const page = await f.signedIn();
    await page.goto(f.url('#/search?type=dataset'));
    await settled(page, '1–20 of 29 results');
    const retention = page.getByRole('group', { name: 'Retention days' });
    await retention.getByRole('button', { name: '365 (1)' }).waitFor();
    await retention.getByLabel('Min').fill('60');
    await retention.getByLabel('Max').fill('400');
    await retention.getByRole('button', { name: 'Apply Retention days range' }).click();
    await page.waitForURL(/pmin\.com\.example\.retention=60&pmax\.com\.example\.retention=400/);
    await settled(page, '2 results');
    assert.deepEqual((await resultNames(page)).sort(), ['clicks', 'orders']);
    await page.getByRole('button', { name: 'Remove filter Retention days ≤ 400' }).click();
    await settled(page, '2 results');
    await retention.getByLabel('Min').fill('31');
    await retention.getByLabel('Min').press('Enter');
    await page.waitForURL(/pmin\.com\.example\.retention=31$/);
    await settled(page, '2 results');
    await retention.getByLabel('Min').fill('29');
    await retention.getByLabel('Min').press('Enter');
    await settled(page, '3 results');

    // Dates take a date range.
    const reviewed = page.getByRole('group', { name: 'Reviewed on' });
    await reviewed.getByLabel('From').fill('2024-06-01');
    await reviewed.getByRole('button', { name: 'Apply Reviewed on range' }).click();
    await page.waitForURL(/pmin\.reviewed=2024-06-01/);
    await settled(page, '1 result');
    assert.deepEqual(await resultNames(page), ['clicks']);
    await page.getByRole('button', { name: 'Remove filter Reviewed on ≥ 2024-06-01' }).click();
    await settled(page, '3 results');

    // Allowed values are checkboxes, with counts.
    const tier = page.getByRole('group', { name: 'Tier' });
    await tier.getByLabel('silver (1)').check();
    await page.waitForURL(/p\.tier=silver/);
    await settled(page, '1 result');
    assert.deepEqual(await resultNames(page), ['order_items']);
    // The page reloads into the same state.
    await page.reload();
    await settled(page, '1 result');
    assert.equal(await page.getByRole('group', { name: 'Tier' }).getByLabel('silver (1)').isChecked(), true);
    await assertAccessible(page, 'search with property filters');
  });

  it('pages through the results with Next and Previous', async () => {
    const page = await f.signedIn();
    await page.goto(f.url('#/search?platform=urn%3Ali%3AdataPlatform%3Akafka&sort=name'));
    await settled(page, '1–20 of 25 results');
    assert.equal((await resultNames(page))[0], 'topic_00');
    await page.getByRole('button', { name: 'Next page' }).click();
    await page.waitForURL(/scrollId=/);
    await settled(page, '21–25 of 25 results');
    assert.deepEqual(await resultNames(page), ['topic_20', 'topic_21', 'topic_22', 'topic_23', 'topic_24']);
    assert.equal(await page.getByRole('button', { name: 'Next page' }).count(), 0);
    await page.getByRole('button', { name: 'Previous page' }).click();
    await settled(page, '1–20 of 25 results');
    assert.doesNotMatch(page.url(), /scrollId=/);
  });

  it('renders a hostile description as text, and no dialog opens', async () => {
    const page = await f.signedIn();
    const dialogs: string[] = [];
    page.on('dialog', (dialog) => {
      dialogs.push(dialog.message());
      void dialog.dismiss();
    });
    await page.goto(f.url('#/search?query=clicks'));
    await settled(page, '1 result');
    // Its markup is dropped from the summary, never run: the words are left.
    await page.locator('ol.results .result-description').getByText('Clicks alert(1) and', { exact: true }).waitFor();
    assert.equal(await page.locator('ol.results img, ol.results script').count(), 0);
    assert.deepEqual(dialogs, []);
  });

  it('is accessible with results, and fits a 375-pixel-wide window', async () => {
    const page = await f.signedIn(undefined, { width: 375, height: 800 });
    await page.goto(f.url('#/search?query=order&type=dataset&tags=urn%3Ali%3Atag%3Apii'));
    await settled(page, '1 result');
    await assertAccessible(page, 'search with results');
    assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= 375), 'no horizontal overflow at 375 px');
    // Every entity but the catalog's own (system entities are hidden by default).
    const system = { field: 'urn', condition: 'STARTS_WITH', values: ['urn:li:dataPlatform:', 'urn:li:dataType:', 'urn:li:entityType:'], negated: true };
    const all = await f.served.client.call('POST', '/openapi/v3/entity/scroll?count=1', { filter: { and: [{ criteria: [system] }] } });
    const total = (all.body as { totalCount: number }).totalCount;
    assert.ok(total > 29, `every entity: ${total}`);
    await page.goto(f.url('#/search'));
    await settled(page, `1–20 of ${total} results`);
    assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= 375), 'no horizontal overflow at 375 px');
    await assertAccessible(page, 'search, every entity');
  });
  it('a result summarises its markdown description as plain text, and the Domains facet names domains by their names', async () => {
    const ledger = 'urn:li:dataset:(urn:li:dataPlatform:mysql,markdown.ledger,PROD)';
    const finance = 'urn:li:domain:fin-7f3a';
    const write = async (type: string, urn: string, aspects: Record<string, unknown>) =>
      assert.equal((await f.served.client.call('POST', `/openapi/v2/entity/${type}?async=false`, [{ urn, aspects: Object.fromEntries(Object.entries(aspects).map(([k, v]) => [k, { value: v }])) }])).status, 200);
    await write('domain', finance, { domainProperties: { name: 'Finance' } });
    await write('dataset', ledger, {
      datasetProperties: { name: 'ledger', description: '# Ledger\n\nOne row per **posting**, see [the docs](https://example.com/ledger), not [this](javascript:alert(1)).\n\n<script>alert(2)</script>' },
      domains: { domains: [finance] },
    });
    const page = await f.signedIn();
    await page.goto(f.url('#/search?query=ledger'));
    await settled(page, '1 result');
    const summary = page.locator('ol.results .result-description');
    await summary.getByText('Ledger One row per posting, see the docs, not this.', { exact: true }).waitFor();
    assert.equal(await page.locator('ol.results .result-description *').count(), 0, 'no markup at all');
    await page.getByRole('button', { name: 'Finance (1)' }).click();
    await page.waitForURL(/domains=urn%3Ali%3Adomain%3Afin-7f3a/);
    await page.getByRole('button', { name: 'Remove filter Domains: Finance' }).waitFor();
    await settled(page, '1 result');
  });
});
