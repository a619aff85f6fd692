import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { schemaMetadataDiffer } from '../../src/timeline/differs/schema-metadata.js';
import type { ChangeCategory } from '../../src/timeline/model.js';
import { downgradedFieldPath, schemaFieldUrn } from '../../src/timeline/schema-fields.js';

const ds = 'urn:li:dataset:(urn:li:dataPlatform:hive,schema.t,PROD)';
const fieldUrn = (path: string) => schemaFieldUrn(ds, path);
interface FieldSpec {
  nativeDataType?: string;
  description?: string;
  nullable?: boolean;
  globalTags?: unknown;
}
const f = (fieldPath: string, spec: FieldSpec = {}) => ({ fieldPath, nativeDataType: 'int', type: { type: { 'com.linkedin.schema.NumberType': {} } }, ...spec });
const schema = (fields: object[], more: object = {}) => ({ schemaName: 's', platform: 'urn:li:dataPlatform:hive', version: 0, hash: '', platformSchema: { 'com.linkedin.schema.MySqlDDL': { tableSchema: '' } }, fields, ...more });
const events = (previous: unknown, current: unknown, category: ChangeCategory = 'TECHNICAL_SCHEMA') => schemaMetadataDiffer.events(previous, current, category, ds);
const brief = (list: ReturnType<typeof events>) => list.map((e) => `${e.operation} ${e.semVerChange} ${e.modifier === undefined ? e.entityUrn : e.modifier.replace(`urn:li:schemaField:(${ds},`, '').slice(0, -1)}`);

describe('schemaMetadata changes (TECHNICAL_SCHEMA, and field DOCUMENTATION and TAG)', () => {
  it('writes field URNs and plain paths as DataHub does', () => {
    assert.equal(fieldUrn('a,b(c)'), `urn:li:schemaField:(${ds},a%2Cb%28c%29)`);
    assert.equal(downgradedFieldPath('[version=2.0].[type=struct].[type=struct].service.[type=int].id'), 'service.id');
    assert.equal(downgradedFieldPath('plain.path'), 'plain.path');
  });

  it('adds every field of a first schema, MINOR, in field path order, with DataHub\'s parameters and words', () => {
    assert.deepEqual(events(undefined, schema([f('b', { nullable: true }), f('a')])), [
      {
        entityUrn: ds,
        category: 'TECHNICAL_SCHEMA',
        operation: 'ADD',
        modifier: fieldUrn('a'),
        parameters: { fieldPath: 'a', fieldUrn: fieldUrn('a'), nullable: false, modificationCategory: 'OTHER' },
        semVerChange: 'MINOR',
        description: "A forwards & backwards compatible change due to the newly added field 'a'.",
      },
      {
        entityUrn: ds,
        category: 'TECHNICAL_SCHEMA',
        operation: 'ADD',
        modifier: fieldUrn('b'),
        parameters: { fieldPath: 'b', fieldUrn: fieldUrn('b'), nullable: true, modificationCategory: 'OTHER' },
        semVerChange: 'MINOR',
        description: "A forwards & backwards compatible change due to the newly added field 'b'.",
      },
    ]);
  });

  it('makes a removed field MAJOR', () => {
    const [removed] = events(schema([f('a'), f('b')]), schema([f('a')]));
    assert.deepEqual(removed, {
      entityUrn: ds,
      category: 'TECHNICAL_SCHEMA',
      operation: 'REMOVE',
      modifier: fieldUrn('b'),
      parameters: { fieldPath: 'b', fieldUrn: fieldUrn('b'), nullable: false, modificationCategory: 'OTHER' },
      semVerChange: 'MAJOR',
      description: "A backwards incompatible change due to removal of field: 'b'.",
    });
  });

  it('makes a field whose native type changed MAJOR (a TYPE_CHANGE)', () => {
    const list = events(schema([f('a')]), schema([f('a', { nativeDataType: 'bigint' })]));
    assert.deepEqual(brief(list), ['MODIFY MAJOR a']);
    assert.equal(list[0].parameters!.modificationCategory, 'TYPE_CHANGE');
    assert.equal(list[0].description, "A backwards incompatible change due to a new native type of the field 'a': 'int' became 'bigint'.");
  });

  it('takes a field gone and one come with the same type, parent and description for a rename: MINOR', () => {
    const list = events(schema([f('s.id', { description: 'the id' }), f('s.x')]), schema([f('s.key', { description: 'the id' }), f('s.x')]));
    assert.deepEqual(brief(list), ['MODIFY MINOR s.id']);
    assert.deepEqual(list[0].parameters, { fieldPath: 's.id', fieldUrn: fieldUrn('s.id'), nullable: false, modificationCategory: 'RENAME' });
    assert.equal(list[0].description, "A forwards & backwards compatible change due to renaming of the field 's.id to s.key'.");
  });

  it('does not take a field for renamed when its type, parent or description differs: removal and addition', () => {
    assert.deepEqual(brief(events(schema([f('s.a', { description: 'd' })]), schema([f('s.b', { description: 'd', nativeDataType: 'string' })]))), ['REMOVE MAJOR s.a', 'ADD MINOR s.b']);
    assert.deepEqual(brief(events(schema([f('s.a', { description: 'd' })]), schema([f('t.b', { description: 'd' })]))), ['REMOVE MAJOR s.a', 'ADD MINOR t.b']);
    assert.deepEqual(brief(events(schema([f('s.a', { description: 'd' })]), schema([f('s.b', { description: 'e' })]))), ['REMOVE MAJOR s.a', 'ADD MINOR s.b']);
  });

  it("pairs the renames of DataHub's timeline smoke test (v2 field paths) as DataHub does", () => {
    const p = '[version=2.0].[type=struct].[type=struct].service.[type=struct].provider';
    const v1 = schema([f(`${p}.[type=string].name`, { nativeDataType: 'varchar(50)' }), f(`${p}.[type=int].id`, { nativeDataType: 'tinyint', description: 'Service provider id' })]);
    const v2 = schema([f(`${p}.[type=int].id3`, { nativeDataType: 'tinyint', description: 'Service provider name' }), f(`${p}.[type=int].id2`, { nativeDataType: 'tinyint', description: 'Service provider id' })]);
    const v3 = schema([f(`${p}.[type=string].name`, { nativeDataType: 'varchar(50)', description: 'Service provider name' }), f(`${p}.[type=int].id`, { nativeDataType: 'tinyint', description: 'Service provider id' })]);
    const short = (list: ReturnType<typeof events>) => list.map((e) => `${e.operation} ${e.semVerChange} ${e.parameters!.modificationCategory} ${downgradedFieldPath(e.parameters!.fieldPath as string)}`);
    assert.deepEqual(short(events(v1, v2)), ['MODIFY MINOR RENAME service.provider.id', 'ADD MINOR OTHER service.provider.id3', 'REMOVE MAJOR OTHER service.provider.name']);
    assert.deepEqual(short(events(v2, v3)), ['MODIFY MINOR RENAME service.provider.id2', 'REMOVE MAJOR OTHER service.provider.id3', 'ADD MINOR OTHER service.provider.name']);
  });

  it('reports a column whose v2 path moved with its type as one type change, not a removal and an addition', () => {
    const list = events(schema([f('[version=2.0].[type=Rec].[type=int].n')]), schema([f('[version=2.0].[type=Rec].[type=long].n', { nativeDataType: 'bigint' })]));
    assert.deepEqual(brief(list), ['MODIFY MAJOR [version=2.0].[type=Rec].[type=int].n']);
    assert.equal(list[0].parameters!.modificationCategory, 'TYPE_CHANGE');
    assert.equal(list[0].description, "A backwards incompatible change due to a new native type of the field 'n': 'int' became 'bigint'.");
    // A path that moved without a new type (a connector switching to v2 paths) is no change at all.
    assert.deepEqual(events(schema([f('[version=2.0].[type=int].n')]), schema([f('[version=2.0].[type=long].n')])), []);
  });

  it('makes a change of the primary key MAJOR, a field leaving it and a field joining it', () => {
    assert.deepEqual(brief(events(schema([f('a'), f('b')], { primaryKeys: ['a'] }), schema([f('a'), f('b')], { primaryKeys: ['b'] }))), ['MODIFY MAJOR a', 'MODIFY MAJOR b']);
  });

  it('reports field descriptions as DOCUMENTATION of the field: added or removed MINOR, edited PATCH', () => {
    const doc = (previous: unknown, current: unknown) => events(previous, current, 'DOCUMENTATION');
    assert.deepEqual(doc(schema([f('a')]), schema([f('a', { description: 'new' })])), [
      {
        entityUrn: fieldUrn('a'),
        category: 'DOCUMENTATION',
        operation: 'ADD',
        parameters: { description: 'new', fieldPath: 'a', parentUrn: ds },
        semVerChange: 'MINOR',
        description: "The description of the field 'a' was added: 'new'.",
      },
    ]);
    assert.deepEqual(doc(schema([f('a', { description: 'old' })]), schema([f('a', { description: 'new' })])).map((e) => [e.operation, e.semVerChange, e.parameters]), [
      ['MODIFY', 'PATCH', { description: 'new', previousDescription: 'old', fieldPath: 'a', parentUrn: ds }],
    ]);
    assert.deepEqual(doc(schema([f('a', { description: 'old' })]), schema([])).map((e) => [e.operation, e.semVerChange]), [['REMOVE', 'MINOR']]);
    assert.deepEqual(doc(schema([f('a')]), schema([f('a', { nativeDataType: 'bigint' })])), [], 'structure is not documentation');
  });

  it('reports field tags as TAG events of the field', () => {
    const tagged = schema([f('a', { globalTags: { tags: [{ tag: 'urn:li:tag:pii' }] } })]);
    assert.deepEqual(events(schema([f('a')]), tagged, 'TAG'), [
      {
        entityUrn: fieldUrn('a'),
        category: 'TAG',
        operation: 'ADD',
        modifier: 'urn:li:tag:pii',
        parameters: { fieldPath: 'a', parentUrn: ds, tagUrn: 'urn:li:tag:pii', context: '{}' },
        semVerChange: 'MINOR',
        description: `Tag 'pii' was added to '${fieldUrn('a')}'.`,
      },
    ]);
    assert.deepEqual(events(tagged, schema([f('a')]), 'TECHNICAL_SCHEMA'), [], 'tags are not structure');
  });
});
