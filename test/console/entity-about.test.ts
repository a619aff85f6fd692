import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { assertAccessible, BROWSER_SKIP, consoleFixture, type ConsoleFixture } from './harness.js';

/**
 * The entity page's About facts (`console/src/components/about-editing.tsx`): the description
 * rendered as sanitised markdown and edited with a preview, owners with their ownership types,
 * glossary terms and the domain, each through DataHub's GraphQL mutations; and unsaved edits
 * that survive a bounce to sign-in when the token is revoked mid-edit.
 */
const V2 = '/openapi/v2/entity';
const dataset = (name: string) => `urn:li:dataset:(urn:li:dataPlatform:hive,about.${name},PROD)`;
const JDOE = 'urn:li:corpuser:jdoe';
const ANALYSTS = 'urn:li:corpGroup:analysts';
const REVENUE = 'urn:li:glossaryTerm:Revenue';
const SALES = 'urn:li:domain:sales';
const LIMIT = 'urn:li:structuredProperty:about.limit';
const CUSTODIAN = 'urn:li:ownershipType:custodian';

async function write(f: ConsoleFixture, type: string, urn: string, aspects: Record<string, unknown>): Promise<void> {
  const body = [{ urn, aspects: Object.fromEntries(Object.entries(aspects).map(([k, v]) => [k, { value: v }])) }];
  const res = await f.served.client.call('POST', `${V2}/${type}?async=false`, body);
  assert.equal(res.status, 200, JSON.stringify(res.body));
}

async function read(f: ConsoleFixture, urn: string, aspect: string): Promise<any> {
  const type = /^urn:li:([^:]+):/.exec(urn)![1];
  const res = await f.served.client.call('GET', `${V2}/${type}/${encodeURIComponent(urn)}/${aspect}`);
  return res.status === 404 ? undefined : res.body?.value;
}

const seedDataset = (f: ConsoleFixture, name: string, aspects: Record<string, unknown> = {}) => write(f, 'dataset', dataset(name), { datasetProperties: { name: `about.${name}` }, ...aspects });

function about(page: Page) {
  return page.locator('section', { has: page.getByRole('heading', { name: 'About', exact: true }) });
}

async function open(f: ConsoleFixture, page: Page, urn: string) {
  await page.goto(f.url(`#/entity?urn=${encodeURIComponent(urn)}`));
  await about(page).waitFor();
  return about(page);
}

/** Waits until `check` holds (at most 10 s), asking every 100 ms. */
async function eventually(check: () => Promise<boolean>): Promise<void> {
  for (const end = Date.now() + 10_000; !(await check()); ) {
    assert.ok(Date.now() < end, 'never came to hold');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

async function signIn(page: Page, token: string) {
  await page.getByLabel('Access token').fill(token);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL((url) => !url.hash.startsWith('#/sign-in'));
}

describe('console: the About facts of the entity page', { skip: BROWSER_SKIP }, () => {
  const f = consoleFixture();

  before(async () => {
    await write(f, 'corpuser', JDOE, { corpUserInfo: { active: true, displayName: 'Jane Doe' } });
    await write(f, 'corpGroup', ANALYSTS, { corpGroupInfo: { displayName: 'Analysts', admins: [], members: [], groups: [] } });
    await write(f, 'glossaryTerm', REVENUE, { glossaryTermInfo: { name: 'Revenue', definition: 'Money in', termSource: 'INTERNAL' } });
    await write(f, 'domain', SALES, { domainProperties: { name: 'Sales' } });
    const stamp = { time: 0, actor: 'urn:li:corpuser:admin' };
    await write(f, 'ownershipType', CUSTODIAN, { ownershipTypeInfo: { name: 'Data custodian', created: stamp, lastModified: stamp } });
    const res = await f.served.client.call('POST', `${V2}/structuredProperty/${encodeURIComponent(LIMIT)}/propertyDefinition`, {
      qualifiedName: 'about.limit',
      displayName: 'Limit',
      valueType: 'urn:li:dataType:datahub.number',
      entityTypes: ['urn:li:entityType:datahub.dataset'],
    });
    assert.equal(res.status, 200, JSON.stringify(res.body));
  });

  it('renders a markdown description with its markup and scripts inert, and qualified names wrap at their separators', async () => {
    const hostile = [
      '**Bold** and _italic_, a [link](https://example.com/docs) and a [trap](javascript:alert(1)).',
      '',
      '<script>alert(1)</script> <img src=x onerror=alert(1)> <a href="javascript:alert(2)">raw</a>',
      '',
      '![pixel](https://example.com/pixel.png)',
    ].join('\n');
    const urn = dataset('marts.order_facts_by_customer_segment');
    await seedDataset(f, 'marts.order_facts_by_customer_segment', { editableDatasetProperties: { description: hostile } });
    const page = await f.signedIn();
    const dialogs: string[] = [];
    page.on('dialog', (dialog) => {
      dialogs.push(dialog.message());
      void dialog.dismiss();
    });
    const facts = await open(f, page, urn);
    const description = facts.locator('.entity-description');
    await description.locator('strong').getByText('Bold', { exact: true }).waitFor();
    assert.equal(await description.locator('em').innerText(), 'italic');
    const link = description.getByRole('link', { name: 'link' });
    assert.equal(await link.getAttribute('href'), 'https://example.com/docs');
    assert.equal(await link.getAttribute('rel'), 'noopener noreferrer');
    // A javascript: link is not made a link; raw HTML is text; no image is fetched.
    assert.equal(await description.getByRole('link', { name: 'trap' }).count(), 0);
    // Its text stays, without the markdown around it.
    assert.equal(await description.locator('p').first().innerText(), 'Bold and italic, a link and a trap.');
    assert.equal(await description.locator('a[href^="javascript"], script, img').count(), 0);
    await description.getByText('<script>alert(1)</script> <img src=x onerror=alert(1)> <a href="javascript:alert(2)">raw</a>', { exact: true }).waitFor();
    assert.deepEqual(dialogs, []);

    // The name wraps after its dots and underscores, not inside a word.
    const title = page.getByRole('heading', { level: 1 });
    assert.equal(await title.innerText(), 'about.marts.order_facts_by_customer_segment');
    assert.equal(await title.locator('wbr').count(), 6);
    const narrow = await f.signedIn(undefined, { width: 375, height: 740 });
    await open(f, narrow, urn);
    // Each part between separators is a text node of its own: none may be split over two lines.
    const parts = await narrow.getByRole('heading', { level: 1 }).evaluate((h) =>
      [...h.childNodes]
        .filter((n) => n.nodeType === Node.TEXT_NODE)
        .map((node) => {
          const range = document.createRange();
          range.selectNodeContents(node);
          return { text: node.textContent ?? '', lines: range.getClientRects().length, top: Math.round(range.getBoundingClientRect().top) };
        }),
    );
    assert.deepEqual(
      parts.map((p) => p.text),
      ['about.', 'marts.', 'order_', 'facts_', 'by_', 'customer_', 'segment'],
    );
    assert.deepEqual(parts.filter((p) => p.lines !== 1), [], 'no part of the name is broken inside');
    assert.ok(new Set(parts.map((p) => p.top)).size > 1, 'the name wraps at 375 px');
    await assertAccessible(page, 'entity page with a markdown description');
  });

  it('edits the description as markdown with a preview; the page shows it rendered', async () => {
    const urn = dataset('described');
    await seedDataset(f, 'described');
    const page = await f.signedIn();
    const facts = await open(f, page, urn);
    await facts.getByRole('button', { name: 'Edit description' }).click();
    const text = facts.getByLabel('Description (markdown)');
    await text.fill('Orders, **one row each**.\n\n- placed\n- paid');
    await facts.getByRole('button', { name: 'Preview' }).click();
    const preview = facts.getByRole('region', { name: 'Preview' });
    await preview.locator('strong').getByText('one row each').waitFor();
    assert.deepEqual(await preview.locator('li').allInnerTexts(), ['placed', 'paid']);
    await assertAccessible(page, 'entity page, description preview');
    await facts.getByRole('button', { name: 'Back to editing' }).click();
    assert.equal(await text.inputValue(), 'Orders, **one row each**.\n\n- placed\n- paid');
    await facts.getByRole('button', { name: 'Save description' }).click();
    await facts.getByRole('status').getByText('Saved the description.').waitFor();
    await facts.locator('.entity-description strong').getByText('one row each').waitFor();
    assert.deepEqual(await read(f, urn, 'editableDatasetProperties').then((v) => v.description), 'Orders, **one row each**.\n\n- placed\n- paid');
  });

  it('adds owners of a type picked with search, refuses one that does not exist in words, and removes one', async () => {
    const urn = dataset('owned');
    await seedDataset(f, 'owned');
    const page = await f.signedIn();
    const facts = await open(f, page, urn);
    await facts.getByRole('button', { name: 'Edit owners' }).click();
    const owner = facts.getByLabel('Owner (user or group)');
    await owner.fill('jane');
    const suggestions = facts.locator('datalist option');
    await suggestions.first().waitFor({ state: 'attached' });
    assert.deepEqual(await suggestions.evaluateAll((os) => os.map((o) => [(o as HTMLOptionElement).value, (o as HTMLOptionElement).label])), [[JDOE, 'Jane Doe']]);
    await owner.fill(JDOE);
    await facts.getByLabel('Ownership type').selectOption({ label: 'Business owner' });
    await facts.getByRole('button', { name: 'Add owner' }).click();
    await facts.getByRole('status').getByText('Added jdoe as business owner.').waitFor();
    await facts.getByRole('link', { name: 'Jane Doe' }).waitFor();

    await owner.fill('urn:li:corpuser:nobody');
    await facts.getByRole('button', { name: 'Add owner' }).click();
    const alert = facts.getByRole('alert');
    await alert.getByText('There is no user or group urn:li:corpuser:nobody in the catalog. Pick the owner from the list.', { exact: true }).waitFor();
    assert.equal(await owner.getAttribute('aria-invalid'), 'true');
    assert.equal(await owner.getAttribute('aria-describedby'), await alert.getAttribute('id'));
    await owner.fill(urn);
    await facts.getByRole('button', { name: 'Add owner' }).click();
    await alert.getByText('An owner is a user or a group: pick one from the suggestions (urn:li:corpuser:… or urn:li:corpGroup:…).', { exact: true }).waitFor();

    await owner.fill(ANALYSTS);
    await facts.getByLabel('Ownership type').selectOption({ label: 'Technical owner' });
    await facts.getByRole('button', { name: 'Add owner' }).click();
    await facts.getByRole('status').getByText('Added analysts as technical owner.').waitFor();
    assert.equal(await facts.getByRole('alert').count(), 0);
    // An ownership type of the catalog's own, offered by its name.
    await owner.fill(ANALYSTS);
    await facts.getByLabel('Ownership type').selectOption({ label: 'Data custodian' });
    await facts.getByRole('button', { name: 'Add owner' }).click();
    await facts.getByRole('status').getByText('Added analysts as Data custodian.').waitFor();
    await facts.getByText('(Data custodian)').waitFor();
    assert.deepEqual(
      (await read(f, urn, 'ownership')).owners.map((o: { owner: string; type: string; typeUrn?: string }) => [o.owner, o.type, o.typeUrn]),
      [
        [JDOE, 'BUSINESS_OWNER', undefined],
        [ANALYSTS, 'TECHNICAL_OWNER', undefined],
        [ANALYSTS, 'CUSTOM', CUSTODIAN],
      ],
    );
    await assertAccessible(page, 'entity page, editing owners');

    await facts.getByRole('button', { name: 'Remove owner Jane Doe (Business owner)' }).click();
    await facts.getByRole('status').getByText('Removed jdoe.').waitFor();
    await facts.getByRole('link', { name: 'Jane Doe' }).waitFor({ state: 'detached' });
    assert.deepEqual((await read(f, urn, 'ownership')).owners.map((o: { owner: string }) => o.owner), [ANALYSTS, ANALYSTS]);
  });

  it('adds and removes glossary terms, and sets and unsets the domain, each picked with search', async () => {
    const urn = dataset('classified');
    await seedDataset(f, 'classified');
    const page = await f.signedIn();
    const facts = await open(f, page, urn);

    await facts.getByRole('button', { name: 'Edit glossary terms' }).click();
    const term = facts.getByLabel('Glossary term');
    await term.fill('reven');
    await facts.locator('datalist option[value="urn:li:glossaryTerm:Revenue"]').waitFor({ state: 'attached' });
    await term.fill('urn:li:corpuser:jdoe');
    await facts.getByRole('button', { name: 'Add term' }).click();
    await facts.getByRole('alert').getByText('Pick a glossary term from the suggestions (urn:li:glossaryTerm:…).', { exact: true }).waitFor();
    assert.equal(await term.getAttribute('aria-invalid'), 'true');
    await term.fill(REVENUE);
    await facts.getByRole('button', { name: 'Add term' }).click();
    await facts.getByRole('status').getByText('Added the term Revenue.').waitFor();
    assert.deepEqual((await read(f, urn, 'glossaryTerms')).terms.map((t: { urn: string }) => t.urn), [REVENUE]);
    await facts.getByRole('list', { name: 'Glossary terms' }).getByRole('link', { name: 'Revenue' }).waitFor();

    await facts.getByRole('button', { name: 'Edit domain' }).click();
    const domain = facts.getByLabel('Domain', { exact: true });
    await domain.fill('sal');
    await facts.locator('datalist option[value="urn:li:domain:sales"]').waitFor({ state: 'attached' });
    await domain.fill(SALES);
    await facts.getByRole('button', { name: 'Set domain' }).click();
    await facts.getByRole('status').getByText('Moved into the domain Sales.', { exact: true }).waitFor();
    assert.deepEqual((await read(f, urn, 'domains')).domains, [SALES]);
    await facts.getByRole('link', { name: 'Sales' }).waitFor();
    await assertAccessible(page, 'entity page with a term and a domain');

    await facts.getByRole('button', { name: 'Remove term Revenue' }).click();
    await facts.getByRole('status').getByText('Removed the term Revenue.').waitFor();
    assert.deepEqual((await read(f, urn, 'glossaryTerms')).terms, []);
    await facts.getByRole('button', { name: 'Edit domain' }).click();
    await facts.getByRole('button', { name: 'Unset domain' }).click();
    await facts.getByRole('status').getByText('Removed from its domain.').waitFor();
    await facts.getByText('No domain.').waitFor();
    assert.deepEqual((await read(f, urn, 'domains')).domains, []);
  });

  it('a person may own in several roles; an owners error goes when its editor closes, and after a success in another editor', async () => {
    const urn = dataset('roles');
    await seedDataset(f, 'roles');
    const page = await f.signedIn();
    const facts = await open(f, page, urn);
    // Nothing yet: each "No …." is a sentence of its own before its Edit button.
    assert.equal(await facts.locator('dd').filter({ hasText: 'No owners.' }).innerText(), 'No owners. Edit owners');
    assert.equal(await facts.locator('dd').filter({ hasText: 'No glossary terms.' }).innerText(), 'No glossary terms. Edit glossary terms');
    assert.equal(await facts.locator('dd').filter({ hasText: 'No description.' }).innerText(), 'No description. Edit description');
    assert.equal(await facts.locator('dd').filter({ hasText: 'No domain.' }).innerText(), 'No domain. Edit domain');

    await facts.getByRole('button', { name: 'Edit owners' }).click();
    const owner = facts.getByLabel('Owner (user or group)');
    await owner.fill(JDOE);
    await facts.getByLabel('Ownership type').selectOption({ label: 'Technical owner' });
    await facts.getByRole('button', { name: 'Add owner' }).click();
    await facts.getByRole('status').getByText('Added jdoe as technical owner.').waitFor();
    await owner.fill(JDOE);
    await facts.getByLabel('Ownership type').selectOption({ label: 'Data steward' });
    await facts.getByRole('button', { name: 'Add owner' }).click();
    await facts.getByRole('status').getByText('Added jdoe as data steward.').waitFor();
    await facts.getByRole('button', { name: 'Remove owner Jane Doe (Technical owner)' }).waitFor();
    await facts.getByRole('button', { name: 'Remove owner Jane Doe (Data steward)' }).waitFor();
    assert.deepEqual((await read(f, urn, 'ownership')).owners.map((o: { owner: string; type: string }) => [o.owner, o.type]), [
      [JDOE, 'TECHNICAL_OWNER'],
      [JDOE, 'DATA_STEWARD'],
    ]);
    // Closed, the editor's confirmation goes with it.
    await facts.getByRole('button', { name: 'Done' }).click();
    await facts.getByText('Added jdoe as data steward.').waitFor({ state: 'detached' });
    await facts.getByRole('button', { name: 'Edit owners' }).click();

    // Refused, then closed: the error goes with the editor.
    const refusal = facts.getByText('An owner is a user or a group: pick one from the suggestions (urn:li:corpuser:… or urn:li:corpGroup:…).', { exact: true });
    await owner.fill('bob');
    await facts.getByRole('button', { name: 'Add owner' }).click();
    await refusal.waitFor();
    await facts.getByRole('button', { name: 'Done' }).click();
    assert.equal(await refusal.count(), 0);
    assert.equal(await facts.getByRole('alert').count(), 0);

    // Refused again, then a term is added: that success clears it too.
    await facts.getByRole('button', { name: 'Edit owners' }).click();
    await owner.fill('bob');
    await facts.getByRole('button', { name: 'Add owner' }).click();
    await refusal.waitFor();
    await facts.getByRole('button', { name: 'Edit glossary terms' }).click();
    await facts.getByLabel('Glossary term').fill(REVENUE);
    await facts.getByRole('button', { name: 'Add term' }).click();
    await facts.getByRole('status').getByText('Added the term Revenue.').waitFor();
    await refusal.waitFor({ state: 'detached' });
    assert.equal(await facts.getByRole('alert').count(), 0);
  });

  it('offers only what the type has: no domain, terms or platform on a user; no tags, domain, terms or platform on a domain', async () => {
    const page = await f.signedIn();
    const user = await open(f, page, JDOE);
    // Users have tags, but no owners, terms, domain or platform; updateDescription does not take them.
    await page.getByRole('heading', { name: 'Tags', exact: true }).waitFor();
    assert.deepEqual(await user.locator('dt').allInnerTexts(), ['Description']);
    assert.equal(await user.getByRole('button').count(), 0);

    const domain = await open(f, page, SALES);
    await domain.getByRole('button', { name: 'Edit description' }).waitFor();
    await domain.getByRole('button', { name: 'Edit owners' }).waitFor();
    assert.deepEqual(await domain.locator('dt').allInnerTexts(), ['Description', 'Owners']);
    assert.equal(await page.getByRole('heading', { name: 'Tags', exact: true }).count(), 0);
    assert.equal(await page.getByText('Platform').count(), 0);
    await assertAccessible(page, 'a domain\'s page');

    // A dataset has them all.
    await seedDataset(f, 'typed');
    const facts = await open(f, page, dataset('typed'));
    await facts.getByRole('button', { name: 'Edit domain' }).waitFor();
    assert.deepEqual(await facts.locator('dt').allInnerTexts(), ['Description', 'Platform', 'Owners', 'Glossary terms', 'Domain']);
  });

  it('says in words when a save is too large or gets no answer, keeps the draft, and clears the error once a save succeeds', async () => {
    const urn = dataset('unlucky');
    await seedDataset(f, 'unlucky');
    const page = await f.signedIn();
    const facts = await open(f, page, urn);
    await facts.getByRole('button', { name: 'Edit description' }).click();
    const text = facts.getByLabel('Description (markdown)');
    // Over the 2 MiB a request that may only read (as GraphQL's endpoint is counted) may carry.
    await text.fill('x'.repeat(2_200_000));
    await facts.getByRole('button', { name: 'Save description' }).click();
    const alert = facts.getByRole('alert');
    await alert.getByText('That is too large for the server to accept. Make it smaller and try again.', { exact: true }).waitFor();

    await text.fill('Short, at last');
    await page.route('**/api/graphql', (route) => route.abort('internetdisconnected'));
    await facts.getByRole('button', { name: 'Save description' }).click();
    await alert.getByText('The server could not be reached: it may be stopped, or the network is down. Nothing was saved; try again once it is back.', { exact: true }).waitFor();
    assert.equal(await text.inputValue(), 'Short, at last');
    await page.unroute('**/api/graphql');

    await facts.getByRole('button', { name: 'Save description' }).click();
    await facts.getByRole('status').getByText('Saved the description.').waitFor();
    assert.equal(await facts.getByRole('alert').count(), 0);
    assert.equal(await read(f, urn, 'editableDatasetProperties').then((v) => v.description), 'Short, at last');
  });

  it('a description draft and a property value draft survive the token being revoked mid-edit for the same person only, and go once saved', async () => {
    const urn = dataset('drafted');
    await seedDataset(f, 'drafted', { editableDatasetProperties: { description: 'Old words' } });
    const made = (await f.served.client.call('POST', '/openapi/v2/auth/tokens', { name: 'about-editor', role: 'editor' })).body as { token: string; id: string };
    const page = await f.signedIn(made.token);
    const reading = new Set<unknown>();
    let lastRead = Date.now();
    page.on('request', (r) => (reading.add(r), (lastRead = Date.now())));
    page.on('requestfinished', (r) => reading.delete(r));
    page.on('requestfailed', (r) => reading.delete(r));
    const facts = await open(f, page, urn);
    // The page settled (the type's aspects read, its Tags shown and their picker's first search
    // made, lineage and history read): a read sent after the revocation below would bounce to
    // sign-in before the save does.
    await page.getByRole('heading', { name: 'Tags', exact: true }).waitFor();
    await eventually(async () => reading.size === 0 && Date.now() - lastRead > 1000);
    await facts.getByRole('button', { name: 'Edit description' }).click();
    await facts.getByLabel('Description (markdown)').fill('New words, *not yet saved*');
    const properties = page.locator('section', { has: page.getByRole('heading', { name: 'Structured properties', exact: true }) });
    await properties.getByLabel('Property', { exact: true }).selectOption({ label: 'Limit (about.limit)' });
    await properties.getByLabel('Value (a number)').fill('250');

    // Revoked while the editors are open: the save bounces to sign-in.
    assert.equal((await f.served.client.call('DELETE', `/openapi/v2/auth/tokens/${made.id}`)).status, 204);
    await facts.getByRole('button', { name: 'Save description' }).click();
    await page.waitForURL(/#\/sign-in/);
    assert.equal(await read(f, urn, 'editableDatasetProperties').then((v) => v.description), 'Old words');

    // Someone else signs in, in the same tab: the drafts are not theirs, and not shown to them.
    await signIn(page, (await f.served.client.call('POST', '/openapi/v2/auth/tokens', { name: 'about-other', role: 'editor' })).body.token);
    await open(f, page, urn);
    await facts.getByRole('button', { name: 'Edit description' }).waitFor();
    assert.equal(await facts.getByLabel('Description (markdown)').count(), 0);
    await properties.getByLabel('Property', { exact: true }).selectOption({ label: 'Limit (about.limit)' });
    assert.equal(await properties.getByLabel('Value (a number)').inputValue(), '');
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL(/#\/sign-in/);

    // Back, the same person signed in with a new token: both edits are where they were left.
    await signIn(page, (await f.served.client.call('POST', '/openapi/v2/auth/tokens', { name: 'about-editor', role: 'editor' })).body.token);
    await open(f, page, urn);
    assert.equal(await facts.getByLabel('Description (markdown)').inputValue(), 'New words, *not yet saved*');
    assert.equal(await properties.getByLabel('Property', { exact: true }).inputValue(), LIMIT);
    assert.equal(await properties.getByLabel('Value (a number)').inputValue(), '250');

    await facts.getByRole('button', { name: 'Save description' }).click();
    await facts.getByRole('status').getByText('Saved the description.').waitFor();
    await properties.getByRole('button', { name: 'Save' }).click();
    await properties.getByRole('status').getByText('Saved Limit (about.limit).').waitFor();
    assert.equal(await read(f, urn, 'editableDatasetProperties').then((v) => v.description), 'New words, *not yet saved*');
    assert.deepEqual(await read(f, urn, 'structuredProperties'), { properties: [{ propertyUrn: LIMIT, values: [{ double: 250 }] }] });

    // Saved drafts are gone: a reload shows the stored values, no editor open.
    await page.reload();
    await facts.locator('.entity-description em').getByText('not yet saved').waitFor();
    assert.equal(await facts.getByLabel('Description (markdown)').count(), 0);
    assert.deepEqual(await page.evaluate(() => Object.keys(sessionStorage).filter((k) => k.startsWith('urnbase.draft'))), []);

    // An editor opened and left unchanged leaves no draft behind.
    await facts.getByRole('button', { name: 'Edit description' }).click();
    await facts.getByLabel('Description (markdown)').waitFor();
    assert.deepEqual(await page.evaluate(() => Object.keys(sessionStorage).filter((k) => k.startsWith('urnbase.draft'))), []);
    await page.reload();
    await facts.getByRole('button', { name: 'Edit description' }).waitFor();

    // Cancel drops a draft too.
    await facts.getByRole('button', { name: 'Edit description' }).click();
    await facts.getByLabel('Description (markdown)').fill('Thrown away');
    await facts.getByRole('button', { name: 'Cancel' }).click();
    await page.reload();
    await facts.getByRole('button', { name: 'Edit description' }).waitFor();
    assert.equal(await facts.getByLabel('Description (markdown)').count(), 0);
  });
});
