import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { assertAccessible, BROWSER_SKIP, consoleFixture, type ConsoleFixture } from './harness.js';

/**
 * Forms in the console: the To do page (prompts answered in place), the forms list, a form's page
 * (definition, assignment, completion, assets) and an entity's forms. Screenshots go to
 * URNBASE_SHOTS (default: the system's temporary directory, forms-console-shots).
 */
const V2 = '/openapi/v2/entity';
const SHOTS = process.env.URNBASE_SHOTS ?? '/tmp/forms-console-shots';
const dataset = (name: string) => `urn:li:dataset:(urn:li:dataPlatform:hive,${name},PROD)`;
const ORDERS = dataset('sales.orders');
const CUSTOMERS = dataset('sales.customers');
const LEDGER = dataset('finance.ledger');
const REVIEW = 'urn:li:form:retention-review';
const SIGNOFF = 'urn:li:form:quarterly-signoff';
const TOPICS = 'urn:li:form:kafka-topics';
const LEDGER_CHECK = 'urn:li:form:ledger-check';
const RETENTION = 'urn:li:structuredProperty:io.forms.retention';
const TIER = 'urn:li:structuredProperty:io.forms.tier';
const JDOE = 'urn:li:corpuser:jdoe';

async function post(f: ConsoleFixture, urn: string, aspectName: string, value: unknown): Promise<void> {
  const type = /^urn:li:([^:]+):/.exec(urn)![1];
  const res = await f.served.client.call('POST', `${V2}/${type}/${encodeURIComponent(urn)}/${aspectName}`, value);
  assert.equal(res.status, 200, `${urn} ${aspectName}: ${JSON.stringify(res.body)}`);
}

const prompt = (id: string, title: string, property: string, required = true) => ({ id, title, type: 'STRUCTURED_PROPERTY', structuredPropertyParams: { urn: property }, required });

/**
 * What of a table does not fit at this width: its scroller scrolls sideways, it passes its card's
 * right edge, or a cell's text runs past the cell. Empty when all of it shows.
 */
async function clipped(page: Page, table: string): Promise<string[]> {
  return page.locator(table).evaluate((t) => {
    const problems: string[] = [];
    const scroller = t.parentElement!;
    if (scroller.scrollWidth > scroller.clientWidth) problems.push(`scrolls sideways: ${scroller.scrollWidth} > ${scroller.clientWidth}`);
    const card = t.closest('.card')!.getBoundingClientRect();
    if (t.getBoundingClientRect().right > card.right) problems.push(`past its card: ${t.getBoundingClientRect().right} > ${card.right}`);
    for (const cell of t.querySelectorAll('th, td')) {
      const box = cell.getBoundingClientRect();
      if (box.width > 0 && (cell.scrollWidth > cell.clientWidth || box.right > card.right)) problems.push(`cell "${cell.textContent}" clipped`);
    }
    return problems;
  });
}

async function shot(page: Page, name: string): Promise<void> {
  mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: true });
}

describe('console: forms', { skip: BROWSER_SKIP }, () => {
  const f = consoleFixture();
  let jdoe = '';

  before(async () => {
    const made = await f.served.client.call('POST', '/openapi/v2/auth/tokens', { name: 'jdoe', role: 'editor' });
    assert.equal(made.status, 201);
    jdoe = made.body.token;
    await post(f, RETENTION, 'propertyDefinition', {
      qualifiedName: 'io.forms.retention',
      displayName: 'Retention (days)',
      valueType: 'urn:li:dataType:datahub.number',
      cardinality: 'SINGLE',
      entityTypes: ['urn:li:entityType:datahub.dataset'],
    });
    await post(f, TIER, 'propertyDefinition', {
      qualifiedName: 'io.forms.tier',
      displayName: 'Tier',
      valueType: 'urn:li:dataType:datahub.string',
      cardinality: 'SINGLE',
      entityTypes: ['urn:li:entityType:datahub.dataset'],
      allowedValues: [{ value: { string: 'gold' }, description: 'business critical' }, { value: { string: 'silver' } }],
    });
    await post(f, REVIEW, 'formInfo', {
      name: 'Retention review',
      description: 'How long each table is **kept**, and how much it matters.',
      type: 'COMPLETION',
      prompts: [prompt('retention', 'How many days is it kept?', RETENTION), prompt('tier', 'Which tier is it?', TIER, false)],
      actors: { owners: true },
    });
    await post(f, SIGNOFF, 'formInfo', { name: 'Quarterly sign-off', type: 'VERIFICATION', prompts: [prompt('signoff-tier', 'Tier confirmed', TIER)], actors: { owners: true } });
    await post(f, TOPICS, 'formInfo', { name: 'Kafka topics', type: 'COMPLETION', prompts: [prompt('topics-retention', 'Retention of the topic', RETENTION)], actors: { owners: false, users: ['urn:li:corpuser:ann'] } });
    // A form one asset holds: its counts say "asset", not "assets".
    await post(f, LEDGER_CHECK, 'formInfo', { name: 'Ledger check', type: 'COMPLETION', prompts: [prompt('ledger-tier', 'Ledger tier', TIER)], actors: { owners: true } });
    await post(f, TOPICS, 'dynamicFormAssignment', { filter: { or: [{ and: [{ field: '_entityType', value: 'dataset', condition: 'EQUAL' }, { field: 'platform', value: 'urn:li:dataPlatform:kafka', condition: 'EQUAL' }] }] } });
    for (const [urn, name] of [
      [ORDERS, 'orders'],
      [CUSTOMERS, 'customers'],
      [LEDGER, 'ledger'],
    ]) {
      await post(f, urn, 'datasetProperties', { name });
      await post(f, urn, 'ownership', { owners: [{ owner: urn === LEDGER ? 'urn:li:corpuser:bob' : JDOE, type: 'DATAOWNER' }] });
    }
    await post(f, ORDERS, 'forms', { incompleteForms: [{ urn: REVIEW }, { urn: SIGNOFF }], completedForms: [] });
    await post(f, CUSTOMERS, 'forms', { incompleteForms: [{ urn: REVIEW }, { urn: SIGNOFF }], completedForms: [] });
    await post(f, LEDGER, 'forms', { incompleteForms: [{ urn: REVIEW }, { urn: LEDGER_CHECK }], completedForms: [] });
    // The customers table has answered the sign-off's prompt already: that form is complete there.
    await post(f, CUSTOMERS, 'structuredProperties', { properties: [{ propertyUrn: TIER, values: [{ string: 'gold' }] }] });
  });

  it('To do lists the signed-in owner\'s open forms by asset; an answer moves its prompt to answered, and a completed form leaves unless it awaits verification', async () => {
    const page = await f.signedIn(jdoe);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'To do' }).click();
    await page.getByRole('heading', { name: 'To do', level: 1 }).waitFor();
    const orders = page.locator('section', { has: page.getByRole('heading', { name: 'orders', level: 2 }) });
    const customers = page.locator('section', { has: page.getByRole('heading', { name: 'customers', level: 2 }) });
    await orders.waitFor();
    // The ledger is bob's: not on jdoe's list.
    assert.deepEqual(await page.getByRole('heading', { level: 2 }).allInnerTexts(), ['customers dataset', 'orders dataset']);
    assert.deepEqual(await orders.getByRole('heading', { level: 3 }).allInnerTexts(), ['Quarterly sign-off 0 of 1 answered', 'Retention review 0 of 2 answered']);
    // Customers: the sign-off is complete (its one prompt answered) but not verified: it awaits verification; the review is open, its tier answered.
    assert.deepEqual(await customers.getByRole('heading', { level: 3 }).allInnerTexts(), ['Quarterly sign-off 1 of 1 answered', 'Retention review 1 of 2 answered']);
    // One wording for the state, whether optional prompts remain or not.
    assert.equal(await customers.locator('.todo-verify p').innerText(), 'Answered — awaiting your verification Check the answers, then confirm them: verifying is this form\'s last step.');
    // Each input is named by its prompt and its asset: no two share a name.
    const names = await page.locator('main').evaluate((main) => [...main.querySelectorAll('input, select, textarea')].map((el) => (el as HTMLInputElement).labels?.[0]?.textContent ?? ''));
    assert.deepEqual(names.sort(), [
      'How many days is it kept? on customers: Value (a number)',
      'How many days is it kept? on orders: Value (a number)',
      'Tier confirmed on orders: Value',
      'Which tier is it? on orders: Value',
    ]);
    await page.getByRole('textbox', { name: 'How many days is it kept? on customers: Value (a number)', exact: true }).waitFor();
    assert.match(await customers.getByRole('list').last().innerText(), /Which tier is it\? — gold/);
    await assertAccessible(page, 'to do');
    await shot(page, 'todo-desktop');

    // A number refused before sending, the input marked.
    const review = orders.getByRole('form', { name: /^How many days is it kept\?/ });
    const days = review.getByRole('textbox', { name: 'How many days is it kept? on orders: Value (a number)', exact: true });
    await days.fill('ninety');
    await review.getByRole('button', { name: 'Save answer' }).click();
    await review.getByRole('alert').filter({ hasText: '"ninety" is not a number. Retention (days) — io.forms.retention takes a number, such as 42 or 0.5.' }).waitFor();
    assert.equal(await days.getAttribute('aria-invalid'), 'true');
    await assertAccessible(page, 'to do: a refused answer');

    // Saved from the keyboard (Enter in the input): the prompt leaves, and focus goes to the status line, not to the body.
    await days.fill('90');
    await days.press('Enter');
    const status = page.locator('p.ok[role="status"]');
    await status.filter({ hasText: 'Answered "How many days is it kept?" on orders: Retention review is complete there.' }).waitFor();
    await page.waitForFunction(() => document.activeElement?.matches('p.ok[role="status"]'));
    // The review's one required prompt is answered: the form is complete and leaves the list.
    assert.deepEqual(await orders.getByRole('heading', { level: 3 }).allInnerTexts(), ['Quarterly sign-off 0 of 1 answered']);
    const stored = await f.served.client.call('GET', `${V2}/dataset/${encodeURIComponent(ORDERS)}/structuredProperties`);
    assert.deepEqual(stored.body.value.properties, [{ propertyUrn: RETENTION, values: [{ double: 90 }] }]);

    // An allowed value from a select; the sign-off, a verification form, is complete but stays, to be verified.
    const signoff = orders.getByRole('form', { name: /^Tier confirmed/ });
    await signoff.getByRole('combobox', { name: 'Tier confirmed on orders: Value', exact: true }).selectOption('silver');
    await signoff.getByRole('button', { name: 'Save answer' }).click();
    await page.getByRole('status').filter({ hasText: 'Answered "Tier confirmed" on orders: Quarterly sign-off is answered there and awaits your verification.' }).waitFor();
    assert.deepEqual(await page.getByRole('heading', { level: 2 }).allInnerTexts(), ['customers dataset', 'orders dataset']);
    assert.deepEqual(await orders.getByRole('heading', { level: 3 }).allInnerTexts(), ['Quarterly sign-off 1 of 1 answered']);
    await orders.getByRole('button', { name: 'Verify Quarterly sign-off on orders' }).waitFor();
    await assertAccessible(page, 'to do: after answers');
    await shot(page, 'todo-answered');
  });

  it('To do: Verify confirms a verification form whose prompts are answered, and it leaves the list', async () => {
    const page = await f.signedIn(jdoe);
    await page.goto(f.url('#/todo'));
    const customers = page.locator('section', { has: page.getByRole('heading', { name: 'customers', level: 2 }) });
    const verify = customers.getByRole('button', { name: 'Verify Quarterly sign-off on customers' });
    await verify.waitFor();
    // The button's description is the step in words.
    assert.equal(await verify.getAttribute('aria-describedby'), await customers.locator('.todo-verify p').getAttribute('id'));
    assert.equal(await verify.innerText(), 'Verify');
    await assertAccessible(page, 'to do: awaiting verification');
    await shot(page, 'todo-verify-desktop');
    const narrow = await f.signedIn(jdoe, { width: 375, height: 800 });
    await narrow.goto(f.url('#/todo'));
    await narrow.getByRole('button', { name: 'Verify Quarterly sign-off on customers' }).waitFor();
    assert.equal(await narrow.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth), true, 'no sideways scroll');
    await assertAccessible(narrow, 'to do: awaiting verification at 375 px');
    await shot(narrow, 'todo-verify-mobile');

    // Verified from the keyboard: the button leaves with the item, and focus goes to the status line that says what happened.
    await verify.focus();
    await page.keyboard.press('Enter');
    await page.getByRole('status').filter({ hasText: 'Verified Quarterly sign-off on customers.' }).waitFor();
    await page.waitForFunction(() => document.activeElement?.matches('p.ok[role="status"]'));
    assert.equal(await page.evaluate(() => document.activeElement?.textContent), 'Verified Quarterly sign-off on customers.');
    assert.deepEqual(await customers.getByRole('heading', { level: 3 }).allInnerTexts(), ['Retention review 1 of 2 answered']);
    assert.equal(await customers.getByRole('button', { name: /^Verify/ }).count(), 0);
    const stored = await f.served.client.call('GET', `${V2}/dataset/${encodeURIComponent(CUSTOMERS)}/forms`);
    assert.deepEqual(stored.body.value.verifications.map((v: { form: string; lastModified: { actor: string } }) => [v.form, v.lastModified.actor]), [[SIGNOFF, JDOE]]);
    await assertAccessible(page, 'to do: after verifying');
    await shot(page, 'todo-verified');
  });

  it('To do: a refused verification is said in words beside its button, and the item stays', async () => {
    const page = await f.signedIn(jdoe);
    await page.goto(f.url('#/todo'));
    const orders = page.locator('section', { has: page.getByRole('heading', { name: 'orders', level: 2 }) });
    const verify = orders.getByRole('button', { name: 'Verify Quarterly sign-off on orders' });
    await verify.waitFor();
    // Behind the page's back, the sign-off's answer goes: the form is open again.
    await post(f, ORDERS, 'structuredProperties', { properties: [{ propertyUrn: RETENTION, values: [{ double: 90 }] }] });
    try {
      await verify.focus();
      await page.keyboard.press('Enter');
      const alert = orders.locator('.todo-verify').getByRole('alert');
      await alert.filter({ hasText: 'Not verified: a required prompt of this form is no longer answered on this asset (someone may have removed an answer since the page was read). Reload, answer it, then verify.' }).waitFor();
      // The item stays, and so does keyboard focus: back on its Verify button.
      assert.equal(await verify.evaluate((button) => button === document.activeElement), true, 'focus back on Verify');
      await alert.getByText('Details').click();
      assert.equal(await alert.locator('code').innerText(), `400: Cannot verify form ${SIGNOFF} on ${ORDERS}: its required prompts are not all answered yet`);
      assert.equal(await page.locator('p.ok[role="status"]').innerText(), '', 'no success said');
      await verify.waitFor();
      await assertAccessible(page, 'to do: a refused verification');
      await shot(page, 'todo-verify-refused');
      await page.setViewportSize({ width: 375, height: 800 });
      assert.equal(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth), true, 'no sideways scroll');
      await shot(page, 'todo-verify-refused-mobile');
    } finally {
      await post(f, ORDERS, 'structuredProperties', { properties: [{ propertyUrn: RETENTION, values: [{ double: 90 }] }, { propertyUrn: TIER, values: [{ string: 'silver' }] }] });
    }
  });

  it('a verification form\'s page says per asset: verified, awaiting verification or incomplete', async () => {
    const page = await f.signedIn();
    await page.goto(f.url(`#/form?urn=${encodeURIComponent(SIGNOFF)}`));
    await page.getByRole('heading', { name: 'Quarterly sign-off', level: 1 }).waitFor();
    const completion = page.locator('section', { has: page.getByRole('heading', { name: 'Completion' }) });
    assert.equal(await completion.locator('p').first().innerText(), '2 of 2 assets complete, 0 incomplete, 1 verified, 1 awaiting verification.');
    // A verification form's bar is its verified assets, not its complete ones.
    const bar = completion.getByRole('progressbar', { name: 'Assets verified' });
    assert.deepEqual([await bar.getAttribute('value'), await bar.getAttribute('max')], ['1', '2']);
    assert.equal(await completion.locator('.completion-text').first().innerText(), '1 of 2 verified, 2 complete');
    const assets = page.locator('section', { has: page.getByRole('heading', { name: 'Assets' }) });
    await assets.getByRole('rowheader', { name: 'orders' }).waitFor();
    assert.deepEqual((await assets.getByRole('row').allInnerTexts()).slice(1).sort(), ['customers\tdataset\tVerified\t1 of 1', 'orders\tdataset\tAwaiting verification\t1 of 1']);
    await assertAccessible(page, 'verification form page');
    await shot(page, 'form-verification-desktop');
    // At 375 px, with "Awaiting verification", the widest state, in the table: every column shows whole.
    const phone = await f.signedIn(undefined, { width: 375, height: 800 });
    await phone.goto(f.url(`#/form?urn=${encodeURIComponent(SIGNOFF)}`));
    await phone.getByText('Awaiting verification', { exact: true }).waitFor();
    assert.equal(await phone.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth), true, 'no sideways scroll');
    assert.deepEqual(await clipped(phone, '.form-assets'), []);
    assert.deepEqual(await phone.getByRole('columnheader').allInnerTexts(), ['Prompt', 'Answered', 'Asset', 'State', 'Prompts answered']);
    await shot(phone, 'form-verification-awaiting-mobile');
    // Orders loses its answer: incomplete.
    await post(f, ORDERS, 'structuredProperties', { properties: [{ propertyUrn: RETENTION, values: [{ double: 90 }] }] });
    try {
      await page.reload();
      await assets.getByRole('rowheader', { name: 'orders' }).waitFor();
      assert.deepEqual((await assets.getByRole('row').allInnerTexts()).slice(1).sort(), ['customers\tdataset\tVerified\t1 of 1', 'orders\tdataset\tIncomplete\t0 of 1']);
      const narrow = await f.signedIn(undefined, { width: 375, height: 800 });
      await narrow.goto(f.url(`#/form?urn=${encodeURIComponent(SIGNOFF)}`));
      await narrow.getByRole('rowheader', { name: 'orders' }).waitFor();
      assert.equal(await narrow.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth), true, 'no sideways scroll');
      assert.deepEqual(await clipped(narrow, '.form-assets'), [], 'the assets, an "Awaiting verification" among them, show whole');
      await assertAccessible(narrow, 'verification form page at 375 px');
      await shot(narrow, 'form-verification-mobile');
    } finally {
      await post(f, ORDERS, 'structuredProperties', { properties: [{ propertyUrn: RETENTION, values: [{ double: 90 }] }, { propertyUrn: TIER, values: [{ string: 'silver' }] }] });
    }
  });

  it('To do at 375 px', async () => {
    const page = await f.signedIn(jdoe, { width: 375, height: 800 });
    await page.goto(f.url('#/todo'));
    await page.getByRole('heading', { name: 'customers', level: 2 }).waitFor();
    assert.equal(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth), true, 'no sideways scroll');
    await assertAccessible(page, 'to do at 375 px');
    await shot(page, 'todo-mobile');
  });

  it('To do says when nothing is asked of the signed-in person', async () => {
    const made = await f.served.client.call('POST', '/openapi/v2/auth/tokens', { name: 'ann', role: 'viewer' });
    const page = await f.signedIn(made.body.token);
    await page.goto(f.url('#/todo'));
    await page.getByText('Nothing to do: no form asks you to answer or verify anything about an asset.').waitFor();
    await page.getByText('Your role (viewer) reads only: an editor or an admin answers the prompts and verifies.').waitFor();
    await assertAccessible(page, 'to do, empty');
  });

  it('the forms list shows each form\'s type, prompts, assignment and completion', async () => {
    const page = await f.signedIn();
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Forms' }).click();
    await page.getByRole('heading', { name: 'Forms', level: 1 }).waitFor();
    const row = (name: string) => page.getByRole('row').filter({ has: page.getByRole('rowheader', { name }) });
    await row('Retention review').getByText(/ of 3 complete$/).waitFor();
    await row('Quarterly sign-off').getByText(/ verified/).waitFor();
    await row('Ledger check').getByText(/ of 1 complete$/).waitFor();
    assert.deepEqual(await row('Kafka topics').getByRole('cell').allInnerTexts(), ['Completion', '1', 'by a filter', 'no assets yet']);
    // A verification form: verified of assigned (customers verified, orders awaiting), its complete ones beside; the bar is the verified.
    assert.deepEqual(await row('Quarterly sign-off').getByRole('cell').allInnerTexts(), ['Verification', '1', 'asset by asset', '1 of 2 verified, 2 complete']);
    const signoffBar = row('Quarterly sign-off').getByRole('progressbar', { name: 'Quarterly sign-off: assets verified' });
    assert.deepEqual([await signoffBar.getAttribute('value'), await signoffBar.getAttribute('max')], ['1', '2']);
    assert.deepEqual(await row('Retention review').getByRole('cell').allInnerTexts(), ['Completion', '2', 'asset by asset', '1 of 3 complete']);
    assert.equal(await row('Retention review').getByRole('progressbar', { name: 'Retention review: assets complete' }).getAttribute('value'), '1');
    assert.deepEqual(await row('Ledger check').getByRole('cell').allInnerTexts(), ['Completion', '1', 'asset by asset', '0 of 1 complete']);
    await assertAccessible(page, 'forms list');
    await shot(page, 'forms-desktop');
  });

  it('a form\'s page: definition, assignment, completion per prompt and its assets\' states', async () => {
    const page = await f.signedIn();
    await page.goto(f.url('#/forms'));
    await page.getByRole('link', { name: 'Retention review' }).click();
    await page.getByRole('heading', { name: 'Retention review', level: 1 }).waitFor();
    const definition = page.locator('section', { has: page.getByRole('heading', { name: 'Definition' }) });
    await definition.locator('strong', { hasText: /^kept$/ }).waitFor();
    assert.match(await definition.innerText(), /Asked of\s+owners of the asset/);
    assert.match(await definition.innerText(), /Asset by asset \(no filter\)/);
    assert.deepEqual(await definition.locator('.form-prompts > li > strong').allInnerTexts(), ['How many days is it kept?', 'Which tier is it?']);
    await definition.getByRole('link', { name: 'Retention (days)' }).waitFor();
    const completion = page.locator('section', { has: page.getByRole('heading', { name: 'Completion' }) });
    assert.match(await completion.locator('p').first().innerText(), /^1 of 3 assets complete, 2 incomplete\.$/);
    const bars = (await completion.getByRole('row').allInnerTexts()).map((r) => r.replace(/\s+/g, ' '));
    assert.deepEqual(bars, ['Prompt Answered', 'How many days is it kept? 1 of 3', 'Which tier is it? 2 of 3']);
    assert.equal(await completion.getByRole('progressbar', { name: 'Which tier is it?: assets that answered' }).getAttribute('value'), '2');
    const assets = page.locator('section', { has: page.getByRole('heading', { name: 'Assets' }) });
    const rows = await assets.getByRole('row').allInnerTexts();
    assert.equal(rows[0], 'Asset\tType\tState\tPrompts answered');
    assert.deepEqual(rows.slice(1).sort(), ['customers\tdataset\tIncomplete\t1 of 2', 'ledger\tdataset\tIncomplete\t0 of 2', 'orders\tdataset\tComplete\t2 of 2']);
    await assertAccessible(page, 'form page');
    await shot(page, 'form-desktop');

    await page.goto(f.url(`#/form?urn=${encodeURIComponent(TOPICS)}`));
    await page.getByRole('heading', { name: 'Kafka topics', level: 1 }).waitFor();
    assert.match(await page.locator('dl.facts').innerText(), /By a filter: the assets that match it hold the form/);
    assert.deepEqual(await page.locator('.form-filter li').allInnerTexts(), ['entity type is dataset and platform is urn:li:dataPlatform:kafka']);
    await page.getByText('No asset holds this form yet.').waitFor();
    assert.match(await page.locator('dl.facts').innerText(), /Asked of\s+ann/);
    await page.getByText('No asset holds this form.').waitFor();
    await assertAccessible(page, 'form page, assigned by a filter');
    await shot(page, 'form-filter');

    // One asset: "asset", not "assets".
    await page.goto(f.url(`#/form?urn=${encodeURIComponent(LEDGER_CHECK)}`));
    await page.getByRole('heading', { name: 'Ledger check', level: 1 }).waitFor();
    assert.equal(await completion.locator('p').first().innerText(), '0 of 1 asset complete, 1 incomplete.');
    assert.equal(await completion.locator('.completion-text').first().innerText(), '0 of 1 complete');

    await page.goto(f.url(`#/form?urn=${encodeURIComponent('urn:li:form:nope')}`));
    await page.getByRole('alert').filter({ hasText: 'There is no form urn:li:form:nope in the catalog.' }).waitFor();
  });

  it('a form\'s page at 375 px', async () => {
    const page = await f.signedIn(undefined, { width: 375, height: 800 });
    await page.goto(f.url(`#/form?urn=${encodeURIComponent(REVIEW)}`));
    await page.getByRole('heading', { name: 'Assets' }).waitFor();
    await page.getByRole('rowheader', { name: 'orders' }).waitFor();
    assert.equal(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth), true, 'no sideways scroll');
    // The assets' table shows whole at this width: no column cut off at the right.
    assert.deepEqual(await clipped(page, '.form-assets'), []);
    assert.deepEqual(await clipped(page, '.form-prompt-bars'), []);
    await assertAccessible(page, 'form page at 375 px');
    await shot(page, 'form-mobile');
  });

  it('the forms list and an entity\'s forms at 375 px', async () => {
    const page = await f.signedIn(undefined, { width: 375, height: 800 });
    await page.goto(f.url('#/forms'));
    await page.getByRole('rowheader', { name: 'Retention review' }).waitFor();
    await page.getByText('1 of 3 complete').waitFor();
    assert.equal(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth), true, 'no sideways scroll');
    assert.deepEqual(await clipped(page, '.forms-table'), []);
    await assertAccessible(page, 'forms list at 375 px');
    await shot(page, 'forms-mobile');
    await page.goto(f.url(`#/entity?urn=${encodeURIComponent(CUSTOMERS)}`));
    const forms = page.locator('section', { has: page.getByRole('heading', { name: 'Forms', level: 2 }) });
    await forms.getByRole('link', { name: 'Retention review' }).waitFor();
    assert.equal(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth), true, 'no sideways scroll');
    assert.deepEqual(await clipped(page, '.entity-forms'), []);
    await forms.screenshot({ path: join(SHOTS, 'entity-forms-mobile.png') });
  });

  it('the entity page lists the asset\'s forms with their states, linking to each form', async () => {
    const page = await f.signedIn();
    await page.goto(f.url(`#/entity?urn=${encodeURIComponent(CUSTOMERS)}`));
    const forms = page.locator('section', { has: page.getByRole('heading', { name: 'Forms', level: 2 }) });
    await forms.getByRole('link', { name: 'Retention review' }).waitFor();
    assert.deepEqual(await forms.getByRole('row').allInnerTexts(), ['Form\tState\tPrompts answered', 'Retention review\tIncomplete\t1 of 2', 'Quarterly sign-off (verification)\tVerified\t1 of 1']);
    await assertAccessible(page, 'entity page with forms');
    await forms.screenshot({ path: (mkdirSync(SHOTS, { recursive: true }), join(SHOTS, 'entity-forms.png')) });
    await forms.getByRole('link', { name: 'Quarterly sign-off' }).click();
    await page.getByRole('heading', { name: 'Quarterly sign-off', level: 1 }).waitFor();
  });
});
