import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Page } from 'playwright-core';
import { startServer } from '../server-process.js';
import { Client } from '../reliability/client.js';
import { CHROMIUM } from './harness.js';
import { datasetUrnOf, DESCRIBED_TEST, RETENTION, seedDatasets, seedDefinitions } from './demo-catalog.js';
import { demoDataset } from './demo-catalog.js';
import { seedLineageGraph } from './lineage-seed.js';
import { CUSTOMERS, seedModel, seedTimeseries } from './model-seed.js';

/**
 * The console's screenshots in docs/console/: a fresh server with the demo catalog, each main
 * page at 1280×800, and search at 375 px. Run: `npm run build && node dist/test/console/screenshots.js`
 * (names after it, `… screenshots.js lineage`, remake only those).
 */
const ADMIN = 'urnb_screenshots-admin-0123456789abcdefghijklm';
const OUT = join(process.cwd(), 'docs', 'console');
const ONLY = process.argv.slice(2);
const GRAPHIQL_QUERY = `{
  searchAcrossEntities(input: { types: [DATASET], query: "orders", count: 2 }) {
    total
    searchResults {
      entity {
        urn
        ... on Dataset {
          properties { name description }
        }
      }
    }
  }
}
`;

const ABOUT_DESCRIPTION = 'One row per **customer**, as the shop knows them. See the [data dictionary](https://wiki.example.com/customers).\n\n- `id` is stable\n- addresses are as typed';

async function seedAbout(client: Client): Promise<void> {
  const write = async (type: string, urn: string, aspects: Record<string, unknown>) => {
    const res = await client.call('POST', `/openapi/v2/entity/${type}?async=false`, [{ urn, aspects: Object.fromEntries(Object.entries(aspects).map(([k, v]) => [k, { value: v }])) }]);
    if (res.status !== 200) throw new Error(`${type} ${urn}: ${res.status} ${JSON.stringify(res.body)}`);
  };
  await write('corpuser', 'urn:li:corpuser:jdoe', { corpUserInfo: { active: true, displayName: 'Jane Doe' } });
  await write('corpGroup', 'urn:li:corpGroup:growth', { corpGroupInfo: { displayName: 'Growth team', admins: [], members: [], groups: [] } });
  await write('glossaryTerm', 'urn:li:glossaryTerm:Customer', { glossaryTermInfo: { name: 'Customer', definition: 'Someone who bought', termSource: 'INTERNAL' } });
  await write('domain', 'urn:li:domain:sales', { domainProperties: { name: 'Sales' } });
  await write('dataset', CUSTOMERS, {
    editableDatasetProperties: { description: ABOUT_DESCRIPTION },
    ownership: { owners: [{ owner: 'urn:li:corpuser:jdoe', type: 'DATAOWNER' }, { owner: 'urn:li:corpGroup:growth', type: 'TECHNICAL_OWNER' }] },
    glossaryTerms: { terms: [{ urn: 'urn:li:glossaryTerm:Customer' }], auditStamp: { time: 0, actor: 'urn:li:corpuser:jdoe' } },
    domains: { domains: ['urn:li:domain:sales'] },
  });
}

const dir = mkdtempSync(join(tmpdir(), 'urnbase-screenshots-'));
const server = await startServer({ args: ['--data-dir', join(dir, 'data'), '--log-level', 'warn'], env: { URNBASE_ADMIN_TOKEN: ADMIN } });
const browser = await chromium.launch({ executablePath: CHROMIUM, args: process.getuid?.() === 0 ? ['--no-sandbox'] : [] });
try {
  const client = new Client(server.base, ADMIN);
  await seedDefinitions(client);
  await seedDatasets(client, 0, 60);
  await seedModel(client);
  await seedTimeseries(client);
  await client.call('POST', '/gms/test?action=evaluate', { urn: CUSTOMERS, push: true });
  await client.call('POST', '/gms/test?action=batchEvaluate', { urns: Array.from({ length: 12 }, (_, i) => datasetUrnOf(['snowflake', 'bigquery', 'postgres', 'kafka', 's3'][i % 5], `analytics.${['orders', 'customers', 'payments', 'sessions', 'invoices', 'shipments', 'products', 'refunds', 'campaigns', 'tickets', 'inventory', 'suppliers'][i]}`)), testUrns: [DESCRIBED_TEST], push: true });
  mkdirSync(OUT, { recursive: true });
  const shoot = async (name: string, hash: string, width = 1280, height = 800, ready?: string, fullPage = false, element?: string, prepare?: (page: Page) => Promise<void>) => {
    if (ONLY.length > 0 && !ONLY.includes(name)) return;
    const context = await browser.newContext({ viewport: { width, height }, deviceScaleFactor: 1 });
    const page = await context.newPage();
    await page.goto(`${server.base}/#/sign-in`);
    await page.getByLabel('Access token').fill(ADMIN);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(/#\/search/);
    await page.goto(`${server.base}/${hash}`);
    if (ready) await page.getByText(ready).first().waitFor();
    // Not networkidle: the activity page keeps a long poll open. Let late facet counts land.
    await page.waitForTimeout(1500);
    if (prepare) await prepare(page);
    if (element) await page.locator(element).screenshot({ path: join(OUT, `${name}.png`) });
    else await page.screenshot({ path: join(OUT, `${name}.png`), fullPage });
    await context.close();
    console.log(`docs/console/${name}.png`);
  };
  // The customers' About facts as a steward leaves them: a markdown description, owners of two
  // types, a glossary term and a domain (people, terms and domains exist for the pickers to find).
  await seedAbout(client);
  await shoot('search', '#/search?query=orders', 1280, 800, 'analytics.orders');
  // A dataset in a container chain, with a nested schema, profiles and operations.
  await shoot('entity', `#/entity?urn=${encodeURIComponent(CUSTOMERS)}`, 1280, 800, 'Datasets have an owner', true);
  // Editing on the entity page: the description with its preview, owners, and a refused tag.
  await shoot('entity-editing', `#/entity?urn=${encodeURIComponent(CUSTOMERS)}`, 1280, 1400, 'Datasets have an owner', false, 'section:has(#about-title)', async (page) => {
    const about = page.locator('section:has(#about-title)');
    await about.getByRole('button', { name: 'Edit description' }).click();
    await about.getByLabel('Description (markdown)').fill(`${ABOUT_DESCRIPTION}\n\nRefreshed **hourly** from the shop's database.`);
    await about.getByRole('button', { name: 'Preview' }).click();
    await about.getByRole('button', { name: 'Edit owners' }).click();
    await about.getByLabel('Owner (user or group)').fill('urn:li:corpuser:nobody');
    await about.getByRole('button', { name: 'Add owner' }).click();
    await about.getByRole('alert').waitFor();
  });
  await shoot('entity-tags-refused', `#/entity?urn=${encodeURIComponent(CUSTOMERS)}`, 1280, 800, 'Datasets have an owner', false, 'section:has(#tags-title)', async (page) => {
    const tags = page.locator('section:has(#tags-title)');
    await tags.getByLabel('Add a tag').fill('urn:li:corpuser:jdoe');
    await tags.getByRole('button', { name: 'Add tag' }).click();
    await tags.getByRole('alert').waitFor();
  });
  // A structured-property value refused by the server, in words, the server's own under Details.
  await shoot('entity-property-refused', `#/entity?urn=${encodeURIComponent(CUSTOMERS)}`, 1280, 800, 'Datasets have an owner', false, 'section:has(#properties-title)', async (page) => {
    const properties = page.locator('section:has(#properties-title)');
    await properties.getByLabel('Property', { exact: true }).selectOption({ label: 'Retention time (days) — com.example.privacy.retentionTime' });
    await properties.getByLabel('Value (a number)').pressSequentially('1e');
    await properties.getByRole('button', { name: 'Save' }).click();
    await properties.getByRole('alert').waitFor();
  });
  await shoot('entity-mobile', `#/entity?urn=${encodeURIComponent(CUSTOMERS)}`, 375, 1400, 'Datasets have an owner');
  await shoot('properties-refused', `#/properties?edit=${encodeURIComponent(RETENTION)}`, 1280, 1000, 'Retention time (days)', false, 'form.property-form', async (page) => {
    await page.getByLabel('Value type').selectOption({ label: 'String' });
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByRole('alert').waitFor();
    await page.getByRole('alert').getByText('Details', { exact: true }).click();
  });
  await shoot('entity-profiles', `#/entity?urn=${encodeURIComponent(CUSTOMERS)}`, 1280, 800, 'Column statistics of the latest profile', false, 'section:has(#profiles-title)');
  await shoot('properties', '#/properties', 1280, 800, 'Retention time (days)');
  // The conditions editor on a test with a scope, a negation and an OR group.
  const governed = 'urn:li:test:snowflake-governed';
  await client.call('POST', `/openapi/v2/entity/test/${encodeURIComponent(governed)}/testInfo`, {
    name: 'Snowflake datasets are governed',
    category: 'Governance',
    definition: {
      type: 'JSON',
      json: JSON.stringify({
        on: { types: ['dataset'], conditions: { and: [{ property: 'dataPlatformInstance.platform', operator: 'equals', value: 'urn:li:dataPlatform:snowflake' }] } },
        rules: [
          { property: 'datasetProperties.description', operator: 'exists' },
          { not: { property: 'globalTags.tags.tag', operator: 'equals', value: 'urn:li:tag:deprecated-soon' } },
          { or: [{ property: 'ownership.owners.owner', operator: 'exists' }, { property: 'domains.domains', operator: 'starts_with', values: ['urn:li:domain:sales', 'urn:li:domain:finance'] }] },
        ],
      }),
    },
  });
  await shoot('tests-editor', `#/tests?urn=${encodeURIComponent(governed)}`, 1280, 1400, 'Rule 3.2 property', false, 'section[aria-labelledby="tests-definition"]');
  await shoot('tests-list', '#/tests', 1280, 800, 'Metadata tests (');
  // A new test: its default rule (either description), and a required field left empty, said in words.
  await shoot('tests-required', '#/tests?new=1', 1280, 1250, 'New metadata test', false, undefined, async (page) => {
    await page.getByLabel('Name').fill('Datasets are described');
    await page.getByRole('button', { name: 'Create test' }).click();
    await page.locator('#test-category-missing').waitFor();
  });
  // A test's page: its definition as conditions (the structured editor), try and run.
  await shoot('tests', `#/tests?urn=${encodeURIComponent(DESCRIBED_TEST)}`, 1280, 800, 'Run over the catalog', true);
  // Tokens of one name told apart, one of them revoked.
  if (ONLY.length === 0 || ONLY.includes('tokens')) {
    for (const [name, role] of [['ingest-bot', 'editor'], ['dashboards', 'viewer'], ['dashboards', 'viewer'], ['steward', 'editor']]) {
      await client.call('POST', '/openapi/v2/auth/tokens', { name, role, ...(name === 'steward' ? { expiresInDays: 90 } : {}) });
    }
    const first = ((await client.call('GET', '/openapi/v2/auth/tokens')).body as Array<{ id: string; name: string }>).find((t) => t.name === 'dashboards')!;
    await client.call('DELETE', `/openapi/v2/auth/tokens/${first.id}`);
  }
  // With a name refused in words, the Name field marked.
  await shoot('tokens', '#/tokens', 1280, 800, 'ingest-bot', false, undefined, async (page) => {
    await page.getByLabel('Name').fill('has space');
    await page.getByRole('button', { name: 'Create token' }).click();
    await page.getByRole('alert').waitFor();
  });
  // Activity filtered to datasets' tags, the newest change's diff open: one dataset's tags rewritten.
  const retagged = demoDataset(0);
  await client.call('POST', `/openapi/v2/entity/dataset/${encodeURIComponent(retagged.urn)}/globalTags`, { tags: [{ tag: 'urn:li:tag:pii' }, { tag: 'urn:li:tag:gold' }] });
  await shoot('activity', '#/activity?entityType=dataset&aspect=globalTags', 1280, 800, 'Live', false, undefined, async (page) => {
    await page.locator('table.activity tbody tr').first().getByRole('button', { name: 'Show diff' }).click();
    await page.locator('tr.activity-diff figure').waitFor();
  });
  // At 375 px the activity table scrolls inside its box, its words whole.
  await shoot('activity-mobile', '#/activity', 375, 740, 'Live');
  // A name that is one long underscore-joined word: at 375 px it wraps after its separators only.
  const longName = 'orders_lifetime_value_aggregated_monthly_snapshot_partitioned_by_region';
  await client.call('POST', `/openapi/v2/entity/dataset/${encodeURIComponent(datasetUrnOf('bigquery', `analytics.${longName}`))}/datasetProperties`, {
    name: longName,
    description: 'Orders: lifetime value per customer, by month and region',
  });
  await shoot('search-mobile', '#/search?query=lifetime', 375, 740, 'Orders: lifetime value');
  // Signed out, on a server of its own that wrote its first admin token to its data dir: a
  // session whose token the server refused, and where that token is.
  if (ONLY.length === 0 || ONLY.includes('sign-in')) {
    const fresh = await startServer({ args: ['--data-dir', join(dir, 'catalog'), '--log-level', 'warn'], env: { URNBASE_ADMIN_TOKEN: '' } });
    try {
      const context = await browser.newContext({ viewport: { width: 1280, height: 640 }, deviceScaleFactor: 1 });
      const page = await context.newPage();
      await page.goto(`${fresh.base}/#/sign-in?${new URLSearchParams({ next: '/search?query=orders', reason: 'expired' })}`);
      await page.getByText('admin.token').waitFor();
      await page.screenshot({ path: join(OUT, 'sign-in.png') });
      await context.close();
      console.log('docs/console/sign-in.png');
    } finally {
      await fresh.stop();
    }
  }
  // GraphiQL, its page beside the console's: a search run, and the docs opened at Query.
  await shoot('graphiql', 'graphiql/', 1280, 800, 'admin (admin)', false, undefined, async (page) => {
    await page.locator('.graphiql-query-editor .CodeMirror').first().evaluate((el, text) => (el as unknown as { CodeMirror: { setValue(v: string): void } }).CodeMirror.setValue(text), GRAPHIQL_QUERY);
    await page.getByRole('button', { name: 'Execute query (Ctrl-Enter)' }).click();
    await page.getByRole('button', { name: 'Show Documentation Explorer' }).click();
    await page.locator('.graphiql-doc-explorer').getByText('Query', { exact: true }).click();
    await page.waitForTimeout(1000);
  });
  // Last, so that its datasets are in no other screenshot: the lineage of analytics.orders, 50
  // entities, every node opened twice over, and a column's lineage.
  const { root: lineageRoot } = await seedLineageGraph(client, (i) => demoDataset(i).urn);
  // A window as tall as the opened graph: the entity's card is sticky, and would follow a scroll.
  await shoot('lineage', `#/entity?urn=${encodeURIComponent(lineageRoot)}`, 1280, 2400, 'Load orders', false, 'section.lineage', async (page) => {
    for (let round = 0; round < 2; round++) {
      for (const toggle of await page.locator('section.lineage button.node-toggle[aria-expanded="false"]').elementHandles()) await toggle.click();
      await page.waitForTimeout(1000);
    }
    await page.getByRole('button', { name: 'Columns of analytics.orders', exact: true }).click();
    await page.getByLabel('Column of analytics.orders', { exact: true }).selectOption('customer_email');
    await page.waitForTimeout(1000);
  });
} finally {
  await browser.close();
  await server.stop();
  rmSync(dir, { recursive: true, force: true });
}
