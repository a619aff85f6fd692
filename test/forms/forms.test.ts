import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { datasetUrn, enc, testApp, V2, type TestApp } from '../helpers.js';
import { defineProperty, setStatus } from '../structured/fixtures.js';
import { answer, createDataset, defineForm, defineProperties, formInfo, formStates, formUrn, postFormInfo, readForms, unanswer } from './fixtures.js';

const ADMIN = { actor: 'urn:li:corpuser:datahub', source: 'test', admin: true };

describe('forms: the computed forms aspect and what recomputes it', () => {
  let t: TestApp;
  let p: { owner: string; tier: string; fieldClass: string };
  before(async () => {
    t = await testApp();
    p = await defineProperties(t, 'forms');
  });
  after(() => t.app.close());

  describe('a form definition is checked', () => {
    it('refuses a prompt whose property does not exist, naming it', async () => {
      const res = await postFormInfo(t, formUrn('bad1'), formInfo('bad1', [{ id: 'bad1-a', property: 'urn:li:structuredProperty:nope' }]));
      assert.equal(res.status, 400);
      assert.equal(res.body.message, 'Prompt "bad1-a" of form urn:li:form:bad1 asks for Structured Property urn:li:structuredProperty:nope, which does not exist');
    });

    it('refuses a soft-deleted property', async () => {
      const gone = (await defineProperties(t, 'forms.gone')).owner;
      assert.equal((await setStatus(t, gone, true)).status, 200);
      const res = await postFormInfo(t, formUrn('bad2'), formInfo('bad2', [{ id: 'bad2-a', property: gone }]));
      assert.equal(res.status, 400);
      assert.equal(res.body.message, `Prompt "bad2-a" of form urn:li:form:bad2 asks for Structured Property ${gone}, which is soft deleted`);
    });

    it('refuses prompt types urnbase does not ask, and a prompt without a property', async () => {
      const owned = await postFormInfo(t, formUrn('bad3'), { name: 'x', prompts: [{ id: 'bad3-a', title: 'Owner?', type: 'OWNERSHIP', required: true }] });
      assert.equal(owned.status, 400);
      assert.equal(owned.body.message, 'Prompt "bad3-a" of form urn:li:form:bad3 is of type OWNERSHIP: urnbase asks STRUCTURED_PROPERTY and FIELDS_STRUCTURED_PROPERTY prompts only');
      const bare = await postFormInfo(t, formUrn('bad4'), { name: 'x', prompts: [{ id: 'bad4-a', title: 'Tier?', type: 'STRUCTURED_PROPERTY' }] });
      assert.equal(bare.status, 400);
      assert.equal(bare.body.message, 'Prompt "bad4-a" of form urn:li:form:bad4 is of type STRUCTURED_PROPERTY and needs structuredPropertyParams.urn');
    });

    it('refuses a field prompt whose property does not apply to schema fields', async () => {
      const res = await postFormInfo(t, formUrn('bad5'), formInfo('bad5', [{ id: 'bad5-a', property: p.tier, type: 'FIELDS_STRUCTURED_PROPERTY' }]));
      assert.equal(res.status, 400);
      assert.equal(res.body.message, `Form urn:li:form:bad5 cannot be assigned to schemaField entities: its prompt "bad5-a" asks for Structured Property ${p.tier}, which applies to dataset only`);
    });

    it('refuses prompt ids used twice, in one form or across forms', async () => {
      const twice = await postFormInfo(t, formUrn('bad6'), formInfo('bad6', [{ id: 'same', property: p.owner }, { id: 'same', property: p.tier }]));
      assert.equal(twice.status, 400);
      assert.equal(twice.body.message, 'Form urn:li:form:bad6 has two prompts with id "same": prompt ids must be unique within a form');
      await defineForm(t, 'taken', [{ id: 'taken-a', property: p.owner }]);
      const across = await postFormInfo(t, formUrn('bad7'), formInfo('bad7', [{ id: 'taken-a', property: p.owner }]));
      assert.equal(across.status, 400);
      assert.equal(across.body.message, 'Prompt id "taken-a" is already used by form urn:li:form:taken: prompt ids must be unique across forms');
      for (const id of ['bad1', 'bad2', 'bad3', 'bad4', 'bad5', 'bad6', 'bad7']) {
        assert.equal((await t.call({ method: 'GET', url: `${V2}/form/${enc(formUrn(id))}/formInfo` })).status, 404, `${id} was written`);
      }
    });
  });

  describe('assignment by list', () => {
    const a = datasetUrn('forms.assign.a');
    const b = datasetUrn('forms.assign.b');
    let form: string;
    before(async () => {
      await createDataset(t, a);
      await createDataset(t, b);
      form = await defineForm(t, 'classification', [
        { id: 'cls-steward', property: p.owner },
        { id: 'cls-tier', property: p.tier, required: false },
      ]);
    });

    it('fails the whole batch on an unknown asset and names it', async () => {
      const ghost = datasetUrn('forms.assign.ghost');
      await assert.rejects(t.services.forms.assign(form, [a, ghost], ADMIN), { name: 'ValidationError', message: `Nothing was assigned: this entity does not exist: ${ghost}` });
      assert.equal(await readForms(t, a), undefined);
    });

    it('refuses an unknown form', async () => {
      await assert.rejects(t.services.forms.assign(formUrn('nope'), [a], ADMIN), { name: 'NotFoundError', message: 'Form urn:li:form:nope does not exist' });
    });

    it('assigns: every prompt open, readable like any aspect', async () => {
      await t.services.forms.assign(form, [a, b, a], ADMIN);
      assert.deepEqual(await formStates(t, a), { [form]: 'incomplete done=[] open=[cls-steward,cls-tier]' });
      const read = await readForms(t, b);
      assert.equal(read.value.incompleteForms[0].incompletePrompts[0].lastModified.actor, 'urn:li:corpuser:datahub');
      assert.equal(read.value.completedForms.length, 0);
    });

    it('an answer completes the required prompt, and the form, in the same write', async () => {
      const res = await answer(t, a, p.owner, 'jdoe');
      assert.equal(res.status, 200);
      assert.deepEqual(await formStates(t, a), { [form]: 'complete done=[cls-steward] open=[cls-tier]' });
    });

    it('removing the answer reopens it', async () => {
      assert.equal((await unanswer(t, a, p.owner)).status, 200);
      assert.deepEqual(await formStates(t, a), { [form]: 'incomplete done=[] open=[cls-steward,cls-tier]' });
      assert.equal((await answer(t, a, p.owner, 'jdoe')).status, 200);
    });

    it('writes that change no answer leave forms alone (same version)', async () => {
      const before = (await readForms(t, a)).systemMetadata.version;
      const writes = [
        t.call({ method: 'POST', url: `${V2}/dataset/${enc(a)}/datasetProperties`, payload: { description: 'Orders', customProperties: {} } }),
        t.call({ method: 'POST', url: `${V2}/dataset/${enc(a)}/globalTags`, payload: { tags: [{ tag: 'urn:li:tag:pii' }] } }),
      ];
      for (const w of await Promise.all(writes)) assert.equal(w.status, 200);
      assert.equal((await answer(t, a, p.owner, 'jdoe')).status, 200);
      assert.equal((await readForms(t, a)).systemMetadata.version, before);
    });

    it('a client writing forms names forms; the states are computed, not taken', async () => {
      const res = await t.call({
        method: 'POST',
        url: `${V2}/dataset/${enc(b)}/forms`,
        payload: { incompleteForms: [], completedForms: [{ urn: form, completedPrompts: [{ id: 'cls-steward', lastModified: { time: 1, actor: 'urn:li:corpuser:x' } }] }] },
      });
      assert.equal(res.status, 200);
      assert.deepEqual(await formStates(t, b), { [form]: 'incomplete done=[] open=[cls-steward,cls-tier]' });
    });

    it('a client cannot name a form that does not exist', async () => {
      const res = await t.call({ method: 'POST', url: `${V2}/dataset/${enc(b)}/forms`, payload: { incompleteForms: [{ urn: formUrn('nope') }], completedForms: [] } });
      assert.equal(res.status, 400);
      assert.equal(res.body.message, 'Form urn:li:form:nope does not exist: write its formInfo first');
    });

    it('refuses a form whose property does not apply to the asset type, naming the property', async () => {
      const chart = 'urn:li:chart:(looker,forms.c1)';
      assert.equal((await t.call({ method: 'POST', url: `${V2}/chart/${enc(chart)}/status`, payload: { removed: false } })).status, 200);
      await assert.rejects(t.services.forms.assign(form, [chart], ADMIN), {
        name: 'ValidationError',
        message: `Form ${form} cannot be assigned to ${chart}: its prompt "cls-steward" asks for Structured Property ${p.owner}, which applies to dataset only`,
      });
    });

    it('a form change recomputes its assets: a new required prompt reopens a complete form', async () => {
      assert.deepEqual(await formStates(t, a), { [form]: 'complete done=[cls-steward] open=[cls-tier]' });
      const res = await postFormInfo(t, form, formInfo('classification', [{ id: 'cls-steward', property: p.owner }, { id: 'cls-tier', property: p.tier, required: true }]));
      assert.equal(res.status, 200);
      assert.deepEqual(await formStates(t, a), { [form]: 'incomplete done=[cls-steward] open=[cls-tier]' });
      assert.equal((await answer(t, a, p.tier, 'gold')).status, 200);
      assert.deepEqual(await formStates(t, a), { [form]: 'complete done=[cls-steward,cls-tier] open=[]' });
    });

    it('a form change that would not apply to its assets is refused', async () => {
      const chartOnly = await defineProperty(t, 'forms.chartonly', { entityTypes: ['urn:li:entityType:datahub.chart'] });
      const res = await postFormInfo(t, form, formInfo('classification', [{ id: 'cls-steward', property: chartOnly }]));
      assert.equal(res.status, 400);
      assert.equal(res.body.message, `Form ${form} cannot be assigned to dataset entities: its prompt "cls-steward" asks for Structured Property ${chartOnly}, which applies to chart only`);
    });

    it('soft deleting the asked property reopens the prompt; restoring it completes it again', async () => {
      assert.equal((await setStatus(t, p.tier, true)).status, 200);
      assert.deepEqual(await formStates(t, a), { [form]: 'incomplete done=[cls-steward] open=[cls-tier]' });
      assert.equal((await setStatus(t, p.tier, false)).status, 200);
      assert.deepEqual(await formStates(t, a), { [form]: 'complete done=[cls-steward,cls-tier] open=[]' });
    });

    it('unassigns', async () => {
      await t.services.forms.unassign(form, [b], ADMIN);
      assert.deepEqual(await formStates(t, b), {});
    });

    it('counts completion from the index', async () => {
      await t.services.forms.assign(form, [b], ADMIN);
      assert.deepEqual(await t.services.forms.completion(form), {
        form,
        assigned: 2,
        completed: 1,
        incomplete: 1,
        verified: 0,
        prompts: [
          { id: 'cls-steward', title: 'Answer cls-steward', required: true, completed: 1, incomplete: 1 },
          { id: 'cls-tier', title: 'Answer cls-tier', required: true, completed: 1, incomplete: 1 },
        ],
      });
    });

    it('deleting the form takes it off every asset', async () => {
      const res = await t.call({ method: 'DELETE', url: `${V2}/form/${enc(form)}` });
      assert.equal(res.status, 200);
      assert.deepEqual(await formStates(t, a), {});
      assert.deepEqual(await formStates(t, b), {});
    });
  });

  describe('verification forms', () => {
    const d = datasetUrn('forms.verify.d');
    let form: string;
    before(async () => {
      await createDataset(t, d);
      form = await defineForm(t, 'signoff', [{ id: 'signoff-steward', property: p.owner }], { type: 'VERIFICATION' });
      await t.services.forms.assign(form, [d], ADMIN);
    });

    it('refuses to verify before the required prompts are answered', async () => {
      await assert.rejects(t.services.forms.verify(d, form, ADMIN), { name: 'ValidationError', message: `Cannot verify form ${form} on ${d}: its required prompts are not all answered yet` });
    });

    it('verifies once complete, and loses the verification when an answer goes', async () => {
      assert.equal((await answer(t, d, p.owner, 'jdoe')).status, 200);
      assert.deepEqual(await formStates(t, d), { [form]: 'complete done=[signoff-steward] open=[]' });
      await t.services.forms.verify(d, form, ADMIN);
      assert.deepEqual(await formStates(t, d), { [form]: 'complete done=[signoff-steward] open=[]', [`verified ${form}`]: 'yes' });
      assert.equal((await t.services.forms.completion(form)).verified, 1);
      assert.equal((await unanswer(t, d, p.owner)).status, 200);
      assert.deepEqual(await formStates(t, d), { [form]: 'incomplete done=[] open=[signoff-steward]' });
    });

    it('a COMPLETION form has no verification step', async () => {
      const plain = await defineForm(t, 'plain', [{ id: 'plain-a', property: p.tier, required: false }]);
      await t.services.forms.assign(plain, [d], ADMIN);
      await assert.rejects(t.services.forms.verify(d, plain, ADMIN), { name: 'ValidationError', message: `Cannot verify form ${plain} on ${d}: it is a COMPLETION form, which has no verification step` });
    });
  });

  describe('verification forms on the to-do list', () => {
    const v = datasetUrn('forms.verifytodo.v');
    const w = datasetUrn('forms.verifytodo.w');
    const steward = { actor: 'urn:li:corpuser:vsteward', source: 'test' };
    let form: string;
    before(async () => {
      await createDataset(t, v, { ownership: { owners: [{ owner: steward.actor, type: 'DATAOWNER' }] } });
      await createDataset(t, w, { ownership: { owners: [{ owner: 'urn:li:corpGroup:vstewards', type: 'DATAOWNER' }] } });
      form = await defineForm(t, 'vtodo', [{ id: 'vtodo-steward', property: p.owner }, { id: 'vtodo-tier', property: p.tier, required: false }], { type: 'VERIFICATION' });
      await t.services.forms.assign(form, [v, w], ADMIN);
    });

    it('lists a form complete but not verified as awaiting verification, with its optional prompts unanswered; verifying takes it off', async () => {
      assert.deepEqual(await t.services.forms.todo(steward.actor), [{ asset: v, form, incompletePrompts: ['vtodo-steward', 'vtodo-tier'], awaitingVerification: false }]);
      await t.services.forms.submitPrompt(v, form, 'vtodo-steward', [{ string: 'jdoe' }], steward);
      assert.deepEqual(await t.services.forms.todo(steward.actor), [{ asset: v, form, incompletePrompts: ['vtodo-tier'], awaitingVerification: true }]);
      await t.services.forms.verify(v, form, steward);
      assert.deepEqual(await t.services.forms.todo(steward.actor), []);
    });

    it("lists it to the members of a group owning the asset, and to no one else", async () => {
      const member = 'urn:li:corpuser:vmember';
      assert.equal((await t.call({ method: 'POST', url: `${V2}/corpuser/${enc(member)}/groupMembership`, payload: { groups: ['urn:li:corpGroup:vstewards'] } })).status, 200);
      await t.services.forms.submitPrompt(w, form, 'vtodo-steward', [{ string: 'ann' }], ADMIN);
      assert.equal((await answer(t, w, p.tier, 'gold')).status, 200);
      assert.deepEqual(await t.services.forms.todo(member), [{ asset: w, form, incompletePrompts: [], awaitingVerification: true }]);
      assert.deepEqual(await t.services.forms.todo(steward.actor), []);
      assert.deepEqual(await t.services.forms.todo('urn:li:corpuser:vstranger'), []);
    });

    it('counts an open item and one awaiting verification against the same limit', async () => {
      const open = await defineForm(t, 'vtodo2', [{ id: 'vtodo2-a', property: p.owner }], { type: 'VERIFICATION' });
      await t.services.forms.assign(open, [w], ADMIN);
      const member = 'urn:li:corpuser:vmember';
      assert.equal((await t.services.forms.todo(member)).length, 2);
      assert.deepEqual(await t.services.forms.todo(member, 1), [{ asset: w, form, incompletePrompts: [], awaitingVerification: true }]);
    });

    it('a form whose verification was lost (an answer removed, then given again) awaits verification again', async () => {
      assert.equal((await unanswer(t, v, p.owner)).status, 200);
      assert.deepEqual(await t.services.forms.todo(steward.actor), [{ asset: v, form, incompletePrompts: ['vtodo-steward', 'vtodo-tier'], awaitingVerification: false }]);
      assert.equal((await answer(t, v, p.owner, 'jdoe')).status, 200);
      assert.deepEqual(await t.services.forms.todo(steward.actor), [{ asset: v, form, incompletePrompts: ['vtodo-tier'], awaitingVerification: true }]);
    });
  });

  describe('prompts answered through the service', () => {
    const e = datasetUrn('forms.submit.e');
    let form: string;
    before(async () => {
      await createDataset(t, e, { ownership: { owners: [{ owner: 'urn:li:corpuser:steward', type: 'DATAOWNER' }] } });
      form = await defineForm(t, 'submit', [{ id: 'submit-tier', property: p.tier }]);
      await t.services.forms.assign(form, [e], ADMIN);
    });

    it('refuses someone the form does not ask', async () => {
      await assert.rejects(t.services.forms.submitPrompt(e, form, 'submit-tier', [{ string: 'gold' }], { actor: 'urn:li:corpuser:stranger', source: 'test' }), {
        name: 'ForbiddenError',
        message: `urn:li:corpuser:stranger is not asked to fill in form ${form} on ${e}: only its actors (and the asset's owners, where the form asks owners) may`,
      });
    });

    it("lets the asset's owner answer, which completes the form", async () => {
      await t.services.forms.submitPrompt(e, form, 'submit-tier', [{ string: 'gold' }], { actor: 'urn:li:corpuser:steward', source: 'test' });
      assert.deepEqual(await formStates(t, e), { [form]: 'complete done=[submit-tier] open=[]' });
      const read = await readForms(t, e);
      assert.equal(read.value.completedForms[0].completedPrompts[0].lastModified.actor, 'urn:li:corpuser:steward');
    });

    it('refuses an unknown prompt and a form not assigned', async () => {
      await assert.rejects(t.services.forms.submitPrompt(e, form, 'nope', [{ string: 'x' }], ADMIN), { name: 'NotFoundError', message: `Form ${form} has no prompt with id "nope"` });
      const other = await defineForm(t, 'other', [{ id: 'other-a', property: p.tier }]);
      await assert.rejects(t.services.forms.submitPrompt(e, other, 'other-a', [{ string: 'x' }], ADMIN), { name: 'ValidationError', message: `Form ${other} is not assigned to ${e}` });
    });

    it("lists a steward's open forms", async () => {
      const more = await defineForm(t, 'todo', [{ id: 'todo-steward', property: p.owner }]);
      await t.services.forms.assign(more, [e], ADMIN);
      assert.deepEqual(await t.services.forms.todo('urn:li:corpuser:steward'), [{ asset: e, form: more, incompletePrompts: ['todo-steward'], awaitingVerification: false }]);
      assert.deepEqual(await t.services.forms.todo('urn:li:corpuser:stranger'), []);
    });
  });

  describe('field prompts', () => {
    const s = datasetUrn('forms.fields.s');
    let form: string;
    const schema = (paths: string[]) => ({
      schemaName: 's',
      platform: 'urn:li:dataPlatform:hive',
      version: 0,
      hash: '',
      platformSchema: { 'com.linkedin.schema.OtherSchema': { rawSchema: '' } },
      fields: paths.map((fieldPath) => ({ fieldPath, nativeDataType: 'string', type: { type: { 'com.linkedin.schema.StringType': {} } } })),
    });
    before(async () => {
      await createDataset(t, s, { schemaMetadata: schema(['id', 'email']) });
      form = await defineForm(t, 'columns', [{ id: 'columns-class', property: p.fieldClass, type: 'FIELDS_STRUCTURED_PROPERTY' }]);
      await t.services.forms.assign(form, [s], ADMIN);
    });

    it('is complete when every field is answered; a new field reopens it', async () => {
      assert.deepEqual(await formStates(t, s), { [form]: 'incomplete done=[] open=[columns-class]' });
      await t.services.forms.submitPrompt(s, form, 'columns-class', [{ string: 'public' }], ADMIN, 'id');
      const half = (await readForms(t, s)).value.incompleteForms[0].incompletePrompts[0].fieldAssociations;
      assert.deepEqual(half.completedFieldPrompts.map((f: { fieldPath: string }) => f.fieldPath), ['id']);
      assert.deepEqual(half.incompleteFieldPrompts.map((f: { fieldPath: string }) => f.fieldPath), ['email']);
      const field = `urn:li:schemaField:(${s},email)`;
      assert.equal((await answer(t, field, p.fieldClass, 'pii', 'schemaField')).status, 200);
      assert.deepEqual(await formStates(t, s), { [form]: 'complete done=[columns-class] open=[]' });
      assert.equal((await t.call({ method: 'POST', url: `${V2}/dataset/${enc(s)}/schemaMetadata`, payload: schema(['id', 'email', 'phone']) })).status, 200);
      assert.deepEqual(await formStates(t, s), { [form]: 'incomplete done=[] open=[columns-class]' });
    });

    it('a field prompt answers fields of the schema only', async () => {
      await assert.rejects(t.services.forms.submitPrompt(s, form, 'columns-class', [{ string: 'x' }], ADMIN, 'nope'), {
        name: 'ValidationError',
        message: `"nope" is not a field of ${s}'s schema (its fields: id, email, phone)`,
      });
      assert.equal((await t.call({ method: 'GET', url: `${V2}/schemaField/${enc(`urn:li:schemaField:(${s},nope)`)}/structuredProperties` })).status, 404);
    });

    it('a field prompt needs a fieldPath', async () => {
      await assert.rejects(t.services.forms.submitPrompt(s, form, 'columns-class', [{ string: 'x' }], ADMIN), {
        name: 'ValidationError',
        message: `Prompt "columns-class" of form ${form} asks about schema fields: say which with fieldPath`,
      });
    });
  });

  describe('what only some may do, on every API', () => {
    const g = datasetUrn('forms.rules.g');
    const EDITOR = { actor: 'urn:li:corpuser:owner', source: 'test', admin: false };
    const STRANGER = { actor: 'urn:li:corpuser:stranger', source: 'test', admin: false };
    let form: string;
    before(async () => {
      await createDataset(t, g, { ownership: { owners: [{ owner: 'urn:li:corpuser:owner', type: 'DATAOWNER' }] } });
      form = await defineForm(t, 'rules', [{ id: 'rules-tier', property: p.tier }], { type: 'VERIFICATION' });
    });

    it('only an admin says which forms an asset has, whatever the API', async () => {
      const write = (context: typeof EDITOR, value: unknown) => t.services.ingest.ingest([{ urn: g, aspect: 'forms', changeType: 'UPSERT', value }], context);
      await assert.rejects(write(EDITOR, { incompleteForms: [{ urn: form }], completedForms: [] }), { name: 'ForbiddenError', message: `Only an admin may assign or remove forms (${form} on ${g})` });
      assert.equal(await readForms(t, g), undefined);
      await t.services.forms.assign(form, [g], ADMIN);
      await assert.rejects(write(EDITOR, { incompleteForms: [], completedForms: [] }), { name: 'ForbiddenError', message: `Only an admin may assign or remove forms (${form} on ${g})` });
      assert.deepEqual(await formStates(t, g), { [form]: 'incomplete done=[] open=[rules-tier]' });
    });

    it('a verification written directly is checked as verifyForm is, and stamped by the server', async () => {
      assert.equal((await answer(t, g, p.tier, 'gold')).status, 200);
      const forged = { incompleteForms: [], completedForms: [{ urn: form }], verifications: [{ form, lastModified: { time: 1, actor: 'urn:li:corpuser:admin' } }] };
      await assert.rejects(t.services.ingest.ingest([{ urn: g, aspect: 'forms', changeType: 'UPSERT', value: forged }], STRANGER), {
        name: 'ForbiddenError',
        message: `urn:li:corpuser:stranger is not asked to fill in form ${form} on ${g}: only its actors (and the asset's owners, where the form asks owners) may verify it`,
      });
      await t.services.ingest.ingest([{ urn: g, aspect: 'forms', changeType: 'UPSERT', value: forged }], EDITOR);
      const [verification] = (await readForms(t, g)).value.verifications;
      assert.equal(verification.lastModified.actor, 'urn:li:corpuser:owner');
      assert.ok(verification.lastModified.time > 1);
    });

    it('an empty text answers nothing', async () => {
      assert.equal((await answer(t, g, p.tier, '  ')).status, 200);
      assert.deepEqual(await formStates(t, g), { [form]: 'incomplete done=[] open=[rules-tier]' });
    });

    it('a property a form asks for is not hard deleted', async () => {
      const asked = (await defineProperties(t, 'forms.asked')).owner;
      await defineForm(t, 'asks', [{ id: 'asks-a', property: asked }]);
      assert.equal((await setStatus(t, asked, true)).status, 200);
      const res = await t.call({ method: 'DELETE', url: `${V2}/structuredProperty/${enc(asked)}` });
      assert.equal(res.status, 409);
      assert.equal(res.body.message, `Cannot hard delete Structured Property ${asked}: form urn:li:form:asks asks for it; remove those prompts first`);
    });

    it('a form needs a name, and its prompts ids and titles', async () => {
      const cases: [unknown, string][] = [
        [{ name: ' ', prompts: [] }, 'Form urn:li:form:unnamed needs a name'],
        [{ name: 'x', prompts: [{ id: '', title: 'T', type: 'STRUCTURED_PROPERTY', structuredPropertyParams: { urn: p.tier } }] }, 'A prompt of form urn:li:form:unnamed has an empty id'],
        [{ name: 'x', prompts: [{ id: 'unnamed-a', title: '', type: 'STRUCTURED_PROPERTY', structuredPropertyParams: { urn: p.tier } }] }, 'Prompt "unnamed-a" of form urn:li:form:unnamed needs a title'],
      ];
      for (const [info, message] of cases) {
        const res = await postFormInfo(t, formUrn('unnamed'), info);
        assert.equal(res.status, 400, message);
        assert.equal(res.body.message, message);
      }
    });

    it('a write whose follower fails still stands, and the failure is reported to the server', async () => {
      const failures: unknown[] = [];
      t.services.ingest.onFollowerError((error) => failures.push(error));
      t.services.ingest.followCommits(async () => {
        throw new Error('follower down');
      });
      const h = datasetUrn('forms.rules.h');
      await createDataset(t, h);
      assert.equal((await t.call({ method: 'GET', url: `${V2}/dataset/${enc(h)}/status` })).status, 200);
      assert.deepEqual(failures.map((f) => (f as Error).message), ['follower down']);
    });
  });

  describe('assignment by filter', () => {
    const hive1 = datasetUrn('forms.dyn.one', 'trino');
    const hive2 = datasetUrn('forms.dyn.two', 'trino');
    const pg = datasetUrn('forms.dyn.three', 'mysql');
    const filter = { or: [{ and: [{ field: '_entityType', values: ['DATASET'] }, { field: 'platform', values: ['urn:li:dataPlatform:trino'] }] }] };
    let form: string;
    before(async () => {
      for (const u of [hive1, hive2, pg]) await createDataset(t, u);
      form = await defineForm(t, 'hive', [{ id: 'hive-steward', property: p.owner }]);
    });

    it('assigns the assets matching now', async () => {
      assert.deepEqual(await t.services.forms.assignByFilter(form, filter, ADMIN), { added: 2, removed: 0 });
      assert.deepEqual(await formStates(t, hive1), { [form]: 'incomplete done=[] open=[hive-steward]' });
      assert.deepEqual(await formStates(t, hive2), { [form]: 'incomplete done=[] open=[hive-steward]' });
      assert.equal(await readForms(t, pg), undefined);
    });

    it('assigns an asset that matches later, in the answer to its write', async () => {
      const later = datasetUrn('forms.dyn.later', 'trino');
      await createDataset(t, later);
      assert.deepEqual(await formStates(t, later), { [form]: 'incomplete done=[] open=[hive-steward]' });
    });

    it('refuses explicit changes against the filter', async () => {
      await assert.rejects(t.services.forms.assign(form, [pg], ADMIN), { name: 'ValidationError', message: `Form ${form} is assigned by a filter, and ${pg} does not match it: change the filter instead` });
      await assert.rejects(t.services.forms.unassign(form, [hive1], ADMIN), { name: 'ValidationError', message: `Form ${form} is assigned by a filter, and ${hive1} matches it: change the filter instead` });
    });

    it('an asset that stops matching loses the form', async () => {
      await t.services.forms.assignByFilter(form, { or: [{ and: [{ field: '_entityType', values: ['dataset'] }, { field: 'platform', values: ['urn:li:dataPlatform:trino'] }, { field: 'tags', values: ['urn:li:tag:pii'], negated: true }] }] }, ADMIN);
      assert.equal((await t.call({ method: 'POST', url: `${V2}/dataset/${enc(hive2)}/globalTags`, payload: { tags: [{ tag: 'urn:li:tag:pii' }] } })).status, 200);
      assert.deepEqual(await formStates(t, hive2), {});
      assert.deepEqual(await formStates(t, hive1), { [form]: 'incomplete done=[] open=[hive-steward]' });
    });

    it('a filter change re-assigns: assets no longer matching lose the form', async () => {
      assert.deepEqual(await t.services.forms.assignByFilter(form, { or: [{ and: [{ field: 'platform', values: ['urn:li:dataPlatform:mysql'] }, { field: '_entityType', values: ['dataset'] }] }] }, ADMIN), { added: 1, removed: 2 });
      assert.deepEqual(await formStates(t, hive1), {});
      assert.deepEqual(await formStates(t, pg), { [form]: 'incomplete done=[] open=[hive-steward]' });
    });

    it('a filter written as an aspect (v2) is applied too; deleting it leaves the form where it is', async () => {
      const other = datasetUrn('forms.dyn.four', 'trino');
      await createDataset(t, other);
      // Naming an entity type the form's property does not apply to is refused.
      let res = await t.call({ method: 'POST', url: `${V2}/form/${enc(form)}/dynamicFormAssignment`, payload: { filter: { or: [{ and: [{ field: '_entityType', values: ['chart'] }, { field: 'urn', values: [other] }] }] } } });
      assert.equal(res.status, 400);
      assert.equal(res.body.message, `Form ${form} cannot be assigned to chart entities: its prompt "hive-steward" asks for Structured Property ${p.owner}, which applies to dataset only`);
      // Naming none, the filter matches the entity types the form's property applies to: datasets (as the CLI's filters without types mean).
      res = await t.call({ method: 'POST', url: `${V2}/form/${enc(form)}/dynamicFormAssignment`, payload: { filter: { or: [{ and: [{ field: 'urn', values: [other] }] }] } } });
      assert.equal(res.status, 200);
      assert.deepEqual(await formStates(t, other), { [form]: 'incomplete done=[] open=[hive-steward]' });
      res = await t.call({ method: 'POST', url: `${V2}/form/${enc(form)}/dynamicFormAssignment`, payload: { filter: { or: [{ and: [{ field: '_entityType', values: ['dataset'] }, { field: 'urn', values: [other] }] }] } } });
      assert.equal(res.status, 200);
      assert.deepEqual(await formStates(t, other), { [form]: 'incomplete done=[] open=[hive-steward]' });
      assert.deepEqual(await formStates(t, pg), {});
      assert.equal((await t.call({ method: 'DELETE', url: `${V2}/form/${enc(form)}/dynamicFormAssignment` })).status, 200);
      assert.deepEqual(await formStates(t, other), { [form]: 'incomplete done=[] open=[hive-steward]' });
      await t.services.forms.unassign(form, [other], ADMIN);
      assert.deepEqual(await formStates(t, other), {});
    });

    it('refuses a filter on a field that does not exist, or on types without forms', async () => {
      await assert.rejects(t.services.forms.assignByFilter(form, { or: [{ and: [{ field: 'nope', values: ['x'] }] }] }, ADMIN), (e: Error) => e.name === 'ValidationError' && e.message.includes('Unknown search field nope'));
      await assert.rejects(t.services.forms.assignByFilter(form, { or: [{ and: [{ field: '_entityType', values: ['dataPlatform'] }] }] }, ADMIN), (e: Error) => e.name === 'ValidationError' && e.message.startsWith('A form cannot be assigned to dataPlatform entities: they carry no forms'));
      assert.equal((await t.call({ method: 'GET', url: `${V2}/form/${enc(form)}/dynamicFormAssignment` })).status, 404, 'a refused filter was written');
    });
  });
});
