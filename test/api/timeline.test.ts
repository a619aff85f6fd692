import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { datasetUrn, enc, testApp, V2, type TestApp } from '../helpers.js';
import { timeline, write, writtenAt } from './timeline-helpers.js';

const AUDIT = { time: 0, actor: 'urn:li:corpuser:unknown' };
interface Field {
  fieldPath: string;
  nativeDataType: string;
  description?: string;
  globalTags?: unknown;
}
const schema = (...fields: Field[]) => ({
  schemaName: 'shop.orders',
  platform: 'urn:li:dataPlatform:hive',
  version: 0,
  hash: '',
  platformSchema: { 'com.linkedin.schema.MySqlDDL': { tableSchema: '' } },
  fields: fields.map((f) => ({ type: { type: { 'com.linkedin.schema.StringType': {} } }, ...f })),
});
const fieldUrn = (urn: string, path: string) => `urn:li:schemaField:(${urn},${path})`;

describe('GET the timeline of an entity, one category at a time', () => {
  let t: TestApp;
  before(async () => {
    t = await testApp();
  });
  after(() => t.app.close());

  it('TECHNICAL_SCHEMA: fields added (MINOR), renamed (MINOR), removed (MAJOR) and retyped (MAJOR), with semantic versions and version stamps', async () => {
    const urn = datasetUrn('timeline.schema');
    await write(t, urn, 'schemaMetadata', schema({ fieldPath: 'order_id', nativeDataType: 'bigint' }, { fieldPath: 'amount', nativeDataType: 'double', description: 'Order total' }, { fieldPath: 'note', nativeDataType: 'string' }));
    await write(t, urn, 'schemaMetadata', schema({ fieldPath: 'order_id', nativeDataType: 'bigint' }, { fieldPath: 'total', nativeDataType: 'double', description: 'Order total' }, { fieldPath: 'placed_at', nativeDataType: 'timestamp' }));
    await write(t, urn, 'schemaMetadata', schema({ fieldPath: 'order_id', nativeDataType: 'varchar(36)' }, { fieldPath: 'total', nativeDataType: 'double', description: 'Order total' }, { fieldPath: 'placed_at', nativeDataType: 'timestamp' }));
    const change = (operation: string, semVerChange: string, path: string, modificationCategory: string, description: string) => ({
      entityUrn: urn,
      category: 'TECHNICAL_SCHEMA',
      operation,
      modifier: fieldUrn(urn, path),
      parameters: { fieldPath: path, fieldUrn: fieldUrn(urn, path), nullable: false, modificationCategory },
      semVerChange,
      description,
    });
    const res = await timeline(t, urn, 'categories=TECHNICAL_SCHEMA');
    assert.equal(res.status, 200);
    assert.deepEqual(res.body, [
      {
        ...(await writtenAt(t, urn, 'schemaMetadata', 1)),
        semVer: '0.0.0-computed',
        semVerChange: 'MINOR',
        changeEvents: [
          change('ADD', 'MINOR', 'amount', 'OTHER', "A forwards & backwards compatible change due to the newly added field 'amount'."),
          change('ADD', 'MINOR', 'note', 'OTHER', "A forwards & backwards compatible change due to the newly added field 'note'."),
          change('ADD', 'MINOR', 'order_id', 'OTHER', "A forwards & backwards compatible change due to the newly added field 'order_id'."),
        ],
        versionStamp: 'browsePathsV2:0;dataPlatformInstance:0;datasetKey:0;schemaMetadata:1',
      },
      {
        ...(await writtenAt(t, urn, 'schemaMetadata', 2)),
        semVer: '1.0.0-computed',
        semVerChange: 'MAJOR',
        changeEvents: [
          change('MODIFY', 'MINOR', 'amount', 'RENAME', "A forwards & backwards compatible change due to renaming of the field 'amount to total'."),
          change('REMOVE', 'MAJOR', 'note', 'OTHER', "A backwards incompatible change due to removal of field: 'note'."),
          change('ADD', 'MINOR', 'placed_at', 'OTHER', "A forwards & backwards compatible change due to the newly added field 'placed_at'."),
        ],
        versionStamp: 'browsePathsV2:0;dataPlatformInstance:0;datasetKey:0;schemaMetadata:2',
      },
      {
        ...(await writtenAt(t, urn, 'schemaMetadata', 3)),
        semVer: '2.0.0-computed',
        semVerChange: 'MAJOR',
        changeEvents: [
          change('MODIFY', 'MAJOR', 'order_id', 'TYPE_CHANGE', "A backwards incompatible change due to a new native type of the field 'order_id': 'bigint' became 'varchar(36)'."),
        ],
        versionStamp: 'browsePathsV2:0;dataPlatformInstance:0;datasetKey:0;schemaMetadata:0',
      },
    ]);
    assert.equal(res.body[0].actor, 'urn:li:corpuser:datahub', 'the writer (DataHub\'s default user with auth off)');
  });

  it('TAG: tags of the entity (globalTags) and of its fields (editableSchemaMetadata), MINOR', async () => {
    const urn = datasetUrn('timeline.tags');
    await write(t, urn, 'globalTags', { tags: [{ tag: 'urn:li:tag:pii' }] });
    await write(t, urn, 'editableSchemaMetadata', { editableSchemaFieldInfo: [{ fieldPath: 'email', globalTags: { tags: [{ tag: 'urn:li:tag:pii' }] } }] });
    await write(t, urn, 'globalTags', { tags: [{ tag: 'urn:li:tag:gold' }] });
    const res = await timeline(t, urn, 'categories=TAG');
    assert.equal(res.status, 200);
    const tagEvent = (operation: string, tag: string, verb: string) => ({
      entityUrn: urn, category: 'TAG', operation, modifier: `urn:li:tag:${tag}`,
      parameters: { tagUrn: `urn:li:tag:${tag}`, context: '{}', sourceDetails: '{}' }, semVerChange: 'MINOR',
      description: `Tag '${tag}' was ${verb} '${urn}'.`,
    });
    assert.deepEqual(res.body, [
      { ...(await writtenAt(t, urn, 'globalTags', 1)), semVer: '0.0.0-computed', semVerChange: 'MINOR', changeEvents: [tagEvent('ADD', 'pii', 'added to')], versionStamp: 'browsePathsV2:0;dataPlatformInstance:0;datasetKey:0;globalTags:1' },
      {
        ...(await writtenAt(t, urn, 'editableSchemaMetadata', 1)),
        semVer: '0.1.0-computed',
        semVerChange: 'MINOR',
        changeEvents: [
          {
            entityUrn: fieldUrn(urn, 'email'), category: 'TAG', operation: 'ADD', modifier: 'urn:li:tag:pii',
            parameters: { fieldPath: 'email', parentUrn: urn, tagUrn: 'urn:li:tag:pii', context: '{}' }, semVerChange: 'MINOR',
            description: `Tag 'pii' was added to '${fieldUrn(urn, 'email')}'.`,
          },
        ],
        versionStamp: 'browsePathsV2:0;dataPlatformInstance:0;datasetKey:0;editableSchemaMetadata:0;globalTags:1',
      },
      {
        ...(await writtenAt(t, urn, 'globalTags', 2)),
        semVer: '0.2.0-computed',
        semVerChange: 'MINOR',
        changeEvents: [tagEvent('ADD', 'gold', 'added to'), tagEvent('REMOVE', 'pii', 'removed from')],
        versionStamp: 'browsePathsV2:0;dataPlatformInstance:0;datasetKey:0;editableSchemaMetadata:0;globalTags:0',
      },
    ]);
  });

  it('OWNER: owners added and removed MINOR, an ownership type changed PATCH', async () => {
    const urn = datasetUrn('timeline.owners');
    const owner = (name: string, type: string) => ({ owner: `urn:li:corpuser:${name}`, type });
    await write(t, urn, 'ownership', { owners: [owner('jane', 'TECHNICAL_OWNER')] });
    await write(t, urn, 'ownership', { owners: [owner('jane', 'DATA_STEWARD'), owner('joe', 'BUSINESS_OWNER')] });
    const res = await timeline(t, urn, 'categories=OWNER');
    assert.equal(res.status, 200);
    assert.deepEqual(res.body.map((tx: { semVer: string; changeEvents: object[] }) => [tx.semVer, tx.changeEvents]), [
      [
        '0.0.0-computed',
        [{ entityUrn: urn, category: 'OWNER', operation: 'ADD', modifier: 'urn:li:corpuser:jane', parameters: { ownerUrn: 'urn:li:corpuser:jane', ownerType: 'TECHNICAL_OWNER' }, semVerChange: 'MINOR', description: `'jane' was added as an owner (TECHNICAL_OWNER) of '${urn}'.` }],
      ],
      [
        '0.1.0-computed',
        [
          { entityUrn: urn, category: 'OWNER', operation: 'MODIFY', modifier: 'DATA_STEWARD', parameters: { ownerUrn: 'urn:li:corpuser:jane', ownerType: 'DATA_STEWARD' }, semVerChange: 'PATCH', description: `The ownership type of 'jane' on '${urn}' changed from TECHNICAL_OWNER to DATA_STEWARD.` },
          { entityUrn: urn, category: 'OWNER', operation: 'ADD', modifier: 'urn:li:corpuser:joe', parameters: { ownerUrn: 'urn:li:corpuser:joe', ownerType: 'BUSINESS_OWNER' }, semVerChange: 'MINOR', description: `'joe' was added as an owner (BUSINESS_OWNER) of '${urn}'.` },
        ],
      ],
    ]);
  });

  it('GLOSSARY_TERM: terms of the entity and of its fields, MINOR', async () => {
    const urn = datasetUrn('timeline.terms');
    await write(t, urn, 'glossaryTerms', { terms: [{ urn: 'urn:li:glossaryTerm:Revenue' }], auditStamp: AUDIT });
    await write(t, urn, 'editableSchemaMetadata', { editableSchemaFieldInfo: [{ fieldPath: 'amount', glossaryTerms: { terms: [{ urn: 'urn:li:glossaryTerm:Money' }], auditStamp: AUDIT } }] });
    const res = await timeline(t, urn, 'categories=GLOSSARY_TERM');
    assert.equal(res.status, 200);
    assert.deepEqual(res.body.map((tx: { semVer: string; changeEvents: object[] }) => [tx.semVer, tx.changeEvents]), [
      ['0.0.0-computed', [{ entityUrn: urn, category: 'GLOSSARY_TERM', operation: 'ADD', modifier: 'urn:li:glossaryTerm:Revenue', parameters: { termUrn: 'urn:li:glossaryTerm:Revenue', context: '{}', sourceDetails: '{}' }, semVerChange: 'MINOR', description: `Glossary term 'Revenue' was added to '${urn}'.` }]],
      [
        '0.1.0-computed',
        [
          {
            entityUrn: fieldUrn(urn, 'amount'), category: 'GLOSSARY_TERM', operation: 'ADD', modifier: 'urn:li:glossaryTerm:Money',
            parameters: { fieldPath: 'amount', parentUrn: urn, termUrn: 'urn:li:glossaryTerm:Money', context: '{}' }, semVerChange: 'MINOR',
            description: `Glossary term 'Money' was added to '${fieldUrn(urn, 'amount')}'.`,
          },
        ],
      ],
    ]);
  });

  it('DOCUMENTATION: descriptions of the entity (MINOR) and of its fields (added MINOR, edited PATCH)', async () => {
    const urn = datasetUrn('timeline.docs');
    await write(t, urn, 'datasetProperties', { name: 'orders', description: 'All orders' });
    await write(t, urn, 'schemaMetadata', schema({ fieldPath: 'id', nativeDataType: 'bigint' }));
    await write(t, urn, 'schemaMetadata', schema({ fieldPath: 'id', nativeDataType: 'bigint', description: 'The order' }));
    await write(t, urn, 'editableDatasetProperties', { description: 'Orders, curated' });
    await write(t, urn, 'schemaMetadata', schema({ fieldPath: 'id', nativeDataType: 'bigint', description: 'The order id' }));
    const res = await timeline(t, urn, 'categories=documentation');
    assert.equal(res.status, 200);
    assert.deepEqual(res.body.map((tx: { semVer: string; semVerChange: string; changeEvents: object[] }) => [tx.semVer, tx.semVerChange, tx.changeEvents]), [
      ['0.0.0-computed', 'MINOR', [{ entityUrn: urn, category: 'DOCUMENTATION', operation: 'ADD', parameters: { description: 'All orders' }, semVerChange: 'MINOR', description: `The description of '${urn}' was added: 'All orders'.` }]],
      [
        '0.1.0-computed',
        'MINOR',
        [{ entityUrn: fieldUrn(urn, 'id'), category: 'DOCUMENTATION', operation: 'ADD', parameters: { description: 'The order', fieldPath: 'id', parentUrn: urn }, semVerChange: 'MINOR', description: "The description of the field 'id' was added: 'The order'." }],
      ],
      ['0.2.0-computed', 'MINOR', [{ entityUrn: urn, category: 'DOCUMENTATION', operation: 'ADD', semVerChange: 'MINOR', description: `The description of '${urn}' was added: 'Orders, curated'.` }]],
      [
        '0.2.1-computed',
        'PATCH',
        [
          {
            entityUrn: fieldUrn(urn, 'id'), category: 'DOCUMENTATION', operation: 'MODIFY',
            parameters: { description: 'The order id', previousDescription: 'The order', fieldPath: 'id', parentUrn: urn }, semVerChange: 'PATCH',
            description: "The description of the field 'id' changed from 'The order' to 'The order id'.",
          },
        ],
      ],
    ]);
  });

  it('DOMAIN: a domain set, then changed (the old one removed, the new one added)', async () => {
    const urn = datasetUrn('timeline.domains');
    await write(t, urn, 'domains', { domains: ['urn:li:domain:sales'] });
    await write(t, urn, 'domains', { domains: ['urn:li:domain:finance'] });
    const res = await timeline(t, urn, 'categories=DOMAIN');
    assert.equal(res.status, 200);
    const event = (operation: string, domain: string, sentence: string) => ({ entityUrn: urn, category: 'DOMAIN', operation, modifier: domain, parameters: { domainUrn: domain }, semVerChange: 'MINOR', description: sentence });
    assert.deepEqual(res.body.map((tx: { semVer: string; changeEvents: object[] }) => [tx.semVer, tx.changeEvents]), [
      ['0.0.0-computed', [event('ADD', 'urn:li:domain:sales', `'${urn}' was put in the domain 'urn:li:domain:sales'.`)]],
      ['0.1.0-computed', [event('REMOVE', 'urn:li:domain:sales', `'${urn}' was taken out of the domain 'urn:li:domain:sales'.`), event('ADD', 'urn:li:domain:finance', `'${urn}' was put in the domain 'urn:li:domain:finance'.`)]],
    ]);
  });

  it('DEPRECATION: deprecated, then active again', async () => {
    const urn = datasetUrn('timeline.deprecation');
    await write(t, urn, 'deprecation', { deprecated: true, note: 'Use orders_v2', actor: 'urn:li:corpuser:jane' });
    await write(t, urn, 'deprecation', { deprecated: true, note: 'Use orders_v3', actor: 'urn:li:corpuser:jane' });
    await write(t, urn, 'deprecation', { deprecated: false, note: '', actor: 'urn:li:corpuser:jane' });
    const res = await timeline(t, urn, 'categories=DEPRECATION');
    assert.equal(res.status, 200);
    assert.deepEqual(res.body.map((tx: { timestamp: number; semVer: string; changeEvents: object[] }) => [tx.timestamp, tx.semVer, tx.changeEvents]), [
      [(await writtenAt(t, urn, 'deprecation', 1)).timestamp, '0.0.0-computed', [{ entityUrn: urn, category: 'DEPRECATION', operation: 'MODIFY', parameters: { status: 'DEPRECATED' }, semVerChange: 'MINOR', description: `'${urn}' was deprecated.` }]],
      [(await writtenAt(t, urn, 'deprecation', 3)).timestamp, '0.1.0-computed', [{ entityUrn: urn, category: 'DEPRECATION', operation: 'MODIFY', parameters: { status: 'ACTIVE' }, semVerChange: 'MINOR', description: `'${urn}' is no longer deprecated.` }]],
    ]);
  });

  it('STRUCTURED_PROPERTY: a property assigned, then given other values, its values as DataHub writes them', async () => {
    const property = 'urn:li:structuredProperty:timeline.retention';
    const defined = await t.call({
      method: 'POST',
      url: `${V2}/structuredProperty/${enc(property)}/propertyDefinition`,
      payload: { qualifiedName: 'timeline.retention', valueType: 'urn:li:dataType:datahub.number', cardinality: 'MULTIPLE', entityTypes: ['urn:li:entityType:datahub.dataset'] },
    });
    assert.equal(defined.status, 200, defined.raw);
    const urn = datasetUrn('timeline.structured');
    await write(t, urn, 'structuredProperties', { properties: [{ propertyUrn: property, values: [{ double: 30 }] }] });
    await write(t, urn, 'structuredProperties', { properties: [{ propertyUrn: property, values: [{ double: 90 }, { double: 7.5 }] }] });
    const res = await timeline(t, urn, 'categories=STRUCTURED_PROPERTY');
    assert.equal(res.status, 200);
    const event = (operation: string, values: string, sentence: string) => ({
      entityUrn: urn, category: 'STRUCTURED_PROPERTY', operation, modifier: property,
      parameters: { propertyUrn: property, propertyValues: values }, semVerChange: 'MINOR', description: sentence,
    });
    assert.deepEqual(res.body.map((tx: { semVer: string; changeEvents: object[] }) => [tx.semVer, tx.changeEvents]), [
      ['0.0.0-computed', [event('ADD', '[30.0]', `Structured property 'timeline.retention' was added to '${urn}'.`)]],
      ['0.1.0-computed', [event('MODIFY', '[90.0,7.5]', `The values of structured property 'timeline.retention' on '${urn}' changed.`)]],
    ]);
  });

  it('STRUCTURED_PROPERTY: leaves out the values of a soft-deleted property, as every read does', async () => {
    const define = async (name: string) => {
      const res = await t.call({
        method: 'POST',
        url: `${V2}/structuredProperty/${enc(`urn:li:structuredProperty:${name}`)}/propertyDefinition`,
        payload: { qualifiedName: name, valueType: 'urn:li:dataType:datahub.string', cardinality: 'SINGLE', entityTypes: ['urn:li:entityType:datahub.dataset'] },
      });
      assert.equal(res.status, 200, res.raw);
      return `urn:li:structuredProperty:${name}`;
    };
    const [kept, hidden] = [await define('timeline.kept'), await define('timeline.hidden')];
    const urn = datasetUrn('timeline.softdeleted');
    await write(t, urn, 'structuredProperties', { properties: [{ propertyUrn: kept, values: [{ string: 'a' }] }, { propertyUrn: hidden, values: [{ string: 'b' }] }] });
    await write(t, hidden, 'status', { removed: true });
    const res = await timeline(t, urn, 'categories=STRUCTURED_PROPERTY');
    assert.equal(res.status, 200);
    assert.deepEqual(res.body.map((tx: { changeEvents: Array<{ modifier: string }> }) => tx.changeEvents.map((e) => e.modifier)), [[kept]]);
  });

  it('LINEAGE: upstream datasets added and removed (upstreamLineage)', async () => {
    const urn = datasetUrn('timeline.lineage');
    const raw = datasetUrn('timeline.raw_orders', 's3');
    const upstream = { auditStamp: AUDIT, dataset: raw, type: 'TRANSFORMED' };
    await write(t, urn, 'upstreamLineage', { upstreams: [upstream] });
    await write(t, urn, 'upstreamLineage', { upstreams: [] });
    const res = await timeline(t, urn, 'categories=LINEAGE');
    assert.equal(res.status, 200);
    const event = (operation: string, sentence: string) => ({
      entityUrn: urn, category: 'LINEAGE', operation, modifier: raw, parameters: { upstreamUrn: raw, lineageType: 'TRANSFORMED' }, semVerChange: 'MINOR', description: sentence,
    });
    assert.deepEqual(res.body.map((tx: { semVer: string; changeEvents: object[] }) => [tx.semVer, tx.changeEvents]), [
      ['0.0.0-computed', [event('ADD', `'${raw}' was added as an upstream of '${urn}'.`)]],
      ['0.1.0-computed', [event('REMOVE', `'${raw}' was removed as an upstream of '${urn}'.`)]],
    ]);
  });
});
