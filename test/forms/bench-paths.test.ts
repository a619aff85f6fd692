import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { NotFoundError } from '../../src/errors.js';
import { enc, testApp, V2, type TestApp } from '../helpers.js';
import { write } from '../search/fixtures.js';
import { defineProperty } from '../structured/fixtures.js';

/**
 * What bench/forms.ts drives at scale, on both stores: assignment by filter through the write path
 * in chunks, the forms rules reading answers loaded with the request, completion counts from
 * single indexed values, and follow()'s cached list of dynamic forms, dropped when a form changes
 * here or on another replica.
 */

const ADMIN = { actor: 'urn:li:corpuser:datahub', source: 'test', admin: true };
const byType = (value: string) => ({ field: '_entityType', value, condition: 'EQUAL' });
const byPlatform = (name: string) => ({ field: 'platform', value: `urn:li:dataPlatform:${name}`, condition: 'EQUAL' });
const hive = (name: string) => `urn:li:dataset:(urn:li:dataPlatform:hive,${name},PROD)`;
const kafka = (name: string) => `urn:li:dataset:(urn:li:dataPlatform:kafka,${name},PROD)`;

interface FormsValue {
  incompleteForms: { urn: string; incompletePrompts?: { id: string }[]; completedPrompts?: { id: string }[] }[];
  completedForms: { urn: string; incompletePrompts?: { id: string }[]; completedPrompts?: { id: string }[] }[];
  verifications?: { form: string }[];
}

async function formsOf(t: TestApp, urn: string): Promise<FormsValue | undefined> {
  const found = await t.services.reader.getEntity(urn, ['forms']);
  return found?.aspects.get('forms')?.value as FormsValue | undefined;
}

const ids = (list: { id: string }[] | undefined) => (list ?? []).map((p) => p.id);

async function datasets(t: TestApp, urns: readonly string[]): Promise<void> {
  const res = await t.call({ method: 'POST', url: `${V2}/dataset?async=false`, payload: urns.map((urn) => ({ urn, aspects: { datasetProperties: { value: { name: urn } } } })) });
  assert.equal(res.status, 200, JSON.stringify(res.body));
}

async function answer(t: TestApp, urn: string, properties: { propertyUrn: string; values: unknown[] }[]): Promise<void> {
  await write(t, 'dataset', urn, 'structuredProperties', { properties });
}

describe('forms at scale: the paths the benchmark times', () => {
  let t: TestApp;
  let retention: string;
  let tier: string;
  const REVIEW = 'urn:li:form:paths-review';
  const CHECK = 'urn:li:form:paths-check';
  const tables = Array.from({ length: 12 }, (_, i) => hive(`paths.t${String(i).padStart(2, '0')}`));
  const topics = Array.from({ length: 3 }, (_, i) => kafka(`paths.k${i}`));

  before(async () => {
    t = await testApp();
    retention = await defineProperty(t, 'io.paths.retention', { valueType: 'urn:li:dataType:datahub.number' });
    tier = await defineProperty(t, 'io.paths.tier', { valueType: 'urn:li:dataType:datahub.string' });
    await write(t, 'form', REVIEW, 'formInfo', {
      name: 'Review',
      type: 'VERIFICATION',
      prompts: [
        { id: 'paths-retention', title: 'Retention', type: 'STRUCTURED_PROPERTY', structuredPropertyParams: { urn: retention }, required: true },
        { id: 'paths-tier', title: 'Tier', type: 'STRUCTURED_PROPERTY', structuredPropertyParams: { urn: tier }, required: false },
      ],
    });
    await write(t, 'form', CHECK, 'formInfo', {
      name: 'Check',
      prompts: [{ id: 'paths-check-tier', title: 'Tier', type: 'STRUCTURED_PROPERTY', structuredPropertyParams: { urn: tier }, required: true }],
    });
    await datasets(t, [...tables, ...topics]);
    // Answers written before the assignment: the forms rules must find them as they compute.
    for (const urn of tables.slice(0, 4)) await answer(t, urn, [{ propertyUrn: retention, values: [{ double: 30 }] }]);
    await answer(t, tables[4], [{ propertyUrn: tier, values: [{ string: 'gold' }] }]);
  });
  after(() => t.app.close());

  it('assigns by filter every matching asset, with the states its stored answers give, and nothing else', async () => {
    const result = await t.services.forms.assignByFilter(REVIEW, { or: [{ and: [byType('DATASET'), byPlatform('hive')] }] }, ADMIN);
    assert.deepEqual(result, { added: 12, removed: 0 });
    for (const [i, urn] of tables.entries()) {
      const forms = await formsOf(t, urn);
      if (i < 4) {
        assert.deepEqual(forms?.completedForms.map((f) => f.urn), [REVIEW], urn);
        assert.deepEqual(ids(forms?.completedForms[0].completedPrompts), ['paths-retention']);
        assert.deepEqual(ids(forms?.completedForms[0].incompletePrompts), ['paths-tier']);
      } else {
        assert.deepEqual(forms?.incompleteForms.map((f) => f.urn), [REVIEW], urn);
        assert.deepEqual(ids(forms?.incompleteForms[0].completedPrompts), i === 4 ? ['paths-tier'] : []);
      }
    }
    for (const urn of topics) assert.equal(await formsOf(t, urn), undefined, urn);
    assert.deepEqual(await t.services.forms.reconcileForm(REVIEW, ADMIN), { added: 0, removed: 0 });
  });

  it('one request writing an answer and a form on the same asset computes the form from that answer', async () => {
    const urn = topics[0];
    const res = await t.call({
      method: 'POST',
      url: `${V2}/dataset?async=false`,
      payload: [
        {
          urn,
          aspects: {
            structuredProperties: { value: { properties: [{ propertyUrn: tier, values: [{ string: 'silver' }] }] } },
            forms: { value: { incompleteForms: [{ urn: CHECK }], completedForms: [] } },
          },
        },
      ],
    });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const forms = await formsOf(t, urn);
    assert.deepEqual(forms?.incompleteForms, []);
    assert.deepEqual(forms?.completedForms.map((f) => [f.urn, ids(f.completedPrompts)]), [[CHECK, ['paths-check-tier']]]);
  });

  it('counts completion per form and per prompt, verified ones apart, as the assets hold them', async () => {
    await t.services.forms.verify(tables[0], REVIEW, ADMIN);
    await t.services.forms.verify(tables[1], REVIEW, ADMIN);
    // A tier on a complete one: the optional prompt answered on a completed form.
    await answer(t, tables[2], [{ propertyUrn: retention, values: [{ double: 7 }] }, { propertyUrn: tier, values: [{ string: 'gold' }] }]);
    assert.deepEqual(await t.services.forms.completion(REVIEW), {
      form: REVIEW,
      assigned: 12,
      completed: 4,
      incomplete: 8,
      verified: 2,
      prompts: [
        { id: 'paths-retention', title: 'Retention', required: true, completed: 4, incomplete: 8 },
        // tables[4] (form incomplete) and tables[2] (form complete).
        { id: 'paths-tier', title: 'Tier', required: false, completed: 2, incomplete: 10 },
      ],
    });
    assert.deepEqual(await t.services.forms.completion(CHECK), {
      form: CHECK,
      assigned: 1,
      completed: 1,
      incomplete: 0,
      verified: 0,
      prompts: [{ id: 'paths-check-tier', title: 'Tier', required: true, completed: 1, incomplete: 0 }],
    });
  });

  it('a verification goes when its form is no longer complete, and the counts follow', async () => {
    await answer(t, tables[1], []);
    const forms = await formsOf(t, tables[1]);
    assert.deepEqual(forms?.incompleteForms.map((f) => f.urn), [REVIEW]);
    assert.deepEqual(forms?.verifications, []);
    const counts = await t.services.forms.completion(REVIEW);
    assert.deepEqual([counts.assigned, counts.completed, counts.incomplete, counts.verified], [12, 3, 9, 1]);
    assert.deepEqual(counts.prompts.map((p) => [p.id, p.completed, p.incomplete]), [['paths-retention', 3, 9], ['paths-tier', 2, 10]]);
  });

  it('a form nobody holds counts zero everywhere; an unknown form is a 404-kind error naming it', async () => {
    const EMPTY = 'urn:li:form:paths-empty';
    await write(t, 'form', EMPTY, 'formInfo', { name: 'Empty', prompts: [{ id: 'paths-empty-tier', title: 'Tier', type: 'STRUCTURED_PROPERTY', structuredPropertyParams: { urn: tier } }] });
    assert.deepEqual(await t.services.forms.completion(EMPTY), {
      form: EMPTY,
      assigned: 0,
      completed: 0,
      incomplete: 0,
      verified: 0,
      prompts: [{ id: 'paths-empty-tier', title: 'Tier', required: false, completed: 0, incomplete: 0 }],
    });
    await assert.rejects(t.services.forms.completion('urn:li:form:paths-none'), (error) => error instanceof NotFoundError && error.message === 'Form urn:li:form:paths-none does not exist');
  });

  it('a narrower filter takes the form from the assets it no longer matches, their verification with it', async () => {
    assert.deepEqual((await formsOf(t, tables[0]))?.verifications?.map((v) => v.form), [REVIEW]);
    const only = { or: [{ and: [byType('DATASET'), byPlatform('hive'), { field: 'urn', value: tables[2], condition: 'EQUAL' }] }] };
    assert.deepEqual(await t.services.forms.assignByFilter(REVIEW, only, ADMIN), { added: 0, removed: 11 });
    const gone = await formsOf(t, tables[0]);
    assert.deepEqual([gone?.incompleteForms, gone?.completedForms, gone?.verifications], [[], [], []]);
    assert.deepEqual((await formsOf(t, tables[2]))?.completedForms.map((f) => f.urn), [REVIEW]);
    const counts = await t.services.forms.completion(REVIEW);
    assert.deepEqual([counts.assigned, counts.completed, counts.incomplete, counts.verified], [1, 1, 0, 0]);
    assert.deepEqual(counts.prompts.map((p) => [p.id, p.completed, p.incomplete]), [['paths-retention', 1, 0], ['paths-tier', 1, 0]]);
  });

  it('assigns in chunks: more matches than one chunk all get the form, and a narrower filter takes it from the rest', async () => {
    // Batches of 1,000 new assets while a dynamic form is set: follow() checks them against its filter.
    const many = Array.from({ length: 2_500 }, (_, i) => hive(`paths.many_${String(i).padStart(5, '0')}`));
    for (let i = 0; i < many.length; i += 1000) await datasets(t, many.slice(i, i + 1000));
    const WIDE = 'urn:li:form:paths-wide';
    await write(t, 'form', WIDE, 'formInfo', { name: 'Wide', prompts: [{ id: 'paths-wide-tier', title: 'Tier', type: 'STRUCTURED_PROPERTY', structuredPropertyParams: { urn: tier } }] });
    assert.deepEqual(await t.services.forms.assignByFilter(WIDE, { or: [{ and: [byType('DATASET'), byPlatform('hive')] }] }, ADMIN), { added: 2_512, removed: 0 });
    assert.equal((await t.services.forms.completion(WIDE)).assigned, 2_512);
    for (const urn of [many[0], many[999], many[1000], many[2_499]]) assert.deepEqual((await formsOf(t, urn))?.completedForms.map((f) => f.urn), [WIDE], urn);
    const narrow = { or: [{ and: [byType('DATASET'), byPlatform('hive'), { field: 'urn', value: tables[0], condition: 'EQUAL' }] }] };
    assert.deepEqual(await t.services.forms.assignByFilter(WIDE, narrow, ADMIN), { added: 0, removed: 2_511 });
    assert.equal((await t.services.forms.completion(WIDE)).assigned, 1);
    assert.deepEqual((await formsOf(t, many[2_499]))?.completedForms.map((f) => f.urn), []);
  });
});

describe('forms follow writes: the cached list of dynamic forms', () => {
  let t: TestApp;
  let tier: string;
  const AUTO = 'urn:li:form:follow-auto';

  before(async () => {
    t = await testApp();
    tier = await defineProperty(t, 'io.follow.tier', { valueType: 'urn:li:dataType:datahub.string' });
    await write(t, 'form', AUTO, 'formInfo', { name: 'Auto', prompts: [{ id: 'follow-tier', title: 'Tier', type: 'STRUCTURED_PROPERTY', structuredPropertyParams: { urn: tier }, required: true }] });
  });
  after(() => t.app.close());

  it('a write before any dynamic form assigns nothing; one after the filter is set gets the form at once', async () => {
    await datasets(t, [hive('follow.before')]);
    assert.equal(await formsOf(t, hive('follow.before')), undefined);
    // The list of dynamic forms (none) is cached now; setting a filter must drop it.
    await t.services.forms.assignByFilter(AUTO, { or: [{ and: [byType('DATASET'), byPlatform('hive')] }] }, ADMIN);
    assert.deepEqual((await formsOf(t, hive('follow.before')))?.incompleteForms.map((f) => f.urn), [AUTO]);
    await datasets(t, [hive('follow.after'), kafka('follow.after')]);
    assert.deepEqual((await formsOf(t, hive('follow.after')))?.incompleteForms.map((f) => f.urn), [AUTO]);
    assert.equal(await formsOf(t, kafka('follow.after')), undefined);
  });

  it('a changed filter is followed by the next write, not the one cached before it', async () => {
    assert.deepEqual(await t.services.forms.assignByFilter(AUTO, { or: [{ and: [byType('DATASET'), byPlatform('kafka')] }] }, ADMIN), { added: 1, removed: 2 });
    await datasets(t, [hive('follow.later'), kafka('follow.later')]);
    assert.equal(await formsOf(t, hive('follow.later')), undefined);
    assert.deepEqual((await formsOf(t, kafka('follow.later')))?.incompleteForms.map((f) => f.urn), [AUTO]);
    assert.deepEqual((await formsOf(t, hive('follow.after')))?.incompleteForms, []);
    assert.deepEqual((await formsOf(t, kafka('follow.after')))?.incompleteForms.map((f) => f.urn), [AUTO]);
  });

  it('a deleted form is no longer followed', async () => {
    const res = await t.call({ method: 'DELETE', url: `${V2}/form/${enc(AUTO)}` });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    await datasets(t, [kafka('follow.gone')]);
    assert.equal(await formsOf(t, kafka('follow.gone')), undefined);
  });
});

describe('forms follow writes: a dynamic form set on another replica', () => {
  let dir: string;
  let one: TestApp;
  let two: TestApp;
  const AUTO = 'urn:li:form:replica-auto';

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'urnbase-forms-replicas-'));
    one = await testApp({ dataDir: dir, followChanges: true });
    two = await testApp({ dataDir: dir, followChanges: true });
    const tier = await defineProperty(one, 'io.replica.tier', { valueType: 'urn:li:dataType:datahub.string' });
    await write(one, 'form', AUTO, 'formInfo', { name: 'Auto', prompts: [{ id: 'replica-tier', title: 'Tier', type: 'STRUCTURED_PROPERTY', structuredPropertyParams: { urn: tier } }] });
  });
  after(async () => {
    await two.app.close();
    await one.app.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('the other replica drops its cached list when it hears of the change, and its next write follows the filter', async () => {
    // Replica two caches "no dynamic forms" with a write of its own.
    await datasets(two, [hive('replica.first')]);
    assert.equal(await formsOf(two, hive('replica.first')), undefined);
    await one.services.forms.assignByFilter(AUTO, { or: [{ and: [byType('DATASET'), byPlatform('hive')] }] }, ADMIN);
    const began = Date.now();
    for (let n = 0; ; n++) {
      const urn = hive(`replica.next${n}`);
      await datasets(two, [urn]);
      if ((await formsOf(two, urn))?.completedForms.some((f) => f.urn === AUTO)) break;
      assert.ok(Date.now() - began < 5_000, 'replica two never followed the filter set on replica one');
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  });
});

