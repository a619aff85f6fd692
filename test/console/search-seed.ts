import assert from 'node:assert/strict';
import type { ConsoleFixture } from './harness.js';

/**
 * A small catalog for the search and entity pages, written through the API: two structured
 * properties (a number, and a string with allowed values), four datasets with tags, platforms,
 * owners, a schema and property values — one with a hostile description — and, optionally, a
 * run of plain Kafka datasets to page through.
 */
export const ds = (platform: string, name: string) => `urn:li:dataset:(urn:li:dataPlatform:${platform},${name},PROD)`;

export const ORDERS = ds('snowflake', 'sales.orders');
export const ORDER_ITEMS = ds('snowflake', 'sales.order_items');
export const CLICKS = ds('hive', 'web.clicks');
export const SESSIONS = ds('hive', 'web.sessions');
export const XSS_DESCRIPTION = 'Clicks <script>alert(1)</script> and <img src=x onerror=alert(1)>';
export const RETENTION = 'urn:li:structuredProperty:com.example.retention';
export const TIER = 'urn:li:structuredProperty:tier';
export const REVIEWED = 'urn:li:structuredProperty:reviewed';

const V2 = '/openapi/v2/entity';

async function ok(f: ConsoleFixture, method: string, path: string, body?: unknown) {
  const answer = await f.served.client.call(method, path, body);
  assert.ok(answer.status < 300, `${method} ${path}: ${answer.status} ${JSON.stringify(answer.body)}`);
  return answer;
}

const values = (retention?: number, tier?: string, reviewed?: string) => ({
  value: {
    properties: [
      ...(retention === undefined ? [] : [{ propertyUrn: RETENTION, values: [{ double: retention }] }]),
      ...(tier === undefined ? [] : [{ propertyUrn: TIER, values: [{ string: tier }] }]),
      ...(reviewed === undefined ? [] : [{ propertyUrn: REVIEWED, values: [{ string: reviewed }] }]),
    ],
  },
});

const tags = (...names: string[]) => ({ value: { tags: names.map((n) => ({ tag: `urn:li:tag:${n}` })) } });

export async function seedCatalog(f: ConsoleFixture, { kafka = 0 }: { kafka?: number } = {}): Promise<void> {
  await ok(f, 'POST', `${V2}/structuredProperty/${encodeURIComponent(RETENTION)}/propertyDefinition`, {
    qualifiedName: 'com.example.retention',
    displayName: 'Retention days',
    valueType: 'urn:li:dataType:datahub.number',
    entityTypes: ['urn:li:entityType:datahub.dataset'],
  });
  await ok(f, 'POST', `${V2}/structuredProperty/${encodeURIComponent(TIER)}/propertyDefinition`, {
    qualifiedName: 'tier',
    displayName: 'Tier',
    valueType: 'urn:li:dataType:datahub.string',
    entityTypes: ['urn:li:entityType:datahub.dataset'],
    allowedValues: [
      { value: { string: 'gold' }, description: 'Gold tier' },
      { value: { string: 'silver' }, description: 'Silver tier' },
    ],
  });
  await ok(f, 'POST', `${V2}/structuredProperty/${encodeURIComponent(REVIEWED)}/propertyDefinition`, {
    qualifiedName: 'reviewed',
    displayName: 'Reviewed on',
    valueType: 'urn:li:dataType:datahub.date',
    entityTypes: ['urn:li:entityType:datahub.dataset'],
  });
  const field = (fieldPath: string, nativeDataType: string, description?: string) => ({
    fieldPath,
    nativeDataType,
    type: { type: { 'com.linkedin.schema.StringType': {} } },
    ...(description ? { description } : {}),
  });
  await ok(f, 'POST', `${V2}/dataset?async=false`, [
    {
      urn: ORDERS,
      aspects: {
        datasetProperties: { value: { name: 'orders', description: 'Placed orders, one row each' } },
        globalTags: tags('pii'),
        ownership: { value: { owners: [{ owner: 'urn:li:corpuser:jdoe', type: 'DATAOWNER' }] } },
        schemaMetadata: {
          value: {
            schemaName: 'orders',
            platform: 'urn:li:dataPlatform:snowflake',
            version: 0,
            hash: '',
            platformSchema: { 'com.linkedin.schema.MySqlDDL': { tableSchema: '' } },
            fields: [field('order_id', 'bigint', 'The order'), field('customer_id', 'varchar(36)')],
          },
        },
        editableSchemaMetadata: {
          value: { editableSchemaFieldInfo: [{ fieldPath: 'customer_id', description: 'Who ordered', globalTags: { tags: [{ tag: 'urn:li:tag:pii' }] } }] },
        },
        structuredProperties: values(365, 'gold'),
      },
    },
    {
      urn: ORDER_ITEMS,
      aspects: {
        datasetProperties: { value: { name: 'order_items', description: 'The lines of each order' } },
        globalTags: tags('gold'),
        structuredProperties: values(30, 'silver', '2024-05-01'),
      },
    },
    {
      urn: CLICKS,
      aspects: {
        datasetProperties: { value: { name: 'clicks', description: XSS_DESCRIPTION } },
        globalTags: tags('pii'),
        ownership: { value: { owners: [{ owner: 'urn:li:corpuser:alice', type: 'TECHNICAL_OWNER' }] } },
        structuredProperties: values(90, undefined, '2025-01-15'),
      },
    },
    {
      urn: SESSIONS,
      aspects: { datasetProperties: { value: { name: 'sessions', description: 'One row per visit' } } },
    },
  ]);
  if (kafka > 0) {
    await ok(
      f,
      'POST',
      `${V2}/dataset?async=false`,
      Array.from({ length: kafka }, (_, i) => ({
        urn: ds('kafka', `events.topic_${String(i).padStart(2, '0')}`),
        aspects: { datasetProperties: { value: { name: `topic_${String(i).padStart(2, '0')}` } } },
      })),
    );
  }
}
