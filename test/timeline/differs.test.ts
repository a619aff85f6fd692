import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { DIFFERS } from '../../src/timeline/differs/index.js';
import { javaDouble } from '../../src/timeline/differs/structured-properties.js';
import type { ChangeCategory } from '../../src/timeline/model.js';
import { schemaFieldUrn } from '../../src/timeline/schema-fields.js';

const ds = 'urn:li:dataset:(urn:li:dataPlatform:hive,differs.t,PROD)';
const events = (aspect: string, previous: unknown, current: unknown, category?: ChangeCategory) => {
  const differ = DIFFERS.get(aspect)!;
  return differ.events(previous, current, category ?? differ.categories[0], ds);
};

describe('change events of the aspects besides schemaMetadata', () => {
  it('globalTags: tags added and removed, MINOR, in URN order, with the context and attribution DataHub passes on', () => {
    const before = { tags: [{ tag: 'urn:li:tag:b' }, { tag: 'urn:li:tag:keep' }] };
    const after = { tags: [{ tag: 'urn:li:tag:keep' }, { tag: 'urn:li:tag:a', context: 'ctx', attribution: { time: 1, actor: 'urn:li:corpuser:x', sourceDetail: { origin: 'lineage' } } }] };
    assert.deepEqual(events('globalTags', before, after), [
      {
        entityUrn: ds,
        category: 'TAG',
        operation: 'ADD',
        modifier: 'urn:li:tag:a',
        parameters: { tagUrn: 'urn:li:tag:a', context: 'ctx', sourceDetails: '{"origin":"lineage"}' },
        semVerChange: 'MINOR',
        description: `Tag 'a' was added to '${ds}'.`,
      },
      {
        entityUrn: ds,
        category: 'TAG',
        operation: 'REMOVE',
        modifier: 'urn:li:tag:b',
        parameters: { tagUrn: 'urn:li:tag:b', context: '{}', sourceDetails: '{}' },
        semVerChange: 'MINOR',
        description: `Tag 'b' was removed from '${ds}'.`,
      },
    ]);
  });

  it('glossaryTerms: terms added and removed, MINOR', () => {
    assert.deepEqual(events('glossaryTerms', undefined, { terms: [{ urn: 'urn:li:glossaryTerm:Revenue' }], auditStamp: { time: 0, actor: 'urn:li:corpuser:x' } }), [
      {
        entityUrn: ds,
        category: 'GLOSSARY_TERM',
        operation: 'ADD',
        modifier: 'urn:li:glossaryTerm:Revenue',
        parameters: { termUrn: 'urn:li:glossaryTerm:Revenue', context: '{}', sourceDetails: '{}' },
        semVerChange: 'MINOR',
        description: `Glossary term 'Revenue' was added to '${ds}'.`,
      },
    ]);
  });

  it('ownership: owners added and removed MINOR; a changed ownership type PATCH, its modifier the new type', () => {
    const jane = { owner: 'urn:li:corpuser:jane', type: 'TECHNICAL_OWNER' };
    const joe = { owner: 'urn:li:corpuser:joe', type: 'BUSINESS_OWNER', typeUrn: 'urn:li:ownershipType:__system__business_owner' };
    assert.deepEqual(events('ownership', { owners: [jane] }, { owners: [{ ...jane, type: 'DATA_STEWARD' }, joe] }), [
      {
        entityUrn: ds,
        category: 'OWNER',
        operation: 'MODIFY',
        modifier: 'DATA_STEWARD',
        parameters: { ownerUrn: 'urn:li:corpuser:jane', ownerType: 'DATA_STEWARD' },
        semVerChange: 'PATCH',
        description: `The ownership type of 'jane' on '${ds}' changed from TECHNICAL_OWNER to DATA_STEWARD.`,
      },
      {
        entityUrn: ds,
        category: 'OWNER',
        operation: 'ADD',
        modifier: 'urn:li:corpuser:joe',
        parameters: { ownerUrn: 'urn:li:corpuser:joe', ownerType: 'BUSINESS_OWNER', ownerTypeUrn: 'urn:li:ownershipType:__system__business_owner' },
        semVerChange: 'MINOR',
        description: `'joe' was added as an owner (BUSINESS_OWNER) of '${ds}'.`,
      },
    ]);
  });

  it('datasetProperties and editableDatasetProperties: a description added, changed or removed, MINOR', () => {
    assert.deepEqual(events('datasetProperties', { description: 'old', name: 'n' }, { description: 'new', name: 'n' }), [
      { entityUrn: ds, category: 'DOCUMENTATION', operation: 'MODIFY', parameters: { description: 'new' }, semVerChange: 'MINOR', description: `The description of '${ds}' changed from 'old' to 'new'.` },
    ]);
    assert.deepEqual(events('datasetProperties', { name: 'n' }, { name: 'renamed' }), [], 'only the description is documentation');
    assert.deepEqual(events('editableDatasetProperties', { description: 'gone' }, {}), [
      { entityUrn: ds, category: 'DOCUMENTATION', operation: 'REMOVE', semVerChange: 'MINOR', description: `The description of '${ds}' was removed: 'gone'.` },
    ]);
  });

  it('institutionalMemory: links added or removed MINOR, a link described anew PATCH, modifier the URL', () => {
    const link = (url: string, description: string) => ({ url, description, createStamp: { time: 0, actor: 'urn:li:corpuser:x' } });
    const list = events('institutionalMemory', { elements: [link('https://a', 'A'), link('https://b', 'B')] }, { elements: [link('https://a', 'A!'), link('https://c', 'C')] });
    assert.deepEqual(list.map((e) => [e.operation, e.semVerChange, e.modifier]), [['MODIFY', 'PATCH', 'https://a'], ['REMOVE', 'MINOR', 'https://b'], ['ADD', 'MINOR', 'https://c']]);
  });

  it('editableSchemaMetadata: field descriptions (modifier the path), tags and terms, each under its category', () => {
    const info = (fieldPath: string, more: object) => ({ editableSchemaFieldInfo: [{ fieldPath, ...more }] });
    const field = schemaFieldUrn(ds, 'a');
    assert.deepEqual(events('editableSchemaMetadata', undefined, info('a', { description: 'mine' }), 'DOCUMENTATION'), [
      { entityUrn: field, category: 'DOCUMENTATION', operation: 'ADD', modifier: 'a', semVerChange: 'MINOR', description: "The edited description of the field 'a' was added: 'mine'." },
    ]);
    assert.deepEqual(events('editableSchemaMetadata', info('a', { description: 'mine' }), info('a', { description: 'ours' }), 'DOCUMENTATION').map((e) => e.semVerChange), ['PATCH']);
    const terms = events('editableSchemaMetadata', info('a', {}), info('a', { glossaryTerms: { terms: [{ urn: 'urn:li:glossaryTerm:T' }], auditStamp: { time: 0, actor: 'urn:li:corpuser:x' } } }), 'GLOSSARY_TERM');
    assert.deepEqual(terms, [
      {
        entityUrn: field,
        category: 'GLOSSARY_TERM',
        operation: 'ADD',
        modifier: 'urn:li:glossaryTerm:T',
        parameters: { fieldPath: 'a', parentUrn: ds, termUrn: 'urn:li:glossaryTerm:T', context: '{}' },
        semVerChange: 'MINOR',
        description: `Glossary term 'T' was added to '${field}'.`,
      },
    ]);
    assert.deepEqual(events('editableSchemaMetadata', info('a', { globalTags: { tags: [{ tag: 'urn:li:tag:x' }] } }), info('a', {}), 'TAG').map((e) => [e.operation, e.modifier]), [['REMOVE', 'urn:li:tag:x']]);
  });

  it('domains: the first domain set, unset, or changed (its removal, then the addition), MINOR', () => {
    const d = (...domains: string[]) => ({ domains });
    assert.deepEqual(events('domains', undefined, d('urn:li:domain:sales')), [
      { entityUrn: ds, category: 'DOMAIN', operation: 'ADD', modifier: 'urn:li:domain:sales', parameters: { domainUrn: 'urn:li:domain:sales' }, semVerChange: 'MINOR', description: `'${ds}' was put in the domain 'urn:li:domain:sales'.` },
    ]);
    assert.deepEqual(events('domains', d('urn:li:domain:sales'), d('urn:li:domain:ops')).map((e) => [e.operation, e.modifier]), [['REMOVE', 'urn:li:domain:sales'], ['ADD', 'urn:li:domain:ops']]);
    assert.deepEqual(events('domains', d('urn:li:domain:ops'), d()).map((e) => e.operation), ['REMOVE']);
    assert.deepEqual(events('domains', d('urn:li:domain:ops'), d('urn:li:domain:ops', 'urn:li:domain:x')), [], 'only the first domain counts');
  });

  it('deprecation: deprecated or active again, with its status; a new note alone is no change', () => {
    const dep = (deprecated: boolean, note = 'n') => ({ deprecated, note, actor: 'urn:li:corpuser:x' });
    assert.deepEqual(events('deprecation', undefined, dep(true)), [
      { entityUrn: ds, category: 'DEPRECATION', operation: 'MODIFY', parameters: { status: 'DEPRECATED' }, semVerChange: 'MINOR', description: `'${ds}' was deprecated.` },
    ]);
    assert.deepEqual(events('deprecation', dep(true), dep(false)).map((e) => e.parameters), [{ status: 'ACTIVE' }]);
    assert.deepEqual(events('deprecation', dep(true, 'a'), dep(true, 'b')), []);
    assert.deepEqual(events('deprecation', undefined, dep(false)), []);
  });

  it('structuredProperties: properties assigned, unassigned and given other values, MINOR, their values as JSON text with Java doubles', () => {
    const sp = (propertyUrn: string, values: object[]) => ({ propertyUrn, values });
    const list = events(
      'structuredProperties',
      { properties: [sp('urn:li:structuredProperty:retention', [{ double: 30 }]), sp('urn:li:structuredProperty:gone', [{ string: 'x' }])] },
      { properties: [sp('urn:li:structuredProperty:retention', [{ double: 60 }, { double: 0.5 }]), sp('urn:li:structuredProperty:tier', [{ string: 'gold' }])] },
    );
    assert.deepEqual(list, [
      {
        entityUrn: ds, category: 'STRUCTURED_PROPERTY', operation: 'REMOVE', modifier: 'urn:li:structuredProperty:gone',
        parameters: { propertyUrn: 'urn:li:structuredProperty:gone', propertyValues: '["x"]' }, semVerChange: 'MINOR',
        description: `Structured property 'gone' was removed from '${ds}'.`,
      },
      {
        entityUrn: ds, category: 'STRUCTURED_PROPERTY', operation: 'MODIFY', modifier: 'urn:li:structuredProperty:retention',
        parameters: { propertyUrn: 'urn:li:structuredProperty:retention', propertyValues: '[60.0,0.5]' }, semVerChange: 'MINOR',
        description: `The values of structured property 'retention' on '${ds}' changed.`,
      },
      {
        entityUrn: ds, category: 'STRUCTURED_PROPERTY', operation: 'ADD', modifier: 'urn:li:structuredProperty:tier',
        parameters: { propertyUrn: 'urn:li:structuredProperty:tier', propertyValues: '["gold"]' }, semVerChange: 'MINOR',
        description: `Structured property 'tier' was added to '${ds}'.`,
      },
    ]);
    assert.deepEqual([60, 0.5, -2, 1e7, 1.5e-4, 123456789.5, 0].map(javaDouble), ['60.0', '0.5', '-2.0', '1.0E7', '1.5E-4', '1.234567895E8', '0.0']);
  });

  it('reads an unexpected value shape as absent rather than failing', () => {
    assert.deepEqual(events('globalTags', { tags: 'not a list' }, { tags: [{ tag: 'urn:li:tag:a' }, 7, { notATag: true }] }).map((e) => e.modifier), ['urn:li:tag:a']);
  });
});
