import assert from 'node:assert/strict';
import type { Client } from '../reliability/client.js';

/**
 * Lineage for the entity page's lineage view, written through the API as DataHub's ingestion
 * writes it: `upstreamLineage` (with `fineGrainedLineages` for columns) on datasets, and a job's
 * `dataJobInputOutput`.
 *
 * The small graph of the tests: raw_orders → clean_orders → orders_mart → revenue_report, a job
 * reading orders_mart and writing exports/orders, columns along the chain (raw_orders.order_no →
 * clean_orders.id → orders_mart.order_id → revenue_report.order_id), a hub with 23 downstreams
 * (more than a page), a fan of 55 (5 under the root, 10 under each), and a two-dataset cycle.
 */
export const ds = (platform: string, name: string) => `urn:li:dataset:(urn:li:dataPlatform:${platform},${name},PROD)`;
export const field = (dataset: string, path: string) => `urn:li:schemaField:(${dataset},${path})`;

export const RAW = ds('hive', 'etl.raw_orders');
export const CLEAN = ds('hive', 'etl.clean_orders');
export const MART = ds('snowflake', 'sales.orders_mart');
export const REPORT = ds('snowflake', 'sales.revenue_report');
export const EXPORT = ds('s3', 'exports/orders');
export const JOB = 'urn:li:dataJob:(urn:li:dataFlow:(airflow,exports,prod),copy_orders)';
export const HUB = ds('kafka', 'events.page_views');
export const HUB_DOWNSTREAMS = 23;
export const viewOf = (i: number) => ds('kafka', `events.view_${String(i).padStart(2, '0')}`);
export const PING = ds('postgres', 'app.ping');
/** A fan of 55 downstream: 5 datasets at one hop, 10 under each at two. */
export const FAN = ds('hive', 'fan.root');
export const fanChild = (i: number) => ds('hive', `fan.c${i}`);
export const fanGrandchild = (i: number, j: number) => ds('hive', `fan.c${i}_g${j}`);
export const PONG = ds('postgres', 'app.pong');

const V2 = '/openapi/v2/entity';
const stamp = { time: 0, actor: 'urn:li:corpuser:etl' };

async function ok(client: Client, method: string, path: string, body?: unknown) {
  const answer = await client.call(method, path, body);
  assert.ok(answer.status < 300, `${method} ${path}: ${answer.status} ${JSON.stringify(answer.body)}`);
  return answer;
}

/** A flat schema of the given columns. */
export function schemaOf(name: string, platform: string, columns: string[]) {
  return {
    schemaName: name,
    platform: `urn:li:dataPlatform:${platform}`,
    version: 0,
    hash: '',
    platformSchema: { 'com.linkedin.schema.OtherSchema': { rawSchema: '' } },
    fields: columns.map((fieldPath) => ({ fieldPath, nativeDataType: 'string', type: { type: { 'com.linkedin.schema.StringType': {} } }, nullable: false, recursive: false })),
  };
}

/** `upstreamLineage` naming `upstreams`, and column edges `[from, to]` as fine-grained lineage. */
export function upstreamLineage(upstreams: string[], columns: Array<[from: string, to: string]> = []) {
  return {
    upstreams: upstreams.map((dataset) => ({ dataset, type: 'TRANSFORMED', auditStamp: stamp })),
    ...(columns.length ? { fineGrainedLineages: columns.map(([from, to]) => ({ upstreamType: 'FIELD_SET', downstreamType: 'FIELD', upstreams: [from], downstreams: [to] })) } : {}),
  };
}

/** Datasets with their aspects, in one batch write. */
export async function writeDatasets(client: Client, datasets: Array<{ urn: string; aspects: Record<string, unknown> }>): Promise<void> {
  const entities = datasets.map(({ urn, aspects }) => ({ urn, aspects: Object.fromEntries(Object.entries(aspects).map(([name, value]) => [name, { value }])) }));
  await ok(client, 'POST', `${V2}/dataset?async=false`, entities);
}

export async function writeJob(client: Client, urn: string, name: string, inputs: string[], outputs: string[]): Promise<void> {
  await ok(client, 'POST', `${V2}/dataJob/${encodeURIComponent(urn)}/dataJobInfo`, { name, type: { string: 'COMMAND' } });
  await ok(client, 'POST', `${V2}/dataJob/${encodeURIComponent(urn)}/dataJobInputOutput`, { inputDatasets: inputs, outputDatasets: outputs });
}

export async function seedLineage(client: Client): Promise<void> {
  await writeDatasets(client, [
    { urn: RAW, aspects: { datasetProperties: { name: 'raw_orders' }, schemaMetadata: schemaOf('raw_orders', 'hive', ['order_no', 'amount']) } },
    {
      urn: CLEAN,
      aspects: { datasetProperties: { name: 'clean_orders' }, schemaMetadata: schemaOf('clean_orders', 'hive', ['id', 'amount']), upstreamLineage: upstreamLineage([RAW], [[field(RAW, 'order_no'), field(CLEAN, 'id')]]) },
    },
    {
      urn: MART,
      aspects: { datasetProperties: { name: 'orders_mart' }, schemaMetadata: schemaOf('orders_mart', 'snowflake', ['order_id', 'amount']), upstreamLineage: upstreamLineage([CLEAN], [[field(CLEAN, 'id'), field(MART, 'order_id')]]) },
    },
    {
      urn: REPORT,
      aspects: {
        datasetProperties: { name: 'revenue_report' },
        schemaMetadata: schemaOf('revenue_report', 'snowflake', ['order_id', 'revenue']),
        upstreamLineage: upstreamLineage([MART], [[field(MART, 'order_id'), field(REPORT, 'order_id')]]),
      },
    },
    { urn: HUB, aspects: { datasetProperties: { name: 'page_views' } } },
    ...Array.from({ length: HUB_DOWNSTREAMS }, (_, i) => ({ urn: viewOf(i), aspects: { upstreamLineage: upstreamLineage([HUB]) } })),
    { urn: FAN, aspects: { datasetProperties: { name: 'fan' } } },
    ...Array.from({ length: 5 }, (_, i) => ({ urn: fanChild(i), aspects: { upstreamLineage: upstreamLineage([FAN]) } })),
    ...Array.from({ length: 50 }, (_, k) => ({ urn: fanGrandchild(Math.floor(k / 10), k % 10), aspects: { upstreamLineage: upstreamLineage([fanChild(Math.floor(k / 10))]) } })),
    { urn: PING, aspects: { upstreamLineage: upstreamLineage([PONG]) } },
    { urn: PONG, aspects: { upstreamLineage: upstreamLineage([PING]) } },
  ]);
  // The export is known only as the job's output: no name of its own, no schema.
  await writeJob(client, JOB, 'Copy orders to S3', [MART], [EXPORT]);
}

const flowJob = (flow: string, job: string) => `urn:li:dataJob:(urn:li:dataFlow:(airflow,${flow},prod),${job})`;
const chart = (id: string) => `urn:li:chart:(looker,${id})`;
const dashboard = (id: string) => `urn:li:dashboard:(looker,${id})`;
const modified = { created: stamp, lastModified: stamp };

/**
 * The screenshot's graph, 50 entities around the demo catalog's `analytics.orders` (the
 * demo datasets must be there: demo-catalog.ts): raw sources and load jobs upstream; marts,
 * finance tables, an export job, Looker charts and dashboards downstream; the path of
 * `customer_email` as column lineage.
 */
export async function seedLineageGraph(client: Client, demo: (i: number) => string): Promise<{ root: string }> {
  const [orders, customers, payments, invoices, shipments, products, refunds, campaigns, tickets, inventory] = [0, 1, 2, 4, 5, 6, 7, 8, 9, 10].map(demo);
  const raw = {
    orders: ds('s3', 'raw/orders/2024'),
    lines: ds('s3', 'raw/order_lines/2024'),
    shopOrders: ds('postgres', 'shop.public.orders'),
    shopCustomers: ds('postgres', 'shop.public.customers'),
    contacts: ds('kafka', 'crm.contacts'),
    charges: ds('kafka', 'stripe.charges'),
    stripeRefunds: ds('kafka', 'stripe.refunds'),
    shopProducts: ds('postgres', 'shop.public.products'),
    googleAds: ds('s3', 'raw/ads/google'),
    metaAds: ds('s3', 'raw/ads/meta'),
  };
  const mart = (name: string) => ds('snowflake', `marts.${name}`);
  const finance = (name: string) => ds('bigquery', `finance.${name}`);
  const facts = ['by_day', 'by_region', 'by_channel', 'by_product', 'by_customer_segment', 'by_warehouse'].map((s) => mart(`order_facts_${s}`));
  const email = (dataset: string, path = 'email') => field(dataset, path);

  await writeDatasets(client, [
    { urn: orders, aspects: { upstreamLineage: upstreamLineage([customers, payments, products, campaigns], [[email(customers, 'customer_email'), email(orders, 'customer_email')]]) } },
    { urn: customers, aspects: { upstreamLineage: upstreamLineage([raw.shopCustomers, raw.contacts], [[email(raw.shopCustomers), email(customers, 'customer_email')]]) } },
    { urn: raw.shopCustomers, aspects: { schemaMetadata: schemaOf('customers', 'postgres', ['id', 'email', 'created_at']) } },
    { urn: products, aspects: { upstreamLineage: upstreamLineage([raw.shopProducts]) } },
    { urn: campaigns, aspects: { upstreamLineage: upstreamLineage([raw.googleAds, raw.metaAds]) } },
    { urn: invoices, aspects: { upstreamLineage: upstreamLineage([orders]) } },
    { urn: shipments, aspects: { upstreamLineage: upstreamLineage([orders]) } },
    { urn: refunds, aspects: { upstreamLineage: upstreamLineage([orders]) } },
    { urn: tickets, aspects: { upstreamLineage: upstreamLineage([orders]) } },
    { urn: inventory, aspects: { upstreamLineage: upstreamLineage([orders]) } },
    { urn: mart('daily_revenue'), aspects: { upstreamLineage: upstreamLineage([orders]) } },
    { urn: mart('customer_ltv'), aspects: { schemaMetadata: schemaOf('customer_ltv', 'snowflake', ['email', 'ltv']), upstreamLineage: upstreamLineage([orders], [[email(orders, 'customer_email'), email(mart('customer_ltv'))]]) } },
    { urn: ds('kafka', 'crm.email_audience'), aspects: { upstreamLineage: upstreamLineage([mart('customer_ltv')], [[email(mart('customer_ltv')), email(ds('kafka', 'crm.email_audience'))]]) } },
    { urn: ds('bigquery', 'ml.churn_features'), aspects: { upstreamLineage: upstreamLineage([mart('customer_ltv')]) } },
    { urn: mart('order_facts'), aspects: { upstreamLineage: upstreamLineage([orders]) } },
    ...facts.map((urn) => ({ urn, aspects: { upstreamLineage: upstreamLineage([mart('order_facts')]) } })),
    { urn: finance('ar_aging'), aspects: { upstreamLineage: upstreamLineage([invoices]) } },
    { urn: finance('revenue_by_region'), aspects: { upstreamLineage: upstreamLineage([invoices, mart('daily_revenue')]) } },
    { urn: ds('snowflake', 'ops.delivery_sla'), aspects: { upstreamLineage: upstreamLineage([shipments]) } },
    ...[
      [refunds, finance('refund_rates')],
      [refunds, finance('chargebacks')],
      [tickets, ds('postgres', 'support.ticket_sla')],
      [tickets, ds('postgres', 'support.csat')],
      [inventory, ds('snowflake', 'ops.stock_levels')],
      [inventory, ds('snowflake', 'ops.reorder_points')],
    ].map(([from, urn]) => ({ urn, aspects: { upstreamLineage: upstreamLineage([from]) } })),
  ]);
  await writeJob(client, flowJob('orders_daily', 'load_orders'), 'Load orders', [raw.orders, raw.lines, raw.shopOrders], [orders]);
  await writeJob(client, flowJob('payments_sync', 'sync_payments'), 'Sync payments', [raw.charges, raw.stripeRefunds], [payments]);
  await writeJob(client, flowJob('exports', 'export_orders'), 'Export orders', [orders], [ds('s3', 'exports/orders/daily'), ds('s3', 'exports/orders/partner_feed')]);
  const charts: Array<[string, string, string[]]> = [
    ['weekly_revenue', 'Weekly revenue', [orders]],
    ['orders_by_region', 'Orders by region', [orders]],
    ['revenue_by_region', 'Revenue by region', [finance('revenue_by_region')]],
  ];
  for (const [id, title, inputs] of charts) {
    await ok(client, 'POST', `${V2}/chart/${encodeURIComponent(chart(id))}/chartInfo`, { title, description: '', lastModified: modified, inputEdges: inputs.map((destinationUrn) => ({ destinationUrn })) });
  }
  const dashboards: Array<[string, string, string[]]> = [
    ['sales_overview', 'Sales overview', [chart('weekly_revenue'), chart('orders_by_region')]],
    ['finance_weekly', 'Finance weekly', [chart('revenue_by_region')]],
  ];
  for (const [id, title, charted] of dashboards) {
    await ok(client, 'POST', `${V2}/dashboard/${encodeURIComponent(dashboard(id))}/dashboardInfo`, { title, description: '', lastModified: modified, charts: charted });
  }
  return { root: orders };
}
