import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { Registry } from '../../src/registry/registry.js';
import type { AnnotatedField } from '../../src/search/annotated.js';
import { SearchFields } from '../../src/search/fields.js';

/** How the fields of DataHub's annotations merge with search.json's: the rules docs/search.md states. */
const registry = Registry.load();
const file = JSON.parse(readFileSync(new URL('../../../src/registry/data/search.json', import.meta.url), 'utf8'));
const annotated = (over: Partial<AnnotatedField> & Pick<AnnotatedField, 'aspect' | 'name' | 'path'>): AnnotatedField => ({ type: 'keyword', many: false, fullText: false, entityTypes: [], aliases: [], ...over });
const merged = (...list: AnnotatedField[]) => new SearchFields(file, registry, list);
const sourced = (fields: SearchFields, aspect: string) => fields.sourcesOf(aspect).map((s) => `${s.field.name}←${s.path.join('.')}`);

describe('search fields: DataHub annotations merged with search.json', () => {
  it('a path search.json indexes already keeps its field, and DataHub\'s name becomes another name for it', () => {
    const fields = merged(annotated({ aspect: 'datasetProperties', name: 'title', type: 'text', path: 'name', aliases: ['_entityName'] }));
    assert.equal(fields.field('title')?.name, 'name');
    assert.equal(fields.field('_entityName')?.name, 'name');
    assert.equal(fields.all().some((f) => f.name === 'title'), false);
    assert.deepEqual(sourced(fields, 'datasetProperties'), ['name←name', 'qualifiedName←qualifiedName', 'description←description']);
  });

  it('a field of another kind than the declared field of its name is left out', () => {
    const fields = merged(annotated({ aspect: 'datasetProperties', name: 'tags', type: 'text', path: 'customProperties' }));
    assert.equal(fields.field('tags')?.type, 'urn');
    assert.deepEqual(sourced(fields, 'datasetProperties'), ['name←name', 'qualifiedName←qualifiedName', 'description←description']);
  });

  it('two aspects of one entity type feeding one keyword field: the first is indexed, the other left out', () => {
    const fields = merged(
      annotated({ aspect: 'datasetProperties', name: 'zone', path: 'externalUrl' }),
      annotated({ aspect: 'editableDatasetProperties', name: 'zone', path: 'name' }),
    );
    assert.ok(sourced(fields, 'datasetProperties').includes('zone←externalUrl'));
    assert.deepEqual(sourced(fields, 'editableDatasetProperties').filter((s) => s.startsWith('zone')), []);
    assert.equal(fields.field('zone')?.fromModel, true);
  });

  it('a text field may be fed by several aspects, and then holds several values', () => {
    const fields = merged(
      annotated({ aspect: 'datasetProperties', name: 'note', type: 'text', path: 'externalUrl' }),
      annotated({ aspect: 'editableDatasetProperties', name: 'note', type: 'text', path: 'name' }),
    );
    assert.deepEqual([sourced(fields, 'datasetProperties').at(-1), sourced(fields, 'editableDatasetProperties').at(-1)], ['note←externalUrl', 'note←name']);
    assert.equal(fields.field('note')?.single, false);
    assert.equal(fields.field('note')?.column, 'keywords');
  });

  it('a presence name filters on whether the field has a value; a name that is a field stays that field', () => {
    const fields = merged(annotated({ aspect: 'datasetProperties', name: 'zone', path: 'externalUrl', hasValuesName: 'hasZone' }), annotated({ aspect: 'container', name: 'container', type: 'urn', path: 'container', hasValuesName: 'name' }));
    assert.equal(fields.presenceOf('hasZone')?.name, 'zone');
    assert.equal(fields.presenceOf('name'), undefined);
    assert.equal(fields.presenceOf('zone'), undefined);
  });

  it('the version changes with the list of fields, so the index rebuilds when the registry adds one', () => {
    const base = merged();
    assert.equal(merged().version, base.version);
    assert.notEqual(merged(annotated({ aspect: 'datasetProperties', name: 'zone', path: 'externalUrl' })).version, base.version);
    assert.match(base.version, /^1\.[0-9a-f]{12}$/);
    assert.notEqual(SearchFields.load(registry).version, base.version);
  });
});
