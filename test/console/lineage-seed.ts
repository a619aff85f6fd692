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
 * (more than a page), and a two-dataset cycle.
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
    { urn: PING, aspects: { upstreamLineage: upstreamLineage([PONG]) } },
    { urn: PONG, aspects: { upstreamLineage: upstreamLineage([PING]) } },
  ]);
  // The export is known only as the job's output: no name of its own, no schema.
  await writeJob(client, JOB, 'Copy orders to S3', [MART], [EXPORT]);
}
