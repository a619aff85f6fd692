import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { datasetUrn, testApp, type TestApp } from '../helpers.js';
import { write } from '../search/fixtures.js';
import { defineProperty } from '../structured/fixtures.js';
import { graphql, latestReads } from './queries.js';

/**
 * Forms on entities (their forms aspect, which the write path computes from the forms assigned
 * and the answers given) and the form entity, as read (both stores).
 */

const ORDERS = datasetUrn('forms.orders');
const USERS = datasetUrn('forms.users');
const BARE = datasetUrn('forms.bare');
const CHART = 'urn:li:chart:(looker,forms.revenue)';
const QUARTERLY = 'urn:li:form:quarterly';
const MINIMAL = 'urn:li:form:minimal';
const NEVER = 'urn:li:form:never';
const JDOE = 'urn:li:corpuser:jdoe';
/** The writer of the tests' requests (auth off): the stamps the write path computes are its. */
const DATAHUB = 'urn:li:corpuser:datahub';
const STAMP = { time: 1_700_000_000_000, actor: JDOE };
const BY_SERVICE = { time: 1_700_000_000_001, actor: 'urn:li:dataHubExecutionRequest:x' };

const FORM = `urn type info { name description type prompts { id formUrn title description type structuredPropertyParams { structuredProperty { urn definition { qualifiedName } } } required } }
  ownership { owners { owner { ... on CorpUser { urn } } type } }`;
const ASSOCIATION = `urn associatedUrn incompletePrompts { id lastModified { time actor { urn username } } } completedPrompts { id lastModified { time actor { urn } } } form { urn info { name } }`;
const FORMS = `forms { incompleteForms { ${ASSOCIATION} } completedForms { ${ASSOCIATION} } verifications { form { urn } lastModified { time actor { urn } } } }`;

/** The computed stamps' times are the write's: a number, here 'T'. */
function untimed(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(untimed);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, k === 'time' && typeof v === 'number' && v > 1_700_000_000_001 ? 'T' : untimed(v)]));
}

describe('GraphQL forms', () => {
  let t: TestApp;
  let retention: string;
  let team: string;
  const run = async (query: string, variables: Record<string, unknown> = {}) => {
    const { status, body } = await graphql(t, query, variables);
    assert.equal(status, 200);
    assert.equal(body.errors, undefined, JSON.stringify(body.errors));
    return body.data;
  };

  before(async () => {
    t = await testApp();
    const both = ['urn:li:entityType:datahub.dataset', 'urn:li:entityType:datahub.chart'];
    retention = await defineProperty(t, 'io.forms.retention', { valueType: 'urn:li:dataType:datahub.number', displayName: 'Retention', entityTypes: both });
    team = await defineProperty(t, 'io.forms.team', { displayName: 'Team', entityTypes: both });
    await write(t, 'form', QUARTERLY, 'formInfo', {
      name: 'Quarterly review',
      description: 'Asked each quarter',
      type: 'VERIFICATION',
      prompts: [
        { id: 'retention', title: 'Retention', description: 'How long is it kept?', type: 'STRUCTURED_PROPERTY', structuredPropertyParams: { urn: retention }, required: true },
        { id: 'team', title: 'Team', type: 'STRUCTURED_PROPERTY', structuredPropertyParams: { urn: team } },
      ],
    });
    await write(t, 'form', QUARTERLY, 'ownership', { owners: [{ owner: JDOE, type: 'DATAOWNER' }], lastModified: STAMP });
    await write(t, 'form', MINIMAL, 'formInfo', { name: 'Minimal' });
    // A form entity without formInfo (its ownership only).
    await write(t, 'form', NEVER, 'ownership', { owners: [{ owner: JDOE, type: 'DATAOWNER' }] });
    await write(t, 'dataset', ORDERS, 'structuredProperties', { properties: [{ propertyUrn: retention, values: [{ double: 90 }] }] });
    // What a write says of states is replaced by what the answers give; a verification's stamp is the server's.
    await write(t, 'dataset', ORDERS, 'forms', {
      incompleteForms: [{ urn: QUARTERLY, incompletePrompts: [{ id: 'retention', lastModified: STAMP }] }, { urn: MINIMAL }],
      completedForms: [],
      verifications: [{ form: QUARTERLY, lastModified: BY_SERVICE }],
    });
    await write(t, 'dataset', USERS, 'forms', { incompleteForms: [{ urn: QUARTERLY }], completedForms: [] });
    await write(t, 'dataset', BARE, 'datasetProperties', { name: 'bare' });
    await write(t, 'chart', CHART, 'structuredProperties', { properties: [{ propertyUrn: retention, values: [{ double: 30 }] }, { propertyUrn: team, values: [{ string: 'bi' }] }] });
    await write(t, 'chart', CHART, 'forms', { incompleteForms: [], completedForms: [{ urn: QUARTERLY }] });
  });
  after(() => t.app.close());

  it('answers an entity\'s forms as the write path computed them, each form resolved, stamps\' actors as users', async () => {
    const { dataset } = await run(`query q($urn: String!) { dataset(urn: $urn) { ${FORMS} } }`, { urn: ORDERS });
    const stamp = { time: 'T', actor: { urn: DATAHUB } };
    assert.deepEqual(untimed(dataset.forms), {
      incompleteForms: [],
      completedForms: [
        {
          urn: QUARTERLY,
          associatedUrn: ORDERS,
          incompletePrompts: [{ id: 'team', lastModified: { time: 'T', actor: { urn: DATAHUB, username: 'datahub' } } }],
          completedPrompts: [{ id: 'retention', lastModified: stamp }],
          form: { urn: QUARTERLY, info: { name: 'Quarterly review' } },
        },
        { urn: MINIMAL, associatedUrn: ORDERS, incompletePrompts: [], completedPrompts: [], form: { urn: MINIMAL, info: { name: 'Minimal' } } },
      ],
      verifications: [{ form: { urn: QUARTERLY }, lastModified: stamp }],
    });
  });

  it('an entity without a forms aspect answers null; other entity types have forms too', async () => {
    const data = await run(`query q($bare: String!, $users: String!, $chart: String!) {
      bare: dataset(urn: $bare) { forms { incompleteForms { urn } } }
      users: dataset(urn: $users) { forms { incompleteForms { urn incompletePrompts { id } form { urn type } } completedForms { urn } verifications { form { urn } } } }
      chart: chart(urn: $chart) { forms { completedForms { urn completedPrompts { id } } } }
    }`, { bare: BARE, users: USERS, chart: CHART });
    assert.deepEqual(data, {
      bare: { forms: null },
      users: { forms: { incompleteForms: [{ urn: QUARTERLY, incompletePrompts: [{ id: 'retention' }, { id: 'team' }], form: { urn: QUARTERLY, type: 'FORM' } }], completedForms: [], verifications: [] } },
      chart: { forms: { completedForms: [{ urn: QUARTERLY, completedPrompts: [{ id: 'retention' }, { id: 'team' }] }] } },
    });
  });

  it('form(urn:) fetches a form: its info with prompts (the model\'s defaults filled in) and ownership; entity(urn:) answers it as a Form', async () => {
    const data = await run(`query q($q: String!, $m: String!, $n: String!) {
      q: form(urn: $q) { ${FORM} }
      m: form(urn: $m) { ${FORM} }
      n: form(urn: $n) { urn info { name } ownership { owners { type } } }
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
            { id: 'retention', formUrn: QUARTERLY, title: 'Retention', description: 'How long is it kept?', type: 'STRUCTURED_PROPERTY', structuredPropertyParams: { structuredProperty: { urn: retention, definition: { qualifiedName: 'io.forms.retention' } } }, required: true },
            { id: 'team', formUrn: QUARTERLY, title: 'Team', description: null, type: 'STRUCTURED_PROPERTY', structuredPropertyParams: { structuredProperty: { urn: team, definition: { qualifiedName: 'io.forms.team' } } }, required: false },
          ],
        },
        ownership: { owners: [{ owner: { urn: JDOE }, type: 'DATAOWNER' }] },
      },
      m: { urn: MINIMAL, type: 'FORM', info: { name: 'Minimal', description: null, type: 'COMPLETION', prompts: [] }, ownership: null },
      // A form entity without formInfo has no info.
      n: { urn: NEVER, info: null, ownership: { owners: [{ type: 'DATAOWNER' }] } },
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
      [['Quarterly review', 'Minimal'], ['Quarterly review'], null],
    );
    // The entities; their properties' status (the read-time filter of structured values); the forms they name.
    assert.deepEqual(reads.slice(1), [['status'], ['formInfo', 'formKey']]);
  });
});
