import assert from 'node:assert/strict';
import type { Client } from '../reliability/client.js';

/**
 * Entities shaped as DataHub's ingestion writes them, for the entity page's renderings of the
 * wider model: a dataset in a schema in a database (container chain, browse path, subtypes), a
 * nested schema in v2 field paths with typed unions, custom properties, links, deprecation and
 * upstream lineage; and a wide table of 1,000 fields. Everything goes in through the public API.
 */
export const ds = (platform: string, name: string) => `urn:li:dataset:(urn:li:dataPlatform:${platform},${name},PROD)`;

export const DATABASE = 'urn:li:container:5f1d0d2c7a3c4e1b9b3e2f0a1c2d3e4f';
export const SCHEMA = 'urn:li:container:8a7b6c5d4e3f2a1b0c9d8e7f6a5b4c3d';
export const CUSTOMERS = ds('bigquery', 'shop.sales.customers');
export const RAW_CUSTOMERS = ds('bigquery', 'shop.raw.customers');
export const GONE = 'urn:li:container:archive-0001';
export const WIDE = ds('bigquery', 'shop.sales.wide_events');
export const WIDE_FIELDS = 1000;

const V2 = '/openapi/v2/entity';
const union = (name: string, value: unknown = {}) => ({ [`com.linkedin.schema.${name}`]: value });

async function ok(client: Client, method: string, path: string, body?: unknown) {
  const answer = await client.call(method, path, body);
  assert.ok(answer.status < 300, `${method} ${path}: ${answer.status} ${JSON.stringify(answer.body)}`);
  return answer;
}

/** A field as DataHub's v2 field paths write it: `[version=2.0].[type=struct].[type=string].address.city`. */
function field(path: Array<[name: string, type: string]>, type: Record<string, unknown>, nativeDataType: string, extra: Record<string, unknown> = {}) {
  return {
    fieldPath: ['[version=2.0]', '[type=struct]', ...path.map(([name, t]) => `[type=${t}].${name}`)].join('.'),
    type: { type },
    nativeDataType,
    nullable: false,
    recursive: false,
    ...extra,
  };
}

export const NESTED_FIELDS = [
  field([['id', 'long']], union('NumberType'), 'INT64', { description: 'Customer number', isPartOfKey: true }),
  field([['address', 'struct']], union('RecordType'), 'STRUCT<city STRING, zip STRING>', { nullable: true }),
  field(
    [
      ['address', 'struct'],
      ['city', 'string'],
    ],
    union('StringType'),
    'STRING',
    { nullable: true, description: 'City as typed' },
  ),
  field(
    [
      ['address', 'struct'],
      ['zip', 'string'],
    ],
    union('StringType'),
    'STRING',
    { nullable: true },
  ),
  field([['emails', 'array']], union('ArrayType', { nestedType: ['string'] }), 'ARRAY<STRING>', { globalTags: { tags: [{ tag: 'urn:li:tag:pii' }] } }),
  field([['signed_up', 'long']], union('TimeType'), 'TIMESTAMP'),
];

export async function seedModel(client: Client): Promise<void> {
  await ok(client, 'POST', `${V2}/container?async=false`, [
    { urn: DATABASE, aspects: { containerProperties: { value: { name: 'shop' } }, subTypes: { value: { typeNames: ['Project'] } } } },
    {
      urn: SCHEMA,
      aspects: { containerProperties: { value: { name: 'sales' } }, subTypes: { value: { typeNames: ['Dataset'] } }, container: { value: { container: DATABASE } } },
    },
  ]);
  const path = { value: { path: [{ id: 'prod' }, { id: DATABASE, urn: DATABASE }, { id: SCHEMA, urn: SCHEMA }] } };
  await ok(client, 'POST', `${V2}/dataset?async=false`, [
    {
      urn: CUSTOMERS,
      aspects: {
        datasetProperties: { value: { name: 'customers', description: 'One row per customer', customProperties: { retention: '7 years', owner_team: 'growth' } } },
        subTypes: { value: { typeNames: ['Table'] } },
        container: { value: { container: SCHEMA } },
        browsePathsV2: path,
        deprecation: { value: { deprecated: true, note: 'Use customers_v2', actor: 'urn:li:corpuser:jdoe', decommissionTime: Date.UTC(2030, 0, 31) } },
        institutionalMemory: {
          value: {
            elements: [
              { url: 'https://wiki.example.com/customers', description: 'Data dictionary', createStamp: { time: 0, actor: 'urn:li:corpuser:jdoe' } },
              { url: 'javascript:alert(1)', description: 'Not a link', createStamp: { time: 0, actor: 'urn:li:corpuser:jdoe' } },
            ],
          },
        },
        upstreamLineage: { value: { upstreams: [{ dataset: RAW_CUSTOMERS, type: 'TRANSFORMED', auditStamp: { time: 0, actor: 'urn:li:corpuser:datahub' } }] } },
        schemaMetadata: {
          value: {
            schemaName: 'customers',
            platform: 'urn:li:dataPlatform:bigquery',
            version: 0,
            hash: '',
            platformSchema: { 'com.linkedin.schema.OtherSchema': { rawSchema: '' } },
            fields: NESTED_FIELDS,
          },
        },
        editableSchemaMetadata: {
          value: {
            editableSchemaFieldInfo: [
              { fieldPath: NESTED_FIELDS[2].fieldPath, description: 'City of the billing address' },
              { fieldPath: NESTED_FIELDS[3].fieldPath, glossaryTerms: { terms: [{ urn: 'urn:li:glossaryTerm:PostalCode' }], auditStamp: { time: 0, actor: 'urn:li:corpuser:jdoe' } } },
            ],
          },
        },
      },
    },
    {
      urn: RAW_CUSTOMERS,
      aspects: {
        datasetProperties: { value: { name: 'raw_customers' } },
        // A container that is not in the catalog: the path keeps its id, the chain its URN.
        container: { value: { container: GONE } },
        browsePathsV2: { value: { path: [{ id: 'prod' }, { id: 'archive', urn: GONE }] } },
      },
    },
    {
      urn: WIDE,
      aspects: {
        datasetProperties: { value: { name: 'wide_events' } },
        schemaMetadata: {
          value: {
            schemaName: 'wide_events',
            platform: 'urn:li:dataPlatform:bigquery',
            version: 0,
            hash: '',
            platformSchema: { 'com.linkedin.schema.OtherSchema': { rawSchema: '' } },
            // Ten structs of 99 columns each: 1,000 fields, two levels deep.
            fields: Array.from({ length: WIDE_FIELDS }, (_, i) => {
              const group = `group_${String(Math.floor(i / 100)).padStart(2, '0')}`;
              return i % 100 === 0
                ? field([[group, 'struct']], union('RecordType'), 'STRUCT')
                : field(
                    [
                      [group, 'struct'],
                      [`col_${String(i).padStart(4, '0')}`, 'string'],
                    ],
                    union('StringType'),
                    'STRING',
                    { nullable: i % 2 === 0 },
                  );
            }),
          },
        },
      },
    },
  ]);
}

const DAY = 86_400_000;
/** Five daily profiles of CUSTOMERS, 2024-05-01 to 2024-05-05, and three operations. */
export const PROFILE_DAYS = [0, 1, 2, 3, 4].map((d) => Date.UTC(2024, 4, 1, 6) + d * DAY);
export const ROW_COUNTS = [1000, 1200, 1250, 1400, 1500];

/** One point, as DataHub's emitters send it: a proposal with the value as a JSON string. */
async function ingestPoint(client: Client, urn: string, aspectName: string, value: unknown) {
  const proposal = { entityType: 'dataset', entityUrn: urn, aspectName, changeType: 'UPSERT', aspect: { value: JSON.stringify(value), contentType: 'application/json' } };
  const answer = await client.call('POST', '/aspects?action=ingestProposal', { proposal }, { 'X-RestLi-Protocol-Version': '2.0.0' });
  assert.equal(answer.status, 200, `${aspectName}: ${answer.status} ${JSON.stringify(answer.body)}`);
}

export async function seedTimeseries(client: Client): Promise<void> {
  for (const [i, time] of PROFILE_DAYS.entries()) {
    const latest = i === PROFILE_DAYS.length - 1;
    await ingestPoint(client, CUSTOMERS, 'datasetProfile', {
      timestampMillis: time,
      rowCount: ROW_COUNTS[i],
      columnCount: 6,
      // Column statistics as DataHub's profiler writes them (numbers as strings), on the latest only.
      ...(latest
        ? {
            fieldProfiles: [
              { fieldPath: 'id', uniqueCount: 1500, uniqueProportion: 1, nullCount: 0, nullProportion: 0, min: '1', max: '1500', mean: '750.5', median: '750', stdev: '433.1' },
              { fieldPath: 'address.city', uniqueCount: 120, uniqueProportion: 0.08, nullCount: 15, nullProportion: 0.01 },
              { fieldPath: 'emails', nullCount: 300, nullProportion: 0.2 },
            ],
          }
        : {}),
    });
  }
  await ingestPoint(client, CUSTOMERS, 'operation', {
    timestampMillis: PROFILE_DAYS[2],
    operationType: 'INSERT',
    actor: 'urn:li:corpuser:etl',
    numAffectedRows: 200,
    lastUpdatedTimestamp: PROFILE_DAYS[2] - 60_000,
  });
  await ingestPoint(client, CUSTOMERS, 'operation', {
    timestampMillis: PROFILE_DAYS[4],
    operationType: 'UPDATE',
    actor: 'urn:li:corpuser:jdoe',
    numAffectedRows: 12,
    lastUpdatedTimestamp: PROFILE_DAYS[4],
  });
  await ingestPoint(client, CUSTOMERS, 'operation', {
    timestampMillis: PROFILE_DAYS[3],
    operationType: 'CUSTOM',
    customOperationType: 'BACKFILL',
    lastUpdatedTimestamp: PROFILE_DAYS[3] - 3_600_000,
  });
}
