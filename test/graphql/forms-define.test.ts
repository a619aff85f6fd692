import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { datasetUrn, enc, V2 } from '../helpers.js';
import { WRITER } from './mutation-app.js';
import { CHART_TYPE, DATASET_TYPE, formsApp, refused, type FormsApp } from './forms-app.js';

/**
 * createForm, updateForm and deleteForm (both stores): a form's formInfo written through the one
 * write path by admins only, DataHub's defaults and messages, the assets holding it following
 * each change; and the form's read fields (actors, isAssignedToMe).
 */

const ORDERS = datasetUrn('forms-define.orders');
const TEAM = 'urn:li:corpGroup:stewards';
const JANE = 'urn:li:corpuser:jane';

const FORM_FIELDS = `urn type info { name description type prompts { id formUrn title description type required structuredPropertyParams { structuredProperty { urn } } }
  actors { owners users { urn } groups { urn } isAssignedToMe } }`.replace(/\s+/g, ' ');
const CREATE = `mutation createForm($input: CreateFormInput!) { createForm(input: $input) { ${FORM_FIELDS} } }`;
const UPDATE = `mutation updateForm($input: UpdateFormInput!) { updateForm(input: $input) { ${FORM_FIELDS} } }`;
const DELETE = 'mutation deleteForm($input: DeleteFormInput!) { deleteForm(input: $input) }';
const ASSIGN = 'mutation batchAssignForm($input: BatchAssignFormInput!) { batchAssignForm(input: $input) }';
const FORMS_OF = 'query q($urn: String!) { dataset(urn: $urn) { forms { incompleteForms { urn incompletePrompts { id } completedPrompts { id } } completedForms { urn completedPrompts { id } } } } }';

describe('GraphQL createForm, updateForm, deleteForm', () => {
  let m: FormsApp;
  let retention: string;
  let team: string;
  const prompt = (id: string, property: string, required = false) => ({ id, title: `${id}?`, type: 'STRUCTURED_PROPERTY', structuredPropertyParams: { urn: property }, required });

  before(async () => {
    m = await formsApp();
    retention = await m.property('io.define.retention', { entityTypes: [DATASET_TYPE, CHART_TYPE] });
    team = await m.property('io.define.team');
    await m.put(ORDERS, 'datasetProperties', { name: 'orders' });
    await m.put(WRITER, 'groupMembership', { groups: [TEAM] });
  });
  after(() => m.t.app.close());

  it('createForm writes the formInfo asked for and answers the form, the caller\'s place among its actors resolved', async () => {
    const input = {
      id: 'define-quarterly',
      name: 'Quarterly',
      description: 'Each quarter',
      type: 'VERIFICATION',
      prompts: [{ ...prompt('define-q1', retention, true), description: 'How long?' }],
      actors: { owners: false, users: [JANE], groups: [TEAM] },
    };
    const body = await m.mutate(CREATE, { input }, m.admin);
    const urn = 'urn:li:form:define-quarterly';
    assert.deepEqual(body, {
      data: {
        createForm: {
          urn,
          type: 'FORM',
          info: {
            name: 'Quarterly',
            description: 'Each quarter',
            type: 'VERIFICATION',
            prompts: [{ id: 'define-q1', formUrn: urn, title: 'define-q1?', description: 'How long?', type: 'STRUCTURED_PROPERTY', required: true, structuredPropertyParams: { structuredProperty: { urn: retention } } }],
            // The admin is neither named nor in the group.
            actors: { owners: false, users: [{ urn: JANE }], groups: [{ urn: TEAM }], isAssignedToMe: false },
          },
        },
      },
    });
    assert.deepEqual(await m.aspectOf(urn, 'formInfo'), {
      name: 'Quarterly',
      description: 'Each quarter',
      type: 'VERIFICATION',
      prompts: [{ id: 'define-q1', title: 'define-q1?', description: 'How long?', type: 'STRUCTURED_PROPERTY', structuredPropertyParams: { urn: retention }, required: true }],
      actors: { owners: false, users: [JANE], groups: [TEAM] },
    });
    // The writer is in the group: the form is assigned to them.
    const read = await m.mutate(`query q($urn: String!) { form(urn: $urn) { info { actors { isAssignedToMe } } } }`, { urn });
    assert.deepEqual(read, { data: { form: { info: { actors: { isAssignedToMe: true } } } } });
  });

  it('createForm without ids makes them random UUIDs, and leaves type, required and actors to the model\'s defaults', async () => {
    const body = await m.mutate(CREATE, { input: { name: 'Bare', prompts: [{ title: 'Team?', type: 'STRUCTURED_PROPERTY', structuredPropertyParams: { urn: team } }] } }, m.admin);
    const form = body.data.createForm;
    assert.match(form.urn, /^urn:li:form:[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    const id = form.info.prompts[0].id;
    assert.match(id, /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    assert.deepEqual(form.info, {
      name: 'Bare',
      description: null,
      type: 'COMPLETION',
      prompts: [{ id, formUrn: form.urn, title: 'Team?', description: null, type: 'STRUCTURED_PROPERTY', required: false, structuredPropertyParams: { structuredProperty: { urn: team } } }],
      // DataHub's default: the owners of each asset; isAssignedToMe does not count ownership.
      actors: { owners: true, users: [], groups: [], isAssignedToMe: false },
    });
    assert.deepEqual(await m.aspectOf(form.urn, 'formInfo'), { name: 'Bare', prompts: [{ id, title: 'Team?', type: 'STRUCTURED_PROPERTY', structuredPropertyParams: { urn: team } }] });
  });

  it('createForm refuses, writing nothing: anyone but an admin, a property prompt without its property, a property that does not exist, an id taken, a prompt id another form uses, a prompt type urnbase does not ask', async () => {
    const before = await m.events();
    const input = (overrides: Record<string, unknown>) => ({ input: { id: 'define-refused', name: 'Refused', prompts: [prompt('define-r1', retention)], ...overrides } });
    const cases: [Record<string, unknown>, Record<string, string>, string, number][] = [
      [input({}), m.writer, 'Unable to create form. Please contact your admin.', 403],
      [input({}), m.viewer, 'Unable to create form. Please contact your admin.', 403],
      [input({ prompts: [{ id: 'define-r1', title: 'x', type: 'FIELDS_STRUCTURED_PROPERTY' }] }), m.admin, 'Provided prompt with type STRUCTURED_PROPERTY or FIELDS_STRUCTURED_PROPERTY and no structured property params', 400],
      [
        input({ prompts: [prompt('define-r1', 'urn:li:structuredProperty:io.define.nope')] }),
        m.admin,
        'Prompt "define-r1" of form urn:li:form:define-refused asks for Structured Property urn:li:structuredProperty:io.define.nope, which does not exist',
        400,
      ],
      [input({ id: 'define-quarterly' }), m.admin, 'A form already exists with urn urn:li:form:define-quarterly: change it with updateForm', 400],
      [input({ prompts: [prompt('define-q1', retention)] }), m.admin, 'Prompt id "define-q1" is already used by form urn:li:form:define-quarterly: prompt ids must be unique across forms', 400],
      [
        input({ prompts: [{ id: 'define-r1', title: 'Who?', type: 'OWNERSHIP', ownershipParams: { cardinality: 'SINGLE' } }] }),
        m.admin,
        'Prompt "define-r1" of form urn:li:form:define-refused is of type OWNERSHIP: urnbase asks STRUCTURED_PROPERTY and FIELDS_STRUCTURED_PROPERTY prompts only',
        400,
      ],
      [input({ id: 'a,b)' }), m.admin, 'Invalid urn!: urn:li:form:a,b)', 400],
    ];
    for (const [variables, headers, message, code] of cases) {
      assert.deepEqual(await m.mutate(CREATE, variables, headers), refused(CREATE, 'createForm', message, code, false), message);
    }
    assert.deepEqual(await m.events(), before);
  });

  it('updateForm changes what it is given: name, type, prompts added (one replacing its namesake) and removed, actors added and removed', async () => {
    const urn = (await m.mutate(CREATE, { input: { id: 'define-update', name: 'Before', prompts: [prompt('define-u1', retention), prompt('define-u2', team)], actors: { users: [JANE] } } }, m.admin)).data.createForm.urn;
    const body = await m.mutate(
      UPDATE,
      {
        input: {
          urn,
          name: 'After',
          description: 'Now described',
          type: 'VERIFICATION',
          promptsToAdd: [{ ...prompt('define-u1', retention, true), title: 'Retention, again?' }, prompt('define-u3', team)],
          promptsToRemove: ['define-u2', 'define-never'],
          actors: { owners: false, usersToAdd: [WRITER, JANE], usersToRemove: [JANE], groupsToAdd: [TEAM] },
        },
      },
      m.admin,
    );
    assert.equal(body.errors, undefined, JSON.stringify(body.errors));
    assert.deepEqual(await m.aspectOf(urn, 'formInfo'), {
      name: 'After',
      description: 'Now described',
      type: 'VERIFICATION',
      prompts: [
        { id: 'define-u1', title: 'Retention, again?', type: 'STRUCTURED_PROPERTY', structuredPropertyParams: { urn: retention }, required: true },
        { id: 'define-u3', title: 'define-u3?', type: 'STRUCTURED_PROPERTY', structuredPropertyParams: { urn: team }, required: false },
      ],
      actors: { owners: false, users: [WRITER], groups: [TEAM] },
    });
    assert.deepEqual(body.data.updateForm.info.actors, { owners: false, users: [{ urn: WRITER }], groups: [{ urn: TEAM }], isAssignedToMe: false });
  });

  it('updateForm\'s prompts, users and groups replace the lists; the assets holding the form follow in the same write', async () => {
    const urn = (await m.mutate(CREATE, { input: { id: 'define-replace', name: 'Replace', prompts: [prompt('define-p1', retention)], actors: { users: [JANE], groups: [TEAM] } } }, m.admin)).data.createForm.urn;
    assert.deepEqual(await m.mutate(ASSIGN, { input: { formUrn: urn, entityUrns: [ORDERS] } }, m.admin), { data: { batchAssignForm: true } });
    // No required prompt: complete as soon as assigned.
    assert.deepEqual((await m.mutate(FORMS_OF, { urn: ORDERS })).data.dataset.forms.completedForms, [{ urn, completedPrompts: [] }]);
    const body = await m.mutate(UPDATE, { input: { urn, prompts: [prompt('define-p2', team, true)], actors: { users: [WRITER], groups: [] } } }, m.admin);
    assert.deepEqual(body.data.updateForm.info.prompts.map((p: any) => p.id), ['define-p2']);
    assert.deepEqual(body.data.updateForm.info.actors, { owners: true, users: [{ urn: WRITER }], groups: [], isAssignedToMe: false });
    const forms = (await m.mutate(FORMS_OF, { urn: ORDERS })).data.dataset.forms;
    assert.deepEqual(forms.incompleteForms, [{ urn, incompletePrompts: [{ id: 'define-p2' }], completedPrompts: [] }]);
    assert.deepEqual(forms.completedForms.filter((f: any) => f.urn === urn), []);
  });

  it('updateForm with nothing to change writes nothing and answers the form', async () => {
    const before = await m.events();
    const body = await m.mutate(UPDATE, { input: { urn: 'urn:li:form:define-quarterly', name: 'Quarterly' } }, m.admin);
    assert.equal(body.data.updateForm.info.name, 'Quarterly');
    assert.deepEqual(await m.events(), before);
  });

  it('updateForm refuses, writing nothing: anyone but an admin, a form that does not exist, a URN of another type, a change the forms rules refuse', async () => {
    const before = await m.events();
    const cases: [Record<string, unknown>, Record<string, string>, string][] = [
      [{ urn: 'urn:li:form:define-quarterly', name: 'x' }, m.writer, 'Unable to update form. Please contact your admin.'],
      [{ urn: 'urn:li:form:define-nope', name: 'x' }, m.admin, 'Form with urn urn:li:form:define-nope does not exist'],
      [{ urn: ORDERS, name: 'x' }, m.admin, `urn: ${ORDERS} is not a form urn`],
      [{ urn: 'urn:li:form:define-quarterly', promptsToAdd: [{ title: 'x', type: 'STRUCTURED_PROPERTY' }] }, m.admin, 'Provided prompt with type STRUCTURED_PROPERTY or FIELDS_STRUCTURED_PROPERTY and no structured property params'],
      [{ urn: 'urn:li:form:define-quarterly', promptsToAdd: [prompt('define-u3', team)] }, m.admin, 'Prompt id "define-u3" is already used by form urn:li:form:define-update: prompt ids must be unique across forms'],
    ];
    for (const [input, headers, message] of cases) {
      assert.deepEqual(await m.mutate(UPDATE, { input }, headers), refused(UPDATE, 'updateForm', message, headers === m.writer ? 403 : 400, false), message);
    }
    assert.deepEqual(await m.events(), before);
  });

  it('deleteForm deletes the form, and every asset holding it drops it in the same write; a form not there answers true', async () => {
    const urn = (await m.mutate(CREATE, { input: { id: 'define-delete', name: 'Doomed', prompts: [prompt('define-d1', retention, true)] } }, m.admin)).data.createForm.urn;
    await m.mutate(ASSIGN, { input: { formUrn: urn, entityUrns: [ORDERS] } }, m.admin);
    assert.ok((await m.mutate(FORMS_OF, { urn: ORDERS })).data.dataset.forms.incompleteForms.some((f: any) => f.urn === urn));
    assert.deepEqual(await m.mutate(DELETE, { input: { urn } }, m.admin), { data: { deleteForm: true } });
    const forms = (await m.mutate(FORMS_OF, { urn: ORDERS })).data.dataset.forms;
    assert.deepEqual([...forms.incompleteForms, ...forms.completedForms].filter((f: any) => f.urn === urn), []);
    assert.deepEqual(await m.mutate('query q($urn: String!) { form(urn: $urn) { urn } }', { urn }), { data: { form: null } });
    assert.equal(await m.aspectOf(urn, 'formInfo'), undefined);
    // Its prompt ids are free again.
    assert.equal((await m.mutate(CREATE, { input: { id: 'define-reborn', name: 'Reborn', prompts: [prompt('define-d1', retention)] } }, m.admin)).data.createForm.urn, 'urn:li:form:define-reborn');
    assert.deepEqual(await m.mutate(DELETE, { input: { urn } }, m.admin), { data: { deleteForm: true } });
  });

  it('deleteForm refuses anyone but an admin and a URN of another type, writing nothing', async () => {
    const before = await m.events();
    assert.deepEqual(await m.mutate(DELETE, { input: { urn: 'urn:li:form:define-quarterly' } }, m.writer), refused(DELETE, 'deleteForm', 'Unable to delete form. Please contact your admin.', 403, false));
    assert.deepEqual(await m.mutate(DELETE, { input: { urn: ORDERS } }, m.admin), refused(DELETE, 'deleteForm', `urn: ${ORDERS} is not a form urn`, 400, false));
    assert.deepEqual(await m.events(), before);
    assert.equal((await m.aspectOf('urn:li:form:define-quarterly', 'formInfo')).name, 'Quarterly');
  });

  it('over REST too, only an admin defines a form, assigns it by a filter or deletes it: the write path\'s rule', async () => {
    const form = 'urn:li:form:define-quarterly';
    const before = await m.events();
    const rest = (method: 'POST' | 'DELETE', path: string, payload?: object) => m.t.call({ method, url: `${V2}/form/${enc(form)}${path}`, headers: m.writer, ...(payload ? { payload } : {}) });
    const answers = [
      await rest('POST', '/formInfo', { name: 'Hijacked' }),
      await rest('POST', '/dynamicFormAssignment', { filter: { or: [{ and: [{ field: 'platform', values: ['urn:li:dataPlatform:hive'] }] }] } }),
      await rest('DELETE', ''),
    ];
    assert.deepEqual(
      answers.map((a) => [a.status, a.body.message]),
      [
        [403, `Only an admin may create, change or delete form ${form}`],
        [403, `Only an admin may assign form ${form} by a filter`],
        [403, `Only an admin may delete form ${form}`],
      ],
    );
    assert.deepEqual(await m.events(), before);
  });
});
