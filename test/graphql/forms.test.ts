import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { datasetUrn, testApp, type TestApp } from '../helpers.js';
import { write } from '../search/fixtures.js';
import { defineProperty } from '../structured/fixtures.js';
import { graphql, latestReads } from './queries.js';

/** Forms on entities (their forms aspect) and the form entity, read only (both stores). */

const ORDERS = datasetUrn('forms.orders');
const USERS = datasetUrn('forms.users');
const BARE = datasetUrn('forms.bare');
const CHART = 'urn:li:chart:(looker,forms.revenue)';
const QUARTERLY = 'urn:li:form:quarterly';
const MINIMAL = 'urn:li:form:minimal';
const NEVER = 'urn:li:form:never';
const JDOE = 'urn:li:corpuser:jdoe';
const STAMP = { time: 1_700_000_000_000, actor: JDOE };
const BY_SERVICE = { time: 1_700_000_000_001, actor: 'urn:li:dataHubExecutionRequest:x' };

const FORM = `urn type info { name description type prompts { id formUrn title description type structuredPropertyParams { structuredProperty { urn definition { qualifiedName } } } required } }
  ownership { owners { owner { ... on CorpUser { urn } } type } }`;
const ASSOCIATION = `urn associatedUrn incompletePrompts { id lastModified { time actor { urn username } } } completedPrompts { id lastModified { time actor { urn } } } form { urn info { name } }`;
const FORMS = `forms { incompleteForms { ${ASSOCIATION} } completedForms { ${ASSOCIATION} } verifications { form { urn } lastModified { time actor { urn } } } }`;

describe('GraphQL forms', () => {
  let t: TestApp;
  let property: string;
  const run = async (query: string, variables: Record<string, unknown> = {}) => {
    const { status, body } = await graphql(t, query, variables);
    assert.equal(status, 200);
    assert.equal(body.errors, undefined, JSON.stringify(body.errors));
    return body.data;
  };

  before(async () => {
    t = await testApp();
    property = await defineProperty(t, 'io.forms.retention', { valueType: 'urn:li:dataType:datahub.number', displayName: 'Retention' });
    await write(t, 'form', QUARTERLY, 'formInfo', {
      name: 'Quarterly review',
      description: 'Asked each quarter',
      type: 'VERIFICATION',
      prompts: [
        { id: 'retention', title: 'Retention', description: 'How long is it kept?', type: 'STRUCTURED_PROPERTY', structuredPropertyParams: { urn: property }, required: true },
        { id: 'owner', title: 'Owner', type: 'OWNERSHIP' },
      ],
    });
    await write(t, 'form', QUARTERLY, 'ownership', { owners: [{ owner: JDOE, type: 'DATAOWNER' }], lastModified: STAMP });
    await write(t, 'form', MINIMAL, 'formInfo', { name: 'Minimal' });
    await write(t, 'dataset', ORDERS, 'forms', {
      incompleteForms: [{ urn: QUARTERLY, incompletePrompts: [{ id: 'owner', lastModified: BY_SERVICE }], completedPrompts: [{ id: 'retention', lastModified: STAMP }] }],
      completedForms: [{ urn: MINIMAL }],
      verifications: [{ form: MINIMAL, lastModified: STAMP }, { form: QUARTERLY }],
    });
    await write(t, 'dataset', USERS, 'forms', { incompleteForms: [{ urn: NEVER }], completedForms: [] });
    await write(t, 'dataset', BARE, 'datasetProperties', { name: 'bare' });
    await write(t, 'chart', CHART, 'forms', { incompleteForms: [], completedForms: [{ urn: QUARTERLY, completedPrompts: [{ id: 'retention', lastModified: STAMP }, { id: 'owner', lastModified: STAMP }] }] });
  });
  after(() => t.app.close());

  it('answers an entity\'s forms as its forms aspect holds them, each form resolved, stamps\' actors as users', async () => {
    const { dataset } = await run(`query q($urn: String!) { dataset(urn: $urn) { ${FORMS} } }`, { urn: ORDERS });
    assert.deepEqual(dataset.forms, {
      incompleteForms: [
        {
          urn: QUARTERLY,
          associatedUrn: ORDERS,
          // An actor that is not a user has none.
          incompletePrompts: [{ id: 'owner', lastModified: { time: BY_SERVICE.time, actor: null } }],
          completedPrompts: [{ id: 'retention', lastModified: { time: STAMP.time, actor: { urn: JDOE } } }],
          form: { urn: QUARTERLY, info: { name: 'Quarterly review' } },
        },
      ],
      completedForms: [{ urn: MINIMAL, associatedUrn: ORDERS, incompletePrompts: [], completedPrompts: [], form: { urn: MINIMAL, info: { name: 'Minimal' } } }],
      verifications: [
        { form: { urn: MINIMAL }, lastModified: { time: STAMP.time, actor: { urn: JDOE } } },
        { form: { urn: QUARTERLY }, lastModified: null },
      ],
    });
  });

  it('an entity without a forms aspect answers null; a form not stored has no info; other entity types have forms too', async () => {
    const data = await run(`query q($bare: String!, $users: String!, $chart: String!) {
      bare: dataset(urn: $bare) { forms { incompleteForms { urn } } }
      users: dataset(urn: $users) { forms { incompleteForms { urn form { urn type info { name } } } completedForms { urn } verifications { form { urn } } } }
      chart: chart(urn: $chart) { forms { completedForms { urn completedPrompts { id } } } }
    }`, { bare: BARE, users: USERS, chart: CHART });
    assert.deepEqual(data, {
      bare: { forms: null },
      users: { forms: { incompleteForms: [{ urn: NEVER, form: { urn: NEVER, type: 'FORM', info: null } }], completedForms: [], verifications: [] } },
      chart: { forms: { completedForms: [{ urn: QUARTERLY, completedPrompts: [{ id: 'retention' }, { id: 'owner' }] }] } },
    });
  });

  it('form(urn:) fetches a form: its info with prompts (the model\'s defaults filled in) and ownership; entity(urn:) answers it as a Form', async () => {
    const data = await run(`query q($q: String!, $m: String!, $n: String!) {
      q: form(urn: $q) { ${FORM} }
      m: form(urn: $m) { ${FORM} }
      n: form(urn: $n) { urn }
      e: entity(urn: $q) { urn type ... on Form { info { name } } }
    }`, { q: QUARTERLY, m: MINIMAL, n: NEVER });
    assert.deepEqual(data, {
      q: {
        urn: QUARTERLY,
        type: 'FORM',
        info: {
          name: 'Quarterly review',
          description: 'Asked each quarter',
          type: 'VERIFICATION',
          prompts: [
            { id: 'retention', formUrn: QUARTERLY, title: 'Retention', description: 'How long is it kept?', type: 'STRUCTURED_PROPERTY', structuredPropertyParams: { structuredProperty: { urn: property, definition: { qualifiedName: 'io.forms.retention' } } }, required: true },
            { id: 'owner', formUrn: QUARTERLY, title: 'Owner', description: null, type: 'OWNERSHIP', structuredPropertyParams: null, required: false },
          ],
        },
        ownership: { owners: [{ owner: { urn: JDOE }, type: 'DATAOWNER' }] },
      },
      m: { urn: MINIMAL, type: 'FORM', info: { name: 'Minimal', description: null, type: 'COMPLETION', prompts: [] }, ownership: null },
      n: null,
      e: { urn: QUARTERLY, type: 'FORM', info: { name: 'Quarterly review' } },
    });
  });

  it('refuses a URN of another type to form(urn:) as BAD_REQUEST', async () => {
    const { body } = await graphql(t, `query q($urn: String!) { form(urn: $urn) { urn } }`, { urn: ORDERS });
    assert.deepEqual(body.data, { form: null });
    assert.deepEqual(body.errors.map((e: any) => [e.message, e.extensions]), [[`urn: expected a form URN, got ${ORDERS}`, { code: 400, type: 'BAD_REQUEST' }]]);
  });

  it('reads a page\'s forms in batches: the entities, then the forms they name, whatever their number', async () => {
    const query = `query q($urns: [String!]!) { entities(urns: $urns) { urn ... on Dataset { forms { incompleteForms { form { info { name } } } completedForms { form { info { name } } } } } } }`;
    const { result, reads } = await latestReads(t, () => run(query, { urns: [ORDERS, USERS, BARE] }));
    assert.deepEqual(
      result.entities.map((e: any) => e.forms && [...e.forms.incompleteForms, ...e.forms.completedForms].map((f: any) => f.form.info?.name ?? null)),
      [['Quarterly review', 'Minimal'], [null], null],
    );
    assert.equal(reads.length, 2);
  });
});
