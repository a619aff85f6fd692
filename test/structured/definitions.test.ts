import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { enc, testApp, V2, type TestApp } from '../helpers.js';
import { defineProperty, definition, postDefinition, propertyUrn, setStatus } from './fixtures.js';

const DATASET = 'urn:li:entityType:datahub.dataset';
const CHART = 'urn:li:entityType:datahub.chart';
const BREAKING = 'raise the version (yyyyMMddHHmmss) to make this breaking change';

describe('structured property definitions', () => {
  let t: TestApp;
  before(async () => (t = await testApp()));
  after(() => t.app.close());

  const rejects = async (qualifiedName: string, body: unknown, message: string) => {
    const res = await postDefinition(t, qualifiedName, body);
    assert.equal(res.status, 400, JSON.stringify(res.body));
    assert.deepEqual(res.body, { error: 'Validation Error', message });
  };

  it('accepts every field DataHub has, and keeps created/lastModified as sent', async () => {
    const body = definition('def.full', {
      valueType: 'urn:li:dataType:datahub.urn',
      typeQualifier: { allowedTypes: ['urn:li:entityType:datahub.corpuser'] },
      cardinality: 'MULTIPLE',
      entityTypes: [DATASET, CHART],
      description: 'Who reviewed it',
      immutable: true,
      version: '20240614080000',
      created: { time: 1700000000000, actor: 'urn:li:corpuser:jane' },
      lastModified: { time: 1700000000001, actor: 'urn:li:corpuser:jane' },
    });
    const res = await postDefinition(t, 'def.full', body);
    assert.equal(res.status, 200);
    const read = await t.call({ method: 'GET', url: `${V2}/structuredProperty/${enc(propertyUrn('def.full'))}/propertyDefinition` });
    assert.deepEqual(read.body, { value: body });
  });

  it('requires qualifiedName', async () => {
    const { qualifiedName: _, ...body } = definition('def.noname');
    await rejects('def.noname', body, 'Aspect propertyDefinition is invalid: field qualifiedName is required');
  });

  it('requires qualifiedName to equal the URN id', async () => {
    await rejects('def.id', definition('def.other'), `Qualified name "def.other" must match the id of ${propertyUrn('def.id')}`);
  });

  it('rejects spaces in the id and in qualifiedName', async () => {
    await rejects('def space', definition('def space'), `Urn ID cannot have spaces: ${propertyUrn('def space')}`);
  });

  it('requires valueType to be one of the five data types', async () => {
    await rejects(
      'def.type',
      definition('def.type', { valueType: 'urn:li:dataType:datahub.DOES_NOT_EXIST' }),
      `Property ${propertyUrn('def.type')}: valueType urn:li:dataType:datahub.DOES_NOT_EXIST must be one of urn:li:dataType:datahub.string, urn:li:dataType:datahub.rich_text, urn:li:dataType:datahub.number, urn:li:dataType:datahub.date, urn:li:dataType:datahub.urn`,
    );
  });

  it('requires valueType to be a dataType URN', async () => {
    await rejects(
      'def.type2',
      definition('def.type2', { valueType: 'urn:li:container:datahub.string' }),
      'Aspect propertyDefinition is invalid: field valueType must be a URN of type dataType',
    );
  });

  it('requires at least one entity type, each existing', async () => {
    await rejects('def.none', definition('def.none', { entityTypes: [] }), `Property ${propertyUrn('def.none')}: entityTypes must name at least one entity type`);
    await rejects(
      'def.ghost',
      definition('def.ghost', { entityTypes: ['urn:li:entityType:datahub.datset'] }),
      `Property ${propertyUrn('def.ghost')}: entity type urn:li:entityType:datahub.datset does not exist`,
    );
    await rejects(
      'def.container',
      definition('def.container', { entityTypes: ['urn:li:container:abc'] }),
      'Aspect propertyDefinition is invalid: field entityTypes[0] must be a URN of type entityType',
    );
  });

  it('types allowed values by valueType: double for number, string otherwise', async () => {
    await rejects(
      'def.numvals',
      definition('def.numvals', { valueType: 'urn:li:dataType:datahub.number', allowedValues: [{ value: { string: '30' } }] }),
      `Property ${propertyUrn('def.numvals')}: allowed value {string=30} must be a double for valueType urn:li:dataType:datahub.number`,
    );
    await rejects(
      'def.strvals',
      definition('def.strvals', { allowedValues: [{ value: { double: 1 } }] }),
      `Property ${propertyUrn('def.strvals')}: allowed value {double=1} must be a string for valueType urn:li:dataType:datahub.string`,
    );
    await rejects(
      'def.datevals',
      definition('def.datevals', { valueType: 'urn:li:dataType:datahub.date', allowedValues: [{ value: { string: '2024-02-30' } }] }),
      `Property: ${propertyUrn('def.datevals')}, value: {string=2024-02-30} should be a date with format YYYY-MM-DD (in allowedValues)`,
    );
  });

  it('rejects duplicate allowed values, numbers compared numerically', async () => {
    await rejects(
      'def.dupes',
      definition('def.dupes', { valueType: 'urn:li:dataType:datahub.number', allowedValues: [{ value: { double: 30 } }, { value: { double: 30.0 } }] }),
      `Property ${propertyUrn('def.dupes')}: allowed value {double=30} is listed more than once`,
    );
  });

  it('allows typeQualifier.allowedTypes only for urn properties, each an existing entity type', async () => {
    await rejects(
      'def.qual',
      definition('def.qual', { typeQualifier: { allowedTypes: ['urn:li:entityType:datahub.corpuser'] } }),
      `Property ${propertyUrn('def.qual')}: typeQualifier.allowedTypes is only allowed with valueType urn:li:dataType:datahub.urn`,
    );
    await rejects(
      'def.qual2',
      definition('def.qual2', { valueType: 'urn:li:dataType:datahub.urn', typeQualifier: { allowedTypes: ['urn:li:entityType:datahub.nothing'] } }),
      `Property ${propertyUrn('def.qual2')}: entity type urn:li:entityType:datahub.nothing does not exist`,
    );
    await rejects(
      'def.qual3',
      definition('def.qual3', { valueType: 'urn:li:dataType:datahub.urn', typeQualifier: { allowedTypes: ['corpuser'] } }),
      `Property ${propertyUrn('def.qual3')}: allowedType corpuser is not an entityType urn`,
    );
  });

  it('requires version to be 14 digits', async () => {
    await rejects('def.v', definition('def.v', { version: 'v2' }), 'Invalid version specified. Must match [0-9]{14} (yyyyMMddHHmmss): "v2"');
  });

  it('rejects an unknown cardinality and unknown fields', async () => {
    await rejects('def.card', definition('def.card', { cardinality: 'MANY' }), 'Aspect propertyDefinition is invalid: field cardinality must be one of SINGLE, MULTIPLE');
    await rejects('def.extra', definition('def.extra', { colour: 'red' }), 'Aspect propertyDefinition is invalid: field colour is not allowed');
  });

  it('rejects a name that differs from a live property only by . versus _', async () => {
    await defineProperty(t, 'com.example.collide');
    await rejects(
      'com_example.collide',
      definition('com_example.collide'),
      `Structured property qualifiedName "com_example.collide" collides with live property ${propertyUrn('com.example.collide')}: names that differ only by '.' and '_' share the search field structuredProperties.com_example_collide`,
    );
  });

  it('allows that name once the other property is soft deleted', async () => {
    await defineProperty(t, 'com.example.collide2');
    await setStatus(t, propertyUrn('com.example.collide2'), true);
    const res = await postDefinition(t, 'com_example_collide2', definition('com_example_collide2'));
    assert.equal(res.status, 200);
  });

  describe('updates', () => {
    const evolve = async (name: string, before: Record<string, unknown>, after: Record<string, unknown>) => {
      await defineProperty(t, name, before);
      return postDefinition(t, name, definition(name, after));
    };
    const breaking: Array<[string, Record<string, unknown>, Record<string, unknown>, (urn: string) => string]> = [
      ['a valueType change', {}, { valueType: 'urn:li:dataType:datahub.number' }, (u) => `Value type of ${u} cannot be changed from urn:li:dataType:datahub.string to urn:li:dataType:datahub.number: ${BREAKING}`],
      ['cardinality MULTIPLE to SINGLE', { cardinality: 'MULTIPLE' }, { cardinality: 'SINGLE' }, (u) => `Cardinality of ${u} cannot be changed from MULTIPLE to SINGLE: ${BREAKING}`],
      ['adding allowedValues where there were none', {}, { allowedValues: [{ value: { string: 'a' } }] }, (u) => `Cannot restrict values that were previously allowed: ${u} had no allowedValues; ${BREAKING}`],
      ['removing an allowed value', { allowedValues: [{ value: { string: 'a' } }, { value: { string: 'b' } }] }, { allowedValues: [{ value: { string: 'a' } }] }, (u) => `Cannot restrict values that were previously allowed: ${u} no longer allows {string=b}; ${BREAKING}`],
      ['removing an entity type', { entityTypes: [DATASET, CHART] }, { entityTypes: [DATASET] }, (u) => `Cannot remove entity type ${CHART} from ${u}: ${BREAKING}`],
      [
        'narrowing allowedTypes',
        { valueType: 'urn:li:dataType:datahub.urn', typeQualifier: { allowedTypes: ['urn:li:entityType:datahub.corpuser', 'urn:li:entityType:datahub.corpGroup'] } },
        { valueType: 'urn:li:dataType:datahub.urn', typeQualifier: { allowedTypes: ['urn:li:entityType:datahub.corpuser'] } },
        (u) => `Cannot narrow typeQualifier.allowedTypes of ${u}: ${BREAKING}`,
      ],
      [
        'adding allowedTypes where any type was allowed',
        { valueType: 'urn:li:dataType:datahub.urn' },
        { valueType: 'urn:li:dataType:datahub.urn', typeQualifier: { allowedTypes: ['urn:li:entityType:datahub.corpuser'] } },
        (u) => `Cannot narrow typeQualifier.allowedTypes of ${u}: ${BREAKING}`,
      ],
    ];
    breaking.forEach(([why, before, after, message], i) => {
      it(`rejects ${why} without a higher version`, async () => {
        const name = `upd.breaking${i}`;
        const res = await evolve(name, before, after);
        assert.equal(res.status, 400);
        assert.deepEqual(res.body, { error: 'Validation Error', message: message(propertyUrn(name)) });
      });
      it(`allows ${why} with a higher version`, async () => {
        const name = `upd.bumped${i}`;
        const res = await evolve(name, { ...before, version: '20240101000000' }, { ...after, version: '20240201000000' });
        assert.equal(res.status, 200, JSON.stringify(res.body));
      });
    });

    it('a lower or equal version is no bump', async () => {
      const res = await evolve('upd.lower', { version: '20240201000000' }, { valueType: 'urn:li:dataType:datahub.number', version: '20240101000000' });
      assert.equal(res.status, 400);
    });

    const widening: Array<[string, Record<string, unknown>, Record<string, unknown>]> = [
      ['SINGLE to MULTIPLE', { cardinality: 'SINGLE' }, { cardinality: 'MULTIPLE' }],
      ['new allowed values added to a list', { allowedValues: [{ value: { string: 'a' } }] }, { allowedValues: [{ value: { string: 'a' }, description: 'A' }, { value: { string: 'b' } }] }],
      ['dropping the allowedValues restriction', { allowedValues: [{ value: { string: 'a' } }] }, {}],
      ['new entity types', { entityTypes: [DATASET] }, { entityTypes: [DATASET, CHART] }],
      ['description and displayName edits', {}, { description: 'new', displayName: 'New' }],
    ];
    widening.forEach(([why, before, after], i) => {
      it(`always allows ${why}`, async () => {
        const res = await evolve(`upd.widen${i}`, before, after);
        assert.equal(res.status, 200, JSON.stringify(res.body));
      });
    });
  });

  describe('structuredPropertySettings', () => {
    const settings = (name: string, body: Record<string, unknown>) =>
      t.call({ method: 'POST', url: `${V2}/structuredProperty/${enc(propertyUrn(name))}/structuredPropertySettings`, payload: body });

    it('isHidden excludes every display flag', async () => {
      for (const flag of ['showInSearchFilters', 'showInAssetSummary', 'showAsAssetBadge', 'showInColumnsTable']) {
        const res = await settings('set.hidden', { isHidden: true, [flag]: true });
        assert.equal(res.status, 400, flag);
        assert.deepEqual(res.body, {
          error: 'Validation Error',
          message: `Cannot have property isHidden = true while other display location settings are also true: ${propertyUrn('set.hidden')}`,
        });
      }
      assert.equal((await settings('set.hidden', { isHidden: true, hideInAssetSummaryWhenEmpty: true })).status, 200);
    });

    it('allows one badge property in the catalog; re-saving that same property is fine', async () => {
      assert.equal((await settings('set.badge1', { showAsAssetBadge: true })).status, 200);
      assert.equal((await settings('set.badge1', { showAsAssetBadge: true, showInSearchFilters: true })).status, 200);
      const second = await settings('set.badge2', { showAsAssetBadge: true });
      assert.equal(second.status, 400);
      assert.deepEqual(second.body, {
        error: 'Validation Error',
        message: `Cannot have more than one property set with show as badge. Property urns currently set: [${propertyUrn('set.badge1')}]`,
      });
      assert.equal((await settings('set.badge1', { showAsAssetBadge: false })).status, 200);
      assert.equal((await settings('set.badge2', { showAsAssetBadge: true })).status, 200);
    });
  });
});
