import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { assertAccessible, BROWSER_SKIP, consoleFixture, type ConsoleFixture } from './harness.js';

/**
 * The Structured properties page (`#/properties`). The soft-delete test also opens `#/entity?urn=…`
 * and relies on the entity page showing an entity's values in a section headed "Structured properties".
 */
const DATASET = 'urn:li:entityType:datahub.dataset';
const CHART = 'urn:li:entityType:datahub.chart';
const V2 = '/openapi/v2/entity';
const property = (name: string) => `urn:li:structuredProperty:${name}`;
const dataset = (name: string) => `urn:li:dataset:(urn:li:dataPlatform:hive,props.${name},PROD)`;
const chart = (name: string) => `urn:li:chart:(looker,props.${name})`;

async function define(f: ConsoleFixture, definition: Record<string, unknown>): Promise<void> {
  const urn = property(definition.qualifiedName as string);
  const res = await f.served.client.call('POST', `${V2}/structuredProperty/${encodeURIComponent(urn)}/propertyDefinition`, definition);
  assert.equal(res.status, 200, JSON.stringify(res.body));
}

async function seed(f: ConsoleFixture, urn: string, aspects: Record<string, unknown>): Promise<void> {
  const type = /^urn:li:([^:]+):/.exec(urn)![1];
  const res = await f.served.client.call('POST', `${V2}/${type}?async=false`, [{ urn, aspects: Object.fromEntries(Object.entries(aspects).map(([k, v]) => [k, { value: v }])) }]);
  assert.equal(res.status, 200, JSON.stringify(res.body));
}

async function definition(f: ConsoleFixture, name: string): Promise<{ status: number; value?: any }> {
  const res = await f.served.client.call('GET', `${V2}/structuredProperty/${encodeURIComponent(property(name))}/propertyDefinition`);
  return { status: res.status, value: res.body?.value };
}

/** The table row of a property, by its qualified name. */
function row(page: Page, name: string) {
  return page.getByRole('row').filter({ has: page.getByRole('cell', { name, exact: true }) });
}

async function openList(f: ConsoleFixture, page: Page) {
  await page.goto(f.url('#/properties'));
  await page.getByRole('heading', { name: 'Structured properties', level: 1 }).waitFor();
  await page.getByRole('table').waitFor();
}

describe('console: structured properties page', { skip: BROWSER_SKIP }, () => {
  const f = consoleFixture();

  before(async () => {
    await define(f, {
      qualifiedName: 'props.listed',
      displayName: '<img src=x onerror=alert(1)>',
      valueType: 'urn:li:dataType:datahub.number',
      cardinality: 'MULTIPLE',
      entityTypes: [DATASET, CHART],
      allowedValues: [{ value: { double: 30 } }, { value: { double: 365 } }],
    });
  });

  it('lists every property with its name, display name, type, cardinality, entity types and state, as text', async () => {
    await define(f, { qualifiedName: 'props.hidden', valueType: 'urn:li:dataType:datahub.date', entityTypes: [DATASET] });
    assert.equal((await f.served.client.call('POST', `${V2}/structuredProperty/${encodeURIComponent(property('props.hidden'))}/status`, { removed: true })).status, 200);
    const page = await f.signedIn();
    const dialogs: string[] = [];
    page.on('dialog', (d) => void (dialogs.push(d.message()), d.dismiss()));
    await openList(f, page);
    assert.deepEqual(await row(page, 'props.listed').getByRole('cell').allInnerTexts(), [
      'props.listed',
      '<img src=x onerror=alert(1)>',
      'Number (one of 30, 365)',
      'MULTIPLE',
      'Dataset, Chart',
      'active',
      'Edit\nSoft delete\nHard delete',
    ]);
    assert.deepEqual((await row(page, 'props.hidden').getByRole('cell').allInnerTexts()).slice(0, 6), ['props.hidden', '', 'Date', 'SINGLE', 'Dataset', 'soft deleted']);
    await row(page, 'props.hidden').getByRole('button', { name: 'Restore props.hidden' }).waitFor();
    assert.equal(await page.locator('img').count(), 0, 'the display name is text, not markup');
    assert.deepEqual(dialogs, []);
    await assertAccessible(page, 'properties list');
  });

  it('creates a property through the form (seen through the API), edits its display name, and shows a refused edit in words with the field at fault marked', async () => {
    const page = await f.signedIn();
    await openList(f, page);
    await page.getByRole('link', { name: 'New property' }).click();
    await page.waitForURL(/#\/properties\?new=1$/);
    await page.getByLabel('Qualified name').fill('props.created');
    await page.getByLabel('Display name').fill('Created here');
    await page.getByLabel('Value type').selectOption({ label: 'Number' });
    await page.getByLabel('Cardinality').selectOption('MULTIPLE');
    await page.getByRole('checkbox', { name: 'Dataset', exact: true }).check();
    await page.getByRole('checkbox', { name: 'Chart', exact: true }).check();
    await page.getByRole('button', { name: 'Add an allowed value' }).click();
    await page.getByLabel('Allowed value 1').fill('30');
    await page.getByLabel('Description of value 1').fill('a month');
    await page.getByRole('button', { name: 'Add an allowed value' }).click();
    await page.getByLabel('Allowed value 2').fill('365');
    await page.getByLabel('Description', { exact: true }).fill('How long rows are kept, in days');
    await assertAccessible(page, 'new property form');
    await page.getByRole('button', { name: 'Create property' }).click();
    await page.getByRole('status').getByText('Saved props.created.').waitFor();
    await page.waitForURL(/#\/properties$/);
    const created = {
      qualifiedName: 'props.created',
      valueType: 'urn:li:dataType:datahub.number',
      cardinality: 'MULTIPLE',
      entityTypes: [DATASET, CHART],
      displayName: 'Created here',
      description: 'How long rows are kept, in days',
      allowedValues: [{ value: { double: 30 }, description: 'a month' }, { value: { double: 365 } }],
    };
    assert.deepEqual((await definition(f, 'props.created')).value, created);
    await row(page, 'props.created').getByRole('cell', { name: 'Created here', exact: true }).waitFor();

    // Creating it again is refused: the form never overwrites an existing property.
    await page.getByRole('link', { name: 'New property' }).click();
    await page.getByLabel('Qualified name').fill('props.created');
    await page.getByRole('checkbox', { name: 'Dataset', exact: true }).check();
    await page.getByRole('button', { name: 'Create property' }).click();
    await page.getByRole('alert').getByText('urn:li:structuredProperty:props.created already exists: pick another name, or edit the existing one.', { exact: true }).waitFor();
    assert.equal(await page.getByLabel('Qualified name').getAttribute('aria-invalid'), 'true');
    assert.equal(await page.getByLabel('Qualified name').getAttribute('aria-describedby'), 'pf-qualified-name-hint pf-error');
    await page.getByRole('alert').getByText('Details', { exact: true }).click();
    await page
      .getByRole('alert')
      .getByText('409: Cannot perform CREATE since the aspect propertyDefinition of urn:li:structuredProperty:props.created already exists', { exact: true })
      .waitFor();
    assert.deepEqual((await definition(f, 'props.created')).value, created);
    await page.getByRole('button', { name: 'Cancel' }).click();
    await page.waitForURL(/#\/properties$/);

    // Edit the display name; the rest stays as it was.
    await row(page, 'props.created').getByRole('link', { name: 'Edit props.created' }).click();
    await page.getByRole('heading', { name: 'Edit props.created' }).waitFor();
    assert.equal(await page.getByLabel('Qualified name').inputValue(), 'props.created');
    assert.equal(await page.getByLabel('Qualified name').getAttribute('readonly'), '');
    assert.equal(await page.getByLabel('Display name').inputValue(), 'Created here');
    assert.equal(await page.evaluate(() => document.activeElement?.id), 'pf-display-name', 'the form takes the focus');
    await page.getByLabel('Display name').fill('Retention (days)');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await row(page, 'props.created').getByRole('cell', { name: 'Retention (days)', exact: true }).waitFor();
    await page.getByRole('status').getByText('Saved props.created.').waitFor();
    assert.deepEqual((await definition(f, 'props.created')).value, { ...created, displayName: 'Retention (days)' });

    // Another value type narrows the property: refused without a higher version, in words, the value type and version marked.
    await row(page, 'props.created').getByRole('link', { name: 'Edit props.created' }).click();
    await page.getByLabel('Value type').selectOption({ label: 'String' });
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page
      .getByRole('alert')
      .getByText('The value type of props.created cannot change from number to string as it is. To make this breaking change, raise the version (yyyyMMddHHmmss, e.g. with "Use the current time").', {
        exact: true,
      })
      .waitFor();
    for (const label of ['Value type', 'Version (optional)']) assert.equal(await page.getByLabel(label).getAttribute('aria-invalid'), 'true', label);
    await assertAccessible(page, 'edit form with a refusal');
    assert.deepEqual((await definition(f, 'props.created')).value, { ...created, displayName: 'Retention (days)' });
    // With a higher version it is saved, and the refusal is gone.
    await page.getByRole('button', { name: 'Use the current time' }).click();
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByRole('status').getByText('Saved props.created.').waitFor();
    assert.equal(await page.getByRole('alert').count(), 0);
    assert.equal((await definition(f, 'props.created')).value.valueType, 'urn:li:dataType:datahub.string');
  });

  it("soft delete hides the property's values on the entity page, restore brings them back", async () => {
    await define(f, { qualifiedName: 'props.probe', displayName: 'Probe', valueType: 'urn:li:dataType:datahub.string', entityTypes: [DATASET] });
    const urn = dataset('probed');
    await seed(f, urn, {
      datasetProperties: { name: 'probed' },
      structuredProperties: { properties: [{ propertyUrn: property('props.probe'), values: [{ string: 'probe-value-5521' }] }] },
    });
    const page = await f.signedIn();
    const entityValues = async () => {
      await page.goto(f.url(`#/entity?urn=${encodeURIComponent(urn)}`));
      const section = page.locator('section', { has: page.getByRole('heading', { name: 'Structured properties', exact: true }) });
      await section.waitFor();
      return section;
    };
    await (await entityValues()).getByText('probe-value-5521').waitFor();

    await openList(f, page);
    await row(page, 'props.probe').getByRole('button', { name: 'Soft delete props.probe' }).click();
    const soft = page.getByRole('dialog', { name: 'Soft delete props.probe?' });
    await soft
      .getByText(
        'Its values are hidden from reads and search. New values, changes to its definition and search filters on it are refused. Nothing is lost: restoring it brings everything back.',
      )
      .waitFor();
    await assertAccessible(page, 'soft delete dialog');
    await soft.getByRole('button', { name: 'Soft delete' }).click();
    await page.getByRole('status').getByText('Soft deleted props.probe.').waitFor();
    await row(page, 'props.probe').getByRole('cell', { name: 'soft deleted' }).waitFor();
    assert.deepEqual((await f.served.client.call('GET', `${V2}/structuredProperty/${encodeURIComponent(property('props.probe'))}/status`)).body, { value: { removed: true } });

    const hidden = await entityValues();
    await hidden.getByRole('heading', { name: 'Edit structured properties' }).waitFor();
    assert.doesNotMatch((await hidden.textContent()) ?? '', /probe-value-5521/);
    assert.doesNotMatch((await hidden.textContent()) ?? '', /props\.probe/);

    await openList(f, page);
    await row(page, 'props.probe').getByRole('button', { name: 'Restore props.probe' }).click();
    const restore = page.getByRole('dialog', { name: 'Restore props.probe?' });
    await restore
      .getByText('Its values show again in reads and search, and it can again be given values, changed and searched on. Nothing was lost while it was soft deleted.')
      .waitFor();
    await restore.getByRole('button', { name: 'Restore' }).click();
    await page.getByRole('status').getByText('Restored props.probe.').waitFor();
    await row(page, 'props.probe').getByRole('cell', { name: 'active', exact: true }).waitFor();
    await (await entityValues()).getByText('probe-value-5521').waitFor();
  });

  it('hard delete asks for confirmation naming how many entities hold a value, then removes them all', async () => {
    await define(f, { qualifiedName: 'props.doomed', valueType: 'urn:li:dataType:datahub.string', entityTypes: [DATASET, CHART] });
    const holding = { structuredProperties: { properties: [{ propertyUrn: property('props.doomed'), values: [{ string: 'x' }] }] } };
    await seed(f, dataset('doomed1'), { datasetProperties: { name: 'doomed1' }, ...holding });
    await seed(f, dataset('doomed2'), { datasetProperties: { name: 'doomed2' }, ...holding, status: { removed: true } });
    await seed(f, chart('doomed3'), holding);
    await seed(f, dataset('spared'), { datasetProperties: { name: 'spared' } });
    const page = await f.signedIn();
    await openList(f, page);

    // Cancel leaves everything as it was.
    await row(page, 'props.doomed').getByRole('button', { name: 'Hard delete props.doomed' }).click();
    let dialog = page.getByRole('dialog', { name: 'Hard delete props.doomed?' });
    await dialog.getByText('3 entities hold a value of props.doomed.', { exact: true }).waitFor();
    await dialog.getByText('Hard delete removes the definition and the property\'s values from every entity, for good: it cannot be undone. It is soft deleted first, as the server requires.').waitFor();
    await assertAccessible(page, 'hard delete dialog');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'detached' });
    assert.equal((await definition(f, 'props.doomed')).status, 200);

    await row(page, 'props.doomed').getByRole('button', { name: 'Hard delete props.doomed' }).click();
    dialog = page.getByRole('dialog', { name: 'Hard delete props.doomed?' });
    await dialog.getByText('3 entities hold a value of props.doomed.', { exact: true }).waitFor();
    await dialog.getByRole('button', { name: 'Hard delete' }).click();
    await page.getByRole('status').getByText('Hard deleted props.doomed.').waitFor();
    await row(page, 'props.doomed').waitFor({ state: 'detached' });
    assert.equal((await definition(f, 'props.doomed')).status, 404);
    const values = await f.served.client.call('GET', `${V2}/dataset/${encodeURIComponent(dataset('doomed1'))}/structuredProperties`);
    assert.deepEqual(values.body, { value: { properties: [] } });
  });

  it('hard delete of a soft-deleted property names how many entities still hold its (hidden) values', async () => {
    await define(f, { qualifiedName: 'props.asleep', valueType: 'urn:li:dataType:datahub.string', entityTypes: [DATASET] });
    const holding = { structuredProperties: { properties: [{ propertyUrn: property('props.asleep'), values: [{ string: 'z' }] }] } };
    await seed(f, dataset('asleep1'), { datasetProperties: { name: 'asleep1' }, ...holding });
    await seed(f, dataset('asleep2'), { datasetProperties: { name: 'asleep2' }, ...holding });
    assert.equal((await f.served.client.call('POST', `${V2}/structuredProperty/${encodeURIComponent(property('props.asleep'))}/status`, { removed: true })).status, 200);
    const page = await f.signedIn();
    await openList(f, page);
    await row(page, 'props.asleep').getByRole('button', { name: 'Hard delete props.asleep' }).click();
    const dialog = page.getByRole('dialog', { name: 'Hard delete props.asleep?' });
    await dialog.getByText('2 entities hold a value of props.asleep.', { exact: true }).waitFor();
    await dialog.getByRole('button', { name: 'Hard delete' }).click();
    await page.getByRole('status').getByText('Hard deleted props.asleep.').waitFor();
    assert.equal((await definition(f, 'props.asleep')).status, 404);
    const stored = await f.served.client.call('GET', `${V2}/dataset/${encodeURIComponent(dataset('asleep1'))}/structuredProperties`);
    assert.deepEqual(stored.body, { value: { properties: [] } });
  });

  it('a viewer sees the list without actions', async () => {
    const made = await f.served.client.call('POST', '/openapi/v2/auth/tokens', { name: 'props-viewer', role: 'viewer' });
    const page = await f.signedIn((made.body as { token: string }).token);
    await openList(f, page);
    await row(page, 'props.listed').waitFor();
    assert.equal(await page.getByRole('link', { name: 'New property' }).count(), 0);
    assert.equal(await page.getByRole('columnheader', { name: 'Actions' }).count(), 0);
    assert.equal(await page.getByRole('main').getByRole('button').count(), 0);
  });

  it('fits a 375-px-wide window: the list and the form', async () => {
    const page = await f.signedIn(undefined, { width: 375, height: 800 });
    await openList(f, page);
    await page.getByText('props.listed', { exact: true }).waitFor();
    assert.ok((await page.evaluate(() => document.documentElement.scrollWidth)) <= 375, 'the list does not overflow');
    await assertAccessible(page, 'properties list at 375 px');
    await page.getByRole('link', { name: 'New property' }).click();
    await page.getByRole('button', { name: 'Add an allowed value' }).click();
    await page.getByLabel('Allowed value 1').waitFor();
    assert.ok((await page.evaluate(() => document.documentElement.scrollWidth)) <= 375, 'the form does not overflow');
  });
});
