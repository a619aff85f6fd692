import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Proposal } from '../../src/ingest/proposal.js';
import { datasetUrn, testApp, type TestApp } from '../helpers.js';
import { defineProperty } from '../structured/fixtures.js';
import { graphql, latestReads } from './queries.js';
import { CHART, CONTAINER, DASHBOARD, DOMAIN, FEATURE, FEATURE_TABLE, FLOW, GROUP, JOB, MODEL, MODEL_GROUP, NODE, PRIMARY_KEY, PRODUCT, TAG, TERM, USER } from './urns.js';

/** The entity fetches by URN: each type's Query field, entity/entities, null for missing, refusals of bad URNs. */

const DATASET = datasetUrn('fetch.orders', 'snowflake');
const GONE = datasetUrn('fetch.gone');
const AUDIT = { time: 1_700_000_000_000, actor: USER };

const SEED: Array<[string, string, unknown]> = [
  [DATASET, 'datasetProperties', { name: 'orders', description: 'All orders', customProperties: { tier: 'gold' } }],
  [DATASET, 'editableDatasetProperties', { description: 'Orders, one row each' }],
  [DATASET, 'globalTags', { tags: [{ tag: TAG }] }],
  [DATASET, 'glossaryTerms', { terms: [{ urn: TERM }], auditStamp: AUDIT }],
  [DATASET, 'ownership', { owners: [{ owner: USER, type: 'DATAOWNER' }] }],
  [DATASET, 'domains', { domains: [DOMAIN] }],
  [DATASET, 'container', { container: CONTAINER }],
  [DATASET, 'subTypes', { typeNames: ['Table'] }],
  [DATASET, 'browsePathsV2', { path: [{ id: 'prod' }, { id: CONTAINER, urn: CONTAINER }] }],
  [DATASET, 'status', { removed: false }],
  [DATASET, 'deprecation', { deprecated: true, note: 'Use orders_v2', decommissionTime: 1_800_000_000_000, actor: USER }],
  [GONE, 'datasetProperties', { name: 'gone' }],
  [GONE, 'status', { removed: true }],
  [CHART, 'chartInfo', { title: 'Revenue', description: 'Revenue by week', lastModified: { created: AUDIT, lastModified: AUDIT } }],
  [CHART, 'editableChartProperties', { description: 'Edited revenue', created: AUDIT, lastModified: AUDIT }],
  [DASHBOARD, 'dashboardInfo', { title: 'Sales', description: 'Weekly sales', lastModified: { created: AUDIT, lastModified: AUDIT } }],
  [FLOW, 'dataFlowInfo', { name: 'Nightly', project: 'etl' }],
  [JOB, 'dataJobInfo', { name: 'Load orders', type: { string: 'COMMAND' } }],
  [JOB, 'editableDataJobProperties', { description: 'Loads orders nightly', created: AUDIT, lastModified: AUDIT }],
  [CONTAINER, 'containerProperties', { name: 'warehouse', qualifiedName: 'prod.warehouse' }],
  [DOMAIN, 'domainProperties', { name: 'Sales', description: 'Selling things' }],
  [PRODUCT, 'dataProductProperties', { name: 'Orders', description: 'Order data' }],
  [TERM, 'glossaryTermInfo', { name: 'Revenue', definition: 'Money earned', termSource: 'INTERNAL' }],
  [NODE, 'glossaryNodeInfo', { name: 'Finance', definition: 'Money matters' }],
  [TAG, 'tagProperties', { name: 'PII', description: 'Personal data', colorHex: '#ff0000' }],
  [USER, 'corpUserInfo', { active: true, displayName: 'Jane Doe', email: 'jdoe@example.com' }],
  [GROUP, 'corpGroupInfo', { displayName: 'Analytics', admins: [], members: [], groups: [] }],
  [MODEL, 'mlModelProperties', { description: 'Predicts churn' }],
  [MODEL, 'editableMlModelProperties', { description: 'Churn, edited' }],
  [MODEL_GROUP, 'mlModelGroupProperties', { description: 'Churn models' }],
  [FEATURE_TABLE, 'mlFeatureTableProperties', { description: 'User features' }],
  [FEATURE, 'mlFeatureProperties', { description: 'Age in years' }],
  [PRIMARY_KEY, 'mlPrimaryKeyProperties', { description: 'The user', sources: [] }],
];

async function seed(t: TestApp): Promise<void> {
  const proposals: Proposal[] = SEED.map(([urn, aspect, value]) => ({ urn, aspect, changeType: 'UPSERT', value }));
  await t.services.ingest.ingest(proposals, { actor: USER, source: 'test' });
}

const BAD_REQUEST = { code: 400, type: 'BAD_REQUEST' };

describe('GraphQL entity fetches', () => {
  let t: TestApp;
  let property: string;
  before(async () => {
    t = await testApp();
    await seed(t);
    property = await defineProperty(t, 'io.example.retention', { valueType: 'urn:li:dataType:datahub.number', displayName: 'Retention' });
  });
  after(() => t.app.close());

  const ok = async (query: string, variables?: Record<string, unknown>) => {
    const { status, body } = await graphql(t, query, variables);
    assert.equal(status, 200);
    assert.equal(body.errors, undefined, JSON.stringify(body.errors));
    return body.data;
  };

  it('fetches a dataset with its properties, governance and lifecycle fields', async () => {
    const data = await ok(`query getDataset($urn: String!) { dataset(urn: $urn) {
      urn type name origin platform { urn name }
      properties { name description customProperties { key value } } editableProperties { description }
      ownership { owners { owner { ... on CorpUser { urn username } } type } }
      tags { tags { tag { urn name properties { colorHex } } } }
      glossaryTerms { terms { term { urn name } } }
      domain { domain { urn properties { name } } }
      container { urn properties { name } }
      subTypes { typeNames }
      browsePathV2 { path { name entity { urn ... on Container { properties { name } } } } }
      status { removed }
      deprecation { deprecated note decommissionTime actor }
    } }`, { urn: DATASET });
    assert.deepEqual(data, {
      dataset: {
        urn: DATASET,
        type: 'DATASET',
        name: 'fetch.orders',
        origin: 'PROD',
        platform: { urn: 'urn:li:dataPlatform:snowflake', name: 'snowflake' },
        properties: { name: 'orders', description: 'All orders', customProperties: [{ key: 'tier', value: 'gold' }] },
        editableProperties: { description: 'Orders, one row each' },
        ownership: { owners: [{ owner: { urn: USER, username: 'jdoe' }, type: 'DATAOWNER' }] },
        tags: { tags: [{ tag: { urn: TAG, name: 'pii', properties: { colorHex: '#ff0000' } } }] },
        glossaryTerms: { terms: [{ term: { urn: TERM, name: 'Finance.Revenue' } }] },
        domain: { domain: { urn: DOMAIN, properties: { name: 'Sales' } } },
        container: { urn: CONTAINER, properties: { name: 'warehouse' } },
        subTypes: { typeNames: ['Table'] },
        browsePathV2: { path: [{ name: 'prod', entity: null }, { name: CONTAINER, entity: { urn: CONTAINER, properties: { name: 'warehouse' } } }] },
        status: { removed: false },
        deprecation: { deprecated: true, note: 'Use orders_v2', decommissionTime: 1_800_000_000_000, actor: USER },
      },
    });
  });

  it('answers null for the fields whose aspects an entity lacks', async () => {
    const data = await ok(`query q($urn: String!) { dashboard(urn: $urn) { urn editableProperties { description } status { removed } deprecation { deprecated } tags { tags { tag { urn } } } browsePathV2 { path { name } } } }`, { urn: DASHBOARD });
    // The browse path is the default one urnbase (as DataHub) gives a new entity.
    assert.deepEqual(data, { dashboard: { urn: DASHBOARD, editableProperties: null, status: null, deprecation: null, tags: null, browsePathV2: { path: [{ name: 'Default' }] } } });
  });

  it('fetches charts, dashboards, data flows and jobs, containers', async () => {
    const data = await ok(`query q($chart: String!, $dashboard: String!, $flow: String!, $job: String!, $container: String!) {
      chart(urn: $chart) { urn type tool chartId properties { name description } editableProperties { description } }
      dashboard(urn: $dashboard) { urn type dashboardId properties { name description } }
      dataFlow(urn: $flow) { urn type flowId properties { name project } }
      dataJob(urn: $job) { urn type jobId dataFlow { urn } properties { name } editableProperties { description } }
      container(urn: $container) { urn type properties { name qualifiedName } }
    }`, { chart: CHART, dashboard: DASHBOARD, flow: FLOW, job: JOB, container: CONTAINER });
    assert.deepEqual(data, {
      chart: { urn: CHART, type: 'CHART', tool: 'looker', chartId: 'revenue', properties: { name: 'Revenue', description: 'Revenue by week' }, editableProperties: { description: 'Edited revenue' } },
      dashboard: { urn: DASHBOARD, type: 'DASHBOARD', dashboardId: 'sales', properties: { name: 'Sales', description: 'Weekly sales' } },
      dataFlow: { urn: FLOW, type: 'DATA_FLOW', flowId: 'nightly', properties: { name: 'Nightly', project: 'etl' } },
      dataJob: { urn: JOB, type: 'DATA_JOB', jobId: 'load_orders', dataFlow: { urn: FLOW }, properties: { name: 'Load orders' }, editableProperties: { description: 'Loads orders nightly' } },
      container: { urn: CONTAINER, type: 'CONTAINER', properties: { name: 'warehouse', qualifiedName: 'prod.warehouse' } },
    });
  });

  it('fetches domains, data products, glossary terms and nodes, tags, users, groups and platforms', async () => {
    const data = await ok(`query q($domain: String!, $product: String!, $term: String!, $node: String!, $tag: String!, $user: String!, $group: String!) {
      domain(urn: $domain) { urn type id properties { name description } }
      dataProduct(urn: $product) { urn type properties { name description } }
      glossaryTerm(urn: $term) { urn type name properties { name definition termSource } }
      glossaryNode(urn: $node) { urn type properties { name description } }
      tag(urn: $tag) { urn type name properties { name description colorHex } }
      corpUser(urn: $user) { urn type username properties { displayName email active } }
      corpGroup(urn: $group) { urn type name properties { displayName } }
      dataPlatform(urn: "urn:li:dataPlatform:hive") { urn type name properties { displayName } }
    }`, { domain: DOMAIN, product: PRODUCT, term: TERM, node: NODE, tag: TAG, user: USER, group: GROUP });
    assert.deepEqual(data, {
      domain: { urn: DOMAIN, type: 'DOMAIN', id: 'sales', properties: { name: 'Sales', description: 'Selling things' } },
      dataProduct: { urn: PRODUCT, type: 'DATA_PRODUCT', properties: { name: 'Orders', description: 'Order data' } },
      glossaryTerm: { urn: TERM, type: 'GLOSSARY_TERM', name: 'Finance.Revenue', properties: { name: 'Revenue', definition: 'Money earned', termSource: 'INTERNAL' } },
      glossaryNode: { urn: NODE, type: 'GLOSSARY_NODE', properties: { name: 'Finance', description: 'Money matters' } },
      tag: { urn: TAG, type: 'TAG', name: 'pii', properties: { name: 'PII', description: 'Personal data', colorHex: '#ff0000' } },
      corpUser: { urn: USER, type: 'CORP_USER', username: 'jdoe', properties: { displayName: 'Jane Doe', email: 'jdoe@example.com', active: true } },
      corpGroup: { urn: GROUP, type: 'CORP_GROUP', name: 'analytics', properties: { displayName: 'Analytics' } },
      // Data platforms are seeded in every catalog, as in DataHub.
      dataPlatform: { urn: 'urn:li:dataPlatform:hive', type: 'DATA_PLATFORM', name: 'hive', properties: { displayName: 'Hive' } },
    });
  });

  it('fetches the ML entities', async () => {
    const data = await ok(`query q($model: String!, $group: String!, $table: String!, $feature: String!, $key: String!) {
      mlModel(urn: $model) { urn type name platform { name } properties { description } editableProperties { description } }
      mlModelGroup(urn: $group) { urn type name properties { description } }
      mlFeatureTable(urn: $table) { urn type name platform { name } properties { description } }
      mlFeature(urn: $feature) { urn type name featureNamespace properties { description } }
      mlPrimaryKey(urn: $key) { urn type name featureNamespace properties { description } }
    }`, { model: MODEL, group: MODEL_GROUP, table: FEATURE_TABLE, feature: FEATURE, key: PRIMARY_KEY });
    assert.deepEqual(data, {
      mlModel: { urn: MODEL, type: 'MLMODEL', name: 'churn', platform: { name: 'sagemaker' }, properties: { description: 'Predicts churn' }, editableProperties: { description: 'Churn, edited' } },
      mlModelGroup: { urn: MODEL_GROUP, type: 'MLMODEL_GROUP', name: 'churners', properties: { description: 'Churn models' } },
      mlFeatureTable: { urn: FEATURE_TABLE, type: 'MLFEATURE_TABLE', name: 'users', platform: { name: 'feast' }, properties: { description: 'User features' } },
      mlFeature: { urn: FEATURE, type: 'MLFEATURE', name: 'age', featureNamespace: 'users', properties: { description: 'Age in years' } },
      mlPrimaryKey: { urn: PRIMARY_KEY, type: 'MLPRIMARY_KEY', name: 'user_id', featureNamespace: 'users', properties: { description: 'The user' } },
    });
  });

  it('fetches a structured property', async () => {
    const data = await ok(`query q($urn: String!) { structuredProperty(urn: $urn) { urn type definition { qualifiedName displayName valueType { urn } } } }`, { urn: property });
    assert.deepEqual(data, {
      structuredProperty: { urn: property, type: 'STRUCTURED_PROPERTY', definition: { qualifiedName: 'io.example.retention', displayName: 'Retention', valueType: { urn: 'urn:li:dataType:datahub.number' } } },
    });
  });

  it('answers a soft-deleted entity, with status.removed true, as DataHub reads by key do', async () => {
    const data = await ok(`query q($urn: String!) { dataset(urn: $urn) { urn properties { name } status { removed } } }`, { urn: GONE });
    assert.deepEqual(data, { dataset: { urn: GONE, properties: { name: 'gone' }, status: { removed: true } } });
  });

  it('answers null for an entity that is not stored', async () => {
    const missing = datasetUrn('fetch.nowhere');
    const { status, body } = await graphql(t, `query q($urn: String!) { dataset(urn: $urn) { urn } chart(urn: "urn:li:chart:(looker,nowhere)") { urn } entity(urn: $urn) { urn } }`, { urn: missing });
    assert.equal(status, 200);
    assert.deepEqual(body, { data: { dataset: null, chart: null, entity: null } });
  });

  it('fetches any type with entity and entities, in the order asked, null where missing', async () => {
    const data = await ok(`query q($urn: String!, $urns: [String!]!) {
      entity(urn: $urn) { urn type ... on Chart { chartId } }
      entities(urns: $urns) { __typename urn type ... on Tag { name } ... on Dataset { name } }
    }`, { urn: CHART, urns: [TAG, datasetUrn('fetch.nowhere'), DATASET, 'urn:li:notebook:(querybook,1)'] });
    assert.deepEqual(data, {
      entity: { urn: CHART, type: 'CHART', chartId: 'revenue' },
      entities: [{ __typename: 'Tag', urn: TAG, type: 'TAG', name: 'pii' }, null, { __typename: 'Dataset', urn: DATASET, type: 'DATASET', name: 'fetch.orders' }, null],
    });
  });

  it('refuses an invalid URN, an unknown type, a bad key and a URN of another type with BAD_REQUEST', async () => {
    const refused = async (query: string, message: string, path: string[]) => {
      const { status, body } = await graphql(t, query);
      assert.equal(status, 200);
      assert.deepEqual(body.errors.map((e: { message: string; path: string[]; extensions: unknown }) => ({ message: e.message, path: e.path, extensions: e.extensions })), [{ message, path, extensions: BAD_REQUEST }]);
      assert.deepEqual(body.data, { [path[0]]: null });
    };
    await refused('{ dataset(urn: "orders") { urn } }', 'Invalid urn!: orders', ['dataset']);
    await refused('{ entity(urn: "urn:li:nope:x") { urn } }', 'Invalid urn!: urn:li:nope:x', ['entity']);
    await refused('{ dataset(urn: "urn:li:dataset:orders") { urn } }', 'Invalid urn!: urn:li:dataset:orders', ['dataset']);
    await refused(`{ dataset(urn: "${CHART}") { urn } }`, `urn: expected a dataset URN, got ${CHART}`, ['dataset']);
    await refused(`{ corpUser(urn: "${GROUP}") { urn } }`, `urn: expected a corpuser URN, got ${GROUP}`, ['corpUser']);
    await refused(`{ entities(urns: ["${TAG}", "nope"]) { urn } }`, 'Invalid urn!: nope', ['entities']);
  });

  it('refuses more than 10,000 URNs in one entities fetch', async () => {
    const urns = Array.from({ length: 10_001 }, (_, i) => `urn:li:tag:t${i}`);
    const { body } = await graphql(t, 'query q($urns: [String!]!) { entities(urns: $urns) { urn } }', { urns });
    assert.deepEqual(body.errors.map((e: { message: string; extensions: unknown }) => [e.message, e.extensions]), [['urns: at most 10,000 URNs may be fetched at once, got 10,001', BAD_REQUEST]]);
  });

  it('refuses an operation running more than 10 entities fetches, through fragments too', async () => {
    const query = `query many($urns: [String!]!) { ...Six ...Six }
      fragment Six on Query { ${Array.from({ length: 6 }, (_, i) => `e${i}: entities(urns: $urns) { urn }`).join(' ')} }`;
    const { status, body } = await graphql(t, query, { urns: [TAG] });
    assert.equal(status, 200);
    assert.deepEqual(body, { errors: [{ message: 'Operation many runs 12 entities fetches; at most 10 may run in one operation', locations: [{ line: 1, column: 1 }], extensions: { ...BAD_REQUEST, classification: 'ValidationError' } }] });
    const ten = await graphql(t, `query ten($urns: [String!]!) { ${Array.from({ length: 10 }, (_, i) => `e${i}: entities(urns: $urns) { urn }`).join(' ')} }`, { urns: [TAG] });
    assert.deepEqual(ten.body.data.e9, [{ urn: TAG }]);
  });

  it('reads every fetch of one operation in one batch, and the entities they name in one more', async () => {
    const fetched = await latestReads(t, () =>
      ok(`query q($a: String!, $b: String!, $urns: [String!]!) {
        a: dataset(urn: $a) { urn properties { name } status { removed } }
        b: chart(urn: $b) { urn properties { name } }
        entities(urns: $urns) { urn ... on Tag { properties { name } } ... on Domain { properties { name } } }
      }`, { a: DATASET, b: CHART, urns: [TAG, DOMAIN, USER, GROUP] }),
    );
    assert.deepEqual(fetched.result.a, { urn: DATASET, properties: { name: 'orders' }, status: { removed: false } });
    assert.deepEqual(fetched.result.entities.map((e: { urn: string }) => e.urn), [TAG, DOMAIN, USER, GROUP]);
    assert.equal(fetched.reads.length, 1);
    // The tags, terms and platforms a fetched entity names are known once it is read: one batch more for all of them.
    const named = await latestReads(t, () =>
      ok(`query q($a: String!, $b: String!) {
        a: dataset(urn: $a) { platform { name } tags { tags { tag { properties { name } } } } glossaryTerms { terms { term { properties { name } } } } }
        b: mlModel(urn: $b) { platform { name } }
      }`, { a: DATASET, b: MODEL }),
    );
    assert.deepEqual(named.result.a.tags, { tags: [{ tag: { properties: { name: 'PII' } } }] });
    assert.equal(named.reads.length, 2);
  });
});

describe('GraphQL entity fetches with tokens', () => {
  const ADMIN = 'urnb_graphql-fetch-admin-0123456789abcdefghij';
  let t: TestApp;
  let reader: string;
  before(async () => {
    t = await testApp({ auth: true, adminToken: ADMIN, authFailureLimit: 100_000 });
    await seed(t);
    const made = await t.call({ method: 'POST', url: '/openapi/v2/auth/tokens', headers: { authorization: `Bearer ${ADMIN}` }, payload: { name: 'reader', role: 'viewer' } });
    assert.equal(made.status, 201);
    reader = made.body.token;
  });
  after(() => t.app.close());

  it('answers a reader token', async () => {
    const { status, body } = await graphql(t, `query q($urn: String!) { dataset(urn: $urn) { urn properties { name } } }`, { urn: DATASET }, { authorization: `Bearer ${reader}` });
    assert.equal(status, 200);
    assert.deepEqual(body, { data: { dataset: { urn: DATASET, properties: { name: 'orders' } } } });
  });
});
