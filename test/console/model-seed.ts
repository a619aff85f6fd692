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
    { urn: RAW_CUSTOMERS, aspects: { datasetProperties: { value: { name: 'raw_customers' } } } },
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
