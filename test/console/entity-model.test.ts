import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { assertAccessible, BROWSER_SKIP, consoleFixture } from './harness.js';
import { CUSTOMERS, DATABASE, GONE, NESTED_FIELDS, RAW_CUSTOMERS, SCHEMA, seedModel, seedTimeseries, WIDE } from './model-seed.js';

const entityUrl = (urn: string) => `#/entity?${new URLSearchParams({ urn })}`;

/** The rows of a table as the text of their cells. */
async function rows(page: Page, table: string): Promise<string[][]> {
  return page.locator(`${table} tbody tr`).evaluateAll((trs) => trs.map((tr) => [...tr.querySelectorAll('th, td')].map((c) => (c as HTMLElement).innerText.trim())));
}

/** JSON as the console shows it by default: DataHub's union keys by their short names. */
const shortJson = (value: unknown) => JSON.stringify(value, null, 2).replace(/"com\.linkedin\.schema\.([A-Za-z]+)":/g, '"$1":');

describe("console: the entity page over DataHub's model", { skip: BROWSER_SKIP }, () => {
  const f = consoleFixture();
  before(async () => {
    await seedModel(f.served.client);
    await seedTimeseries(f.served.client);
  });

  it('shows the browse path, subtypes and container chain at the top, each entity linked by its name', async () => {
    const page = await f.signedIn();
    await page.goto(f.url(entityUrl(CUSTOMERS)));
    await page.getByRole('heading', { level: 1, name: 'customers' }).waitFor();
    const browse = page.getByRole('navigation', { name: 'Browse path' });
    // The names of the linked entries are read from their entities.
    await browse.getByRole('link', { name: 'sales' }).waitFor();
    assert.deepEqual(await browse.locator('li').allInnerTexts(), ['prod', 'shop', 'sales']);
    assert.deepEqual(await browse.getByRole('link').evaluateAll((as) => as.map((a) => (a as HTMLAnchorElement).getAttribute('href'))), [entityUrl(DATABASE), entityUrl(SCHEMA)]);
    assert.deepEqual(await page.getByLabel('Subtypes').locator('.chip').allInnerTexts(), ['Table']);
    const containers = page.getByRole('navigation', { name: 'Containers' });
    assert.deepEqual(await containers.locator('li').allInnerTexts(), ['shop', 'sales']);
    await page.getByRole('note').getByText('Deprecated — to be decommissioned on 2030-01-31: Use customers_v2').waitFor();
    assert.deepEqual(await rows(page, 'table.custom-properties'), [
      ['owner_team', 'growth'],
      ['retention', '7 years'],
    ]);
    const links = page.locator('section', { has: page.getByRole('heading', { name: 'Links' }) });
    assert.equal(await links.getByRole('link', { name: 'Data dictionary' }).getAttribute('href'), 'https://wiki.example.com/customers');
    // Only http(s) addresses are links.
    assert.equal(await links.getByRole('link').count(), 1);
    await links.getByText('Not a link', { exact: true }).waitFor();
    // Upstream lineage is the lineage view's first hop (lineage.test.ts covers the view).
    const upstream = page.getByRole('list', { name: 'Upstream of customers', exact: true });
    await upstream.getByRole('link', { name: 'raw_customers', exact: true }).waitFor();
    assert.equal(await upstream.getByRole('link').getAttribute('href'), entityUrl(RAW_CUSTOMERS));
    await assertAccessible(page, 'entity page with breadcrumbs');

    // The container's own page: its subtype, and the chain above it.
    await containers.getByRole('link', { name: 'sales' }).click();
    await page.getByRole('heading', { level: 1, name: 'sales' }).waitFor();
    assert.deepEqual(await page.getByLabel('Subtypes').locator('.chip').allInnerTexts(), ['Dataset']);
    await page.getByRole('navigation', { name: 'Containers' }).getByRole('link', { name: 'shop' }).waitFor();
    // Written without one, it has the default browse path urnbase gives it, as DataHub does.
    assert.deepEqual(await page.getByRole('navigation', { name: 'Browse path' }).locator('li').allInnerTexts(), ['Default']);

    // A container that is not in the catalog: linked all the same, by the entry's id and the URN's id.
    await page.goto(f.url(entityUrl(RAW_CUSTOMERS)));
    await page.getByRole('heading', { level: 1, name: 'raw_customers' }).waitFor();
    const gone = page.getByRole('navigation', { name: 'Containers' }).getByRole('link');
    await gone.waitFor();
    assert.deepEqual([await gone.innerText(), await gone.getAttribute('href')], ['archive-0001', entityUrl(GONE)]);
    const path = page.getByRole('navigation', { name: 'Browse path' });
    assert.deepEqual(await path.locator('li').allInnerTexts(), ['prod', 'archive']);
    assert.equal(await path.getByRole('link', { name: 'archive' }).getAttribute('href'), entityUrl(GONE));
  });

  it('shows a nested schema: paths indented under their parents, union types by short name with the native type, nullable, edited descriptions, tags and terms', async () => {
    const page = await f.signedIn();
    await page.goto(f.url(entityUrl(CUSTOMERS)));
    await page.locator('table.schema').waitFor();
    assert.equal(await page.locator('table.schema caption').innerText(), 'Fields 1–6 of 6');
    assert.deepEqual(await rows(page, 'table.schema'), [
      ['id', 'NumberType\nINT64', 'no', 'Customer number', ''],
      ['address', 'RecordType\nSTRUCT<city STRING, zip STRING>', 'yes', '—', ''],
      ['city', 'StringType\nSTRING', 'yes', 'City of the billing address (originally: City as typed)', ''],
      ['zip', 'StringType\nSTRING', 'yes', '—', 'PostalCode'],
      ['emails', 'ArrayType\nARRAY<STRING>', 'no', '—', 'pii'],
      ['signed_up', 'TimeType\nTIMESTAMP', 'no', '—', ''],
    ]);
    // The path as stored is the cell's title; nesting is indentation (1.1rem a level, 15 px type).
    const cells = page.locator('table.schema tbody th');
    assert.deepEqual(await cells.evaluateAll((ths) => ths.map((th) => th.getAttribute('title'))), NESTED_FIELDS.map((fd) => fd.fieldPath));
    assert.deepEqual(await cells.locator('code').evaluateAll((codes) => codes.map((c) => getComputedStyle(c).paddingLeft)), ['0px', '0px', '16.5px', '16.5px', '0px', '0px']);
    // Six fields need no filter and no pages.
    assert.equal(await page.getByLabel('Filter fields').count(), 0);
    assert.equal(await page.getByRole('group', { name: 'Schema pages' }).count(), 0);
  });

  it('lists every aspect in groups, as JSON with short union names, or as stored', async () => {
    const page = await f.signedIn();
    await page.goto(f.url(entityUrl(CUSTOMERS)));
    const aspects = page.locator('section', { has: page.getByRole('heading', { name: 'Aspects', exact: true }) });
    await aspects.locator('details.aspect').first().waitFor();
    const groups = await aspects.locator('.aspect-group').evaluateAll((divs) =>
      divs.map((d) => [d.querySelector('h3')?.textContent ?? '', ...[...d.querySelectorAll('summary')].map((s) => (s as HTMLElement).innerText)]),
    );
    assert.deepEqual(groups, [
      [
        'Identity and description',
        'browsePathsV2 version 1',
        'container version 1',
        'dataPlatformInstance version 1',
        'datasetKey version 1',
        'datasetProperties version 1',
        'deprecation version 1',
        'institutionalMemory version 1',
        'subTypes version 1',
      ],
      ['Structure', 'editableSchemaMetadata version 1', 'schemaMetadata version 1'],
      ['Lineage and relations', 'upstreamLineage version 1'],
      // Timeseries aspects: an entity read answers each with its latest point.
      ['Statistics and operations', 'datasetProfile latest point 2024-05-05 06:00:00 UTC', 'operation latest point 2024-05-05 06:00:00 UTC'],
    ]);
    // Points have no versions: the history offers the versioned aspects only.
    const offered = await page.getByLabel('Aspect', { exact: true }).locator('option').allInnerTexts();
    assert.deepEqual(
      offered.filter((o) => /datasetProfile|operation/.test(o)),
      [],
    );
    assert.equal(offered.length, 11);
    const stored = (await f.served.client.call('GET', `/openapi/v2/entity/dataset/${encodeURIComponent(CUSTOMERS)}/schemaMetadata`)).body as { value: unknown };
    const schema = aspects.locator('details.aspect').filter({ has: page.getByText('schemaMetadata version 1', { exact: true }) });
    // Folded aspects are not laid out until opened.
    assert.equal(await schema.locator('pre').count(), 0);
    await schema.locator('summary').click();
    assert.equal(await schema.locator('pre').innerText(), shortJson(stored.value));
    assert.notEqual(shortJson(stored.value), JSON.stringify(stored.value, null, 2));
    const abbr = schema.locator('abbr', { hasText: 'OtherSchema' });
    assert.equal(await abbr.getAttribute('title'), 'com.linkedin.schema.OtherSchema');
    await assertAccessible(page, 'entity page with an aspect open');
    await aspects.getByLabel('Full type names').check();
    assert.equal(await schema.locator('pre').innerText(), JSON.stringify(stored.value, null, 2));
    assert.equal(await schema.locator('abbr').count(), 0);
  });

  it('shows a 1,000-field schema a page at a time, with a filter, without a long task', async (t) => {
    const page = await f.signedIn();
    // Long tasks (over 50 ms of main thread) are recorded from the page's first script on.
    await page.addInitScript(() => {
      const w = window as unknown as { longTasks: number[] };
      w.longTasks = [];
      new PerformanceObserver((list) => list.getEntries().forEach((e) => w.longTasks.push(e.duration))).observe({ type: 'longtask', buffered: true });
    });
    await page.goto(f.url(entityUrl(WIDE)));
    // A change of hash keeps the document: a reload loads the console afresh, with the observer.
    const started = Date.now();
    await page.reload();
    const caption = page.locator('table.schema caption');
    await caption.getByText('Fields 1–100 of 1,000').waitFor();
    const shown = Date.now() - started;
    assert.equal(await page.locator('table.schema tbody tr').count(), 100);
    const first = await rows(page, 'table.schema');
    assert.deepEqual(first.slice(0, 3), [
      ['group_00', 'RecordType\nSTRUCT', 'no', '—', ''],
      ['col_0001', 'StringType\nSTRING', 'no', '—', ''],
      ['col_0002', 'StringType\nSTRING', 'yes', '—', ''],
    ]);
    await page.getByText('Page 1 of 10').waitFor();
    assert.equal(await page.getByRole('button', { name: 'Previous fields' }).isDisabled(), true);
    await page.getByRole('button', { name: 'Next fields' }).click();
    await caption.getByText('Fields 101–200 of 1,000').waitFor();
    assert.deepEqual((await rows(page, 'table.schema'))[0].slice(0, 1), ['group_01']);
    await page.getByText('Page 2 of 10').waitFor();
    // Measured in the page: from the click to the frame after the next page is laid out.
    const paged = await page.evaluate(async () => {
      const next = [...document.querySelectorAll('button')].find((b) => b.textContent === 'Next fields') as HTMLButtonElement;
      const started = performance.now();
      next.click();
      await new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));
      return Math.round(performance.now() - started);
    });
    assert.equal(await caption.innerText(), 'Fields 201–300 of 1,000');

    const clicked = Date.now();
    await page.getByLabel('Filter fields').fill('col_0999');
    await caption.getByText('Fields 1–1 of 1 (filtered from 1,000)').waitFor();
    const filtered = Date.now() - clicked;
    // Its parent is not on the page, so the whole path is shown.
    assert.deepEqual(await rows(page, 'table.schema'), [['group_09.col_0999', 'StringType\nSTRING', 'no', '—', '']]);
    assert.equal(await page.getByRole('group', { name: 'Schema pages' }).count(), 0);
    await page.getByLabel('Filter fields').fill('no such column');
    await caption.getByText('No fields (filtered from 1,000)').waitFor();
    await assertAccessible(page, 'entity page with a 1,000-field schema');

    const longest = Math.max(0, ...(await page.evaluate(() => (window as unknown as { longTasks: number[] }).longTasks)));
    t.diagnostic(`1,000 fields: first page on screen ${shown} ms after navigation, next page laid out ${paged} ms after its click (in the page), filter ${filtered} ms; longest task ${Math.round(longest)} ms`);
    // A freeze would be seconds; a page of 100 rows is a few tens of milliseconds here.
    assert.ok(longest < 1000, `longest task ${longest} ms`);
  });

  it("charts the row count of the latest profiles (a timeseries aspect) and shows the latest profile's column statistics", async () => {
    const page = await f.signedIn();
    await page.goto(f.url(entityUrl(CUSTOMERS)));
    const profiles = page.locator('section', { has: page.getByRole('heading', { name: 'Profiles', level: 2 }) });
    await profiles.getByText('Latest profile 2024-05-05 06:00:00 UTC: 1,500 rows, 6 columns').waitFor();
    const chart = profiles.getByRole('img');
    assert.equal(await chart.getAttribute('aria-label'), 'Row count: from 1,000 rows on 2024-05-01 to 1,500 rows on 2024-05-05, 5 points');
    assert.deepEqual(await chart.locator('circle title').allTextContents(), ['2024-05-01: 1,000 rows', '2024-05-02: 1,200 rows', '2024-05-03: 1,250 rows', '2024-05-04: 1,400 rows', '2024-05-05: 1,500 rows']);
    // The scale runs to 2,000 (1,500 rounded up to 2 × 10³); the first and last days label the time axis.
    assert.deepEqual(await chart.locator('text').allTextContents(), ['0', '1,000', '2,000', '2024-05-01', '2024-05-05']);
    // Drawn in a 640 × 200 box, the plot from x 72 to 624 and y 12 to 172: days apart evenly, rows up.
    const line = ((await chart.locator('polyline').getAttribute('points')) ?? '').split(' ').map((p) => p.split(',').map(Number));
    assert.deepEqual(line, [
      [72, 92],
      [210, 76],
      [348, 72],
      [486, 60],
      [624, 52],
    ]);
    const box = await chart.boundingBox();
    assert.ok(box && box.width > 300 && box.height > 90, `the chart is laid out: ${JSON.stringify(box)}`);
    assert.deepEqual(await profiles.locator('table.field-profiles thead th').allInnerTexts(), ['Field', 'Distinct', 'Distinct share', 'Nulls', 'Null share', 'Min', 'Max', 'Mean', 'Median', 'Std. dev.']);
    assert.deepEqual(await rows(page, 'table.field-profiles'), [
      ['id', '1,500', '100%', '0', '0%', '1', '1500', '750.5', '750', '433.1'],
      ['address.city', '120', '8%', '15', '1%', '', '', '', '', ''],
      ['emails', '', '', '300', '20%', '', '', '', '', ''],
    ]);
    await assertAccessible(page, 'entity page with profiles');
  });

  it('lists the operations (a timeseries aspect) newest first, and shows neither section for a dataset without points', async () => {
    const page = await f.signedIn();
    await page.goto(f.url(entityUrl(CUSTOMERS)));
    await page.locator('table.operations tbody tr').first().waitFor();
    assert.deepEqual(await rows(page, 'table.operations'), [
      ['2024-05-05 06:00:00 UTC', 'UPDATE', 'jdoe', '12', '2024-05-05 06:00:00 UTC'],
      ['2024-05-04 06:00:00 UTC', 'CUSTOM: BACKFILL', '', '', '2024-05-04 05:00:00 UTC'],
      ['2024-05-03 06:00:00 UTC', 'INSERT', 'etl', '200', '2024-05-03 05:59:00 UTC'],
    ]);
    assert.equal(await page.locator('table.operations').getByRole('link', { name: 'jdoe' }).getAttribute('href'), entityUrl('urn:li:corpuser:jdoe'));

    const read = (aspect: string) => page.waitForResponse((r) => r.url().endsWith('/aspects?action=getTimeseriesAspectValues') && r.request().postDataJSON()?.aspect === aspect);
    const answers = Promise.all([read('datasetProfile'), read('operation')]);
    await page.goto(f.url(entityUrl(RAW_CUSTOMERS)));
    for (const answer of await answers) assert.equal(answer.status(), 200);
    await page.getByRole('heading', { level: 1, name: 'raw_customers' }).waitFor();
    assert.equal(await page.getByRole('heading', { level: 2, name: 'Profiles', exact: true }).count(), 0);
    assert.equal(await page.getByRole('heading', { level: 2, name: 'Operations', exact: true }).count(), 0);
  });
});
