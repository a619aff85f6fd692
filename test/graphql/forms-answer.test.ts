import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { datasetUrn } from '../helpers.js';
import { schemaMetadata } from '../search/fixtures.js';
import { WRITER } from './mutation-app.js';
import { FIELD_TYPE, NUMBER, formsApp, refused, type FormsApp } from './forms-app.js';

/**
 * submitFormPrompt and verifyForm (both stores): answers are the prompt's property set on the
 * asset (or on its schema fields), by the form's actors; the form's state follows in the same
 * write; verification of a complete VERIFICATION form. DataHub's messages where it has them.
 */

const ORDERS = datasetUrn('forms-answer.orders');
const OWNED = datasetUrn('forms-answer.owned');
const COLUMNS = datasetUrn('forms-answer.columns');
const BARE = datasetUrn('forms-answer.bare');
const CREATE = 'mutation createForm($input: CreateFormInput!) { createForm(input: $input) { urn } }';
const ASSIGN = 'mutation batchAssignForm($input: BatchAssignFormInput!) { batchAssignForm(input: $input) }';
const SUBMIT = 'mutation submitFormPrompt($urn: String!, $input: SubmitFormPromptInput!) { submitFormPrompt(urn: $urn, input: $input) }';
const VERIFY = 'mutation verifyForm($input: VerifyFormInput!) { verifyForm(input: $input) }';
const PROMPT = 'id lastModified { actor { urn } } fieldAssociations { completedFieldPrompts { fieldPath lastModified { actor { urn } } } incompleteFieldPrompts { fieldPath } }';
const FORMS_OF = `query q($urn: String!) { dataset(urn: $urn) { forms {
  incompleteForms { form { urn } incompletePrompts { ${PROMPT} } completedPrompts { ${PROMPT} } }
  completedForms { form { urn } incompletePrompts { ${PROMPT} } completedPrompts { ${PROMPT} } }
  verifications { form { urn } lastModified { actor { urn } } } } } }`;
const ADMIN = 'urn:li:corpuser:admin';
const prompt = (id: string, actor: string) => ({ id, lastModified: { actor: { urn: actor } }, fieldAssociations: null });

describe('GraphQL submitFormPrompt, verifyForm', () => {
  let m: FormsApp;
  let retention: string;
  let team: string;
  let sensitivity: string;
  let review: string;
  let survey: string;
  let columns: string;
  const formsOf = async (urn: string) => {
    const body = await m.mutate(FORMS_OF, { urn });
    assert.equal(body.errors, undefined, JSON.stringify(body.errors));
    return body.data.dataset.forms;
  };
  const submit = (urn: string, input: Record<string, unknown>, headers = m.writer) => m.mutate(SUBMIT, { urn, input }, headers);
  const retentionAnswer = (value: Record<string, unknown>) => ({ promptId: 'answer-retention', formUrn: review, type: 'STRUCTURED_PROPERTY', structuredPropertyParams: { structuredPropertyUrn: retention, values: [value] } });

  before(async () => {
    m = await formsApp();
    retention = await m.property('io.answer.retention', { valueType: NUMBER });
    team = await m.property('io.answer.team');
    sensitivity = await m.property('io.answer.sensitivity', { entityTypes: [FIELD_TYPE] });
    for (const urn of [ORDERS, OWNED, BARE]) await m.put(urn, 'datasetProperties', { name: urn });
    await m.put(OWNED, 'ownership', { owners: [{ owner: WRITER, type: 'DATAOWNER' }] });
    await m.put(COLUMNS, 'schemaMetadata', schemaMetadata(['id', 'email']));
    const create = async (input: Record<string, unknown>) => (await m.mutate(CREATE, { input }, m.admin)).data.createForm.urn as string;
    // Asks the writer by name; verified once the retention is given.
    review = await create({
      id: 'answer-review',
      name: 'Review',
      type: 'VERIFICATION',
      prompts: [
        { id: 'answer-retention', title: 'Retention?', type: 'STRUCTURED_PROPERTY', structuredPropertyParams: { urn: retention }, required: true },
        { id: 'answer-team', title: 'Team?', type: 'STRUCTURED_PROPERTY', structuredPropertyParams: { urn: team } },
      ],
      actors: { owners: false, users: [WRITER] },
    });
    // Asks the owners of each asset (the default), a COMPLETION form.
    survey = await create({ id: 'answer-survey', name: 'Survey', prompts: [{ id: 'answer-survey-team', title: 'Team?', type: 'STRUCTURED_PROPERTY', structuredPropertyParams: { urn: team }, required: true }] });
    columns = await create({
      id: 'answer-columns',
      name: 'Columns',
      prompts: [{ id: 'answer-sensitivity', title: 'Sensitive?', type: 'FIELDS_STRUCTURED_PROPERTY', structuredPropertyParams: { urn: sensitivity } }],
      actors: { users: [WRITER] },
    });
    for (const [form, urns] of [[review, [ORDERS, OWNED]], [survey, [ORDERS, OWNED]], [columns, [COLUMNS]]] as const) {
      assert.deepEqual(await m.mutate(ASSIGN, { input: { formUrn: form, entityUrns: urns } }, m.admin), { data: { batchAssignForm: true } });
    }
  });
  after(() => m.t.app.close());

  it('submitFormPrompt sets the prompt\'s property on the asset, and the form completes in the same write when its required prompts are answered', async () => {
    assert.deepEqual((await formsOf(ORDERS)).incompleteForms.map((f: any) => f.form.urn), [review, survey]);
    assert.deepEqual(await submit(ORDERS, retentionAnswer({ numberValue: 90 })), { data: { submitFormPrompt: true } });
    const values = await m.aspectOf(ORDERS, 'structuredProperties');
    assert.deepEqual(values.properties.map((p: any) => [p.propertyUrn, p.values]), [[retention, [{ double: 90 }]]]);
    const forms = await formsOf(ORDERS);
    // The optional prompt stays open, as it was since the admin assigned the form.
    assert.deepEqual(forms.completedForms, [{ form: { urn: review }, incompletePrompts: [prompt('answer-team', ADMIN)], completedPrompts: [prompt('answer-retention', WRITER)] }]);
    assert.deepEqual(forms.incompleteForms.map((f: any) => f.form.urn), [survey]);
    // A second answer replaces the value.
    assert.deepEqual(await submit(ORDERS, retentionAnswer({ numberValue: 365 })), { data: { submitFormPrompt: true } });
    assert.deepEqual((await m.aspectOf(ORDERS, 'structuredProperties')).properties.map((p: any) => p.values), [[{ double: 365 }]]);
  });

  it('an owner of the asset answers a form that asks owners; a string value is a string', async () => {
    const input = { promptId: 'answer-survey-team', formUrn: survey, type: 'STRUCTURED_PROPERTY', structuredPropertyParams: { structuredPropertyUrn: team, values: [{ stringValue: 'payments' }] } };
    assert.deepEqual(await submit(OWNED, input), { data: { submitFormPrompt: true } });
    assert.deepEqual((await m.aspectOf(OWNED, 'structuredProperties')).properties.map((p: any) => [p.propertyUrn, p.values]), [[team, [{ string: 'payments' }]]]);
    assert.deepEqual((await formsOf(OWNED)).completedForms.map((f: any) => f.form.urn), [survey]);
  });

  it('a schema-field prompt takes fieldPath and fieldPaths (merged): each field gets the value, and the prompt completes once every field has one', async () => {
    const input = (paths: Record<string, unknown>) => ({ promptId: 'answer-sensitivity', formUrn: columns, type: 'FIELDS_STRUCTURED_PROPERTY', structuredPropertyParams: { structuredPropertyUrn: sensitivity, values: [{ stringValue: 'high' }] }, ...paths });
    assert.deepEqual(await submit(COLUMNS, input({ fieldPath: 'id' })), { data: { submitFormPrompt: true } });
    // Its one prompt is optional: the form is complete all along.
    let forms = await formsOf(COLUMNS);
    const fields = (done: string[], open: string[]) => ({ completedFieldPrompts: done.map((fieldPath) => ({ fieldPath, lastModified: { actor: { urn: WRITER } } })), incompleteFieldPrompts: open.map((fieldPath) => ({ fieldPath })) });
    assert.deepEqual(forms.completedForms, [
      // The prompt is open since the admin assigned the form; its field id was answered by the writer.
      { form: { urn: columns }, incompletePrompts: [{ id: 'answer-sensitivity', lastModified: { actor: { urn: ADMIN } }, fieldAssociations: fields(['id'], ['email']) }], completedPrompts: [] },
    ]);
    assert.deepEqual(await submit(COLUMNS, input({ fieldPath: 'id', fieldPaths: ['email', 'id'] })), { data: { submitFormPrompt: true } });
    const field = `urn:li:schemaField:(${COLUMNS},email)`;
    assert.deepEqual((await m.aspectOf(field, 'structuredProperties')).properties.map((p: any) => [p.propertyUrn, p.values]), [[sensitivity, [{ string: 'high' }]]]);
    forms = await formsOf(COLUMNS);
    assert.deepEqual(forms.completedForms, [
      { form: { urn: columns }, incompletePrompts: [], completedPrompts: [{ id: 'answer-sensitivity', lastModified: { actor: { urn: WRITER } }, fieldAssociations: fields(['id', 'email'], []) }] },
    ]);
  });

  it('submitFormPrompt refuses, writing nothing, with DataHub\'s messages where it has them', async () => {
    const before = await m.events();
    const team1 = { structuredPropertyUrn: team, values: [{ stringValue: 'x' }] };
    const cases: [string, Record<string, unknown>, Record<string, string>, string, number][] = [
      [BARE, retentionAnswer({ numberValue: 1 }), m.writer, `Form ${review} is not assigned to ${BARE}`, 400],
      [OWNED, { promptId: 'answer-survey-team', formUrn: survey, type: 'STRUCTURED_PROPERTY', structuredPropertyParams: team1 }, m.viewer, 'Unauthorized to perform this action. Please contact your DataHub administrator.', 403],
      [
        ORDERS,
        { promptId: 'answer-survey-team', formUrn: survey, type: 'STRUCTURED_PROPERTY', structuredPropertyParams: team1 },
        m.writer,
        `${WRITER} is not asked to fill in form ${survey} on ${ORDERS}: only its actors (and the asset's owners, where the form asks owners) may`,
        403,
      ],
      [ORDERS, { promptId: 'answer-retention', formUrn: review, type: 'STRUCTURED_PROPERTY' }, m.writer, 'Failed to provide structured property params for prompt type STRUCTURED_PROPERTY', 400],
      [COLUMNS, { promptId: 'answer-sensitivity', formUrn: columns, type: 'FIELDS_STRUCTURED_PROPERTY', structuredPropertyParams: { structuredPropertyUrn: sensitivity, values: [{ stringValue: 'x' }] } }, m.writer, 'Failed to provide fieldPaths for FIELDS prompt type', 400],
      [ORDERS, retentionAnswer({ numberValue: 1, stringValue: '1' }), m.writer, 'Each value must provide exactly one of stringValue or numberValue.', 400],
      [ORDERS, retentionAnswer({}), m.writer, 'Each value must provide exactly one of stringValue or numberValue.', 400],
      [ORDERS, { ...retentionAnswer({ numberValue: 1 }), structuredPropertyParams: team1 }, m.writer, `structuredPropertyParams.structuredPropertyUrn: prompt "answer-retention" of form ${review} asks for ${retention}, not ${team}`, 400],
      [ORDERS, { ...retentionAnswer({ numberValue: 1 }), type: 'FIELDS_STRUCTURED_PROPERTY', fieldPath: 'id' }, m.writer, `type: prompt "answer-retention" of form ${review} is a STRUCTURED_PROPERTY prompt, not FIELDS_STRUCTURED_PROPERTY`, 400],
      [ORDERS, { ...retentionAnswer({ numberValue: 1 }), type: 'OWNERSHIP' }, m.writer, 'type: urnbase answers STRUCTURED_PROPERTY and FIELDS_STRUCTURED_PROPERTY prompts only, not OWNERSHIP', 400],
      [ORDERS, { ...retentionAnswer({ numberValue: 1 }), promptId: 'answer-nope' }, m.writer, `Form ${review} has no prompt with id "answer-nope"`, 404],
      [ORDERS, { ...retentionAnswer({ numberValue: 1 }), formUrn: 'urn:li:form:answer-nope' }, m.writer, 'Form urn:li:form:answer-nope does not exist', 404],
      [ORDERS, { ...retentionAnswer({ numberValue: 1 }), formUrn: ORDERS }, m.writer, `formUrn: ${ORDERS} is not a form urn`, 400],
    ];
    for (const [urn, input, headers, message, code] of cases) {
      assert.deepEqual(await submit(urn, input, headers), refused(SUBMIT, 'submitFormPrompt', message, code), message);
    }
    // The structured-property rules judge the value as they judge any write.
    const wrongType = await submit(ORDERS, retentionAnswer({ stringValue: 'ninety' }));
    assert.deepEqual(wrongType.data, { submitFormPrompt: null });
    assert.deepEqual(wrongType.errors.map((e: any) => e.extensions), [{ code: 400, type: 'BAD_REQUEST' }]);
    assert.match(wrongType.errors[0].message, /ninety/);
    assert.deepEqual(await m.events(), before);
  });

  it('verifyForm verifies a complete VERIFICATION form, and an admin may too', async () => {
    assert.deepEqual(await m.mutate(VERIFY, { input: { formUrn: review, entityUrn: ORDERS } }), { data: { verifyForm: true } });
    assert.deepEqual((await formsOf(ORDERS)).verifications, [{ form: { urn: review }, lastModified: { actor: { urn: WRITER } } }]);
    await submit(OWNED, { ...retentionAnswer({ numberValue: 30 }) });
    assert.deepEqual(await m.mutate(VERIFY, { input: { formUrn: review, entityUrn: OWNED } }, m.admin), { data: { verifyForm: true } });
    assert.deepEqual((await formsOf(OWNED)).verifications, [{ form: { urn: review }, lastModified: { actor: { urn: ADMIN } } }]);
  });

  it('verifyForm refuses, writing nothing: a COMPLETION form, an incomplete form, a form not assigned, someone the form does not ask, a viewer', async () => {
    await m.put(BARE, 'ownership', { owners: [{ owner: WRITER, type: 'DATAOWNER' }] });
    await m.mutate(ASSIGN, { input: { formUrn: review, entityUrns: [BARE] } }, m.admin);
    const before = await m.events();
    const cases: [Record<string, unknown>, Record<string, string>, string, number][] = [
      [{ formUrn: survey, entityUrn: OWNED }, m.writer, `Cannot verify form ${survey} on ${OWNED}: it is a COMPLETION form, which has no verification step`, 400],
      [{ formUrn: review, entityUrn: BARE }, m.writer, `Cannot verify form ${review} on ${BARE}: its required prompts are not all answered yet`, 400],
      [{ formUrn: columns, entityUrn: ORDERS }, m.writer, `Form ${columns} is not assigned to ${ORDERS}`, 400],
      [{ formUrn: survey, entityUrn: ORDERS }, m.writer, `${WRITER} is not asked to fill in form ${survey} on ${ORDERS}: only its actors (and the asset's owners, where the form asks owners) may`, 403],
      [{ formUrn: review, entityUrn: ORDERS }, m.viewer, 'Unauthorized to perform this action. Please contact your DataHub administrator.', 403],
      [{ formUrn: review, entityUrn: datasetUrn('forms-answer.missing') }, m.writer, `Entity ${datasetUrn('forms-answer.missing')} does not exist`, 404],
    ];
    for (const [input, headers, message, code] of cases) {
      assert.deepEqual(await m.mutate(VERIFY, { input }, headers), refused(VERIFY, 'verifyForm', message, code), message);
    }
    assert.deepEqual(await m.events(), before);
  });

  it('isAssignedToMe: named in users, or in a group named; ownership does not count', async () => {
    const query = 'query q($a: String!, $b: String!) { a: form(urn: $a) { info { actors { owners isAssignedToMe } } } b: form(urn: $b) { info { actors { owners isAssignedToMe } } } }';
    assert.deepEqual(await m.mutate(query, { a: review, b: survey }), { data: { a: { info: { actors: { owners: false, isAssignedToMe: true } } }, b: { info: { actors: { owners: true, isAssignedToMe: false } } } } });
    assert.deepEqual(await m.mutate(query, { a: review, b: survey }, m.viewer), { data: { a: { info: { actors: { owners: false, isAssignedToMe: false } } }, b: { info: { actors: { owners: true, isAssignedToMe: false } } } } });
  });
});
