import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { assertAccessible, BROWSER_SKIP, consoleFixture, type ConsoleFixture } from './harness.js';

/**
 * Editing on the entity page (`console/src/components/entity-editing.tsx`, `tag-editing.tsx`):
 * structured-property values and tags. These tests open `#/entity?urn=…` and rely on the entity
 * page rendering PropertyEditing in a section headed "Structured properties" and Tags in one
 * headed "Tags".
 */
const DATASET = 'urn:li:entityType:datahub.dataset';
const dataset = (name: string) => `urn:li:dataset:(urn:li:dataPlatform:hive,e2e.${name},PROD)`;
const property = (name: string) => `urn:li:structuredProperty:${name}`;
const V2 = '/openapi/v2/entity';

async function define(f: ConsoleFixture, definition: Record<string, unknown>): Promise<void> {
  const urn = property(definition.qualifiedName as string);
  const res = await f.served.client.call('POST', `${V2}/structuredProperty/${encodeURIComponent(urn)}/propertyDefinition`, definition);
  assert.equal(res.status, 200, JSON.stringify(res.body));
}

async function seed(f: ConsoleFixture, urn: string, aspects: Record<string, unknown> = {}): Promise<void> {
  const type = /^urn:li:([^:]+):/.exec(urn)![1];
  const body = [{ urn, aspects: Object.fromEntries(Object.entries({ datasetProperties: { name: /,e2e\.([^,]+),/.exec(urn)?.[1] ?? urn }, ...aspects }).map(([k, v]) => [k, { value: v }])) }];
  const res = await f.served.client.call('POST', `${V2}/${type}?async=false`, body);
  assert.equal(res.status, 200, JSON.stringify(res.body));
}

async function read(f: ConsoleFixture, urn: string, aspect: string): Promise<{ status: number; value?: any; version?: string }> {
  const type = /^urn:li:([^:]+):/.exec(urn)![1];
  const res = await f.served.client.call('GET', `${V2}/${type}/${encodeURIComponent(urn)}/${aspect}?systemMetadata=true`);
  return { status: res.status, value: res.body?.value, version: res.body?.systemMetadata?.version };
}

/** The entity page's section with this heading (h2). */
function section(page: Page, title: string) {
  return page.locator('section', { has: page.getByRole('heading', { name: title, exact: true }) });
}

async function openEntity(f: ConsoleFixture, page: Page, urn: string) {
  await page.goto(f.url(`#/entity?urn=${encodeURIComponent(urn)}`));
  const properties = section(page, 'Structured properties');
  await properties.getByRole('heading', { name: 'Edit structured properties' }).waitFor();
  return properties;
}

describe('console: editing structured properties and tags on the entity page', { skip: BROWSER_SKIP }, () => {
  const f = consoleFixture();

  before(async () => {
    await define(f, { qualifiedName: 'e2e.rows', displayName: 'Row count', valueType: 'urn:li:dataType:datahub.number', entityTypes: [DATASET] });
    await define(f, {
      qualifiedName: 'e2e.tier',
      displayName: 'Tier',
      valueType: 'urn:li:dataType:datahub.number',
      entityTypes: [DATASET],
      allowedValues: [{ value: { double: 30 }, description: 'a month' }, { value: { double: 365 }, description: 'a year' }],
    });
    await define(f, { qualifiedName: 'e2e.sizes', displayName: 'Sizes', valueType: 'urn:li:dataType:datahub.string', cardinality: 'MULTIPLE', entityTypes: [DATASET] });
    // Neither of these may be offered on a dataset: one is for charts, one is soft deleted.
    await define(f, { qualifiedName: 'e2e.chartOnly', displayName: 'Chart only', valueType: 'urn:li:dataType:datahub.string', entityTypes: ['urn:li:entityType:datahub.chart'] });
    await define(f, { qualifiedName: 'e2e.retired', displayName: 'Retired', valueType: 'urn:li:dataType:datahub.string', entityTypes: [DATASET] });
    assert.equal((await f.served.client.call('POST', `${V2}/structuredProperty/${encodeURIComponent(property('e2e.retired'))}/status`, { removed: true })).status, 200);
  });

  it('sets a number property through the form, offering only the properties of this entity type that are not soft deleted', async () => {
    const urn = dataset('numbers');
    await seed(f, urn);
    const page = await f.signedIn();
    const properties = await openEntity(f, page, urn);
    const select = properties.getByLabel('Property', { exact: true });
    assert.deepEqual(await select.locator('option').allTextContents(), ['Row count (e2e.rows)', 'Sizes (e2e.sizes)', 'Tier (e2e.tier)']);
    await select.selectOption({ label: 'Row count (e2e.rows)' });
    await properties.getByLabel('Value (a number)').fill('1250.5');
    await properties.getByRole('button', { name: 'Save' }).click();
    await properties.getByRole('status').getByText('Saved Row count (e2e.rows).').waitFor();
    const stored = await read(f, urn, 'structuredProperties');
    assert.deepEqual(stored.value, { properties: [{ propertyUrn: property('e2e.rows'), values: [{ double: 1250.5 }] }] });
    assert.equal(stored.version, '1');

    // Several values of a MULTIPLE property, next to the first one.
    await select.selectOption({ label: 'Sizes (e2e.sizes)' });
    await properties.getByLabel('Value 1').fill('small');
    await properties.getByRole('button', { name: 'Add a value' }).click();
    await properties.getByLabel('Value 2').fill('large');
    await properties.getByRole('button', { name: 'Save' }).click();
    await properties.getByRole('status').getByText('Saved Sizes (e2e.sizes).').waitFor();
    assert.deepEqual((await read(f, urn, 'structuredProperties')).value, {
      properties: [
        { propertyUrn: property('e2e.rows'), values: [{ double: 1250.5 }] },
        { propertyUrn: property('e2e.sizes'), values: [{ string: 'small' }, { string: 'large' }] },
      ],
    });

    // Removing one property's values keeps the other's.
    await select.selectOption({ label: 'Row count (e2e.rows)' });
    assert.equal(await properties.getByLabel('Value (a number)').inputValue(), '1250.5');
    await properties.getByRole('button', { name: 'Remove values' }).click();
    await properties.getByRole('status').getByText('Removed the values of Row count (e2e.rows).').waitFor();
    assert.deepEqual((await read(f, urn, 'structuredProperties')).value, {
      properties: [{ propertyUrn: property('e2e.sizes'), values: [{ string: 'small' }, { string: 'large' }] }],
    });
  });

  it('refuses what is not a number before sending it, and a value outside allowedValues in words, marking the input at fault; a later save clears the error', async () => {
    const urn = dataset('refused');
    await seed(f, urn);
    const page = await f.signedIn();
    const properties = await openEntity(f, page, urn);
    const select = properties.getByLabel('Property', { exact: true });
    await select.selectOption({ label: 'Row count (e2e.rows)' });
    // A decimal keypad; what does not read as a number is refused here, quoting what was typed.
    const rows = properties.getByLabel('Value (a number)');
    assert.equal(await rows.getAttribute('inputmode'), 'decimal');
    await rows.pressSequentially('1e400');
    await properties.getByRole('button', { name: 'Save' }).click();
    const alert = properties.getByRole('alert');
    await alert.getByText('"1e400" is not a number. Row count (e2e.rows) takes a number, such as 42 or 0.5.', { exact: true }).waitFor();
    await rows.fill('1e');
    await properties.getByRole('button', { name: 'Save' }).click();
    await alert.getByText('"1e" is not a number. Row count (e2e.rows) takes a number, such as 42 or 0.5.', { exact: true }).waitFor();
    assert.equal(await rows.getAttribute('aria-invalid'), 'true');
    assert.equal(await rows.getAttribute('aria-describedby'), await alert.getAttribute('id'));
    assert.equal((await read(f, urn, 'structuredProperties')).status, 404);

    // The allowed values are a select; they are narrowed on the server while the form is open.
    await select.selectOption({ label: 'Tier (e2e.tier)' });
    const tier = properties.getByLabel('Value', { exact: true });
    assert.deepEqual(await tier.locator('option').allTextContents(), ['(choose a value)', '30 — a month', '365 — a year']);
    await define(f, {
      qualifiedName: 'e2e.tier',
      displayName: 'Tier',
      valueType: 'urn:li:dataType:datahub.number',
      entityTypes: [DATASET],
      allowedValues: [{ value: { double: 30 }, description: 'a month' }],
      version: '20300101000000',
    });
    await tier.selectOption({ label: '365 — a year' });
    await properties.getByRole('button', { name: 'Save' }).click();
    await alert.getByText('365 is not one of the values e2e.tier allows: 30.', { exact: true }).waitFor();
    assert.equal(await tier.getAttribute('aria-invalid'), 'true');
    // The server's own words stay at hand, folded under Details.
    const details = alert.getByText('400: Property: urn:li:structuredProperty:e2e.tier, value: {double=365} should be one of [{double=30}]', { exact: true });
    assert.equal(await details.isVisible(), false);
    await alert.getByText('Details', { exact: true }).click();
    await details.waitFor();
    await assertAccessible(page, 'entity page, a refused property value');
    assert.equal((await read(f, urn, 'structuredProperties')).status, 404);

    // Fixed and saved: the error goes, and so does the mark on the input.
    await tier.selectOption({ label: '30 — a month' });
    await properties.getByRole('button', { name: 'Save' }).click();
    await properties.getByRole('status').getByText('Saved Tier (e2e.tier).').waitFor();
    assert.equal(await properties.getByRole('alert').count(), 0);
    assert.equal(await tier.getAttribute('aria-invalid'), null);
    assert.deepEqual((await read(f, urn, 'structuredProperties')).value, { properties: [{ propertyUrn: property('e2e.tier'), values: [{ double: 30 }] }] });
  });

  it('a URN property is picked with a search restricted to its allowed entity types, and a refused URN is explained', async () => {
    await define(f, {
      qualifiedName: 'e2e.steward',
      displayName: 'Steward',
      valueType: 'urn:li:dataType:datahub.urn',
      typeQualifier: { allowedTypes: ['urn:li:entityType:datahub.corpuser'] },
      entityTypes: [DATASET],
    });
    const res = await f.served.client.call('POST', `${V2}/corpuser?async=false`, [
      { urn: 'urn:li:corpuser:stewart', aspects: { corpUserInfo: { value: { active: true, displayName: 'Stewart Steward' } } } },
    ]);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    // A dataset whose name also matches: it must not be offered for a corpuser-only property.
    const urn = dataset('stewart_urns');
    await seed(f, urn);
    const page = await f.signedIn();
    const properties = await openEntity(f, page, urn);
    await properties.getByLabel('Property', { exact: true }).selectOption({ label: 'Steward (e2e.steward)' });
    const value = properties.getByLabel('Value (a URN)');
    await value.fill('stewart');
    const suggestions = properties.locator('datalist option');
    await suggestions.first().waitFor({ state: 'attached' });
    assert.deepEqual(await suggestions.evaluateAll((os) => os.map((o) => [(o as HTMLOptionElement).value, (o as HTMLOptionElement).label])), [['urn:li:corpuser:stewart', 'Stewart Steward']]);

    await value.fill('stewart');
    await properties.getByRole('button', { name: 'Save' }).click();
    await properties.getByRole('alert').getByText('"stewart" is not a URN. e2e.steward takes an entity\'s URN, such as urn:li:corpuser:jdoe.', { exact: true }).waitFor();
    assert.equal(await value.getAttribute('aria-invalid'), 'true');
    await value.fill(urn);
    await properties.getByRole('button', { name: 'Save' }).click();
    await properties
      .getByRole('alert')
      .getByText(`"${urn}" is not of a type e2e.steward accepts. It takes only: corpuser.`, { exact: true })
      .waitFor();
    await value.fill('urn:li:corpuser:stewart');
    await properties.getByRole('button', { name: 'Save' }).click();
    await properties.getByRole('status').getByText('Saved Steward (e2e.steward).').waitFor();
    assert.equal(await properties.getByRole('alert').count(), 0);
    assert.deepEqual((await read(f, urn, 'structuredProperties')).value, { properties: [{ propertyUrn: property('e2e.steward'), values: [{ string: 'urn:li:corpuser:stewart' }] }] });
  });

  it('a date property is set with a date picker', async () => {
    await define(f, { qualifiedName: 'e2e.reviewedOn', displayName: 'Reviewed on', valueType: 'urn:li:dataType:datahub.date', entityTypes: [DATASET] });
    const urn = dataset('dated');
    await seed(f, urn);
    const page = await f.signedIn();
    const properties = await openEntity(f, page, urn);
    await properties.getByLabel('Property', { exact: true }).selectOption({ label: 'Reviewed on (e2e.reviewedOn)' });
    const date = properties.getByLabel('Value (a date)');
    assert.equal(await date.getAttribute('type'), 'date');
    await date.fill('2024-05-01');
    await properties.getByRole('button', { name: 'Save' }).click();
    await properties.getByRole('status').getByText('Saved Reviewed on (e2e.reviewedOn).').waitFor();
    assert.deepEqual((await read(f, urn, 'structuredProperties')).value, { properties: [{ propertyUrn: property('e2e.reviewedOn'), values: [{ string: '2024-05-01' }] }] });
  });

  it('two tabs edit at once: the second save is refused as a conflict, the first value is kept, and Reload shows it', async () => {
    const urn = dataset('conflict');
    await seed(f, urn, { structuredProperties: { properties: [{ propertyUrn: property('e2e.rows'), values: [{ double: 1 }] }] } });
    const [a, b] = [await f.signedIn(), await f.signedIn()];
    const [formA, formB] = [await openEntity(f, a, urn), await openEntity(f, b, urn)];
    for (const form of [formA, formB]) {
      await form.getByLabel('Property', { exact: true }).selectOption({ label: 'Row count (e2e.rows)' });
      assert.equal(await form.getByLabel('Value (a number)').inputValue(), '1');
    }
    await formA.getByLabel('Value (a number)').fill('2');
    await formA.getByRole('button', { name: 'Save' }).click();
    await formA.getByRole('status').getByText('Saved Row count (e2e.rows).').waitFor();

    await formB.getByLabel('Value (a number)').fill('3');
    await formB.getByRole('button', { name: 'Save' }).click();
    const alert = formB.getByRole('alert');
    await alert.getByText("Someone else changed this entity's structured properties since you loaded them, so your change was not saved.", { exact: false }).waitFor();
    await alert.getByText(`Server: 412: Expected version 1, actual version 2 for aspect structuredProperties of ${urn}`, { exact: true }).waitFor();
    await assertAccessible(b, 'entity page, editing conflict');
    const kept = await read(f, urn, 'structuredProperties');
    assert.deepEqual(kept.value, { properties: [{ propertyUrn: property('e2e.rows'), values: [{ double: 2 }] }] });
    assert.equal(kept.version, '2');

    await formB.getByRole('button', { name: 'Reload' }).click();
    await alert.waitFor({ state: 'detached' });
    assert.equal(await formB.getByLabel('Value (a number)').inputValue(), '2');
    await formB.getByLabel('Value (a number)').fill('3');
    await formB.getByRole('button', { name: 'Save' }).click();
    await formB.getByRole('status').getByText('Saved Row count (e2e.rows).').waitFor();
    assert.deepEqual((await read(f, urn, 'structuredProperties')).value, { properties: [{ propertyUrn: property('e2e.rows'), values: [{ double: 3 }] }] });
  });

  it('a viewer sees the sections but no edit controls', async () => {
    const urn = dataset('viewed');
    await seed(f, urn, {
      structuredProperties: { properties: [{ propertyUrn: property('e2e.rows'), values: [{ double: 7 }] }] },
      globalTags: { tags: [{ tag: 'urn:li:tag:pii' }] },
    });
    const made = await f.served.client.call('POST', '/openapi/v2/auth/tokens', { name: 'e2e-viewer', role: 'viewer' });
    const page = await f.signedIn((made.body as { token: string }).token);
    await page.goto(f.url(`#/entity?urn=${encodeURIComponent(urn)}`));
    await section(page, 'Structured properties').waitFor();
    await section(page, 'Tags').waitFor();
    await section(page, 'Tags').getByRole('list', { name: 'Tags' }).waitFor();
    assert.equal(await page.getByRole('heading', { name: 'Edit structured properties' }).count(), 0);
    assert.equal(await page.getByLabel('Property', { exact: true }).count(), 0);
    assert.equal(await page.getByLabel('Add a tag').count(), 0);
    assert.equal(await page.getByRole('button', { name: /^(Save|Add tag|Remove tag .*|Remove values|Edit .*)$/ }).count(), 0);
  });

  it('adds and removes tags by JSON patch, lists them once, and refuses what is not a tag name in words', async () => {
    const urn = dataset('tagged');
    await seed(f, urn, { globalTags: { tags: [{ tag: 'urn:li:tag:pii' }] } });
    const page = await f.signedIn();
    await page.goto(f.url(`#/entity?urn=${encodeURIComponent(urn)}`));
    const tags = section(page, 'Tags');
    const input = tags.getByLabel('Add a tag');
    await input.waitFor();
    // One list of tags on the page, each with its remove button.
    assert.equal(await page.getByRole('list', { name: 'Tags' }).count(), 1);
    assert.deepEqual(await tags.getByRole('list', { name: 'Tags' }).getByRole('link').allInnerTexts(), ['pii']);

    const refusals: Array<[string, string]> = [
      ['   ', 'Give a tag name, such as pii, or a tag URN, such as urn:li:tag:pii.'],
      ['urn:li:tag:', 'urn:li:tag: needs a name after it, such as urn:li:tag:pii.'],
      ['urn:li:corpuser:jdoe', 'urn:li:corpuser:jdoe names a user, not a tag. Give a tag name, such as pii, or a tag URN, such as urn:li:tag:pii.'],
      ['has space', '"has space" is not a tag name: use letters, digits and . _ - : @ / + only, with no spaces, brackets, commas or markup, starting with a letter, digit or _.'],
      ['<b>bold</b>', '"<b>bold</b>" is not a tag name: use letters, digits and . _ - : @ / + only, with no spaces, brackets, commas or markup, starting with a letter, digit or _.'],
    ];
    for (const [text, message] of refusals) {
      await input.fill(text);
      await tags.getByRole('button', { name: 'Add tag' }).click();
      const alert = tags.getByRole('alert');
      await alert.getByText(message, { exact: true }).waitFor();
      assert.equal(await input.getAttribute('aria-invalid'), 'true', text);
      assert.equal(await input.getAttribute('aria-describedby'), await alert.getAttribute('id'), text);
    }
    assert.deepEqual((await read(f, urn, 'globalTags')).value, { tags: [{ tag: 'urn:li:tag:pii' }] });

    // The catalog's tags are suggested as a name is typed.
    const made = await f.served.client.call('POST', `${V2}/tag?async=false`, [{ urn: 'urn:li:tag:golden', aspects: { tagProperties: { value: { name: 'golden' } } } }]);
    assert.equal(made.status, 200, JSON.stringify(made.body));
    await input.fill('golde');
    await tags.locator('datalist option[value="urn:li:tag:golden"]').waitFor({ state: 'attached' });

    await input.fill('gold');
    await tags.getByRole('button', { name: 'Add tag' }).click();
    await tags.getByRole('status').getByText('Added the tag gold.').waitFor();
    assert.equal(await tags.getByRole('alert').count(), 0);
    assert.equal(await input.getAttribute('aria-invalid'), null);
    assert.equal(await input.inputValue(), '');
    await input.fill('urn:li:tag:sales');
    await tags.getByRole('button', { name: 'Add tag' }).click();
    await tags.getByRole('status').getByText('Added the tag sales.').waitFor();
    assert.deepEqual((await read(f, urn, 'globalTags')).value, { tags: [{ tag: 'urn:li:tag:pii' }, { tag: 'urn:li:tag:gold' }, { tag: 'urn:li:tag:sales' }] });
    await tags.getByRole('link', { name: 'sales' }).waitFor();
    assert.deepEqual(await tags.getByRole('list', { name: 'Tags' }).getByRole('link').allInnerTexts(), ['pii', 'gold', 'sales']);

    await tags.getByRole('button', { name: 'Remove tag pii' }).click();
    await tags.getByRole('status').getByText('Removed the tag pii.').waitFor();
    await tags.getByRole('button', { name: 'Remove tag pii' }).waitFor({ state: 'detached' });
    assert.deepEqual((await read(f, urn, 'globalTags')).value, { tags: [{ tag: 'urn:li:tag:gold' }, { tag: 'urn:li:tag:sales' }] });
  });

  it('the entity page in edit state has no serious accessibility violations', async () => {
    const urn = dataset('accessible');
    await seed(f, urn, {
      globalTags: { tags: [{ tag: 'urn:li:tag:pii' }] },
      structuredProperties: { properties: [{ propertyUrn: property('e2e.sizes'), values: [{ string: 'small' }, { string: 'large' }] }] },
    });
    const page = await f.signedIn();
    const properties = await openEntity(f, page, urn);
    await section(page, 'Tags').getByLabel('Add a tag').waitFor();
    await properties.getByLabel('Property', { exact: true }).selectOption({ label: 'Sizes (e2e.sizes)' });
    assert.equal(await properties.getByLabel('Value 2').inputValue(), 'large');
    await properties.getByRole('button', { name: 'Add a value' }).click();
    await properties.getByLabel('Value 3').waitFor();
    await assertAccessible(page, 'entity page, editing a MULTIPLE property');
    await properties.getByLabel('Property', { exact: true }).selectOption({ label: 'Tier (e2e.tier)' });
    await properties.getByLabel('Value', { exact: true }).waitFor();
    await assertAccessible(page, 'entity page, editing a property with allowed values');
  });
});
