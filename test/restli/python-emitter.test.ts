import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { datasetUrn, enc, testApp, V2, type TestApp } from '../helpers.js';
import { aspect, brief, defineTest } from '../metatests/fixtures.js';
import {
  pyDumps,
  pythonEmit,
  pythonEmitBatch,
  pythonGetAspect,
  pythonGetEntity,
  pythonHardDelete,
  pythonHeaders,
  pythonSystemMetadata,
  type Mcp,
} from './clients.js';

/**
 * A pipeline as DataHub's Python emitter and graph client run it against urnbase over Rest.li:
 * the same paths, headers and body encoding (aspects as JSON strings, chars past ASCII escaped,
 * nulls left out, system metadata filled in), through the same write and read paths as v2.
 */

const ADMIN = 'urnb_restli-python-admin-0123456789abcdefghijklmn';
const RETENTION = 'urn:li:structuredProperty:com.example.privacy.retentionTime';
const CLASSIFICATION = 'urn:li:structuredProperty:com.example.privacy.classification';
const orders = datasetUrn('restli.py.orders', 'snowflake');
const customers = datasetUrn('restli.py.customers', 'snowflake');
// Accents, a dash, a BMP symbol and an astral one: what the emitter escapes to \uXXXX (a pair for 😀).
const DESCRIPTION = 'Données clients – café ☕ 😀';

const definition = (qualifiedName: string, extra: Record<string, unknown>) => ({
  qualifiedName,
  displayName: qualifiedName,
  entityTypes: ['urn:li:entityType:datahub.dataset'],
  cardinality: 'SINGLE',
  ...extra,
});

describe('a pipeline speaking like DataHub\'s Python emitter over Rest.li', () => {
  let t: TestApp;
  let editor = '';
  const run = pythonSystemMetadata('pipeline-run-1', 1_700_000_000_000);

  before(async () => {
    t = await testApp({ auth: true, adminToken: ADMIN });
    const res = await t.call({ method: 'POST', url: '/openapi/v2/auth/tokens', headers: { authorization: `Bearer ${ADMIN}` }, payload: { name: 'ingestion', role: 'editor' } });
    assert.equal(res.status, 201);
    editor = res.body.token;
  });
  after(() => t.app.close());

  const mcp = (urn: string, aspectName: string, value: unknown, extra: Partial<Mcp> = {}): Mcp => ({
    entityType: urn.split(':')[2],
    entityUrn: urn,
    changeType: 'UPSERT',
    aspectName,
    aspect: value,
    systemMetadata: run,
    ...extra,
  });

  it('finds the server, as the emitter checks it, before sending anything', async () => {
    const res = await t.call({ method: 'GET', url: '/config', headers: pythonHeaders(editor) });
    assert.equal(res.status, 200);
    assert.equal(res.body.noCode, 'true');
    assert.equal(res.body.versions['acryldata/datahub'].version, 'v1.0.1');
    assert.equal(res.body.datahub.serverEnv, 'core');
  });

  it('defines structured properties by ingestProposal, one proposal at a time', async () => {
    for (const [urn, value] of [
      [RETENTION, definition('com.example.privacy.retentionTime', { valueType: 'urn:li:dataType:datahub.number', allowedValues: [{ value: { double: 30 } }, { value: { double: 90 } }] })],
      [CLASSIFICATION, definition('com.example.privacy.classification', { valueType: 'urn:li:dataType:datahub.string', cardinality: 'MULTIPLE' })],
    ] as const) {
      const res = await t.call(pythonEmit(mcp(urn, 'propertyDefinition', value), editor));
      assert.equal(res.status, 200, res.raw);
      assert.deepEqual(res.body, { value: 'success' });
      assert.equal(res.headers['x-restli-protocol-version'], '2.0.0');
    }
    const read = await t.call({ method: 'GET', url: `${V2}/structuredProperty/${enc(RETENTION)}/propertyDefinition`, headers: { authorization: `Bearer ${editor}` } });
    assert.equal(read.status, 200);
    assert.equal(read.body.value.valueType, 'urn:li:dataType:datahub.number');
  });

  it('ingests datasets with structured properties in one batch, as the datahub-rest sink sends them', async () => {
    const res = await t.call(
      pythonEmitBatch(
        [
          mcp(orders, 'datasetProperties', { customProperties: { team: 'sales' }, description: DESCRIPTION, name: 'orders', tags: [] }),
          mcp(orders, 'structuredProperties', {
            properties: [
              { propertyUrn: RETENTION, values: [{ double: 90 }] },
              { propertyUrn: CLASSIFICATION, values: [{ string: 'pii' }, { string: 'finance' }] },
            ],
          }),
          mcp(orders, 'status', { removed: false }),
          mcp(customers, 'datasetProperties', { customProperties: {}, name: 'customers', tags: [] }),
          mcp(customers, 'structuredProperties', { properties: [{ propertyUrn: RETENTION, values: [{ double: 30 }] }] }),
        ],
        editor,
      ),
    );
    assert.equal(res.status, 200, res.raw);
    assert.deepEqual(res.body, { value: 'success' });
  });

  it('reads an aspect back with get_aspect, keyed by its Pegasus record name, the text intact', async () => {
    const res = await t.call(pythonGetAspect(orders, 'datasetProperties', 0, editor));
    assert.equal(res.status, 200, res.raw);
    assert.deepEqual(res.body, {
      version: 0,
      aspect: { 'com.linkedin.dataset.DatasetProperties': { customProperties: { team: 'sales' }, description: DESCRIPTION, name: 'orders', tags: [] } },
    });
    const values = await t.call(pythonGetAspect(customers, 'structuredProperties', 0, editor));
    assert.deepEqual(values.body, {
      version: 0,
      aspect: { 'com.linkedin.structured.StructuredProperties': { properties: [{ propertyUrn: RETENTION, values: [{ double: 30 }] }] } },
    });
  });

  it('answers exists() by the key aspect: 200 for an entity, 404 for none', async () => {
    assert.equal((await t.call(pythonGetAspect(orders, 'datasetKey', 0, editor))).status, 200);
    const none = await t.call(pythonGetAspect(datasetUrn('restli.py.none'), 'datasetKey', 0, editor));
    assert.equal(none.status, 404);
  });

  it('reads the entity with get_entity_raw: an EntityResponse with system metadata as the emitter set it', async () => {
    const res = await t.call(pythonGetEntity(orders, ['datasetProperties', 'structuredProperties'], editor));
    assert.equal(res.status, 200, res.raw);
    assert.deepEqual(Object.keys(res.body).sort(), ['aspects', 'entityName', 'urn']);
    assert.equal(res.body.entityName, 'dataset');
    assert.equal(res.body.urn, orders);
    assert.deepEqual(Object.keys(res.body.aspects).sort(), ['datasetKey', 'datasetProperties', 'structuredProperties']);
    const props = res.body.aspects.datasetProperties;
    assert.deepEqual(Object.keys(props).sort(), ['created', 'name', 'systemMetadata', 'type', 'value', 'version']);
    assert.equal(props.name, 'datasetProperties');
    assert.equal(props.type, 'VERSIONED');
    assert.equal(props.version, 0);
    assert.equal(props.value.description, DESCRIPTION);
    assert.equal(props.created.actor, 'urn:li:corpuser:ingestion');
    assert.deepEqual(props.created, props.systemMetadata.aspectModified);
    const sm = props.systemMetadata;
    assert.equal(sm.version, '1');
    assert.equal(sm.runId, 'pipeline-run-1');
    assert.equal(sm.lastObserved, 1_700_000_000_000);
    assert.deepEqual(sm.properties, { clientId: 'acryl-datahub', clientVersion: '1.2.0.1', eventSource: 'RESTLI' });
    assert.deepEqual(res.body.aspects.datasetKey.value, { platform: 'urn:li:dataPlatform:snowflake', name: 'restli.py.orders', origin: 'PROD' });
  });

  it('shows the same entity through the v2 API', async () => {
    const res = await t.call({ method: 'GET', url: `${V2}/dataset/${enc(orders)}?systemMetadata=true`, headers: { authorization: `Bearer ${editor}` } });
    assert.equal(res.status, 200);
    assert.deepEqual(Object.keys(res.body.aspects).sort(), ['browsePathsV2', 'dataPlatformInstance', 'datasetKey', 'datasetProperties', 'status', 'structuredProperties']);
    assert.deepEqual(res.body.aspects.structuredProperties.value.properties, [
      { propertyUrn: RETENTION, values: [{ double: 90 }] },
      { propertyUrn: CLASSIFICATION, values: [{ string: 'pii' }, { string: 'finance' }] },
    ]);
    assert.equal(res.body.aspects.datasetProperties.systemMetadata.runId, 'pipeline-run-1');
  });

  it('keeps earlier versions: get_aspect with version 1 is the first write', async () => {
    const res = await t.call(pythonEmit(mcp(orders, 'datasetProperties', { customProperties: { team: 'sales' }, description: 'v2', name: 'orders', tags: [] }), editor));
    assert.equal(res.status, 200, res.raw);
    const first = await t.call(pythonGetAspect(orders, 'datasetProperties', 1, editor));
    assert.equal(first.body.version, 1);
    assert.equal(first.body.aspect['com.linkedin.dataset.DatasetProperties'].description, DESCRIPTION);
    const latest = await t.call(pythonGetAspect(orders, 'datasetProperties', 0, editor));
    assert.equal(latest.body.aspect['com.linkedin.dataset.DatasetProperties'].description, 'v2');
  });

  it('applies a PATCH proposal (a bare JSON Patch, as DatasetPatchBuilder.set_description sends it)', async () => {
    const res = await t.call(pythonEmit({ ...mcp(orders, 'datasetProperties', [{ op: 'add', path: '/description', value: 'patched' }]), changeType: 'PATCH' }, editor));
    assert.equal(res.status, 200, res.raw);
    const read = await t.call(pythonGetAspect(orders, 'datasetProperties', 0, editor));
    assert.deepEqual(read.body.aspect['com.linkedin.dataset.DatasetProperties'], { customProperties: { team: 'sales' }, description: 'patched', name: 'orders', tags: [] });
  });

  it('patches structured property values by key, with arrayPrimaryKeys', async () => {
    const patch = {
      patch: [{ op: 'add', path: `/properties/${RETENTION}`, value: { propertyUrn: RETENTION, values: [{ double: 90 }] } }],
      arrayPrimaryKeys: { properties: ['propertyUrn'] },
    };
    const res = await t.call(pythonEmit({ ...mcp(customers, 'structuredProperties', patch), changeType: 'PATCH' }, editor));
    assert.equal(res.status, 200, res.raw);
    const read = await t.call(pythonGetAspect(customers, 'structuredProperties', 0, editor));
    assert.deepEqual(read.body.aspect['com.linkedin.structured.StructuredProperties'].properties, [{ propertyUrn: RETENTION, values: [{ double: 90 }] }]);
  });

  it('logs every committed change, as v2 writes are logged', async () => {
    const events = await t.services.store.readEvents(0, 10_000);
    const ofOrders = events.filter((e) => e.urn === orders).map((e) => `${e.changeType} ${e.aspect}`);
    assert.deepEqual(ofOrders, [
      'UPSERT datasetKey',
      'UPSERT browsePathsV2',
      'UPSERT dataPlatformInstance',
      'UPSERT datasetProperties',
      'UPSERT structuredProperties',
      'UPSERT status',
      'UPSERT datasetProperties',
      'PATCH datasetProperties',
    ]);
  });

  it('hides the values of a soft-deleted structured property on every read', async () => {
    const res = await t.call(pythonEmit(mcp(CLASSIFICATION, 'status', { removed: true }), editor));
    assert.equal(res.status, 200, res.raw);
    const viaAspect = await t.call(pythonGetAspect(orders, 'structuredProperties', 0, editor));
    assert.deepEqual(viaAspect.body.aspect['com.linkedin.structured.StructuredProperties'].properties, [{ propertyUrn: RETENTION, values: [{ double: 90 }] }]);
    const viaEntity = await t.call(pythonGetEntity(orders, ['structuredProperties'], editor));
    assert.deepEqual(viaEntity.body.aspects.structuredProperties.value.properties, [{ propertyUrn: RETENTION, values: [{ double: 90 }] }]);
    const refused = await t.call(pythonEmit(mcp(customers, 'structuredProperties', { properties: [{ propertyUrn: CLASSIFICATION, values: [{ string: 'x' }] }] }), editor));
    assert.equal(refused.status, 400);
    assert.equal(refused.body.message, `Cannot apply a soft deleted Structured Property value: ${CLASSIFICATION}`);
  });

  it('takes what `datahub ingest` reports about its own run, batched with the metadata it ingests', async () => {
    const source = 'urn:li:dataHubIngestionSource:cli-5a2f0c1e9b8d';
    const request = 'urn:li:dataHubExecutionRequest:snowflake-2024_05_01-02_00_00-x1y2z3';
    const recipe = pyDumps({ source: { type: 'snowflake', config: { account_id: 'acme' } }, sink: { type: 'datahub-rest' } });
    const res = await t.call(
      pythonEmitBatch(
        [
          mcp(source, 'dataHubIngestionSourceInfo', {
            name: '[CLI] snowflake',
            type: 'snowflake',
            platform: 'urn:li:dataPlatform:snowflake',
            config: { recipe, version: '1.2.0.1', executorId: '__datahub_cli_' },
          }),
          mcp(request, 'dataHubExecutionRequestInput', {
            task: 'CLI Ingestion',
            args: { recipe, version: '1.2.0.1' },
            executorId: '__datahub_cli_',
            requestedAt: 1_700_000_000_000,
            source: { type: 'CLI_INGESTION_SOURCE', ingestionSource: source },
          }),
          mcp(datasetUrn('restli.py.reported', 'snowflake'), 'status', { removed: false }),
        ],
        editor,
      ),
    );
    assert.equal(res.status, 200, res.raw);
    const result = await t.call(
      pythonEmit(
        mcp(request, 'dataHubExecutionRequestResult', {
          status: 'SUCCESS',
          startTimeMs: 1_700_000_000_000,
          durationMs: 5300,
          report: '~~~~ Ingestion Report ~~~~\n{}',
          structuredReport: { type: 'CLI_INGEST', serializedValue: '{}', contentType: 'application/json' },
        }),
        editor,
      ),
    );
    assert.equal(result.status, 200, result.raw);
    const read = await t.call(pythonGetAspect(request, 'dataHubExecutionRequestResult', 0, editor));
    assert.equal(read.body.aspect['com.linkedin.execution.ExecutionRequestResult'].status, 'SUCCESS');
  });

  it('hard-deletes an entity with hard_delete_entity, counting its rows', async () => {
    const res = await t.call(pythonHardDelete(customers, editor));
    assert.equal(res.status, 200, res.raw);
    // key, browsePathsV2, dataPlatformInstance, datasetProperties, structuredProperties (2 versions)
    assert.deepEqual(res.body, { value: { urn: customers, rows: 6, timeseriesRows: 0 } });
    assert.equal((await t.call(pythonGetAspect(customers, 'datasetKey', 0, editor))).status, 404);
    const events = await t.services.store.readEvents(0, 10_000);
    assert.equal(events.filter((e) => e.urn === customers && e.changeType === 'DELETE').length, 5);
  });
});

describe('metadata tests on change hear Rest.li writes', () => {
  it('evaluates an entity written by ingestProposal and pushes its results', async () => {
    const t = await testApp({ testsInterval: 0, testsOnChange: true });
    try {
      const test = await defineTest(t, 'described', { on: { types: ['dataset'] }, rules: [{ property: 'datasetProperties.description', operator: 'exists' }] });
      await t.services.scheduler.idle();
      const urn = datasetUrn('restli.py.tested');
      const res = await t.call(pythonEmit({ entityType: 'dataset', entityUrn: urn, changeType: 'UPSERT', aspectName: 'datasetProperties', aspect: { description: 'has one' } }));
      assert.equal(res.status, 200, res.raw);
      await t.services.scheduler.idle();
      assert.deepEqual(brief(await aspect(t, 'dataset', urn, 'testResults')), { passing: [test], failing: [] });
    } finally {
      await t.app.close();
    }
  });
});
