import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { DefinitionError, parseDefinition, type Predicate } from '../../src/metatests/definition.js';
import { Registry } from '../../src/registry/registry.js';

const registry = Registry.load();
const parse = (definition: unknown) => parseDefinition(definition, registry);
const rejects = (definition: unknown, message: string) =>
  assert.throws(() => parse(definition), (e: unknown) => e instanceof DefinitionError && e.message === message);
const leaf = (p: Predicate) => {
  assert.equal(p.kind, 'leaf');
  return p as Extract<Predicate, { kind: 'leaf' }>;
};

describe('test definition language', () => {
  it('takes the empty definition {} as a test that selects nothing (DataHub\'s demo data has two)', () => {
    for (const empty of ['{}', {}, ' { } ']) {
      const parsed = parse(empty);
      assert.equal(parsed.selectsNothing, true);
      assert.deepEqual(parsed.types, []);
      assert.deepEqual(parsed.actions, { passing: [], failing: [] });
      assert.deepEqual([...(parsed.aspects ?? ['all'])], []);
    }
    rejects({ on: { types: ['dataset'] } }, 'definition: must be an object with an "on" clause and a "rules" clause');
    rejects('[]', 'definition: must be an object with an "on" clause and a "rules" clause');
  });

  it('parses on, conditions, rules and actions from a JSON string or an object', () => {
    const definition = {
      on: { types: ['dataset'], conditions: { property: 'dataPlatformInstance.platform', operator: 'equals', value: 'urn:li:dataPlatform:snowflake' } },
      rules: { and: [{ property: 'ownership.owners.owner', operator: 'exists' }] },
      actions: { passing: [{ type: 'add_tags', params: { values: ['urn:li:tag:Compliant'] } }] },
    };
    for (const source of [definition, JSON.stringify(definition)]) {
      const parsed = parse(source);
      assert.deepEqual(parsed.types, ['dataset']);
      assert.equal(leaf(parsed.conditions!).values[0], 'urn:li:dataPlatform:snowflake');
      assert.equal(parsed.rules.kind, 'and');
      assert.deepEqual(parsed.actions.passing, [{ type: 'ADD_TAGS', values: ['urn:li:tag:Compliant'], params: { values: ['urn:li:tag:Compliant'] } }]);
      assert.deepEqual(parsed.actions.failing, []);
    }
  });

  it('reads a JSON array as AND, and not/or/and objects', () => {
    const parsed = parse({
      on: { types: ['dataset'] },
      rules: [{ not: { property: 'status.removed', operator: 'is_true' } }, { or: [{ property: 'urn', operator: 'exists' }] }],
    });
    assert.equal(parsed.rules.kind, 'and');
    const [not, or] = (parsed.rules as Extract<Predicate, { children: Predicate[] }>).children;
    assert.equal(not.kind, 'not');
    assert.equal(or.kind, 'or');
  });

  it("accepts DataHub's legacy spellings: query, operation, params, negate and on.match", () => {
    const parsed = parse({
      on: { types: ['dataset'], match: [{ query: 'urn', operation: 'starts_with', params: { values: ['urn:li:dataset:'] } }] },
      rules: { and: [{ query: 'globalTags.tags.tag', operation: 'contains_any', params: { values: ['urn:li:tag:a', 'urn:li:tag:b'] } }], negate: true },
    });
    const condition = leaf((parsed.conditions as Extract<Predicate, { children: Predicate[] }>).children[0]);
    assert.deepEqual([condition.property, condition.operator.name, condition.values], ['urn', 'starts_with', ['urn:li:dataset:']]);
    assert.equal(parsed.rules.kind, 'and');
    assert.equal((parsed.rules as Extract<Predicate, { children: Predicate[] }>).negate, true);
  });

  it('turns numbers and booleans into text values', () => {
    const parsed = parse({ on: { types: ['dataset'] }, rules: [{ property: 'schemaFields.length', operator: 'greater_than', value: 5 }] });
    assert.deepEqual(leaf((parsed.rules as Extract<Predicate, { children: Predicate[] }>).children[0]).values, ['5']);
  });

  const bad: Array<[string, unknown, string]> = [
    ['invalid JSON', '{"on":', 'definition: invalid JSON: Unexpected end of JSON input'],
    ['no rules', { on: { types: ['dataset'] } }, 'definition: must be an object with an "on" clause and a "rules" clause'],
    ['no types', { on: {}, rules: [] }, 'on.types: must be a non-empty list of entity types'],
    ['an unknown entity type', { on: { types: ['datset'] }, rules: [] }, 'on.types[0]: unknown entity type "datset"'],
    ['an entity type without testResults', { on: { types: ['dataPlatform'] }, rules: [] }, 'on.types[0]: entity type "dataPlatform" cannot hold testResults'],
    ['an unknown operator', { on: { types: ['dataset'] }, rules: { and: [{ property: 'urn', operator: 'exists' }, { property: 'urn', operator: 'eq', value: 'x' }] } }, 'rules.and[1].operator: unknown operator "eq"'],
    ['a binary operator without a value', { on: { types: ['dataset'] }, rules: [{ property: 'urn', operator: 'equals' }] }, 'rules[0]: operator equals needs a value'],
    ['a unary operator with a value', { on: { types: ['dataset'] }, rules: [{ property: 'urn', operator: 'exists', value: 'x' }] }, 'rules[0]: operator exists takes no value'],
    ['an invalid regex', { on: { types: ['dataset'] }, rules: [{ property: 'urn', operator: 'regex_match', value: '(' }] }, 'rules[0].value: invalid regular expression "(": error parsing regexp: missing closing ): `(`'],
    ['a non-numeric comparison', { on: { types: ['dataset'] }, rules: [{ property: 'schemaFields.length', operator: 'greater_than', value: 'many' }] }, 'rules[0].value: values must be numbers, ISO dates or epoch milliseconds'],
    ['schema_fields_have_descriptions on another property', { on: { types: ['dataset'] }, rules: [{ property: 'urn', operator: 'schema_fields_have_descriptions' }] }, 'rules[0].property: schema_fields_have_descriptions applies to the property schemaFields only'],
    ['an unknown aspect in a path', { on: { types: ['dataset'] }, rules: [{ property: 'datasetProps.name', operator: 'exists' }] }, 'rules[0].property: "datasetProps.name" is not a property of dataset: dataset has no aspect datasetProps'],
    ['an unknown field in a path', { on: { types: ['dataset'] }, rules: { or: [{ property: 'datasetProperties.descripton', operator: 'exists' }] } }, 'rules.or[0].property: "datasetProperties.descripton" is not a property of dataset: datasetProperties has no field descripton'],
    ['a path past a value', { on: { types: ['dataset'] }, rules: [{ property: 'datasetProperties.description.length', operator: 'exists' }] }, 'rules[0].property: "datasetProperties.description.length" is not a property of dataset: datasetProperties.description is a value and has no field length'],
    ['a hop to an aspect the target lacks', { on: { types: ['dataset'] }, rules: [{ property: 'globalTags.tags.tag.glossaryTermInfo.name', operator: 'exists' }] }, 'rules[0].property: "globalTags.tags.tag.glossaryTermInfo.name" is not a property of dataset: globalTags.tags.tag refers to tag, which has no aspect glossaryTermInfo'],
    ['a path in conditions', { on: { types: ['dataset'], conditions: { property: 'nope', operator: 'exists' } }, rules: [] }, 'on.conditions.property: "nope" is not a property of dataset: dataset has no aspect nope'],
    ['a predicate that is not an object', { on: { types: ['dataset'] }, rules: { and: [42] } }, 'rules.and[0]: expected a predicate object or list'],
    ['an unknown action', { on: { types: ['dataset'] }, rules: [], actions: { passing: [{ type: 'ADD_TAG', params: { values: [] } }] } }, 'actions.passing[0].type: unknown action "ADD_TAG" (known: ADD_TAGS, REMOVE_TAGS, ADD_GLOSSARY_TERMS, REMOVE_GLOSSARY_TERMS, ADD_OWNERS, REMOVE_OWNERS, SET_DOMAIN, UNSET_DOMAIN, SET_STRUCTURED_PROPERTY, UNSET_STRUCTURED_PROPERTY, DEPRECATE, UN_DEPRECATE)'],
    ['an action value of the wrong type', { on: { types: ['dataset'] }, rules: [], actions: { failing: [{ type: 'ADD_TAGS', params: { values: ['urn:li:glossaryTerm:x'] } }] } }, 'actions.failing[0]: ADD_TAGS value "urn:li:glossaryTerm:x" is not a tag URN'],
    ['SET_DOMAIN with two domains', { on: { types: ['dataset'] }, rules: [], actions: { passing: [{ type: 'SET_DOMAIN', params: { values: ['urn:li:domain:a', 'urn:li:domain:b'] } }] } }, 'actions.passing[0]: SET_DOMAIN needs exactly one domain URN'],
    ['an action the entity type cannot take', { on: { types: ['glossaryNode'] }, rules: [], actions: { passing: [{ type: 'ADD_TAGS', params: { values: ['urn:li:tag:x'] } }] } }, 'actions.passing[0]: ADD_TAGS writes globalTags, which entity type glossaryNode does not have'],
  ];
  for (const [why, definition, message] of bad) {
    it(`points at the spot for ${why}`, () => rejects(definition, message));
  }

  it('refuses predicates nested deeper than 50 levels, at the spot where they pass the limit', () => {
    const nested = (levels: number): unknown => (levels === 0 ? { property: 'urn', operator: 'exists' } : { not: nested(levels - 1) });
    assert.equal(parse({ on: { types: ['dataset'] }, rules: nested(49) }).rules.kind, 'not');
    rejects({ on: { types: ['dataset'] }, rules: nested(50) }, `rules${'.not'.repeat(50)}: predicates nest deeper than 50 levels`);
    // 5,000 levels as text (within the size limit): refused as quickly, without overflowing the stack.
    const deep = `{"on":{"types":["dataset"]},"rules":${'{"and":['.repeat(5_000)}${']}'.repeat(5_000)}}`;
    rejects(deep, `rules${'.and[0]'.repeat(50)}: predicates nest deeper than 50 levels`);
  });

  it('accepts a path valid for one of several selected types', () => {
    assert.doesNotThrow(() => parse({ on: { types: ['dataset', 'dashboard'] }, rules: [{ property: 'dashboardInfo.title', operator: 'exists' }] }));
  });

  it('accepts URN hops, structured properties, system paths and schema fields', () => {
    for (const property of [
      'glossaryTerms.terms.urn.glossaryTermInfo.parentNode',
      'container.container.containerProperties.name',
      'structuredProperties.com.example.privacy.retentionTime',
      'structuredProperties.urn:li:structuredProperty:com.example.privacy.retentionTime',
      'urn',
      'entityType',
      '__firstSynchronized',
      '__lastSynchronized',
      '__lastUpdated',
      'schemaFields',
      'schemaFields.length',
      'datasetProperties.customProperties.team',
    ]) {
      const operator = property === 'schemaFields' ? 'schema_fields_have_descriptions' : 'exists';
      assert.doesNotThrow(() => parse({ on: { types: ['dataset'] }, rules: [{ property, operator }] }), property);
    }
  });
});
