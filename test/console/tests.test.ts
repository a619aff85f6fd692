import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { Client } from '../reliability/client.js';
import { assertAccessible, BROWSER_SKIP, consoleFixture } from './harness.js';

const dataset = (platform: string, name: string) => `urn:li:dataset:(urn:li:dataPlatform:${platform},${name},PROD)`;
const path = (urn: string) => encodeURIComponent(urn);

describe('console: metadata tests', { skip: BROWSER_SKIP }, () => {
  const f = consoleFixture();

  /** The definition textarea (the JSON view), replaced with `json`. */
  async function setDefinition(page: Page, json: unknown) {
    await jsonView(page);
    await page.getByLabel('Definition (JSON)').fill(typeof json === 'string' ? json : JSON.stringify(json, null, 2));
  }

  /** Switches the definition editor to its JSON view. */
  async function jsonView(page: Page) {
    const button = page.getByRole('group', { name: 'Edit the definition as' }).getByRole('button', { name: 'JSON', exact: true });
    if ((await button.getAttribute('aria-pressed')) !== 'true') await button.click();
    await page.getByLabel('Definition (JSON)').waitFor();
  }

  it('creates a test through the form (read back through the API), lists it, and edits it', async () => {
    const page = await f.signedIn();
    await page.goto(f.url('#/tests'));
    await page.getByRole('heading', { name: 'Metadata tests', level: 1 }).waitFor();
    await page.getByText('No metadata tests yet.').waitFor();
    await assertAccessible(page, 'tests: empty list');
    await page.getByRole('link', { name: 'New test' }).click();
    await page.getByRole('heading', { name: 'New metadata test' }).waitFor();
    await page.getByLabel('Name').fill('Datasets are described');
    await page.getByText('urn:li:test:datasets-are-described').waitFor();
    await page.getByLabel('Category').fill('Documentation');
    await page.getByLabel('Description').fill('<img src=x onerror=alert(1)> every dataset says what it holds');
    const definition = {
      on: { types: ['dataset'] },
      rules: { or: [{ property: 'datasetProperties.description', operator: 'exists' }, { property: 'editableDatasetProperties.description', operator: 'exists' }] },
    };
    await setDefinition(page, definition);
    await page.getByLabel('Schedule').selectOption('NONE');
    await assertAccessible(page, 'tests: new test form');
    await page.getByRole('button', { name: 'Create test' }).click();
    await page.waitForURL(/#\/tests\?urn=urn%3Ali%3Atest%3Adatasets-are-described$/);
    await page.getByRole('heading', { name: 'Datasets are described', level: 1 }).waitFor();

    const stored = await f.served.client.call('GET', `/openapi/v2/entity/test/${path('urn:li:test:datasets-are-described')}/testInfo`);
    assert.equal(stored.status, 200);
    const info = stored.body.value;
    assert.equal(info.name, 'Datasets are described');
    assert.equal(info.category, 'Documentation');
    assert.equal(info.description, '<img src=x onerror=alert(1)> every dataset says what it holds');
    assert.deepEqual(info.status, { mode: 'ACTIVE' });
    assert.deepEqual(info.schedule, { interval: 'NONE' });
    assert.equal(info.definition.type, 'JSON');
    assert.deepEqual(JSON.parse(info.definition.json), definition);
    assert.match(info.definition.md5, /^[0-9a-f]{32}$/);
    // The description is text in a field, not markup.
    assert.equal(await page.getByLabel('Description').inputValue(), '<img src=x onerror=alert(1)> every dataset says what it holds');
    assert.equal(await page.locator('main img').count(), 0);

    // Edit: the category and the mode; the rest of the aspect stays.
    await page.getByLabel('Category').fill('Governance');
    await page.getByLabel('Mode', { exact: true }).selectOption('INACTIVE');
    await page.getByRole('button', { name: 'Save test' }).click();
    await page.getByRole('status').getByText('Saved.').waitFor();
    const edited = (await f.served.client.call('GET', `/openapi/v2/entity/test/${path('urn:li:test:datasets-are-described')}/testInfo`)).body.value;
    assert.equal(edited.category, 'Governance');
    assert.deepEqual(edited.status, { mode: 'INACTIVE' });
    assert.deepEqual(edited.schedule, { interval: 'NONE' });
    assert.equal(edited.description, info.description);
    assert.deepEqual(JSON.parse(edited.definition.json), definition);

    // The list shows it, with a test made through the API.
    await f.served.client.call('POST', `/openapi/v2/entity/test/${path('urn:li:test:owned')}/testInfo`, {
      name: 'Datasets are owned',
      category: 'Ownership',
      definition: { type: 'JSON', json: JSON.stringify({ on: { types: ['dataset'] }, rules: [{ property: 'ownership.owners.owner', operator: 'exists' }] }) },
    });
    await page.getByRole('link', { name: 'All metadata tests' }).click();
    const rows = page.locator('main table tbody tr');
    await rows.nth(1).waitFor();
    assert.deepEqual(await rows.allInnerTexts(), [
      'Datasets are described\nurn:li:test:datasets-are-described\n\tGovernance\tINACTIVE\ton demand',
      'Datasets are owned\nurn:li:test:owned\n\tOwnership\tACTIVE\tdaily',
    ]);
    await assertAccessible(page, 'tests: list');
  });

  it('a refused definition says why in words, the server\'s exact message under Details, and nothing is written', async () => {
    const page = await f.signedIn();
    await page.goto(f.url('#/tests?new=1'));
    await page.getByLabel('Name').fill('broken');
    await page.getByLabel('Category').fill('Governance');
    await setDefinition(page, { on: { types: ['dataset'] }, rules: [{ property: 'urn', operator: 'eq', value: 'x' }] });
    await page.getByRole('button', { name: 'Create test' }).click();
    await page.getByRole('alert').getByText('"eq" is not an operator. Pick one from the list.', { exact: true }).waitFor();
    await page.getByRole('alert').getByText('Details').click();
    await page.getByRole('alert').getByText('400: rules[0].operator: unknown operator "eq"', { exact: true }).waitFor();
    await assertAccessible(page, 'tests: refused definition');
    assert.equal((await f.served.client.call('GET', `/openapi/v2/entity/test/${path('urn:li:test:broken')}/testInfo`)).status, 404);
    // A definition that is not JSON: the server's parse message.
    await setDefinition(page, '{"on": ');
    await page.getByRole('button', { name: 'Create test' }).click();
    await page.getByRole('alert').getByText(/^The definition is not valid JSON \(.+\)\.$/).waitFor();
    // An ID that is taken.
    await setDefinition(page, { on: { types: ['dataset'] }, rules: [{ property: 'urn', operator: 'exists' }] });
    await page.getByLabel('ID').fill('owned');
    await f.served.client.call('POST', `/openapi/v2/entity/test/${path('urn:li:test:owned')}/testInfo`, {
      name: 'Datasets are owned',
      category: 'Ownership',
      definition: { type: 'JSON', json: JSON.stringify({ on: { types: ['dataset'] }, rules: [{ property: 'ownership.owners.owner', operator: 'exists' }] }) },
    });
    await page.getByRole('button', { name: 'Create test' }).click();
    await page.getByRole('alert').getByText('urn:li:test:owned already exists: pick another name, or edit the existing one.', { exact: true }).waitFor();
  });

  it('tries an unsaved definition on an entity: the verdict and why it fails', async () => {
    const orders = dataset('mysql', 'try.orders');
    await f.served.client.call('POST', '/openapi/v2/entity/dataset?async=false', [
      { urn: orders, aspects: { datasetProperties: { value: { description: 'One row per order' } }, globalTags: { value: { tags: [{ tag: 'urn:li:tag:pii' }] } } } },
    ]);
    const page = await f.signedIn();
    await page.goto(f.url('#/tests?new=1'));
    await setDefinition(page, {
      on: { types: ['dataset'] },
      rules: { and: [{ property: 'globalTags.tags.tag', operator: 'equals', value: 'urn:li:tag:gold' }, { property: 'datasetProperties.description', operator: 'exists' }] },
    });
    await page.getByLabel('Entity URN').fill(orders);
    await page.getByRole('button', { name: 'Try the definition' }).click();
    const verdict = page.locator('.tests-verdict');
    await verdict.getByText('Fails', { exact: true }).waitFor();
    assert.deepEqual(await verdict.locator('tbody tr').allInnerTexts(), ['rules.and[0]\tglobalTags.tags.tag\tequals\turn:li:tag:gold\turn:li:tag:pii']);
    assert.deepEqual(await verdict.locator('thead th').allInnerTexts(), ['Condition', 'Property', 'Operator', 'Expected', 'Found']);
    await assertAccessible(page, 'tests: a failing try');

    // The edited definition, unsaved, passes; an entity out of scope is not selected.
    await setDefinition(page, { on: { types: ['dataset'] }, rules: [{ property: 'globalTags.tags.tag', operator: 'equals', value: 'urn:li:tag:pii' }] });
    await page.getByRole('button', { name: 'Try the definition' }).click();
    await verdict.getByText('Passes', { exact: true }).waitFor();
    assert.equal(await verdict.locator('table').count(), 0);
    await setDefinition(page, { on: { types: ['dataset'], conditions: { property: 'dataPlatformInstance.platform', operator: 'equals', value: 'urn:li:dataPlatform:snowflake' } }, rules: [{ property: 'urn', operator: 'exists' }] });
    await page.getByRole('button', { name: 'Try the definition' }).click();
    await verdict.getByText(/^Not selected/).waitFor();
    // An unknown entity: the server's 404.
    await page.getByLabel('Entity URN').fill(dataset('mysql', 'try.nothing'));
    await page.getByRole('button', { name: 'Try the definition' }).click();
    await page.getByRole('alert').getByText(`There is no entity ${dataset('mysql', 'try.nothing')} in the catalog.`, { exact: true }).waitFor();
  });

  it('runs a test over the catalog, page by page, with the exact passing and failing counts; an editor may push the results', async () => {
    // 130 Hive datasets described, 45 not; 60 on Snowflake, outside the test's scope: 235 datasets, 3 pages.
    const entities = [
      ...Array.from({ length: 130 }, (_, i) => ({ urn: dataset('hive', `run.described_${i}`), aspects: { datasetProperties: { value: { description: `table ${i}` } } } })),
      ...Array.from({ length: 45 }, (_, i) => ({ urn: dataset('hive', `run.bare_${i}`), aspects: { datasetProperties: { value: { name: `bare_${i}` } } } })),
      ...Array.from({ length: 60 }, (_, i) => ({ urn: dataset('snowflake', `run.other_${i}`), aspects: { datasetProperties: { value: { name: `other_${i}` } } } })),
    ];
    assert.equal((await f.served.client.call('POST', '/openapi/v2/entity/dataset?async=false', entities)).status, 200);
    const test = 'urn:li:test:hive-described';
    const definition = {
      on: { types: ['dataset'], conditions: { property: 'dataPlatformInstance.platform', operator: 'equals', value: 'urn:li:dataPlatform:hive' } },
      rules: [{ property: 'datasetProperties.description', operator: 'exists' }],
    };
    assert.equal(
      (
        await f.served.client.call('POST', `/openapi/v2/entity/test/${path(test)}/testInfo`, {
          name: 'Hive datasets are described',
          category: 'Documentation',
          definition: { type: 'JSON', json: JSON.stringify(definition) },
          // Inactive: the server does not run it by itself (an active test is run, pushed, when written).
          status: { mode: 'INACTIVE' },
          schedule: { interval: 'NONE' },
        })
      ).status,
      200,
    );
    // Every dataset of the catalog (some other test may have made more): the not-selected count.
    const all = (await f.served.client.call('GET', '/openapi/v2/entity/dataset?count=1')).body.totalCount as number;

    const page = await f.signedIn();
    const batches: string[] = [];
    page.on('request', (request) => {
      if (request.url().includes('action=batchEvaluate')) batches.push(request.postData() ?? '');
    });
    await page.goto(f.url(`#/tests?urn=${path(test)}`));
    await page.getByRole('heading', { name: 'Hive datasets are described', level: 1 }).waitFor();
    await page.getByText('Evaluates the saved test on every dataset entity, 100 at a time.').waitFor();
    await page.getByRole('button', { name: 'Run over the catalog' }).click();
    await page.getByRole('status').getByText(`Done: ${all} entities evaluated — 130 passing, 45 failing, ${all - 175} not selected.`, { exact: true }).waitFor();
    assert.equal(batches.length, Math.ceil(all / 100));
    for (const body of batches) {
      const sent = JSON.parse(body);
      assert.deepEqual(sent.testUrns, [test]);
      assert.equal(sent.push, false);
      assert.ok(sent.urns.length > 0 && sent.urns.length <= 100);
    }
    assert.equal(await page.locator('#tests-run-progress').evaluate((el) => (el as HTMLProgressElement).value), all);
    assert.equal(await page.locator('.tests-failing li').count(), 20);
    await page.getByRole('heading', { name: 'Failing entities (the first 20)' }).waitFor();
    await assertAccessible(page, 'tests: a finished run');
    // Nothing was pushed.
    const bare = `/openapi/v2/entity/dataset/${path(dataset('hive', 'run.bare_0'))}/testResults`;
    const before = await f.served.client.call('GET', bare);
    assert.ok(before.status === 404 || !JSON.stringify(before.body).includes(test), 'no result of the test was pushed');

    // Pushed by an editor.
    const editor = (await f.served.client.call('POST', '/openapi/v2/auth/tokens', { name: 'tests-editor', role: 'editor' })).body.token as string;
    const editorPage = await f.signedIn(editor);
    await editorPage.goto(f.url(`#/tests?urn=${path(test)}`));
    await editorPage.getByLabel('Push the results to the entities and run the test’s actions').check();
    await editorPage.getByRole('button', { name: 'Run over the catalog' }).click();
    await editorPage.getByRole('status').getByText(`Done: ${all} entities evaluated — 130 passing, 45 failing, ${all - 175} not selected; results pushed.`, { exact: true }).waitFor();
    const pushed = await new Client(f.served.server.base, editor).call('GET', bare);
    assert.equal(pushed.status, 200);
    // Other tests' entries (pushed as datasets changed) may be there too; this test's is a failure.
    assert.ok(pushed.body.value.failing.some((r: { test: string }) => r.test === test));
    assert.ok(!pushed.body.value.passing.some((r: { test: string }) => r.test === test));
    const described = await f.served.client.call('GET', `/openapi/v2/entity/dataset/${path(dataset('hive', 'run.described_0'))}/testResults`);
    assert.ok(described.body.value.passing.some((r: { test: string }) => r.test === test));
  });

  it('a viewer reads tests and may try them, but has no way to edit', async () => {
    const viewer = (await f.served.client.call('POST', '/openapi/v2/auth/tokens', { name: 'tests-viewer', role: 'viewer' })).body.token as string;
    await f.served.client.call('POST', `/openapi/v2/entity/test/${path('urn:li:test:viewer-sees')}/testInfo`, {
      name: 'Viewer sees',
      category: 'Governance',
      definition: { type: 'JSON', json: JSON.stringify({ on: { types: ['dataset'] }, rules: [{ property: 'urn', operator: 'exists' }] }) },
    });
    const page = await f.signedIn(viewer);
    await page.goto(f.url('#/tests'));
    await page.getByRole('link', { name: 'Viewer sees' }).waitFor();
    assert.equal(await page.getByRole('link', { name: 'New test' }).count(), 0);
    await page.getByRole('link', { name: 'Viewer sees' }).click();
    await page.getByRole('heading', { name: 'Viewer sees', level: 1 }).waitFor();
    assert.equal(await page.getByRole('button', { name: 'Save test' }).count(), 0);
    assert.equal(await page.getByLabel('Name').getAttribute('readonly'), '');
    // Its conditions are shown, not editable; so is its JSON.
    assert.equal(await page.getByLabel('Rule 1 property').getAttribute('readonly'), '');
    assert.equal(await page.getByLabel('Rule 1 operator').isDisabled(), true);
    assert.equal(await page.getByRole('button', { name: /^Add a condition/ }).count(), 0);
    await jsonView(page);
    assert.equal(await page.getByLabel('Definition (JSON)').getAttribute('readonly'), '');
    assert.equal(await page.getByLabel(/Push the results/).count(), 0);
    assert.equal(await page.getByRole('button', { name: /^Delete/ }).count(), 0);
    await page.getByRole('button', { name: 'Run over the catalog' }).waitFor();
    await assertAccessible(page, 'tests: a viewer on a test');
  });

  it('fits a 375-px-wide window', async () => {
    await f.served.client.call('POST', `/openapi/v2/entity/test/${path('urn:li:test:narrow')}/testInfo`, {
      name: 'A test with a rather long name to wrap on a narrow screen',
      category: 'Governance',
      definition: { type: 'JSON', json: JSON.stringify({ on: { types: ['dataset'] }, rules: [{ property: 'datasetProperties.customProperties.a_really_long_property_name_here', operator: 'exists' }] }) },
    });
    await f.served.client.call('POST', '/openapi/v2/entity/dataset?async=false', [{ urn: dataset('hive', 'narrow.table_with_a_long_name'), aspects: { datasetProperties: { value: { name: 'n' } } } }]);
    const page = await f.signedIn(undefined, { width: 375, height: 800 });
    await page.goto(f.url(`#/tests?urn=${path('urn:li:test:narrow')}`));
    await page.getByLabel('Entity URN').fill(dataset('hive', 'narrow.table_with_a_long_name'));
    await page.getByRole('button', { name: 'Try the definition' }).click();
    await page.locator('.tests-verdict').getByText('Fails', { exact: true }).waitFor();
    assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= 375), 'no horizontal overflow on the test page');
    await page.goto(f.url('#/tests'));
    await page.getByRole('link', { name: 'A test with a rather long name to wrap on a narrow screen' }).waitFor();
    assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= 375), 'no horizontal overflow on the list');
  });

  it('flags a test whose definition is {} (as in DataHub\'s demo data) as selecting nothing, in the list and on its page', async () => {
    const written = await f.served.client.call('POST', `/openapi/v2/entity/test/${path('urn:li:test:demo-empty')}/testInfo`, {
      name: 'Demo test without a definition',
      category: 'Demo',
      definition: { type: 'JSON', json: '{}' },
    });
    assert.equal(written.status, 200, JSON.stringify(written.body));
    const page = await f.signedIn();
    await page.goto(f.url('#/tests'));
    const row = page.locator('tbody tr', { has: page.getByRole('link', { name: 'Demo test without a definition' }) });
    assert.equal(await row.locator('.tests-flag').innerText(), 'selects nothing');
    assert.equal(await row.locator('.tests-flag').getAttribute('title'), 'The definition names no entity types: it never matches');
    // Only that test is flagged.
    assert.equal(await page.locator('tbody .tests-flag').count(), 1);
    await assertAccessible(page, 'tests: a test that selects nothing in the list');

    await row.getByRole('link', { name: 'Demo test without a definition' }).click();
    await page.getByRole('heading', { name: 'Demo test without a definition', level: 1 }).waitFor();
    assert.equal(
      await page.getByRole('note').innerText(),
      'selects nothing Its definition names no entity types (on.types), so it never selects an entity: a run finds nothing to pass or fail.',
    );
    // The conditions view cannot show {}: the JSON view, saying why.
    await page.getByText('Shown as JSON: The definition is {}: it selects nothing, and has no conditions to show.').waitFor();
    assert.equal(await page.getByLabel('Definition (JSON)').inputValue(), '{}');
    await page.getByText('The saved definition selects no entity type.').waitFor();
    assert.equal(await page.getByRole('button', { name: 'Run over the catalog' }).count(), 0);
    await assertAccessible(page, 'tests: a test that selects nothing');
  });
  it('builds a definition from conditions (types, properties offered, operators, values, and/or/not groups), in sync with its JSON both ways', async () => {
    await f.served.client.call('POST', `/openapi/v2/entity/structuredProperty/${path('urn:li:structuredProperty:io.acryl.retentionDays')}/propertyDefinition`, {
      qualifiedName: 'io.acryl.retentionDays',
      valueType: 'urn:li:dataType:datahub.number',
      entityTypes: ['urn:li:entityType:datahub.dataset'],
    });
    const page = await f.signedIn();
    await page.goto(f.url('#/tests?new=1'));
    await page.getByLabel('Name').fill('Governed datasets');
    await page.getByLabel('Category').fill('Governance');
    // The new definition opens as conditions: its type ticked, its one rule shown.
    assert.equal(await page.getByRole('button', { name: 'Conditions', exact: true }).getAttribute('aria-pressed'), 'true');
    assert.equal(await page.getByRole('checkbox', { name: 'dataset', exact: true }).isChecked(), true);
    assert.equal(await page.getByRole('checkbox', { name: 'chart', exact: true }).isChecked(), false);
    // Its one rule: either description exists (ingested, or written by the console's editor).
    assert.equal(await page.getByLabel('Rule 1: how the conditions combine').inputValue(), 'or');
    assert.equal(await page.getByLabel('Rule 1.1 property').inputValue(), 'datasetProperties.description');
    assert.equal(await page.getByLabel('Rule 1.1 operator').inputValue(), 'exists');
    assert.equal(await page.getByLabel('Rule 1.1 value').count(), 0);
    assert.equal(await page.getByLabel('Rule 1.2 property').inputValue(), 'editableDatasetProperties.description');
    assert.equal(await page.getByLabel('Rule 1.2 operator').inputValue(), 'exists');
    assert.equal(await page.getByLabel('Rule 2 property').count(), 0);
    // The properties offered: the registry's fields of the types, and the catalog's structured properties.
    const offered = page.locator('datalist#tests-properties option');
    await page.locator('datalist#tests-properties option[value="structuredProperties.io.acryl.retentionDays"]').waitFor({ state: 'attached' });
    for (const known of ['ownership.owners.owner', 'globalTags.tags.tag', 'schemaFields.length', 'domains.domains']) {
      assert.equal(await page.locator(`datalist#tests-properties option[value="${known}"]`).count(), 1, known);
    }
    assert.ok((await offered.count()) > 100);
    assert.deepEqual(
      await page.getByLabel('Rule 1.1 operator').locator('option').allInnerTexts(),
      ['equals', 'contains any of', 'contains the text', 'starts with', 'matches the pattern', 'is greater than', 'is less than', 'exists', 'is true', 'is false', 'schema fields all have descriptions'],
    );

    // Rule 2: a negated equals; Rule 3: an OR group of two; a scope condition.
    await page.getByRole('button', { name: 'Add a condition to the rules' }).click();
    await page.getByLabel('Rule 2 property').fill('globalTags.tags.tag');
    await page.getByLabel('Rule 2 operator').selectOption('equals');
    await page.getByLabel('Rule 2 value').fill('urn:li:tag:deprecated');
    await page.getByLabel('not (Rule 2 negated)').check();
    await page.getByRole('button', { name: 'Add a group to the rules' }).click();
    await page.getByLabel('Rule 3.1 property').fill('ownership.owners.owner');
    await page.getByRole('button', { name: 'Add a condition to Rule 3' }).click();
    await page.getByLabel('Rule 3.2 property').fill('structuredProperties.io.acryl.retentionDays');
    await page.getByLabel('Rule 3.2 operator').selectOption('greater_than');
    await page.getByLabel('Rule 3.2 value').fill('30');
    await page.getByRole('button', { name: 'Add a value to Rule 3.2' }).click();
    await page.getByLabel('Rule 3.2 value 2', { exact: true }).fill('60');
    await page.getByRole('button', { name: 'Remove Rule 3.2 value 2' }).click();
    await page.getByRole('button', { name: 'Narrow the scope' }).click();
    await page.getByLabel('Scope 1 property').fill('dataPlatformInstance.platform');
    await page.getByLabel('Scope 1 operator').selectOption('equals');
    await page.getByLabel('Scope 1 value').fill('urn:li:dataPlatform:snowflake');
    await page.getByRole('checkbox', { name: 'chart', exact: true }).check();
    await page.getByRole('checkbox', { name: 'chart', exact: true }).uncheck();
    await assertAccessible(page, 'tests: the conditions editor');

    const expected = {
      on: { types: ['dataset'], conditions: { and: [{ property: 'dataPlatformInstance.platform', operator: 'equals', value: 'urn:li:dataPlatform:snowflake' }] } },
      rules: [
        { or: [{ property: 'datasetProperties.description', operator: 'exists' }, { property: 'editableDatasetProperties.description', operator: 'exists' }] },
        { not: { property: 'globalTags.tags.tag', operator: 'equals', value: 'urn:li:tag:deprecated' } },
        { or: [{ property: 'ownership.owners.owner', operator: 'exists' }, { property: 'structuredProperties.io.acryl.retentionDays', operator: 'greater_than', value: '30' }] },
      ],
    };
    await jsonView(page);
    assert.deepEqual(JSON.parse(await page.getByLabel('Definition (JSON)').inputValue()), expected);
    // And back: an edit in the JSON shows in the conditions.
    await setDefinition(page, { ...expected, rules: [...expected.rules.slice(0, 2), { and: [{ property: 'ownership.owners.owner', operator: 'exists' }] }] });
    await page.getByRole('button', { name: 'Conditions', exact: true }).click();
    assert.equal(await page.getByLabel('the rules: how the conditions combine').inputValue(), 'and');
    assert.equal(await page.getByLabel('Rule 3: how the conditions combine').inputValue(), 'and');
    assert.equal(await page.getByLabel('Rule 3.1 property').inputValue(), 'ownership.owners.owner');
    assert.equal(await page.getByLabel('Rule 3.2 property').count(), 0);
    assert.equal(await page.getByLabel('Rule 2 value').inputValue(), 'urn:li:tag:deprecated');
    assert.equal(await page.getByLabel('not (Rule 2 negated)').isChecked(), true);
    await page.getByLabel('Rule 3: how the conditions combine').selectOption('not-or');
    await page.getByRole('button', { name: 'Remove Rule 1', exact: true }).click();

    await page.getByRole('button', { name: 'Create test' }).click();
    await page.waitForURL(/#\/tests\?urn=urn%3Ali%3Atest%3Agoverned-datasets$/);
    const stored = (await f.served.client.call('GET', `/openapi/v2/entity/test/${path('urn:li:test:governed-datasets')}/testInfo`)).body.value;
    assert.deepEqual(JSON.parse(stored.definition.json), {
      on: expected.on,
      rules: [expected.rules[1], { not: { or: [{ property: 'ownership.owners.owner', operator: 'exists' }] } }],
    });
    // A saved test opens as conditions too.
    await page.getByLabel('Rule 2: how the conditions combine').waitFor();
    assert.equal(await page.getByLabel('Rule 2: how the conditions combine').inputValue(), 'not-or');
  });

  it('a definition the conditions cannot show opens as JSON, saying why; its actions are kept', async () => {
    const legacy = { on: { types: ['dataset'] }, rules: [{ query: 'urn', operation: 'exists' }] };
    await f.served.client.call('POST', `/openapi/v2/entity/test/${path('urn:li:test:legacy')}/testInfo`, {
      name: 'Legacy spelling',
      category: 'Governance',
      definition: { type: 'JSON', json: JSON.stringify(legacy) },
    });
    const page = await f.signedIn();
    await page.goto(f.url(`#/tests?urn=${path('urn:li:test:legacy')}`));
    await page.getByText('Shown as JSON: rules[0] uses DataHub\'s older spelling "query", "operation"; edit it here, or write it as property, operator, value and not.').waitFor();
    assert.equal(await page.getByRole('button', { name: 'JSON', exact: true }).getAttribute('aria-pressed'), 'true');
    await page.getByRole('button', { name: 'Conditions', exact: true }).click();
    assert.equal(await page.getByRole('button', { name: 'JSON', exact: true }).getAttribute('aria-pressed'), 'true');
    // Rewritten in today's spelling, with actions: the conditions show it, the actions are kept as they are.
    const actions = { passing: [{ type: 'ADD_TAGS', params: { values: ['urn:li:tag:ok'] } }] };
    await setDefinition(page, { on: { types: ['dataset'] }, rules: [{ property: 'urn', operator: 'exists' }], actions });
    await page.getByRole('button', { name: 'Conditions', exact: true }).click();
    await page.getByText('The test also has actions (passing): edit them in the JSON view.').waitFor();
    assert.equal(await page.getByText(/^Shown as JSON/).count(), 0);
    await page.getByLabel('Rule 1 operator').selectOption('starts_with');
    await page.getByLabel('Rule 1 value').fill('urn:li:dataset:');
    await page.getByRole('button', { name: 'Save test' }).click();
    await page.getByRole('status').getByText('Saved.').waitFor();
    const stored = (await f.served.client.call('GET', `/openapi/v2/entity/test/${path('urn:li:test:legacy')}/testInfo`)).body.value;
    assert.deepEqual(JSON.parse(stored.definition.json), { on: { types: ['dataset'] }, rules: [{ property: 'urn', operator: 'starts_with', value: 'urn:li:dataset:' }], actions });
  });

  it('a refusal shows next to the condition at fault; a later success clears every error', async () => {
    const orders = dataset('mysql', 'refused.orders');
    await f.served.client.call('POST', `/openapi/v2/entity/dataset/${path(orders)}/datasetProperties`, { description: 'orders' });
    const page = await f.signedIn();
    await page.goto(f.url('#/tests?new=1'));
    await page.getByLabel('Name').fill('Refused first');
    await page.getByLabel('Category').fill('Governance');
    await page.getByRole('button', { name: 'Add a condition to the rules' }).click();
    await page.getByLabel('Rule 2 property').fill('datasetProperties.nope');
    await page.getByRole('button', { name: 'Create test' }).click();
    const message = '"datasetProperties.nope" is not a property of dataset (datasetProperties has no field nope). Pick a property from the suggestions.';
    await page.getByRole('alert').getByText(message, { exact: true }).waitFor();
    // Next to Rule 2, which is marked; Rule 1 is not.
    const rule2 = page.getByRole('group', { name: 'Rule 2', exact: true });
    assert.equal(await rule2.locator('.tests-refusal').innerText(), message);
    assert.equal(await page.getByLabel('Rule 2 property').getAttribute('aria-invalid'), 'true');
    assert.equal(await page.getByLabel('Rule 1.1 property').getAttribute('aria-invalid'), null);
    assert.equal(await page.getByRole('group', { name: 'Rule 1', exact: true }).locator('.tests-refusal').count(), 0);
    await assertAccessible(page, 'tests: a refused condition');
    // No entity type ticked: the refusal shows at the types.
    await page.getByRole('checkbox', { name: 'dataset', exact: true }).uncheck();
    await page.getByRole('button', { name: 'Create test' }).click();
    await page.locator('#tests-types-refusal').getByText('Tick at least one entity type the test applies to.', { exact: true }).waitFor();
    assert.equal(await page.locator('.tests-leaf .tests-refusal').count(), 0);
    await page.getByRole('checkbox', { name: 'dataset', exact: true }).check();

    // Fixed, tried: it passes, and neither the form's error nor the condition's stays.
    await page.getByLabel('Rule 2 property').fill('datasetProperties.description');
    await page.getByLabel('Entity URN').fill(orders);
    await page.getByRole('button', { name: 'Try the definition' }).click();
    await page.locator('.tests-verdict').getByText('Passes', { exact: true }).waitFor();
    assert.equal(await page.getByRole('alert').count(), 0);
    assert.equal(await page.locator('.tests-refusal').count(), 0);
    assert.equal(await page.getByLabel('Rule 2 property').getAttribute('aria-invalid'), null);
  });

  it('the new test\'s default rule passes a dataset described in the console (editableDatasetProperties) or by ingestion, and fails an undescribed one', async () => {
    const inConsole = dataset('hive', 'default.console_described');
    const ingested = dataset('hive', 'default.ingested');
    const bare = dataset('hive', 'default.bare');
    // What the console's "Edit description" writes, as DataHub's UI does.
    assert.equal((await f.served.client.call('POST', `/openapi/v2/entity/dataset/${path(inConsole)}/editableDatasetProperties`, { description: 'Described in the console' })).status, 200);
    assert.equal((await f.served.client.call('POST', `/openapi/v2/entity/dataset/${path(ingested)}/datasetProperties`, { description: 'Ingested' })).status, 200);
    assert.equal((await f.served.client.call('POST', `/openapi/v2/entity/dataset/${path(bare)}/datasetProperties`, { name: 'bare' })).status, 200);
    const page = await f.signedIn();
    await page.goto(f.url('#/tests?new=1'));
    for (const [urn, verdict] of [[inConsole, 'Passes'], [ingested, 'Passes'], [bare, 'Fails']] as const) {
      await page.getByLabel('Entity URN').fill(urn);
      await page.getByRole('button', { name: 'Try the definition' }).click();
      await page.locator('.tests-verdict').getByText(verdict, { exact: true }).waitFor();
    }
  });

  it('marks Name and Category as required, and says so in words when one is missing; nothing is written', async () => {
    const page = await f.signedIn();
    await page.goto(f.url('#/tests?new=1'));
    assert.equal(await page.locator('label[for="test-name"]').innerText(), 'Name (required)');
    assert.equal(await page.locator('label[for="test-category"]').innerText(), 'Category (required)');
    assert.equal(await page.locator('label[for="test-mode"]').innerText(), 'Mode');
    await page.getByLabel('Name').fill('Has no category');
    await page.getByRole('button', { name: 'Create test' }).click();
    const missing = page.locator('#test-category-missing');
    await missing.waitFor();
    assert.equal(await missing.innerText(), 'Category is required: give the test one, such as “Documentation”.');
    const input = page.getByLabel('Category');
    assert.equal(await input.getAttribute('aria-invalid'), 'true');
    assert.equal(await input.getAttribute('aria-describedby'), 'test-category-missing');
    assert.equal(await page.evaluate(() => document.activeElement?.id), 'test-category');
    assert.equal(await page.locator('#test-name-missing').count(), 0, 'the name is given');
    await assertAccessible(page, 'tests: a required field missing');
    // Both missing: both say so, the first has the focus.
    await page.getByLabel('Name').fill('');
    await page.getByRole('button', { name: 'Create test' }).click();
    assert.equal(await page.locator('#test-name-missing').innerText(), 'Name is required: give the test one, such as “Datasets are described”.');
    assert.equal(await page.evaluate(() => document.activeElement?.id), 'test-name');
    assert.ok(page.url().endsWith('#/tests?new=1'), 'still the new-test form');
    assert.equal((await f.served.client.call('GET', `/openapi/v2/entity/test/${path('urn:li:test:has-no-category')}/testInfo`)).status, 404, 'nothing written');
    // Typing clears the field's message; filled in, the test is created.
    await page.getByLabel('Name').fill('Now complete');
    assert.equal(await page.locator('#test-name-missing').count(), 0);
    await page.getByLabel('Category').fill('Documentation');
    assert.equal(await page.locator('.tests-missing').count(), 0);
    await page.getByRole('button', { name: 'Create test' }).click();
    await page.waitForURL(/#\/tests\?urn=urn%3Ali%3Atest%3Anow-complete$/);
  });

  it('an invalid pattern and an unknown aspect are refused in words, at the condition\'s marked field', async () => {
    const page = await f.signedIn();
    await page.goto(f.url('#/tests?new=1'));
    await page.getByLabel('Name').fill('Refused pattern');
    await page.getByLabel('Category').fill('Governance');
    await page.getByLabel('Rule 1.1 operator').selectOption('regex_match');
    await page.getByLabel('Rule 1.1 value').fill('([');
    await page.getByRole('button', { name: 'Create test' }).click();
    const pattern = '"([" is not a valid regular expression (missing closing ]: `[`). Check its brackets and escapes.';
    await page.getByRole('alert').getByText(pattern, { exact: true }).waitFor();
    const rule1 = page.getByRole('group', { name: 'Rule 1.1', exact: true });
    assert.equal(await rule1.locator('.tests-refusal').innerText(), pattern);
    assert.equal(await page.getByLabel('Rule 1.1 value').getAttribute('aria-invalid'), 'true');
    assert.equal(await page.getByLabel('Rule 1.1 property').getAttribute('aria-invalid'), null);
    await page.getByLabel('Rule 1.1 operator').selectOption('exists');
    await page.getByLabel('Rule 1.1 property').fill('no.such.aspect');
    await page.getByRole('button', { name: 'Create test' }).click();
    const property = '"no.such.aspect" is not a property of dataset (dataset has no aspect no). Pick a property from the suggestions.';
    await page.getByRole('alert').getByText(property, { exact: true }).waitFor();
    assert.equal(await rule1.locator('.tests-refusal').innerText(), property);
    assert.equal(await page.getByLabel('Rule 1.1 property').getAttribute('aria-invalid'), 'true');
    await assertAccessible(page, 'tests: a refused pattern');
  });

  it('deletes a test after a confirmation naming it; the list says so and no longer has it', async () => {
    await f.served.client.call('POST', `/openapi/v2/entity/test/${path('urn:li:test:doomed')}/testInfo`, {
      name: 'Doomed test',
      category: 'Governance',
      definition: { type: 'JSON', json: JSON.stringify({ on: { types: ['dataset'] }, rules: [{ property: 'urn', operator: 'exists' }] }) },
    });
    const page = await f.signedIn();
    await page.goto(f.url(`#/tests?urn=${path('urn:li:test:doomed')}`));
    await page.getByRole('button', { name: 'Delete this test…' }).click();
    const question = page.locator('#tests-delete-question');
    assert.equal(
      await question.innerText(),
      'Delete the test Doomed test (urn:li:test:doomed)? It stops running at once; the entities keep its results until they are next evaluated, which drops them. This cannot be undone.',
    );
    await assertAccessible(page, 'tests: confirming a delete');
    // Kept: nothing happens.
    await page.getByRole('button', { name: 'Keep it' }).click();
    assert.equal((await f.served.client.call('GET', `/openapi/v2/entity/test/${path('urn:li:test:doomed')}/testInfo`)).status, 200);
    await page.getByRole('button', { name: 'Delete this test…' }).click();
    await page.getByRole('button', { name: 'Delete \u201cDoomed test\u201d' }).click();
    await page.waitForURL(/#\/tests\?deleted=Doomed\+test$/);
    await page.getByRole('status').getByText('Deleted the test \u201cDoomed test\u201d.').waitFor();
    await page.locator('main table tbody tr').first().waitFor();
    assert.equal(await page.getByRole('link', { name: 'Doomed test' }).count(), 0);
    assert.equal((await f.served.client.call('GET', `/openapi/v2/entity/test/${path('urn:li:test:doomed')}/testInfo`)).status, 404);
  });
});
