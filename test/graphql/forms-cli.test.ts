import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { datasetUrn, enc } from '../helpers.js';
import { CHART_TYPE, DATASET_TYPE, formsApp, type FormsApp } from './forms-app.js';

/**
 * `datahub forms upsert -f forms.yaml` and `datahub forms get`, replayed request by request as
 * the CLI sends them (its forms.py; both stores): the property-existence check, the Rest.li
 * ingestProposal of the whole formInfo and of the form's ownership, then GraphQL mutations with
 * every value inlined in the query text and no variables: batchAssignForm for `entities.urns`,
 * createDynamicFormAssignment for `entities.filters` with `.keyword` fields and `_entityType`.
 *
 * The file replayed:
 *
 *   - id: cli-review
 *     name: Quarterly review
 *     description: Asked of the payments datasets
 *     type: VERIFICATION
 *     prompts:
 *       - id: cli-retention
 *         title: Retention
 *         type: STRUCTURED_PROPERTY
 *         structured_property_id: io.cli.retention
 *         required: true
 *     entities:
 *       urns: [<ORDERS>, <USERS>]
 *     owners: [jdoe]
 *     actors:
 *       users: [jane]
 *   - id: cli-kafka
 *     name: Kafka topics
 *     prompts:
 *       - id: cli-team
 *         title: Team
 *         type: STRUCTURED_PROPERTY
 *         structured_property_urn: urn:li:structuredProperty:io.cli.team
 *     entities:
 *       filters:
 *         types: [dataset]
 *         platforms: [kafka]
 *         domains: [sales]
 */

const ORDERS = datasetUrn('cli.orders');
const USERS = datasetUrn('cli.users');
const EVENTS = datasetUrn('cli.events', 'kafka');
const CLICKS = datasetUrn('cli.clicks', 'kafka');
const LOGS = datasetUrn('cli.logs', 'kafka');
const RETENTION = 'urn:li:structuredProperty:io.cli.retention';
const TEAM = 'urn:li:structuredProperty:io.cli.team';
const REVIEW = 'urn:li:form:cli-review';
const KAFKA = 'urn:li:form:cli-kafka';
const SALES = 'urn:li:domain:sales';

const CLI_HEADERS = {
  'X-RestLi-Protocol-Version': '2.0.0',
  'Content-Type': 'application/json',
  'User-Agent': 'DataHub-Client/1.0 (cli; python_sdk/1.2.0.1) python-requests/2.32.3',
  'X-DataHub-Client-Mode': 'CLI',
};

/** What forms.py builds with FormInfoClass(...).to_obj(): the whole aspect, the model's defaults spelled out. */
const REVIEW_INFO = {
  name: 'Quarterly review',
  description: 'Asked of the payments datasets',
  type: 'VERIFICATION',
  prompts: [{ id: 'cli-retention', title: 'Retention', type: 'STRUCTURED_PROPERTY', structuredPropertyParams: { urn: RETENTION }, required: true }],
  actors: { owners: true, users: ['urn:li:corpuser:jane'] },
};
const KAFKA_INFO = {
  name: 'Kafka topics',
  type: 'COMPLETION',
  prompts: [{ id: 'cli-team', title: 'Team', type: 'STRUCTURED_PROPERTY', structuredPropertyParams: { urn: TEAM }, required: false }],
  actors: { owners: true },
};

/** Strings as the CLI puts them in a query: between quotes, comma-separated, nothing escaped. */
const quotedList = (values: string[]) => values.map((v) => `"${v}"`).join(', ');

/** The CLI's batchAssignForm for entities.urns, values inlined, no variables (its line breaks and indentation kept). */
const assignQuery = (form: string, urns: string[]) => `
mutation batchAssignForm {
    batchAssignForm(
    input: {
        formUrn: "${form}",
        entityUrns: [${quotedList(urns)}]
    }
    )
}
`;

/** The CLI's createDynamicFormAssignment for entities.filters: one OR group ANDing a criterion per filter key. */
const dynamicQuery = (form: string, criteria: [string, string[]][]) => `
mutation createDynamicFormAssignment {
    createDynamicFormAssignment(
    input: {
        formUrn: "${form}"
        orFilters: [{
            and: [${criteria.map(([field, values]) => `{ field: "${field}", values: [${quotedList(values)}], condition: EQUAL, negated: false }`).join(', ')}]
        }]
    }
    )
}
`;

describe('datahub forms upsert and get, replayed', () => {
  let m: FormsApp;
  let cli: Record<string, string>;
  const call = (method: 'GET' | 'POST', url: string, payload?: unknown, headers = cli) => m.t.call({ method, url, headers, ...(payload === undefined ? {} : { payload: payload as object }) });
  /** The emitter's REST emit of one aspect (emit_mcp: ingestProposal, the value a JSON string). */
  const emit = (entityType: string, entityUrn: string, aspectName: string, value: unknown) =>
    call('POST', '/aspects?action=ingestProposal', {
      proposal: { entityType, entityUrn, changeType: 'UPSERT', aspectName, aspect: { value: JSON.stringify(value), contentType: 'application/json' } },
      async: 'false',
    });
  /** The emitter's exists(): a GET of the key aspect, version 0. */
  const exists = (urn: string, keyAspect: string) => call('GET', `/aspects/${enc(urn)}?aspect=${keyAspect}&version=0`);
  const graphqlCall = (query: string) => call('POST', '/api/graphql', { query });
  const formsAspect = async (urn: string) => {
    const res = await call('GET', `/aspects/${enc(urn)}?aspect=forms&version=0`);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const value = res.body.aspect['com.linkedin.common.Forms'];
    const prompts = (list: any[]) => list.map((p) => p.id);
    const forms = (list: any[]) => list.map((f) => ({ urn: f.urn, incompletePrompts: prompts(f.incompletePrompts), completedPrompts: prompts(f.completedPrompts) }));
    return { incompleteForms: forms(value.incompleteForms), completedForms: forms(value.completedForms), verifications: value.verifications ?? [] };
  };

  before(async () => {
    m = await formsApp();
    cli = { ...CLI_HEADERS, ...m.admin };
    await m.property('io.cli.retention', { entityTypes: [DATASET_TYPE] });
    await m.property('io.cli.team', { entityTypes: [DATASET_TYPE, CHART_TYPE] });
    for (const urn of [ORDERS, USERS, EVENTS, CLICKS, LOGS]) await m.put(urn, 'datasetProperties', { name: urn });
    for (const urn of [EVENTS, CLICKS]) await m.put(urn, 'domains', { domains: [SALES] });
  });
  after(() => m.t.app.close());

  it('upsert: each request answers as DataHub\'s, and the assets hold the forms as the file says', async () => {
    // get_default_graph() first reads the server's configuration.
    assert.equal((await call('GET', '/config')).status, 200);

    // Form 1: its prompt's property exists; formInfo, then ownership, then the assignment by URNs.
    const property = await exists(RETENTION, 'structuredPropertyKey');
    assert.deepEqual([property.status, property.body], [200, { version: 0, aspect: { 'com.linkedin.structured.StructuredPropertyKey': { id: 'io.cli.retention' } } }]);
    const info = await emit('form', REVIEW, 'formInfo', REVIEW_INFO);
    assert.deepEqual([info.status, info.body], [200, { value: 'success' }]);
    const owners = { owners: [{ owner: 'urn:li:corpuser:jdoe', type: 'TECHNICAL_OWNER' }], ownerTypes: {}, lastModified: { time: 0, actor: 'urn:li:corpuser:unknown' } };
    const ownership = await emit('form', REVIEW, 'ownership', owners);
    assert.deepEqual([ownership.status, ownership.body], [200, { value: 'success' }]);
    const assigned = await graphqlCall(assignQuery(REVIEW, [ORDERS, USERS]));
    assert.deepEqual([assigned.status, assigned.body], [200, { data: { batchAssignForm: true } }]);

    // Form 2: by filter, the CLI's field names.
    assert.equal((await exists(TEAM, 'structuredPropertyKey')).status, 200);
    assert.deepEqual((await emit('form', KAFKA, 'formInfo', KAFKA_INFO)).body, { value: 'success' });
    const dynamic = await graphqlCall(
      dynamicQuery(KAFKA, [
        ['_entityType', ['dataset']],
        ['platform.keyword', ['urn:li:dataPlatform:kafka']],
        ['domains.keyword', [SALES]],
      ]),
    );
    assert.deepEqual([dynamic.status, dynamic.body], [200, { data: { createDynamicFormAssignment: true } }]);

    // The state the file asks for: the review form open on its two datasets (its prompt is required),
    // the kafka form complete (no required prompt) on the kafka datasets of the sales domain.
    const open = { urn: REVIEW, incompletePrompts: ['cli-retention'], completedPrompts: [] };
    assert.deepEqual(await formsAspect(ORDERS), { incompleteForms: [open], completedForms: [], verifications: [] });
    assert.deepEqual(await formsAspect(USERS), { incompleteForms: [open], completedForms: [], verifications: [] });
    const done = { urn: KAFKA, incompletePrompts: ['cli-team'], completedPrompts: [] };
    assert.deepEqual(await formsAspect(EVENTS), { incompleteForms: [], completedForms: [done], verifications: [] });
    assert.deepEqual(await formsAspect(CLICKS), { incompleteForms: [], completedForms: [done], verifications: [] });
    assert.equal((await call('GET', `/aspects/${enc(LOGS)}?aspect=forms&version=0`)).status, 404);
    assert.deepEqual((await m.aspectOf(KAFKA, 'dynamicFormAssignment')).filter.or[0].and.map((c: any) => c.field), ['_entityType', 'platform.keyword', 'domains.keyword']);
    assert.deepEqual((await m.aspectOf(REVIEW, 'ownership')).owners, owners.owners);
  });

  it('a form with both entities.urns and entities.filters ends up held by the assets its filter matches only (a filtered form is assigned by its filter alone)', async () => {
    const both = 'urn:li:form:cli-both';
    assert.deepEqual((await emit('form', both, 'formInfo', { name: 'Both', prompts: [], actors: { owners: true } })).body, { value: 'success' });
    assert.deepEqual((await graphqlCall(assignQuery(both, [ORDERS, EVENTS]))).body, { data: { batchAssignForm: true } });
    assert.deepEqual((await graphqlCall(dynamicQuery(both, [['platform.keyword', ['urn:li:dataPlatform:kafka']]]))).body, { data: { createDynamicFormAssignment: true } });
    const holding = async (urn: string) => (await formsAspect(urn)).completedForms.some((f) => f.urn === both);
    assert.deepEqual(await Promise.all([ORDERS, EVENTS, CLICKS, LOGS].map(holding)), [false, true, true, true]);
    // An explicit assignment against the filter is refused now, naming what to do.
    const against = await graphqlCall(assignQuery(both, [ORDERS]));
    assert.deepEqual(against.body.errors.map((e: any) => e.message), [`Form ${both} is assigned by a filter, and ${ORDERS} does not match it: change the filter instead`]);
  });

  it('upsert again with the same file changes nothing', async () => {
    const before = await m.events();
    assert.deepEqual((await emit('form', REVIEW, 'formInfo', REVIEW_INFO)).body, { value: 'success' });
    assert.deepEqual((await graphqlCall(assignQuery(REVIEW, [ORDERS, USERS]))).body, { data: { batchAssignForm: true } });
    assert.deepEqual((await graphqlCall(dynamicQuery(KAFKA, [['_entityType', ['dataset']], ['platform.keyword', ['urn:li:dataPlatform:kafka']], ['domains.keyword', [SALES]]]))).body, {
      data: { createDynamicFormAssignment: true },
    });
    const after = await m.events();
    // The same values written again are no change: nothing new in the change log.
    assert.deepEqual(after, before);
  });

  it('a property that does not exist: exists() answers 404, and the CLI stops before writing', async () => {
    const res = await exists('urn:li:structuredProperty:io.cli.nope', 'structuredPropertyKey');
    assert.equal(res.status, 404);
    assert.equal(res.body.message, 'Aspect structuredPropertyKey of urn:li:structuredProperty:io.cli.nope not found');
  });

  it('a URN that does not exist in entities.urns: the GraphQL answer names it, and nothing is assigned', async () => {
    const missing = datasetUrn('cli.missing');
    const res = await graphqlCall(assignQuery(KAFKA, [LOGS, missing]));
    assert.equal(res.status, 200);
    assert.deepEqual(res.body.data, { batchAssignForm: null });
    assert.deepEqual(res.body.errors.map((e: any) => [e.message, e.extensions]), [[`Nothing was assigned: this entity does not exist: ${missing}`, { code: 400, type: 'BAD_REQUEST' }]]);
    assert.deepEqual((await formsAspect(LOGS)).completedForms.map((f) => f.urn), ['urn:li:form:cli-both']);
  });

  it('an editor\'s token: the formInfo emit and the assignment are refused (managing forms is an admin\'s)', async () => {
    const editor = { ...CLI_HEADERS, ...m.writer };
    const before = await m.events();
    const info = await call('POST', '/aspects?action=ingestProposal', { proposal: { entityType: 'form', entityUrn: 'urn:li:form:cli-editor', changeType: 'UPSERT', aspectName: 'formInfo', aspect: { value: JSON.stringify(KAFKA_INFO), contentType: 'application/json' } } }, editor);
    assert.equal(info.status, 403);
    assert.equal(info.body.message, 'Only an admin may create, change or delete form urn:li:form:cli-editor');
    const assign = await call('POST', '/api/graphql', { query: assignQuery(REVIEW, [LOGS]) }, editor);
    assert.deepEqual(assign.body.errors.map((e: any) => [e.message, e.extensions]), [['Unable to assign form. Please contact your admin.', { code: 403, type: 'UNAUTHORIZED' }]]);
    assert.deepEqual(await m.events(), before);
  });

  it('get: exists() on the form\'s key, then its formInfo as the Rest.li aspect', async () => {
    const key = await exists(REVIEW, 'formKey');
    assert.deepEqual([key.status, key.body], [200, { version: 0, aspect: { 'com.linkedin.metadata.key.FormKey': { id: 'cli-review' } } }]);
    const res = await call('GET', `/aspects/${enc(REVIEW)}?aspect=formInfo&version=0`);
    assert.equal(res.status, 200);
    assert.deepEqual(res.body.aspect, { 'com.linkedin.form.FormInfo': REVIEW_INFO });
    assert.equal((await exists('urn:li:form:cli-never', 'formKey')).status, 404);
  });
});
