import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Client } from '../reliability/client.js';
import { assertAccessible, BROWSER_SKIP, consoleFixture } from './harness.js';

const dataset = (name: string) => `urn:li:dataset:(urn:li:dataPlatform:hive,${name},PROD)`;

interface ChangeEvent {
  sequence: number;
  urn: string;
  entityType: string;
  aspectName: string;
  changeType: string;
}

describe('console: activity', { skip: BROWSER_SKIP }, () => {
  const f = consoleFixture();

  /** The catalog's own entity types, which the feed leaves out unless asked (as search does). */
  const SYSTEM_TYPES = ['dataPlatform', 'dataType', 'entityType'];
  /** Every event of the change log but the catalog's own entities', oldest first, through the API. */
  async function allEvents(): Promise<ChangeEvent[]> {
    return (await everyEvent()).filter((e) => !SYSTEM_TYPES.includes(e.entityType));
  }

  /** Every event of the change log, oldest first, through the API. */
  async function everyEvent(): Promise<ChangeEvent[]> {
    const events: ChangeEvent[] = [];
    for (let after = 0; ; ) {
      const page = (await f.served.client.call('GET', `/openapi/v2/events?after=${after}&limit=1000`)).body as { events: ChangeEvent[]; nextAfter: number };
      events.push(...page.events);
      if (page.events.length < 1000) return events;
      after = page.nextAfter;
    }
  }

  it('shows a change written through the API as it happens, newest first, without a reload', async () => {
    const urn = dataset('live.orders');
    await f.served.client.call('POST', `/openapi/v2/entity/dataset/${encodeURIComponent(urn)}/datasetProperties`, { description: 'orders' });
    const page = await f.signedIn();
    await page.getByRole('link', { name: 'Activity' }).click();
    await page.getByRole('heading', { name: 'Activity', level: 1 }).waitFor();
    await page.getByRole('status').getByText('Live', { exact: true }).waitFor();
    const rows = page.locator('table.activity tbody tr');
    await rows.first().waitFor();
    await assertAccessible(page, 'activity: the feed');
    await page.evaluate(() => ((window as unknown as { marker: string }).marker = 'same page'));

    assert.equal((await f.served.client.call('POST', `/openapi/v2/entity/dataset/${encodeURIComponent(urn)}/globalTags`, { tags: [{ tag: 'urn:li:tag:pii' }] })).status, 200);
    const first = rows.first();
    await first.getByRole('cell').nth(3).getByText('globalTags', { exact: true }).waitFor();
    const cells = await first.getByRole('cell').allInnerTexts();
    assert.match(cells[0]!, /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
    assert.deepEqual(cells.slice(1), ['admin', 'hive · live.orders dataset', 'globalTags', 'UPSERT', 'Show diff']);
    assert.equal(await first.getByRole('link', { name: 'hive · live.orders', exact: true }).getAttribute('href'), `#/entity?${new URLSearchParams({ urn })}`);
    assert.equal(await page.evaluate(() => (window as unknown as { marker?: string }).marker), 'same page', 'no reload');

    // The rows are the change log's newest events, newest first.
    const events = (await allEvents()).reverse();
    const shown = await rows.evaluateAll((trs) => trs.map((tr) => [tr.querySelector('a')!.title, tr.children[3]!.textContent]));
    assert.deepEqual(
      shown,
      events.slice(0, shown.length).map((e) => [e.urn, e.aspectName]),
    );

    // A delete shows as one.
    await f.served.client.call('DELETE', `/openapi/v2/entity/dataset/${encodeURIComponent(urn)}/globalTags`);
    await first.getByRole('cell').nth(4).getByText('DELETE', { exact: true }).waitFor();
  });

  it('pauses and resumes; leaving the page aborts the waiting request', async () => {
    const page = await f.signedIn();
    await page.goto(f.url('#/activity'));
    await page.getByRole('status').getByText('Live', { exact: true }).waitFor();
    const rows = page.locator('table.activity tbody tr');
    await rows.first().waitFor();
    await page.getByRole('button', { name: 'Pause' }).click();
    await page.getByRole('status').getByText('Paused', { exact: true }).waitFor();
    const urn = dataset('paused.orders');
    await f.served.client.call('POST', `/openapi/v2/entity/dataset/${encodeURIComponent(urn)}/datasetProperties`, { description: 'while paused' });
    // The paused feed has no request open, so the change cannot have arrived; on resume it does.
    assert.equal(await page.getByRole('link', { name: 'paused.orders' }).count(), 0);
    await page.getByRole('button', { name: 'Resume' }).click();
    await page.getByRole('link', { name: 'paused.orders' }).first().waitFor();
    await page.getByRole('status').getByText('Live', { exact: true }).waitFor();

    const aborted = page.waitForEvent('requestfailed', (request) => request.url().includes('/openapi/v2/events?') && request.url().includes('wait=20'));
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Search', exact: true }).click();
    assert.equal((await aborted).failure()?.errorText, 'net::ERR_ABORTED');
  });

  it('keeps the last 200 changes, newest first', async () => {
    const entities = Array.from({ length: 120 }, (_, i) => ({ urn: dataset(`many.t${i}`), aspects: { datasetProperties: { value: { description: `t${i}` } } } }));
    assert.equal((await f.served.client.call('POST', '/openapi/v2/entity/dataset?async=false', entities)).status, 200);
    const events = (await allEvents()).reverse();
    assert.ok(events.length > 200);
    const page = await f.signedIn();
    await page.goto(f.url('#/activity'));
    const rows = page.locator('table.activity tbody tr');
    await rows.nth(199).waitFor();
    assert.equal(await rows.count(), 200);
    const shown = await rows.evaluateAll((trs) => trs.map((tr) => [tr.querySelector('a')!.title, tr.children[3]!.textContent]));
    assert.deepEqual(
      shown,
      events.slice(0, 200).map((e) => [e.urn, e.aspectName]),
    );
    // A new change goes on top; the oldest shown goes.
    await f.served.client.call('POST', `/openapi/v2/entity/dataset/${encodeURIComponent(dataset('many.newest'))}/datasetProperties`, { description: 'newest' });
    await rows.first().getByRole('link', { name: 'many.newest' }).waitFor();
    assert.equal(await rows.count(), 200);
  });

  it('filters by entity type, actor and aspect (in the URL, done by the server), names datasets with their platform, and shows a diff of each change', async () => {
    const jdoeToken = (await f.served.client.call('POST', '/openapi/v2/auth/tokens', { name: 'jdoe', role: 'editor' })).body.token as string;
    const jdoe = new Client(f.served.server.base, jdoeToken);
    const orders = 'urn:li:dataset:(urn:li:dataPlatform:snowflake,sales.orders,PROD)';
    const chart = 'urn:li:chart:(looker,sales.chart)';
    const tags = (...names: string[]) => ({ tags: names.map((n) => ({ tag: `urn:li:tag:${n}` })) });
    const write = async (client: Client, urn: string, aspect: string, value: unknown) =>
      assert.equal((await client.call('POST', `/openapi/v2/entity/${urn.split(':')[2]}/${encodeURIComponent(urn)}/${aspect}`, value)).status, 200);
    await write(jdoe, orders, 'globalTags', tags('pii'));
    await write(jdoe, orders, 'globalTags', tags('gold'));
    await write(f.served.client, orders, 'globalTags', tags('admin')); // another actor
    await write(jdoe, chart, 'globalTags', tags('chart')); // another entity type
    await write(jdoe, orders, 'datasetProperties', { description: 'orders' }); // another aspect

    const page = await f.signedIn();
    await page.goto(f.url('#/activity'));
    await page.getByRole('status').getByText('Live', { exact: true }).waitFor();
    await page.getByLabel('Entity type').fill('dataset');
    await page.getByLabel('Actor').fill('jdoe');
    await page.getByLabel('Aspect').fill('globalTags');
    await page.getByRole('button', { name: 'Filter' }).click();
    await page.waitForURL(/#\/activity\?entityType=dataset&actor=jdoe&aspect=globalTags$/);
    await page.getByText('The committed changes that match the filters, newest first (the last 200).').waitFor();
    const rows = page.locator('table.activity tbody tr');
    const cells = async () => (await rows.evaluateAll((trs) => trs.map((tr) => [...tr.children].slice(1).map((td) => (td as HTMLElement).innerText))));
    await rows.nth(1).waitFor();
    const expected = ['jdoe', 'snowflake · sales.orders dataset', 'globalTags', 'UPSERT', 'Show diff'];
    assert.deepEqual(await cells(), [expected, expected]);

    // The newest change: one tag for another, as a diff of the aspect before and after.
    await rows.first().getByRole('button', { name: 'Show diff' }).click();
    const diff = page.locator('table.activity tbody tr.activity-diff figure');
    await diff.waitFor();
    assert.equal(await diff.locator('figcaption').innerText(), 'globalTags of snowflake · sales.orders, before and after: 1 line added, 1 removed');
    assert.deepEqual(await diff.locator('.diff-del').allInnerTexts(), ['-       "tag": "urn:li:tag:pii"']);
    assert.deepEqual(await diff.locator('.diff-add').allInnerTexts(), ['+       "tag": "urn:li:tag:gold"']);
    assert.equal(await rows.first().getByRole('button', { name: 'Hide diff' }).getAttribute('aria-expanded'), 'true');
    await assertAccessible(page, 'activity: filtered, a diff open');
    // The first write had nothing before it: all of it is added.
    await rows.nth(2).getByRole('button', { name: 'Show diff' }).click();
    await page.getByText('globalTags of snowflake · sales.orders, before and after: 7 lines added, 0 removed').waitFor();

    // Live, filtered: a matching change arrives, the others do not.
    await write(f.served.client, orders, 'globalTags', tags('admin2'));
    await write(jdoe, orders, 'globalTags', tags('silver'));
    await page.locator('table.activity tbody tr:not(.activity-diff)').nth(2).waitFor();
    assert.equal(await page.locator('table.activity tbody tr:not(.activity-diff)').count(), 3);
    await page.locator('table.activity tbody tr:not(.activity-diff)').first().getByRole('button', { name: 'Show diff' }).click();
    await page.getByText('globalTags of snowflake · sales.orders, before and after: 1 line added, 1 removed').first().waitFor();
    assert.ok((await page.locator('.diff-add').allInnerTexts()).includes('+       "tag": "urn:li:tag:silver"'));

    // The URL alone gives the same feed; one filter at a time too.
    const again = await f.signedIn();
    await again.goto(f.url(`#/activity?aspect=datasetProperties&actor=${encodeURIComponent('urn:li:corpuser:jdoe')}`));
    await again.locator('table.activity tbody tr').first().waitFor();
    assert.equal(await again.getByLabel('Aspect').inputValue(), 'datasetProperties');
    assert.deepEqual(
      await again.locator('table.activity tbody tr').evaluateAll((trs) => trs.map((tr) => (tr.children[3] as HTMLElement).innerText)),
      ['datasetProperties'],
    );
    await again.getByRole('link', { name: 'Clear filters' }).click();
    await again.waitForURL(/#\/activity$/);
    await again.getByRole('link', { name: 'looker' }).first().waitFor();
  });

  it('leaves the catalog\'s own entities (data types, platforms, entity types) out unless "Show system entities" is checked', async () => {
    const urn = dataset('system.toggle');
    assert.equal((await f.served.client.call('POST', `/openapi/v2/entity/dataset/${encodeURIComponent(urn)}/datasetProperties`, { description: 'mine' })).status, 200);
    const page = await f.signedIn();
    await page.goto(f.url('#/activity'));
    await page.getByText('Every committed change to the catalog but its own entities, newest first (the last 200).').waitFor();
    const rows = page.locator('table.activity tbody tr');
    await rows.first().getByRole('link', { name: 'hive · system.toggle' }).waitFor();
    const types = () => rows.evaluateAll((trs) => trs.map((tr) => tr.children[2]!.querySelector('.muted')!.textContent));
    assert.deepEqual((await types()).filter((t) => ['dataPlatform', 'dataType', 'entityType'].includes(t!)), []);
    // The request asked the server to leave them out: nothing was dropped in the browser.
    const system = page.getByLabel('Show system entities');
    assert.equal(await system.isChecked(), false);
    await assertAccessible(page, 'activity: system entities hidden');

    const asked = page.waitForRequest((r) => r.url().includes('/openapi/v2/events?latest=') && !r.url().includes('excludeEntityTypes'));
    await system.check();
    await page.waitForURL(/#\/activity\?system=1$/);
    await asked;
    await page.getByText('Every committed change to the catalog, newest first (the last 200).').waitFor();
    // The feed is the change log's newest 200 again, system entities included.
    const newest = (await everyEvent()).reverse().slice(0, 200);
    await rows.nth(Math.min(newest.length, 200) - 1).waitFor();
    assert.deepEqual(await rows.evaluateAll((trs) => trs.map((tr) => tr.querySelector('a')!.title)), newest.map((e) => e.urn));

    // A filter keeps the toggle; unchecked again, the URL drops it.
    await page.getByLabel('Aspect').fill('datasetProperties');
    await page.getByRole('button', { name: 'Filter' }).click();
    await page.waitForURL(/#\/activity\?aspect=datasetProperties&system=1$/);
    await page.getByLabel('Show system entities').uncheck();
    await page.waitForURL(/#\/activity\?aspect=datasetProperties$/);
    // Asked for by type, system entities show whatever the toggle says.
    await page.goto(f.url('#/activity?entityType=dataType'));
    await rows.first().waitFor();
    assert.deepEqual([...new Set(await types())], ['dataType']);
    // Written by urnbase itself at its first start: named so, DataHub's system user in the title.
    const actors = await rows.evaluateAll((trs) => trs.map((tr) => [tr.children[1]!.textContent, tr.children[1]!.getAttribute('title')]));
    assert.deepEqual([...new Set(actors.map(([text, title]) => `${text} ${title}`))], ['urnbase urn:li:corpuser:__datahub_system']);
  });

  it('a filter the server refuses says why in words at the field, and the feed stops asking without saying "Stopped"', async () => {
    const page = await f.signedIn();
    await page.goto(f.url('#/activity?entityType=nope'));
    await page.getByRole('alert').getByText('There is no entity type "nope". Give one such as dataset, chart or corpuser.', { exact: true }).waitFor();
    assert.equal(await page.getByLabel('Entity type').getAttribute('aria-invalid'), 'true');
    assert.equal(await page.getByLabel('Entity type').getAttribute('aria-describedby'), 'activity-error');
    assert.equal((await page.locator('.activity-head [role=status]').innerText()).trim(), '');
    assert.equal(await page.getByText('Stopped').count(), 0);
    assert.equal(await page.locator('table.activity').count(), 0);
    await page.goto(f.url('#/activity?aspect=nope'));
    await page.getByRole('alert').getByText('No entity type has an aspect "nope". Give one such as globalTags, ownership or datasetProperties.', { exact: true }).waitFor();
    assert.equal(await page.getByLabel('Aspect').getAttribute('aria-invalid'), 'true');
    await page.goto(f.url('#/activity?actor=urn%3Ajdoe'));
    await page.getByRole('alert').getByText('"urn:jdoe" is not an actor\'s URN. Give a user name, such as jdoe, or a URN, such as urn:li:corpuser:jdoe.', { exact: true }).waitFor();
    assert.equal(await page.getByLabel('Actor').getAttribute('aria-invalid'), 'true');
    await page.goto(f.url('#/activity?entityType=nope'));
    await page.getByRole('alert').getByText('There is no entity type "nope". Give one such as dataset, chart or corpuser.', { exact: true }).waitFor();
    // Fixing it clears the error.
    await page.getByLabel('Entity type').fill('dataset');
    await page.getByRole('button', { name: 'Filter' }).click();
    await page.getByRole('status').getByText('Live', { exact: true }).waitFor();
    assert.equal(await page.getByRole('alert').count(), 0);
  });

  it('fits a 375-px-wide window', async () => {
    const page = await f.signedIn(undefined, { width: 375, height: 800 });
    await page.goto(f.url('#/activity'));
    await page.locator('table.activity tbody tr').first().waitFor();
    assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= 375), 'no horizontal overflow');
    await assertAccessible(page, 'activity: 375 px');
  });
});
