/**
 * The connector-shaped workload of bench/ingest.ts: a warehouse of tables, each with the ten
 * aspects an ingestion connector sends for a table (nine versioned ones and a datasetProfile,
 * which is a timeseries aspect). Values vary from table to table (names, descriptions, column
 * types, owners, tags, counts), so that no write is a no-op and the search index sees real terms.
 * Upstreams are other tables of the same warehouse.
 */

export const ASPECTS_PER_TABLE = 10;
export const TABLES_PER_REQUEST = 10;
const PLATFORM = 'urn:li:dataPlatform:snowflake';
/** The profile's time: fixed, so that a run's values can be compared with what is read back. */
const PROFILED_AT = 1_764_000_000_000;
const ACTOR = 'urn:li:corpuser:ingestion';
const FIELD_TYPES = [
  ['VARCHAR(256)', 'com.linkedin.schema.StringType'],
  ['NUMBER(38,0)', 'com.linkedin.schema.NumberType'],
  ['BOOLEAN', 'com.linkedin.schema.BooleanType'],
  ['DATE', 'com.linkedin.schema.DateType'],
  ['TIMESTAMP_NTZ', 'com.linkedin.schema.TimeType'],
] as const;
const OWNERS = ['alice', 'bob', 'carol', 'dave', 'erin', 'frank', 'grace'];
const DOMAINS = ['sales', 'finance', 'marketing', 'logistics', 'support'];

/** Table i's qualified name: 5 databases, 20 schemas each. */
function tableName(i: number): { db: string; schema: string; name: string; qualified: string } {
  const db = `${DOMAINS[i % DOMAINS.length]}_db`;
  const schema = `schema_${Math.floor(i / DOMAINS.length) % 20}`;
  const name = `table_${String(i).padStart(7, '0')}`;
  return { db, schema, name, qualified: `${db}.${schema}.${name}` };
}

export const tableUrn = (i: number): string => `urn:li:dataset:(${PLATFORM},${tableName(i).qualified},PROD)`;

/** Table i's aspects, by name, as the values a connector sends; `tables` is the warehouse's size (for upstreams). */
export function tableAspects(i: number, tables: number): Record<string, unknown> {
  const t = tableName(i);
  const columns = 30;
  const fields = Array.from({ length: columns }, (_, f) => {
    const [native, type] = FIELD_TYPES[(i + f) % FIELD_TYPES.length];
    return {
      fieldPath: `${f === 0 ? 'id' : `col_${f}_${(i * 31 + f) % 97}`}`,
      nativeDataType: native,
      type: { type: { [type]: {} } },
      nullable: f !== 0,
      description: `Column ${f} of ${t.name}: ${DOMAINS[(i + f) % DOMAINS.length]} measure ${(i * 7 + f) % 1000}`,
      recursive: false,
      isPartOfKey: f === 0,
    };
  });
  const stamp = { time: PROFILED_AT - (i % 86_400) * 1000, actor: ACTOR };
  const upstream = (k: number) => ({ dataset: tableUrn(k % tables), type: 'TRANSFORMED', auditStamp: stamp });
  return {
    datasetProperties: {
      name: t.name,
      qualifiedName: t.qualified,
      description: `The ${DOMAINS[i % DOMAINS.length]} table number ${i}, loaded nightly from source system ${i % 13}.`,
      customProperties: { owner_team: `${DOMAINS[(i >> 1) % DOMAINS.length]}-team`, retention_days: String(30 + (i % 335)), table_type: i % 4 === 0 ? 'VIEW' : 'BASE TABLE' },
    },
    schemaMetadata: {
      schemaName: t.qualified,
      platform: PLATFORM,
      version: 0,
      hash: `h${i.toString(16)}`,
      platformSchema: { 'com.linkedin.schema.MySqlDDL': { tableSchema: `CREATE TABLE ${t.qualified} (${fields.map((f) => `${f.fieldPath} ${f.nativeDataType}`).join(', ')})` } },
      fields,
    },
    ownership: {
      owners: [
        { owner: `urn:li:corpuser:${OWNERS[i % OWNERS.length]}`, type: 'DATAOWNER' },
        { owner: `urn:li:corpuser:${OWNERS[(i + 3) % OWNERS.length]}`, type: 'TECHNICAL_OWNER' },
      ],
      lastModified: stamp,
    },
    globalTags: { tags: [{ tag: i % 3 === 0 ? 'urn:li:tag:pii' : 'urn:li:tag:internal' }, { tag: `urn:li:tag:tier${i % 4}` }] },
    upstreamLineage: { upstreams: [upstream(i + 1), upstream(i + 7)] },
    browsePathsV2: { path: [{ id: t.db }, { id: t.schema }] },
    subTypes: { typeNames: [i % 4 === 0 ? 'View' : 'Table'] },
    status: { removed: false },
    dataPlatformInstance: { platform: PLATFORM },
    datasetProfile: { timestampMillis: PROFILED_AT, rowCount: 1000 + i * 17, columnCount: columns },
  };
}

/** A Rest.li ingestProposalBatch body: the tables' aspects as MetadataChangeProposals. */
export function restliBody(tables: ReadonlyArray<{ urn: string; aspects: Record<string, unknown> }>): string {
  const proposals = tables.flatMap(({ urn, aspects }) =>
    Object.entries(aspects).map(([aspectName, value]) => ({
      entityType: 'dataset',
      entityUrn: urn,
      changeType: 'UPSERT',
      aspectName,
      aspect: { contentType: 'application/json', value: JSON.stringify(value) },
    })),
  );
  return JSON.stringify({ proposals });
}

/** An OpenAPI v3 batch body (POST /openapi/v3/entity/dataset): `[{urn, <aspect>: {value}}…]`. */
export function v3Body(tables: ReadonlyArray<{ urn: string; aspects: Record<string, unknown> }>): string {
  return JSON.stringify(tables.map(({ urn, aspects }) => ({ urn, ...Object.fromEntries(Object.entries(aspects).map(([name, value]) => [name, { value }])) })));
}
