import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { datasetUrn } from '../helpers.js';
import { CHART_TYPE, DATASET_TYPE, formsApp, refused, type FormsApp } from './forms-app.js';

/**
 * batchAssignForm, batchRemoveForm and createDynamicFormAssignment (both stores): admins only,
 * all or nothing (every unknown URN named), idempotent, and a filter in DataHub's fields
 * (`platform.keyword`, `_entityType`, `domains.keyword`) followed as assets change.
 */

const ORDERS = datasetUrn('forms-assign.orders');
const USERS = datasetUrn('forms-assign.users');
const EVENTS = datasetUrn('forms-assign.events', 'kafka');
const CLICKS = datasetUrn('forms-assign.clicks', 'kafka');
const LATER = datasetUrn('forms-assign.later', 'kafka');
const CHART = 'urn:li:chart:(looker,forms-assign.revenue)';
const MISSING_1 = datasetUrn('forms-assign.missing-1');
const MISSING_2 = datasetUrn('forms-assign.missing-2');
const SALES = 'urn:li:domain:sales';

const ASSIGN = 'mutation batchAssignForm($input: BatchAssignFormInput!) { batchAssignForm(input: $input) }';
const REMOVE = 'mutation batchRemoveForm($input: BatchRemoveFormInput!) { batchRemoveForm(input: $input) }';
const DYNAMIC = 'mutation createDynamicFormAssignment($input: CreateDynamicFormAssignmentInput!) { createDynamicFormAssignment(input: $input) }';
const CREATE = 'mutation createForm($input: CreateFormInput!) { createForm(input: $input) { urn } }';
const HELD = `query q($urns: [String!]!) { entities(urns: $urns) { urn
  ... on Dataset { forms { incompleteForms { form { urn } associatedUrn incompletePrompts { id } } completedForms { form { urn } associatedUrn } } }
  ... on Chart { forms { incompleteForms { form { urn } associatedUrn incompletePrompts { id } } completedForms { form { urn } associatedUrn } } } } }`;

describe('GraphQL batchAssignForm, batchRemoveForm, createDynamicFormAssignment', () => {
  let m: FormsApp;
  let retention: string;
  /** Form → the entities holding it (incomplete or completed), as GraphQL reads them. */
  const holders = async (form: string, urns = [ORDERS, USERS, EVENTS, CLICKS, LATER, CHART]) => {
    const body = await m.mutate(HELD, { urns });
    assert.equal(body.errors, undefined, JSON.stringify(body.errors));
    return body.data.entities
      .filter((e: any) => e?.forms && [...e.forms.incompleteForms, ...e.forms.completedForms].some((f: any) => f.form.urn === form))
      .map((e: any) => e.urn);
  };
  const form = async (id: string, required: boolean) => {
    const input = { id, name: id, prompts: [{ id: `${id}-p`, title: 'Retention?', type: 'STRUCTURED_PROPERTY', structuredPropertyParams: { urn: retention }, required }] };
    const body = await m.mutate(CREATE, { input }, m.admin);
    assert.equal(body.errors, undefined, JSON.stringify(body.errors));
    return body.data.createForm.urn as string;
  };

  before(async () => {
    m = await formsApp();
    retention = await m.property('io.assign.retention', { entityTypes: [DATASET_TYPE, CHART_TYPE] });
    for (const urn of [ORDERS, USERS, EVENTS, CLICKS]) await m.put(urn, 'datasetProperties', { name: urn });
    await m.put(CLICKS, 'domains', { domains: [SALES] });
    await m.put(ORDERS, 'domains', { domains: [SALES] });
    await m.put(CHART, 'chartInfo', { title: 'Revenue', description: '', lastModified: { created: { time: 0, actor: 'urn:li:corpuser:x' }, lastModified: { time: 0, actor: 'urn:li:corpuser:x' } } });
  });
  after(() => m.t.app.close());

  it('batchAssignForm assigns the form to every entity, of any type: incomplete while a required prompt is open, complete at once without one', async () => {
    const open = await form('assign-open', true);
    const done = await form('assign-done', false);
    assert.deepEqual(await m.mutate(ASSIGN, { input: { formUrn: open, entityUrns: [ORDERS, CHART] } }, m.admin), { data: { batchAssignForm: true } });
    assert.deepEqual(await m.mutate(ASSIGN, { input: { formUrn: done, entityUrns: [ORDERS] } }, m.admin), { data: { batchAssignForm: true } });
    const body = await m.mutate(HELD, { urns: [ORDERS, CHART] });
    assert.deepEqual(body.data.entities, [
      { urn: ORDERS, forms: { incompleteForms: [{ form: { urn: open }, associatedUrn: ORDERS, incompletePrompts: [{ id: 'assign-open-p' }] }], completedForms: [{ form: { urn: done }, associatedUrn: ORDERS }] } },
      { urn: CHART, forms: { incompleteForms: [{ form: { urn: open }, associatedUrn: CHART, incompletePrompts: [{ id: 'assign-open-p' }] }], completedForms: [] } },
    ]);
    const stored = await m.aspectOf(ORDERS, 'forms');
    assert.deepEqual(stored.incompleteForms.map((f: any) => [f.urn, f.incompletePrompts.map((p: any) => p.id), f.completedPrompts]), [[open, ['assign-open-p'], []]]);
    assert.deepEqual(stored.completedForms.map((f: any) => [f.urn, f.incompletePrompts.map((p: any) => p.id)]), [[done, ['assign-done-p']]]);
  });

  it('batchAssignForm is idempotent, and an entity named twice is assigned once', async () => {
    const urn = await form('assign-twice', true);
    assert.deepEqual(await m.mutate(ASSIGN, { input: { formUrn: urn, entityUrns: [USERS, USERS] } }, m.admin), { data: { batchAssignForm: true } });
    const once = await m.aspectOf(USERS, 'forms');
    assert.deepEqual(await m.mutate(ASSIGN, { input: { formUrn: urn, entityUrns: [USERS] } }, m.admin), { data: { batchAssignForm: true } });
    assert.deepEqual(await m.aspectOf(USERS, 'forms'), once);
    assert.deepEqual(once.incompleteForms.filter((f: any) => f.urn === urn).length, 1);
  });

  it('batchAssignForm is all or nothing: entities that do not exist are all named, and no entity is assigned', async () => {
    const urn = await form('assign-none', false);
    const before = await m.events();
    assert.deepEqual(
      await m.mutate(ASSIGN, { input: { formUrn: urn, entityUrns: [ORDERS, MISSING_1, USERS, MISSING_2] } }, m.admin),
      refused(ASSIGN, 'batchAssignForm', `Nothing was assigned: these entities do not exist: ${MISSING_1}, ${MISSING_2}`),
    );
    assert.deepEqual(
      await m.mutate(ASSIGN, { input: { formUrn: urn, entityUrns: [ORDERS, MISSING_1] } }, m.admin),
      refused(ASSIGN, 'batchAssignForm', `Nothing was assigned: this entity does not exist: ${MISSING_1}`),
    );
    assert.deepEqual(await m.events(), before);
    assert.deepEqual(await holders(urn), []);
  });

  it('batchAssignForm refuses, writing nothing: anyone but an admin, a form that does not exist, a URN of another type, an invalid URN, no entity, an entity type the form\'s property does not apply to', async () => {
    const urn = await form('assign-refused', false);
    const narrow = await m.property('io.assign.narrow');
    const onlyDatasets = (await m.mutate(CREATE, { input: { id: 'assign-datasets', name: 'Datasets', prompts: [{ id: 'assign-datasets-p', title: 'x', type: 'STRUCTURED_PROPERTY', structuredPropertyParams: { urn: narrow } }] } }, m.admin)).data.createForm.urn;
    const before = await m.events();
    const cases: [Record<string, unknown>, Record<string, string>, string, number][] = [
      [{ formUrn: urn, entityUrns: [ORDERS] }, m.writer, 'Unable to assign form. Please contact your admin.', 403],
      [{ formUrn: urn, entityUrns: [ORDERS] }, m.viewer, 'Unable to assign form. Please contact your admin.', 403],
      [{ formUrn: 'urn:li:form:assign-nope', entityUrns: [ORDERS] }, m.admin, 'Form urn:li:form:assign-nope does not exist', 404],
      [{ formUrn: ORDERS, entityUrns: [USERS] }, m.admin, `formUrn: ${ORDERS} is not a form urn`, 400],
      [{ formUrn: urn, entityUrns: ['orders'] }, m.admin, 'Invalid urn!: orders', 400],
      [{ formUrn: urn, entityUrns: [] }, m.admin, 'Name at least one asset', 400],
      [
        { formUrn: urn, entityUrns: [ORDERS, 'urn:li:tag:pii'] },
        m.admin,
        'Nothing was assigned: urn:li:tag:pii cannot hold forms: entities of tag carry none (those that do: dataset, dataJob, dataFlow, chart, dashboard, corpuser, corpGroup, domain, container, glossaryTerm, glossaryNode, mlModel, mlModelGroup, mlFeatureTable, mlFeature, mlPrimaryKey, schemaField, dataProduct)',
        400,
      ],
      [
        { formUrn: onlyDatasets, entityUrns: [ORDERS, CHART] },
        m.admin,
        `Form ${onlyDatasets} cannot be assigned to ${CHART}: its prompt "assign-datasets-p" asks for Structured Property ${narrow}, which applies to dataset only`,
        400,
      ],
    ];
    for (const [input, headers, message, code] of cases) {
      assert.deepEqual(await m.mutate(ASSIGN, { input }, headers), refused(ASSIGN, 'batchAssignForm', message, code), message);
    }
    assert.deepEqual(await m.events(), before);
  });

  it('batchRemoveForm takes the form off the entities and leaves their other forms; removing a form never assigned is no change', async () => {
    const gone = await form('remove-gone', true);
    const kept = await form('remove-kept', true);
    await m.mutate(ASSIGN, { input: { formUrn: gone, entityUrns: [ORDERS, USERS, CHART] } }, m.admin);
    await m.mutate(ASSIGN, { input: { formUrn: kept, entityUrns: [ORDERS] } }, m.admin);
    assert.deepEqual(await m.mutate(REMOVE, { input: { formUrn: gone, entityUrns: [ORDERS, CHART] } }, m.admin), { data: { batchRemoveForm: true } });
    assert.deepEqual(await holders(gone), [USERS]);
    assert.deepEqual(await holders(kept), [ORDERS]);
    const before = await m.events();
    assert.deepEqual(await m.mutate(REMOVE, { input: { formUrn: gone, entityUrns: [ORDERS] } }, m.admin), { data: { batchRemoveForm: true } });
    assert.deepEqual(await m.events(), before);
  });

  it('batchRemoveForm refuses, writing nothing: anyone but an admin, entities that do not exist (all named), a form that does not exist', async () => {
    const urn = await form('remove-refused', true);
    await m.mutate(ASSIGN, { input: { formUrn: urn, entityUrns: [ORDERS] } }, m.admin);
    const before = await m.events();
    const cases: [Record<string, unknown>, Record<string, string>, string, number][] = [
      [{ formUrn: urn, entityUrns: [ORDERS] }, m.writer, 'Unable to remove form. Please contact your admin.', 403],
      [{ formUrn: urn, entityUrns: [ORDERS, MISSING_1, MISSING_2] }, m.admin, `Nothing was removed: these entities do not exist: ${MISSING_1}, ${MISSING_2}`, 400],
      [{ formUrn: 'urn:li:form:remove-nope', entityUrns: [ORDERS] }, m.admin, 'Form urn:li:form:remove-nope does not exist', 404],
    ];
    for (const [input, headers, message, code] of cases) {
      assert.deepEqual(await m.mutate(REMOVE, { input }, headers), refused(REMOVE, 'batchRemoveForm', message, code, false), message);
    }
    assert.deepEqual(await m.events(), before);
    assert.deepEqual(await holders(urn), [ORDERS]);
  });

  it('createDynamicFormAssignment keeps DataHub\'s filter on the form, assigns the matching assets now, and follows assets that come to match', async () => {
    const urn = await form('dynamic-kafka', true);
    const input = {
      formUrn: urn,
      orFilters: [{ and: [{ field: '_entityType', values: ['dataset'], condition: 'EQUAL', negated: false }, { field: 'platform.keyword', values: ['urn:li:dataPlatform:kafka'] }] }],
    };
    assert.deepEqual(await m.mutate(DYNAMIC, { input }, m.admin), { data: { createDynamicFormAssignment: true } });
    assert.deepEqual(await m.aspectOf(urn, 'dynamicFormAssignment'), {
      filter: {
        or: [
          {
            and: [
              { field: '_entityType', values: ['dataset'], condition: 'EQUAL', negated: false },
              { field: 'platform.keyword', values: ['urn:li:dataPlatform:kafka'], condition: 'EQUAL', negated: false },
            ],
          },
        ],
      },
    });
    assert.deepEqual((await holders(urn)).sort(), [CLICKS, EVENTS].sort());
    // A kafka dataset written later gets the form in the write that creates it.
    await m.put(LATER, 'datasetProperties', { name: 'later' });
    assert.deepEqual((await holders(urn)).sort(), [CLICKS, EVENTS, LATER].sort());
  });

  it('createDynamicFormAssignment takes domains.keyword (an AND of criteria, OR of groups), and a new filter replaces the old one', async () => {
    const urn = await form('dynamic-sales', false);
    const byDomain = { formUrn: urn, orFilters: [{ and: [{ field: 'domains.keyword', values: [SALES] }, { field: 'platform.keyword', values: ['urn:li:dataPlatform:kafka'] }] }, { and: [{ field: '_entityType', values: ['chart'] }] }] };
    assert.deepEqual(await m.mutate(DYNAMIC, { input: byDomain }, m.admin), { data: { createDynamicFormAssignment: true } });
    assert.deepEqual((await holders(urn)).sort(), [CHART, CLICKS].sort());
    const onlyOrders = { formUrn: urn, orFilters: [{ and: [{ field: 'domains.keyword', values: [SALES] }, { field: 'platform.keyword', value: 'urn:li:dataPlatform:hive' }] }] };
    assert.deepEqual(await m.mutate(DYNAMIC, { input: onlyOrders }, m.admin), { data: { createDynamicFormAssignment: true } });
    assert.deepEqual(await holders(urn), [ORDERS]);
  });

  it('a filter naming no entity type matches assets of the types the form\'s properties apply to only', async () => {
    const narrow = await m.property('io.assign.datasets-only');
    const urn = (await m.mutate(CREATE, { input: { id: 'dynamic-narrow', name: 'Narrow', prompts: [{ id: 'dynamic-narrow-p', title: 'x', type: 'STRUCTURED_PROPERTY', structuredPropertyParams: { urn: narrow } }] } }, m.admin)).data.createForm.urn;
    await m.put(CHART, 'domains', { domains: [SALES] });
    assert.deepEqual(await m.mutate(DYNAMIC, { input: { formUrn: urn, orFilters: [{ and: [{ field: 'domains.keyword', values: [SALES] }] }] } }, m.admin), { data: { createDynamicFormAssignment: true } });
    // The chart is in the domain too, but the form's property is for datasets.
    assert.deepEqual((await holders(urn)).sort(), [CLICKS, ORDERS].sort());
    // Naming charts is refused: the property does not apply to them.
    const body = await m.mutate(DYNAMIC, { input: { formUrn: urn, orFilters: [{ and: [{ field: '_entityType', values: ['CHART'] }] }] } }, m.admin);
    assert.deepEqual(
      body,
      refused(DYNAMIC, 'createDynamicFormAssignment', `Form ${urn} cannot be assigned to chart entities: its prompt "dynamic-narrow-p" asks for Structured Property ${narrow}, which applies to dataset only`),
    );
  });

  it('a dynamicFormAssignment written over REST is applied at once; START_WITH is DataHub\'s condition name', async () => {
    const urn = await form('dynamic-rest', false);
    const filter = { or: [{ and: [{ field: 'urn', values: ['urn:li:dataset:(urn:li:dataPlatform:kafka,forms-assign.c'], condition: 'START_WITH', negated: false }] }] };
    await m.put(urn, 'dynamicFormAssignment', { filter });
    assert.deepEqual(await holders(urn), [CLICKS]);
    // A filter in the deprecated shape (value, no values) matches as well.
    await m.put(urn, 'dynamicFormAssignment', { filter: { or: [{ and: [{ field: 'platform.keyword', value: 'urn:li:dataPlatform:hive' }, { field: 'domains', value: SALES }] }] } });
    assert.deepEqual(await holders(urn), [ORDERS]);
  });

  it('createDynamicFormAssignment refuses, writing nothing: anyone but an admin, a form that does not exist, an entity type without forms, an unknown field, no filter', async () => {
    const urn = await form('dynamic-refused', false);
    const before = await m.events();
    const filter = [{ and: [{ field: 'platform.keyword', values: ['urn:li:dataPlatform:kafka'] }] }];
    const cases: [Record<string, unknown>, Record<string, string>, string, number][] = [
      [{ formUrn: urn, orFilters: filter }, m.writer, 'Unable to create dynamic form assignment. Please contact your admin.', 403],
      [{ formUrn: 'urn:li:form:dynamic-nope', orFilters: filter }, m.admin, 'Form urn:li:form:dynamic-nope does not exist', 404],
      [{ formUrn: urn, orFilters: [{ and: [{ field: '_entityType', values: ['dataPlatform'] }] }] }, m.admin, 'A form cannot be assigned to dataPlatform entities: they carry no forms (those that do: dataset, dataJob, dataFlow, chart, dashboard, corpuser, corpGroup, domain, container, glossaryTerm, glossaryNode, mlModel, mlModelGroup, mlFeatureTable, mlFeature, mlPrimaryKey, schemaField, dataProduct)', 400],
      [
        { formUrn: urn, orFilters: [filter[0], { and: [{ field: '_entityType', values: ['dataset'] }, { field: 'nope.keyword', values: ['x'] }] }] },
        m.admin,
        "orFilters[1].and[1]: Unknown search field nope (known: urn, name, qualifiedName, description, fieldPaths, platform, tags, glossaryTerms, owners, domains, subtypes, removed, structuredProperties.<name>, and 129 fields of DataHub's model, listed in docs/search.md)",
        400,
      ],
      [{ formUrn: urn, orFilters: [] }, m.admin, 'A dynamic form assignment needs a filter: {"or": [{"and": [{"field": …, "values": […]}]}]}', 400],
    ];
    for (const [input, headers, message, code] of cases) {
      const body = await m.mutate(DYNAMIC, { input }, headers);
      assert.deepEqual(body.data, { createDynamicFormAssignment: null });
      assert.equal(body.errors.length, 1);
      assert.deepEqual(body.errors[0].extensions.code, code);
      assert.equal(body.errors[0].message, message);
    }
    assert.deepEqual(await m.events(), before);
  });
});
