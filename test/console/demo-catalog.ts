import assert from 'node:assert/strict';
import type { Client } from '../reliability/client.js';

/**
 * A small catalog that looks like a real one: what the screenshots show, and what the search
 * benchmark grows to 100,000 datasets. Everything goes in through the public API.
 */
export const RETENTION = 'urn:li:structuredProperty:com.example.privacy.retentionTime';
export const CLASSIFICATION = 'urn:li:structuredProperty:com.example.privacy.classification';
export const DESCRIBED_TEST = 'urn:li:test:datasets-are-owned';

const PLATFORMS = ['snowflake', 'bigquery', 'postgres', 'kafka', 's3'];
const TABLES = ['orders', 'customers', 'payments', 'sessions', 'invoices', 'shipments', 'products', 'refunds', 'campaigns', 'tickets', 'inventory', 'suppliers'];
const TAGS = ['pii', 'gold', 'finance', 'marketing', 'deprecated-soon'];
const OWNERS = ['jane', 'omar', 'li', 'ana'];
const CLASSES = ['public', 'internal', 'confidential', 'restricted'];

export const datasetUrnOf = (platform: string, name: string) => `urn:li:dataset:(urn:li:dataPlatform:${platform},${name},PROD)`;

async function ok(client: Client, method: string, path: string, body?: unknown): Promise<void> {
  const res = await client.call(method, path, body);
  assert.ok(res.status < 300, `${method} ${path}: ${res.status} ${JSON.stringify(res.body).slice(0, 300)}`);
}

/** Two property definitions and a metadata test. */
export async function seedDefinitions(client: Client): Promise<void> {
  await ok(client, 'POST', `/openapi/v2/entity/structuredProperty/${encodeURIComponent(RETENTION)}/propertyDefinition`, {
    qualifiedName: 'com.example.privacy.retentionTime',
    displayName: 'Retention time (days)',
    valueType: 'urn:li:dataType:datahub.number',
    cardinality: 'SINGLE',
    entityTypes: ['urn:li:entityType:datahub.dataset'],
    description: 'How long rows are kept',
  });
  await ok(client, 'POST', `/openapi/v2/entity/structuredProperty/${encodeURIComponent(CLASSIFICATION)}/propertyDefinition`, {
    qualifiedName: 'com.example.privacy.classification',
    displayName: 'Classification',
    valueType: 'urn:li:dataType:datahub.string',
    cardinality: 'SINGLE',
    entityTypes: ['urn:li:entityType:datahub.dataset'],
    allowedValues: CLASSES.map((c) => ({ value: { string: c }, description: `${c} data` })),
  });
  const definition = { on: { types: ['dataset'] }, rules: [{ property: 'ownership.owners.owner', operator: 'exists' }] };
  await ok(client, 'POST', `/openapi/v2/entity/test/${encodeURIComponent(DESCRIBED_TEST)}/testInfo`, {
    name: 'Datasets have an owner',
    category: 'Governance',
    description: 'Every dataset names at least one owner',
    definition: { type: 'JSON', json: JSON.stringify(definition) },
  });
}

/** The `i`-th dataset of the demo: name, platform, tags, owners, properties, a schema. */
export function demoDataset(i: number): { urn: string; aspects: Record<string, { value: unknown }> } {
  const platform = PLATFORMS[i % PLATFORMS.length];
  const table = TABLES[i % TABLES.length];
  const name = i < TABLES.length ? `analytics.${table}` : `analytics.${table}_${i}`;
  const owners = i % 7 === 3 ? [] : [{ owner: `urn:li:corpuser:${OWNERS[i % OWNERS.length]}`, type: 'DATAOWNER' }];
  return {
    urn: datasetUrnOf(platform, name),
    aspects: {
      datasetProperties: { value: { name, description: `${table[0].toUpperCase()}${table.slice(1)} as the ${platform} pipeline loads them, one row per ${table.replace(/s$/, '')}.`, customProperties: { team: OWNERS[i % OWNERS.length] } } },
      globalTags: { value: { tags: TAGS.filter((_, t) => (i + t) % 3 === 0).map((t) => ({ tag: `urn:li:tag:${t}` })) } },
      ownership: { value: { owners } },
      structuredProperties: {
        value: {
          properties: [
            { propertyUrn: RETENTION, values: [{ double: [30, 90, 365, 730][i % 4] }] },
            { propertyUrn: CLASSIFICATION, values: [{ string: CLASSES[i % CLASSES.length] }] },
          ],
        },
      },
      schemaMetadata: {
        value: {
          schemaName: name,
          platform: `urn:li:dataPlatform:${platform}`,
          version: 0,
          hash: '',
          platformSchema: { 'com.linkedin.schema.MySqlDDL': { tableSchema: '' } },
          fields: [
            { fieldPath: `${table.replace(/s$/, '')}_id`, nativeDataType: 'bigint', type: { type: { 'com.linkedin.schema.NumberType': {} } }, description: 'Primary key', nullable: false, recursive: false },
            { fieldPath: 'customer_email', nativeDataType: 'varchar(255)', type: { type: { 'com.linkedin.schema.StringType': {} } }, description: 'Where receipts go', nullable: true, recursive: false },
            { fieldPath: 'created_at', nativeDataType: 'timestamp', type: { type: { 'com.linkedin.schema.TimeType': {} } }, nullable: false, recursive: false },
          ],
        },
      },
    },
  };
}

/** Datasets `from` to `to` (exclusive), in batches through the v2 batch API. */
export async function seedDatasets(client: Client, from: number, to: number, batch = 500): Promise<void> {
  for (let i = from; i < to; i += batch) {
    const entities = Array.from({ length: Math.min(batch, to - i) }, (_, j) => demoDataset(i + j));
    await ok(client, 'POST', '/openapi/v2/entity/dataset?async=false', entities);
  }
}
