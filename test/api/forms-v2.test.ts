import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { datasetUrn, enc, testApp, V2, type TestApp } from '../helpers.js';
import { definition, propertyUrn } from '../structured/fixtures.js';

/** `GET /openapi/v2/forms/todo` and `GET /openapi/v2/forms/{urn}/completion` (both stores). */

const ADMIN = 'urnb_forms-v2-admin-secret-0123456789abcdefghijklm';
const ORDERS = datasetUrn('formsv2.orders');
const USERS = datasetUrn('formsv2.users');
const OTHERS = datasetUrn('formsv2.others');
const REVIEW = 'urn:li:form:formsv2.review';
const NAMED = 'urn:li:form:formsv2.named';
const SIGNOFF = 'urn:li:form:formsv2.signoff';
const JDOE = 'urn:li:corpuser:jdoe';

describe('forms routes (v2)', () => {
  let t: TestApp;
  let jdoe = '';
  let ann = '';
  let retention = '';
  let tier = '';
  const as = (token: string) => ({ authorization: `Bearer ${token}` });
  const post = async (type: string, urn: string, aspect: string, body: unknown) => {
    const res = await t.call({ method: 'POST', url: `${V2}/${type}/${enc(urn)}/${aspect}`, headers: as(ADMIN), payload: body as object });
    assert.equal(res.status, 200, JSON.stringify(res.body));
  };
  const get = (url: string, token = ADMIN) => t.call({ method: 'GET', url, headers: as(token) });

  before(async () => {
    t = await testApp({ auth: true, adminToken: ADMIN });
    jdoe = (await t.services.tokens.create({ name: 'jdoe', role: 'editor' }, 'urn:li:corpuser:admin')).token;
    ann = (await t.services.tokens.create({ name: 'ann', role: 'viewer' }, 'urn:li:corpuser:admin')).token;
    retention = propertyUrn('io.formsv2.retention');
    tier = propertyUrn('io.formsv2.tier');
    await post('structuredProperty', retention, 'propertyDefinition', definition('io.formsv2.retention', { valueType: 'urn:li:dataType:datahub.number', displayName: 'Retention' }));
    await post('structuredProperty', tier, 'propertyDefinition', definition('io.formsv2.tier', { displayName: 'Tier' }));
    const prompt = (id: string, urn: string, required: boolean) => ({ id, title: `The ${id}`, type: 'STRUCTURED_PROPERTY', structuredPropertyParams: { urn }, required });
    await post('form', REVIEW, 'formInfo', { name: 'Review', type: 'COMPLETION', prompts: [prompt('retention', retention, true), prompt('tier', tier, false)], actors: { owners: true } });
    await post('form', NAMED, 'formInfo', { name: 'Named', type: 'COMPLETION', prompts: [prompt('named-retention', retention, true)], actors: { owners: false, users: ['urn:li:corpuser:ann'] } });
    await post('form', SIGNOFF, 'formInfo', { name: 'Sign-off', type: 'VERIFICATION', prompts: [prompt('signoff-tier', tier, true), prompt('signoff-retention', retention, false)], actors: { owners: true } });
    for (const asset of [ORDERS, USERS, OTHERS]) {
      await post('dataset', asset, 'ownership', { owners: [{ owner: asset === OTHERS ? 'urn:li:corpuser:bob' : JDOE, type: 'DATAOWNER' }] });
      await post('dataset', asset, 'forms', { incompleteForms: [{ urn: REVIEW }], completedForms: [] });
    }
    await post('dataset', ORDERS, 'forms', { incompleteForms: [{ urn: REVIEW }, { urn: NAMED }, { urn: SIGNOFF }], completedForms: [] });
    await post('dataset', USERS, 'forms', { incompleteForms: [{ urn: REVIEW }, { urn: SIGNOFF }], completedForms: [] });
    // USERS answers both of REVIEW's prompts: it completes; ORDERS answers the optional one only.
    // Both answer SIGNOFF's required tier: it is complete on both, and ORDERS is verified.
    await post('dataset', USERS, 'structuredProperties', { properties: [{ propertyUrn: retention, values: [{ double: 30 }] }, { propertyUrn: tier, values: [{ string: 'gold' }] }] });
    await post('dataset', ORDERS, 'structuredProperties', { properties: [{ propertyUrn: tier, values: [{ string: 'silver' }] }] });
    await t.services.forms.verify(ORDERS, SIGNOFF, { actor: 'urn:li:corpuser:admin', source: 'test', admin: true });
  });
  after(() => t.app.close());

  it('lists the open forms on assets the signed-in user owns, with the prompts unanswered, and the verification forms awaiting verification', async () => {
    const res = await get('/openapi/v2/forms/todo', jdoe);
    assert.equal(res.status, 200);
    // SIGNOFF is verified on ORDERS (not listed there) and complete but not verified on USERS.
    assert.deepEqual(res.body, {
      forms: [
        { asset: ORDERS, form: REVIEW, incompletePrompts: ['retention'], awaitingVerification: false },
        { asset: USERS, form: SIGNOFF, incompletePrompts: [], awaitingVerification: true },
      ],
    });
  });

  it('lists the forms that name the user among their actors, whoever owns the asset', async () => {
    const res = await get('/openapi/v2/forms/todo', ann);
    assert.equal(res.status, 200);
    assert.deepEqual(res.body, { forms: [{ asset: ORDERS, form: NAMED, incompletePrompts: ['named-retention'], awaitingVerification: false }] });
  });

  it('an item awaiting verification names the optional prompts still unanswered; verifying takes it off the list', async () => {
    const answers = (properties: unknown[]) => post('dataset', USERS, 'structuredProperties', { properties });
    const gold = { propertyUrn: tier, values: [{ string: 'gold' }] };
    const thirty = { propertyUrn: retention, values: [{ double: 30 }] };
    const reviewOnOrders = { asset: ORDERS, form: REVIEW, incompletePrompts: ['retention'], awaitingVerification: false };
    const graphql = (query: string) => t.call({ method: 'POST', url: '/api/graphql', headers: as(jdoe), payload: { query } });
    try {
      // Without a retention, USERS's review is open again, and its sign-off lacks its optional prompt.
      await answers([gold]);
      let res = await get('/openapi/v2/forms/todo', jdoe);
      assert.deepEqual(res.body.forms, [
        reviewOnOrders,
        { asset: USERS, form: REVIEW, incompletePrompts: ['retention'], awaitingVerification: false },
        { asset: USERS, form: SIGNOFF, incompletePrompts: ['signoff-retention'], awaitingVerification: true },
      ]);
      const verified = await graphql(`mutation { verifyForm(input: {formUrn: "${SIGNOFF}", entityUrn: "${USERS}"}) }`);
      assert.deepEqual(verified.body, { data: { verifyForm: true } });
      res = await get('/openapi/v2/forms/todo', jdoe);
      assert.equal(res.status, 200);
      assert.deepEqual(res.body.forms, [reviewOnOrders, { asset: USERS, form: REVIEW, incompletePrompts: ['retention'], awaitingVerification: false }]);
      // The required answer removed: the sign-off is open again (its verification gone), not awaiting verification.
      await answers([]);
      res = await get('/openapi/v2/forms/todo', jdoe);
      assert.deepEqual(res.body.forms, [
        reviewOnOrders,
        { asset: USERS, form: REVIEW, incompletePrompts: ['retention', 'tier'], awaitingVerification: false },
        { asset: USERS, form: SIGNOFF, incompletePrompts: ['signoff-tier', 'signoff-retention'], awaitingVerification: false },
      ]);
    } finally {
      await answers([thirty, gold]);
    }
    // Answered again, it is complete and no longer verified: it awaits verification once more.
    const res = await get('/openapi/v2/forms/todo', jdoe);
    assert.deepEqual(res.body.forms, [reviewOnOrders, { asset: USERS, form: SIGNOFF, incompletePrompts: [], awaitingVerification: true }]);
  });

  it('does not list a verification form awaiting verification to someone it does not ask', async () => {
    const res = await get('/openapi/v2/forms/todo', ann);
    assert.equal(res.body.forms.some((f: { form: string }) => f.form === SIGNOFF), false);
  });

  it('answers an empty list to a user asked nothing', async () => {
    const res = await get('/openapi/v2/forms/todo');
    assert.equal(res.status, 200);
    assert.deepEqual(res.body, { forms: [] });
  });

  it('answers at most count entries', async () => {
    await post('dataset', OTHERS, 'ownership', { owners: [{ owner: JDOE, type: 'DATAOWNER' }] });
    try {
      const all = await get('/openapi/v2/forms/todo?count=5', jdoe);
      assert.equal(all.status, 200);
      assert.equal(all.body.forms.length, 3);
      const one = await get('/openapi/v2/forms/todo?count=1', jdoe);
      assert.equal(one.status, 200);
      assert.equal(one.body.forms.length, 1);
    } finally {
      await post('dataset', OTHERS, 'ownership', { owners: [{ owner: 'urn:li:corpuser:bob', type: 'DATAOWNER' }] });
    }
  });

  for (const bad of ['0', '-1', 'x', '1.5', '']) {
    it(`refuses count=${bad} with 400`, async () => {
      const res = await get(`/openapi/v2/forms/todo?count=${bad}`, jdoe);
      assert.equal(res.status, 400);
      assert.deepEqual(res.body, { error: 'Validation Error', message: `count must be a positive integer, got ${JSON.stringify(bad)}` });
    });
  }

  it('counts a form\'s assets and each prompt\'s answers', async () => {
    const res = await get(`/openapi/v2/forms/${enc(REVIEW)}/completion`, ann);
    assert.equal(res.status, 200);
    assert.deepEqual(res.body, {
      form: REVIEW,
      assigned: 3,
      completed: 1,
      incomplete: 2,
      verified: 0,
      prompts: [
        { id: 'retention', title: 'The retention', required: true, completed: 1, incomplete: 2 },
        { id: 'tier', title: 'The tier', required: false, completed: 2, incomplete: 1 },
      ],
    });
  });

  it('counts a verification form\'s verified assets', async () => {
    const res = await get(`/openapi/v2/forms/${enc(SIGNOFF)}/completion`, ann);
    assert.equal(res.status, 200);
    assert.deepEqual({ ...res.body, prompts: undefined }, { form: SIGNOFF, assigned: 2, completed: 2, incomplete: 0, verified: 1, prompts: undefined });
  });

  it('answers 404 for a form that does not exist', async () => {
    const res = await get(`/openapi/v2/forms/${enc('urn:li:form:nope')}/completion`);
    assert.equal(res.status, 404);
    assert.deepEqual(res.body, { error: 'Not Found', message: 'Form urn:li:form:nope does not exist' });
  });

  it('answers 400 for a URN that is not a form', async () => {
    const res = await get(`/openapi/v2/forms/${enc(ORDERS)}/completion`);
    assert.equal(res.status, 400);
    assert.deepEqual(res.body, { error: 'Validation Error', message: `The URN ${ORDERS} is not of entity type form` });
  });

  it('answers 400 for text that is not a URN', async () => {
    const res = await get('/openapi/v2/forms/nope/completion');
    assert.equal(res.status, 400);
    assert.equal(res.body.error, 'Invalid urn!: nope');
  });

  it('answers 401 without a token', async () => {
    for (const url of ['/openapi/v2/forms/todo', `/openapi/v2/forms/${enc(REVIEW)}/completion`]) {
      assert.equal((await t.call({ method: 'GET', url })).status, 401);
    }
  });
});
