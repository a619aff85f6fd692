import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { testApp, type TestApp } from '../helpers.js';
import { write } from '../search/fixtures.js';
import { defineProperty } from '../structured/fixtures.js';
import { graphql } from './queries.js';
import { CONTAINER, DASHBOARD, DOMAIN, FLOW, GROUP, JOB, MODEL, NODE, PRODUCT, TERM, USER } from './urns.js';

/** The entity types' fields in search results: key fields from the URN, the rest from their aspects. */

const UNTYPED = 'urn:li:notebook:(querybook,42)';

const QUERY = `query one($urn: String!) { searchAcrossEntities(input: {query: "*", count: 1, orFilters: [{and: [{field: "urn", values: [$urn]}]}]}) {
  searchResults { entity { urn type
    ... on DataFlow { orchestrator flowId cluster platform { name } properties { name description project externalUrl customProperties { key value } } }
    ... on DataJob { jobId dataFlow { urn flowId properties { name } } properties { name description } }
    ... on Dashboard { tool dashboardId platform { urn } properties { name description } }
    ... on Container { platform { name } properties { name description qualifiedName } }
    ... on CorpUser { username properties { displayName email title active } }
    ... on CorpGroup { name properties { displayName description email } }
    ... on GlossaryTerm { name hierarchicalName properties { name description definition termSource } }
    ... on GlossaryNode { properties { name description } }
    ... on Domain { id properties { name description } }
    ... on DataProduct { properties { name description } }
    ... on StructuredPropertyEntity { definition { qualifiedName displayName cardinality immutable valueType { urn type } entityTypes { urn type } } }
  } } } }`;

describe('GraphQL entity fields', () => {
  let t: TestApp;
  let property: string;
  before(async () => {
    t = await testApp();
    property = await defineProperty(t, 'io.example.retention', { valueType: 'urn:li:dataType:datahub.number', displayName: 'Retention' });
    await write(t, 'dataFlow', FLOW, 'dataFlowInfo', { name: 'Nightly', description: 'Loads the warehouse', project: 'etl', externalUrl: 'https://airflow.example/nightly', customProperties: { owner: 'etl' } });
    await write(t, 'dataJob', JOB, 'dataJobInfo', { name: 'Load orders', description: 'Copies orders', type: { string: 'COMMAND' } });
    await write(t, 'dashboard', DASHBOARD, 'dashboardInfo', { title: 'Sales', description: 'Weekly sales', lastModified: { created: { time: 0, actor: USER }, lastModified: { time: 0, actor: USER } } });
    await write(t, 'container', CONTAINER, 'containerProperties', { name: 'warehouse', description: 'The warehouse', qualifiedName: 'prod.warehouse' });
    await write(t, 'container', CONTAINER, 'dataPlatformInstance', { platform: 'urn:li:dataPlatform:snowflake' });
    await write(t, 'corpuser', USER, 'corpUserInfo', { active: true, displayName: 'Jane Doe', email: 'jdoe@example.com', title: 'Analyst' });
    await write(t, 'corpGroup', GROUP, 'corpGroupInfo', { displayName: 'Analytics', description: 'The analysts', email: 'analytics@example.com', admins: [], members: [], groups: [] });
    await write(t, 'glossaryTerm', TERM, 'glossaryTermInfo', { name: 'Revenue', definition: 'Money earned', termSource: 'INTERNAL' });
    await write(t, 'glossaryNode', NODE, 'glossaryNodeInfo', { name: 'Finance', definition: 'Money matters' });
    await write(t, 'domain', DOMAIN, 'domainProperties', { name: 'Sales', description: 'Selling things' });
    await write(t, 'dataProduct', PRODUCT, 'dataProductProperties', { name: 'Orders', description: 'Order data' });
    await write(t, 'mlModel', MODEL, 'mlModelProperties', { description: 'Predicts churn' });
    await write(t, 'mlModel', MODEL, 'ownership', { owners: [{ owner: GROUP, type: 'TECHNICAL_OWNER' }, { owner: USER, type: 'DATAOWNER' }] });
    await write(t, 'dataJob', JOB, 'glossaryTerms', { terms: [{ urn: TERM }], auditStamp: { time: 0, actor: USER } });
    await write(t, 'dataJob', JOB, 'subTypes', { typeNames: ['Task'] });
    await write(t, 'dataJob', JOB, 'domains', { domains: [DOMAIN] });
    await write(t, 'notebook', UNTYPED, 'status', { removed: false });
  });
  after(() => t.app.close());

  const entity = async (urn: string) => {
    const { status, body } = await graphql(t, QUERY, { urn });
    assert.equal(status, 200);
    assert.equal(body.errors, undefined, JSON.stringify(body.errors));
    return body.data.searchAcrossEntities.searchResults[0].entity;
  };

  it('answers a data flow and a data job', async () => {
    assert.deepEqual(await entity(FLOW), {
      urn: FLOW,
      type: 'DATA_FLOW',
      orchestrator: 'airflow',
      flowId: 'nightly',
      cluster: 'prod',
      platform: { name: 'airflow' },
      properties: { name: 'Nightly', description: 'Loads the warehouse', project: 'etl', externalUrl: 'https://airflow.example/nightly', customProperties: [{ key: 'owner', value: 'etl' }] },
    });
    assert.deepEqual(await entity(JOB), {
      urn: JOB,
      type: 'DATA_JOB',
      jobId: 'load_orders',
      dataFlow: { urn: FLOW, flowId: 'nightly', properties: { name: 'Nightly' } },
      properties: { name: 'Load orders', description: 'Copies orders' },
    });
  });

  it('answers a dashboard and a container', async () => {
    assert.deepEqual(await entity(DASHBOARD), {
      urn: DASHBOARD,
      type: 'DASHBOARD',
      tool: 'looker',
      dashboardId: 'sales',
      platform: { urn: 'urn:li:dataPlatform:looker' },
      properties: { name: 'Sales', description: 'Weekly sales' },
    });
    assert.deepEqual(await entity(CONTAINER), {
      urn: CONTAINER,
      type: 'CONTAINER',
      platform: { name: 'snowflake' },
      properties: { name: 'warehouse', description: 'The warehouse', qualifiedName: 'prod.warehouse' },
    });
  });

  it('answers users and groups', async () => {
    assert.deepEqual(await entity(USER), { urn: USER, type: 'CORP_USER', username: 'jdoe', properties: { displayName: 'Jane Doe', email: 'jdoe@example.com', title: 'Analyst', active: true } });
    assert.deepEqual(await entity(GROUP), { urn: GROUP, type: 'CORP_GROUP', name: 'analytics', properties: { displayName: 'Analytics', description: 'The analysts', email: 'analytics@example.com' } });
  });

  it('answers glossary terms and nodes, domains and data products', async () => {
    assert.deepEqual(await entity(TERM), {
      urn: TERM,
      type: 'GLOSSARY_TERM',
      name: 'Finance.Revenue',
      hierarchicalName: 'Finance.Revenue',
      properties: { name: 'Revenue', description: 'Money earned', definition: 'Money earned', termSource: 'INTERNAL' },
    });
    assert.deepEqual(await entity(NODE), { urn: NODE, type: 'GLOSSARY_NODE', properties: { name: 'Finance', description: 'Money matters' } });
    assert.deepEqual(await entity(DOMAIN), { urn: DOMAIN, type: 'DOMAIN', id: 'sales', properties: { name: 'Sales', description: 'Selling things' } });
    assert.deepEqual(await entity(PRODUCT), { urn: PRODUCT, type: 'DATA_PRODUCT', properties: { name: 'Orders', description: 'Order data' } });
  });

  it('answers a structured property with its definition', async () => {
    assert.deepEqual(await entity(property), {
      urn: property,
      type: 'STRUCTURED_PROPERTY',
      definition: {
        qualifiedName: 'io.example.retention',
        displayName: 'Retention',
        cardinality: 'SINGLE',
        immutable: false,
        valueType: { urn: 'urn:li:dataType:datahub.number', type: 'DATA_TYPE' },
        entityTypes: [{ urn: 'urn:li:entityType:datahub.dataset', type: 'ENTITY_TYPE' }],
      },
    });
  });

  it('answers the governance fields: terms, subtypes, domain, owners of both kinds', async () => {
    const { body } = await graphql(t, `query one($job: String!, $model: String!) {
      job: searchAcrossEntities(input: {query: "*", orFilters: [{and: [{field: "urn", values: [$job]}]}]}) { searchResults { entity { ... on DataJob {
        glossaryTerms { terms { term { urn name } associatedUrn } } subTypes { typeNames } domain { domain { urn id } associatedUrn } ownership { owners { owner { __typename } } } } } } }
      model: searchAcrossEntities(input: {query: "*", orFilters: [{and: [{field: "urn", values: [$model]}]}]}) { searchResults { entity { ... on MLModel {
        name platform { name } properties { description } ownership { owners { owner { ... on CorpUser { urn username } ... on CorpGroup { urn name } } type associatedUrn } } } } } } }`, { job: JOB, model: MODEL });
    assert.equal(body.errors, undefined, JSON.stringify(body.errors));
    assert.deepEqual(body.data.job.searchResults[0].entity, {
      glossaryTerms: { terms: [{ term: { urn: TERM, name: 'Finance.Revenue' }, associatedUrn: JOB }] },
      subTypes: { typeNames: ['Task'] },
      domain: { domain: { urn: DOMAIN, id: 'sales' }, associatedUrn: JOB },
      ownership: null,
    });
    assert.deepEqual(body.data.model.searchResults[0].entity, {
      name: 'churn',
      platform: { name: 'sagemaker' },
      properties: { description: 'Predicts churn' },
      ownership: {
        owners: [
          { owner: { urn: GROUP, name: 'analytics' }, type: 'TECHNICAL_OWNER', associatedUrn: MODEL },
          { owner: { urn: USER, username: 'jdoe' }, type: 'DATAOWNER', associatedUrn: MODEL },
        ],
      },
    });
  });

  it('answers an entity type the schema has no object type for with its URN and type', async () => {
    const { body } = await graphql(t, `query one($urn: String!) { searchAcrossEntities(input: {query: "*", orFilters: [{and: [{field: "urn", values: [$urn]}]}]}) {
      searchResults { entity { __typename urn type } } } }`, { urn: UNTYPED });
    assert.deepEqual(body, { data: { searchAcrossEntities: { searchResults: [{ entity: { __typename: 'OtherEntity', urn: UNTYPED, type: 'NOTEBOOK' } }] } } });
  });
});
