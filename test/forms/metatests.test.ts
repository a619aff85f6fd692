import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { datasetUrn, enc, testApp, V2, type TestApp } from '../helpers.js';
import { brief, defineTest, evaluate } from '../metatests/fixtures.js';
import { answer, createDataset, defineForm, defineProperties } from './fixtures.js';

const ADMIN = { actor: 'urn:li:corpuser:datahub', source: 'test', admin: true };

describe('metadata tests read form state', () => {
  let t: TestApp;
  const finance = datasetUrn('forms.tests.ledger');
  const elsewhere = datasetUrn('forms.tests.clicks');
  let form: string;
  let test: string;
  let steward: string;
  before(async () => {
    t = await testApp();
    const p = await defineProperties(t, 'formtests');
    form = await defineForm(t, 'classification', [{ id: 'ft-steward', property: p.owner }]);
    await createDataset(t, finance, { domains: { domains: ['urn:li:domain:finance'] } });
    await createDataset(t, elsewhere);
    await t.services.forms.assign(form, [finance, elsewhere], ADMIN);
    // "Datasets in domain Finance have completed form Classification".
    test = await defineTest(t, 'finance-classified', {
      on: { types: ['dataset'], conditions: [{ property: 'domains.domains', operator: 'equals', values: ['urn:li:domain:finance'] }] },
      rules: [{ property: 'forms.completedForms.urn', operator: 'equals', values: [form] }],
    });
    await answer(t, elsewhere, p.owner, 'jdoe');
    steward = p.owner;
  });
  after(() => t.app.close());

  it('fails while the form is incomplete, explaining what it found', async () => {
    const res = await evaluate(t, { urn: finance });
    assert.equal(res.status, 200);
    assert.deepEqual(brief(res.body.value), { passing: [], failing: [test] });
    assert.deepEqual(res.body.value.failing[0].explanation, [{ condition: 'rules[0]', property: 'forms.completedForms.urn', operator: 'equals', values: [form], found: [] }]);
  });

  it('passes once the form is complete', async () => {
    assert.equal((await answer(t, finance, steward, 'jdoe')).status, 200);
    const res = await evaluate(t, { urn: finance });
    assert.deepEqual(brief(res.body.value), { passing: [test], failing: [] });
  });

  it('does not select assets outside the domain', async () => {
    const res = await evaluate(t, { urn: elsewhere });
    assert.deepEqual(brief(res.body.value), { passing: [], failing: [] });
  });

  it('follows the form URN to its definition', async () => {
    const res = await evaluate(t, {
      urn: finance,
      definition: { on: { types: ['dataset'] }, rules: [{ property: 'forms.completedForms.urn.formInfo.name', operator: 'equals', values: ['classification'] }] },
    }, 'evaluateDefinition');
    assert.equal(res.status, 200);
    assert.deepEqual(res.body, { value: { result: 'PASS', explanation: [] } });
  });

  it('the forms aspect reads the same on v3', async () => {
    const v3 = await t.call({ method: 'GET', url: `/openapi/v3/entity/dataset/${enc(finance)}/forms` });
    const v2 = await t.call({ method: 'GET', url: `${V2}/dataset/${enc(finance)}/forms` });
    assert.equal(v3.status, 200);
    assert.deepEqual(v3.body.value, v2.body.value);
  });
});
