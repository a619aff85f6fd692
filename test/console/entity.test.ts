import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { assertAccessible, BROWSER_SKIP, consoleFixture } from './harness.js';
import { CLICKS, ds, ORDER_ITEMS, ORDERS, seedCatalog, XSS_DESCRIPTION } from './search-seed.js';

const entityUrl = (urn: string) => `#/entity?${new URLSearchParams({ urn })}`;

/** The rows of a table as the text of their cells. */
async function rows(page: Page, table: string): Promise<string[][]> {
  return page.locator(`${table} tbody tr`).evaluateAll((trs) => trs.map((tr) => [...tr.querySelectorAll('th, td')].map((c) => (c as HTMLElement).innerText.trim())));
}

describe('console: entity page', { skip: BROWSER_SKIP }, () => {
  const f = consoleFixture();
  before(async () => seedCatalog(f));

  it('opens from a search result and shows the entity: description, platform, owners, tags, schema, structured properties, aspects', async () => {
    const page = await f.signedIn();
    await page.goto(f.url('#/search?query=orders'));
    await page.getByRole('link', { name: 'orders', exact: true }).click();
    await page.waitForURL((url) => url.hash === entityUrl(ORDERS));
    await page.getByRole('heading', { level: 1, name: 'orders' }).waitFor();
    await page.getByText(ORDERS, { exact: true }).waitFor();
    const about = page.locator('section', { has: page.getByRole('heading', { name: 'About' }) });
    // The rows a dataset's aspects allow, once the type's aspects are read.
    await about.getByRole('button', { name: 'Edit domain' }).waitFor();
    assert.deepEqual(await about.locator('dt').allInnerTexts(), ['Description', 'Platform', 'Owners', 'Glossary terms', 'Domain']);
    // The facts without their edit buttons (an admin has one for each editable fact).
    const facts = await about.locator('dd').evaluateAll((dds) =>
      dds.map((dd) => {
        const copy = dd.cloneNode(true) as HTMLElement;
        for (const button of copy.querySelectorAll('button')) button.remove();
        return (copy.textContent ?? '').trim();
      }),
    );
    assert.deepEqual(facts, ['Placed orders, one row each', 'snowflake', 'jdoe (Data owner)', 'No glossary terms.', 'No domain.']);
    assert.deepEqual(await about.getByRole('button').allInnerTexts(), ['Edit description', 'Edit owners', 'Edit glossary terms', 'Edit domain']);
    const tags = page.locator('section', { has: page.getByRole('heading', { name: 'Tags' }) });
    assert.deepEqual(await tags.getByRole('list', { name: 'Tags', exact: true }).getByRole('link').allInnerTexts(), ['pii']);
    assert.equal(await page.getByRole('list', { name: 'Tags', exact: true }).count(), 1);
    await page.getByRole('heading', { name: 'Schema' }).waitFor();
    // The type is the union's short name over the native type; nullable defaults to false.
    assert.deepEqual(await rows(page, 'table.schema'), [
      ['order_id', 'StringType\nbigint', 'no', 'The order', ''],
      ['customer_id', 'StringType\nvarchar(36)', 'no', 'Who ordered', 'pii'],
    ]);
    await page.locator('table.properties').waitFor();
    await page.getByText('Gold tier').waitFor();
    assert.deepEqual(await rows(page, 'table.properties'), [
      ['Retention days', '365'],
      ['Tier', 'gold — Gold tier'],
    ]);
    // Every aspect as JSON, folded, in groups (entity-model.test.ts covers the grouping).
    const aspects = page.locator('details.aspect');
    assert.deepEqual(await aspects.locator('summary').allInnerTexts(), [
      'browsePathsV2 version 1',
      'dataPlatformInstance version 1',
      'datasetKey version 1',
      'datasetProperties version 1',
      'globalTags version 1',
      'ownership version 1',
      'structuredProperties version 1',
      'editableSchemaMetadata version 1',
      'schemaMetadata version 1',
    ]);
    const ownership = aspects.filter({ hasText: 'ownership version 1' });
    assert.equal(await ownership.locator('pre').isVisible(), false);
    await ownership.locator('summary').click();
    const stored = await f.served.client.call('GET', `/openapi/v2/entity/dataset/${encodeURIComponent(ORDERS)}/ownership`);
    assert.equal(await ownership.locator('pre').innerText(), JSON.stringify((stored.body as { value: unknown }).value, null, 2));
    await assertAccessible(page, 'entity page');
  });

  it('renders a hostile description as text, and no dialog opens', async () => {
    const page = await f.signedIn();
    const dialogs: string[] = [];
    page.on('dialog', (dialog) => {
      dialogs.push(dialog.message());
      void dialog.dismiss();
    });
    await page.goto(f.url(entityUrl(CLICKS)));
    await page.getByRole('heading', { level: 1, name: 'clicks' }).waitFor();
    assert.equal(await page.locator('.entity-description').innerText(), XSS_DESCRIPTION);
    assert.equal(await page.locator('main img, main script').count(), 0);
    assert.deepEqual(dialogs, []);
  });

  it('shows the versions of an aspect and a line diff between two of them', async () => {
    const path = `/openapi/v2/entity/dataset/${encodeURIComponent(ORDER_ITEMS)}/globalTags`;
    assert.equal((await f.served.client.call('POST', path, { tags: [{ tag: 'urn:li:tag:gold' }, { tag: 'urn:li:tag:sales' }] })).status, 200);
    assert.equal((await f.served.client.call('POST', path, { tags: [{ tag: 'urn:li:tag:sales' }] })).status, 200);
    const page = await f.signedIn();
    await page.goto(f.url(entityUrl(ORDER_ITEMS)));
    await page.getByRole('heading', { level: 1, name: 'order_items' }).waitFor();
    // The aspect with history is chosen by default: the latest two versions are compared.
    assert.equal(await page.getByLabel('Aspect', { exact: true }).inputValue(), 'globalTags');
    const diff = page.locator('figure.diff');
    await diff.getByText('globalTags, version 2 → version 3: 0 lines added, 3 removed').waitFor();
    assert.deepEqual(await diff.locator('.diff-del').allInnerTexts(), ['-       "tag": "urn:li:tag:gold"', '-     },', '-     {']);
    assert.equal(await diff.locator('.diff-add').count(), 0);
    const versions = await rows(page, 'table.versions');
    assert.deepEqual(
      versions.map((r) => [r[0], r[2]]),
      [
        ['3', 'admin'],
        ['2', 'admin'],
        ['1', 'admin'],
      ],
    );
    assert.match(versions[0][1], /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC$/);

    await page.getByLabel('From version').selectOption('1');
    await page.waitForURL(/aspect=globalTags&from=1&to=3/);
    await diff.getByText('globalTags, version 1 → version 3: 1 line added, 1 removed').waitFor();
    assert.deepEqual(await diff.locator('.diff-del').allInnerTexts(), ['-       "tag": "urn:li:tag:gold"']);
    assert.deepEqual(await diff.locator('.diff-add').allInnerTexts(), ['+       "tag": "urn:li:tag:sales"']);
    await assertAccessible(page, 'entity page with a diff');
    // The state is in the URL: a reload shows the same comparison.
    await page.reload();
    await diff.getByText('globalTags, version 1 → version 3: 1 line added, 1 removed').waitFor();

    await page.getByLabel('Aspect', { exact: true }).selectOption('datasetProperties');
    await page.getByText('datasetProperties has one version: nothing to compare yet.').waitFor();
  });

  it('shows metadata-test results, with why a failing test fails', async () => {
    const definition = {
      on: { types: ['dataset'] },
      rules: {
        and: [
          { property: 'ownership.owners.owner', operator: 'exists' },
          { property: 'dataPlatformInstance.platform', operator: 'equals', value: 'urn:li:dataPlatform:snowflake' },
        ],
      },
    };
    const write = (id: string, name: string, json: unknown) =>
      f.served.client.call('POST', `/openapi/v2/entity/test/${encodeURIComponent(`urn:li:test:${id}`)}/testInfo`, {
        name,
        category: 'Governance',
        definition: { type: 'JSON', json: JSON.stringify(json) },
      });
    assert.equal((await write('owned-snowflake', 'Owned Snowflake datasets', definition)).status, 200);
    assert.equal((await write('described', 'Datasets are described', { on: { types: ['dataset'] }, rules: [{ property: 'datasetProperties.description', operator: 'exists' }] })).status, 200);
    const pushed = await f.served.client.call('POST', '/gms/test?action=evaluate', { urn: CLICKS, push: true });
    assert.equal(pushed.status, 200, JSON.stringify(pushed.body));
    const stored = await f.served.client.call('GET', `/openapi/v2/entity/dataset/${encodeURIComponent(CLICKS)}/testResults`);
    const results = (stored.body as { value: { passing: Array<{ test: string }>; failing: Array<{ test: string }> } }).value;
    assert.deepEqual([results.passing.map((r) => r.test), results.failing.map((r) => r.test)], [['urn:li:test:described'], ['urn:li:test:owned-snowflake']]);

    const page = await f.signedIn();
    await page.goto(f.url(entityUrl(CLICKS)));
    const tests = page.locator('section', { has: page.getByRole('heading', { name: 'Metadata tests' }) });
    await tests.getByRole('heading', { name: 'Failing (1)' }).waitFor();
    await tests.getByRole('heading', { name: 'Passing (1)' }).waitFor();
    const failing = tests.locator('li.test-failing');
    await failing.getByText('Owned Snowflake datasets', { exact: true }).waitFor();
    await failing.getByText('Why it fails:').waitFor();
    assert.deepEqual(await failing.locator('ul.explanation li').allInnerTexts(), [
      'rules.and[1]: dataPlatformInstance.platform equals "urn:li:dataPlatform:snowflake" — found: "urn:li:dataPlatform:hive"',
    ]);
    await tests.getByText('Datasets are described', { exact: true }).waitFor();
    await assertAccessible(page, 'entity page with test results');
  });

  it('says when an entity does not exist', async () => {
    const page = await f.signedIn();
    const missing = ds('hive', 'nowhere.nothing');
    await page.goto(f.url(entityUrl(missing)));
    await page.getByRole('heading', { level: 1, name: 'Not found' }).waitFor();
    await page.getByRole('alert').getByText(`There is no entity ${missing} in the catalog.`).waitFor();
    await page.getByText(`Entity ${missing} not found`, { exact: true }).waitFor();
    await assertAccessible(page, 'entity not found');
  });
});
