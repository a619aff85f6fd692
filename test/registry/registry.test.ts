import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { InvalidUrnError, ValidationError } from '../../src/errors.js';
import { Registry, type JsonSchema } from '../../src/registry/registry.js';
import { parseUrn } from '../../src/urn/urn.js';
import { invalidOf, synthesize } from './synthesize.js';

const registry = Registry.load();
const examples = JSON.parse(readFileSync(new URL('../../../test/fixtures/aspect-examples.json', import.meta.url), 'utf8')) as Record<
  string,
  { valid: unknown[]; invalid: Array<{ value: unknown; field: string }> }
>;

/** Whether the items of an array property named `field` (anywhere in the schema) have the field at `path`. */
function itemField(schema: JsonSchema, field: string, path: readonly string[]): boolean {
  const seen = new Set<unknown>();
  const items: JsonSchema[] = [];
  const walk = (s: JsonSchema) => {
    const node = registry.deref(s);
    if (seen.has(node)) return;
    seen.add(node);
    for (const [name, property] of Object.entries(node.properties ?? {})) {
      const child = registry.deref(property);
      if (name === field && child.type === 'array' && child.items) items.push(child.items);
      walk(property);
      if (child.items) walk(child.items);
    }
  };
  walk(schema);
  return items.some((item) => {
    let node: JsonSchema | undefined = item;
    for (const part of path) node = node && registry.deref(node).properties?.[part];
    return node !== undefined;
  });
}

/** Any entity type that allows the aspect. */
function aspectSpec(name: string) {
  for (const entity of registry.entityTypes()) {
    const spec = entity.aspects.get(name);
    if (spec) return spec;
  }
  throw new Error(`no entity type allows ${name}`);
}

describe('entity registry', () => {
  const required = [
    'dataset', 'chart', 'dashboard', 'dataJob', 'dataFlow', 'container', 'domain', 'dataProduct', 'glossaryTerm',
    'glossaryNode', 'tag', 'corpuser', 'corpGroup', 'dataPlatform', 'schemaField', 'mlModel', 'mlModelGroup',
    'mlFeature', 'mlFeatureTable', 'notebook', 'structuredProperty', 'test', 'dataType', 'entityType', 'ownershipType',
    // What `datahub ingest` reports each run as (DatahubIngestionRunSummaryProvider).
    'dataHubIngestionSource', 'dataHubExecutionRequest',
  ];
  it('registers every required entity type with a key aspect', () => {
    for (const name of required) assert.ok(registry.entityType(name)?.keyAspect, name);
  });

  it('looks entity types up case-insensitively', () => {
    assert.equal(registry.entityType('STRUCTUREDPROPERTY')?.name, 'structuredProperty');
  });

  it('resolves aspect names exactly or all-lowercase, but not in other spellings', () => {
    const dataset = registry.entityType('dataset')!;
    assert.equal(registry.aspectOf(dataset, 'globalTags')?.name, 'globalTags');
    assert.equal(registry.aspectOf(dataset, 'globaltags')?.name, 'globalTags');
    assert.equal(registry.aspectOf(dataset, 'GlobalTags'), undefined);
    assert.equal(registry.aspectOf(dataset, 'propertyDefinition'), undefined);
  });

  it('names every aspect\'s Pegasus record, once, and finds aspects by it', () => {
    const seen = new Map<string, string>();
    for (const entity of registry.entityTypes()) {
      for (const aspect of entity.aspects.values()) {
        assert.match(aspect.pegasusClass ?? '', /^com\.linkedin(\.[a-z]+)+\.[A-Z][A-Za-z0-9]*$/, aspect.name);
        const other = seen.get(aspect.pegasusClass!);
        assert.ok(other === undefined || other === aspect.name, `${aspect.pegasusClass} names ${other} and ${aspect.name}`);
        seen.set(aspect.pegasusClass!, aspect.name);
      }
    }
    const dataset = registry.entityType('dataset')!;
    assert.equal(registry.aspectByPegasusClass(dataset, 'com.linkedin.dataset.DatasetProperties')?.name, 'datasetProperties');
    assert.equal(registry.aspectByPegasusClass(dataset, 'com.linkedin.metadata.key.DatasetKey')?.name, 'datasetKey');
    assert.equal(registry.aspectByPegasusClass(dataset, 'com.linkedin.chart.ChartInfo'), undefined);
  });

  it('gives patch keys only for array fields of the aspect, keyed by fields of their items', () => {
    const described = [...new Set(registry.entityTypes().flatMap((e) => [...e.aspects.values()]))].filter((a) => a.patchKeys);
    assert.ok(described.length >= 12, `${described.length} aspects have patch keys`);
    for (const aspect of described) {
      // Every array property anywhere in the schema, by name, with the properties of its items.
      const arrays = new Map<string, Set<string>>();
      const seen = new Set<unknown>();
      const walk = (schema: JsonSchema) => {
        const node = registry.deref(schema);
        if (seen.has(node)) return;
        seen.add(node);
        for (const [name, property] of Object.entries(node.properties ?? {})) {
          const field = registry.deref(property);
          if (field.type === 'array' && field.items) arrays.set(name, new Set(Object.keys(registry.deref(field.items).properties ?? {})));
          walk(property);
          if (field.items) walk(field.items);
        }
      };
      walk(aspect.schema);
      for (const [field, keyFields] of Object.entries(aspect.patchKeys!)) {
        assert.ok(arrays.has(field), `${aspect.name}: ${field} is not an array field`);
        // A nested key (attribution␟source) must be a field of a field of the items.
        for (const key of keyFields) assert.ok(itemField(aspect.schema, field, key.split('\u241F')), `${aspect.name}: ${field} items have no ${key}`);
      }
      for (const [field, count] of Object.entries(aspect.patchKeysRequired ?? {})) {
        const keys = aspect.patchKeys?.[field];
        assert.ok(keys && Number.isInteger(count) && count >= 1 && count < keys.length, `${aspect.name}: patchKeysRequired.${field} must leave some of its keys optional`);
      }
    }
  });

  it('derives key aspects from URNs', () => {
    assert.deepEqual(registry.keyOf(parseUrn('urn:li:dataset:(urn:li:dataPlatform:hive,db.t,PROD)')), {
      platform: 'urn:li:dataPlatform:hive',
      name: 'db.t',
      origin: 'PROD',
    });
    assert.deepEqual(registry.keyOf(parseUrn('urn:li:structuredProperty:com.example.privacy.retentionTime')), {
      id: 'com.example.privacy.retentionTime',
    });
  });

  it('accepts every fabric DataHub knows as a dataset origin', () => {
    for (const fabric of ['PROD', 'DEV', 'TEST', 'QA', 'UAT', 'EI', 'PRE', 'STG', 'NON_PROD', 'CORP', 'RVW', 'PRD', 'SIT', 'SBX', 'SANDBOX']) {
      assert.doesNotThrow(() => registry.keyOf(parseUrn(`urn:li:dataset:(urn:li:dataPlatform:hive,t,${fabric})`)), fabric);
    }
  });

  const badKeys = [
    'urn:li:dataset:(urn:li:dataPlatform:hive,db.t,INVALID)',
    'urn:li:dataset:(hive,db.t,PROD)',
    'urn:li:dataset:(urn:li:dataPlatform:hive,db.t)',
    'urn:li:dataset:db.t',
    'urn:li:notAType:(urn:li:dataPlatform:test,x,PROD)',
  ];
  for (const text of badKeys) {
    it(`rejects a URN whose key is invalid: ${text}`, () => {
      assert.throws(
        () => registry.keyOf(parseUrn(text)),
        (e: unknown) => e instanceof InvalidUrnError && e.message === `Invalid urn!: ${text}`,
      );
    });
  }

  it('names the aspect and the offending field in validation errors', () => {
    assert.throws(
      () => registry.validate(aspectSpec('globalTags'), { tags: [{ tag: 42 }] }),
      (e: unknown) => e instanceof ValidationError && e.message === 'Aspect globalTags is invalid: field tags[0].tag must be string',
    );
    assert.throws(
      () => registry.validate(aspectSpec('status'), { removed: true, extra: 1 }),
      (e: unknown) => e instanceof ValidationError && e.message === 'Aspect status is invalid: field extra is not allowed',
    );
  });

  it('has hand-written examples of valid and invalid values for every aspect it had before it was generated', () => {
    for (const [name, { valid, invalid }] of Object.entries(examples)) {
      assert.ok(aspectSpec(name), `examples name ${name}, which no entity type has`);
      assert.ok(valid.length > 0 && invalid.length > 0, `examples for ${name}`);
    }
    assert.ok(Object.keys(examples).length >= 72);
  });

  // Every other aspect of DataHub's model: values made from its schema (synthesize.ts).
  const names = [...new Set(registry.entityTypes().flatMap((e) => [...e.aspects.keys()]))].filter((n) => !examples[n] && !n.endsWith('Key')).sort();
  it(`accepts values made from the schema of each of the other ${names.length} aspects, and refuses one without a required field`, () => {
    for (const name of names) {
      const spec = aspectSpec(name);
      for (const mode of ['minimal', 'full'] as const) {
        const value = synthesize(registry, spec.schema, mode);
        assert.doesNotThrow(() => registry.validate(spec, value), `${name} (${mode}): ${JSON.stringify(value).slice(0, 300)}`);
      }
      const { value, field } = invalidOf(registry, spec.schema);
      assert.throws(
        () => registry.validate(spec, value),
        (e: unknown) => e instanceof ValidationError && e.message.startsWith(`Aspect ${name} is invalid: `) && e.message.includes(field),
        `${name}: ${JSON.stringify(value).slice(0, 300)}`,
      );
    }
    // Of the model's 144 aspects besides keys (generated and overlay), 45 have hand-written examples.
    assert.equal(names.length, 99);
  });

  for (const [name, { valid, invalid }] of Object.entries(examples)) {
    it(`accepts what DataHub accepts and rejects wrong values: ${name}`, () => {
      const spec = aspectSpec(name);
      for (const value of valid) assert.doesNotThrow(() => registry.validate(spec, value), JSON.stringify(value));
      for (const { value, field } of invalid) {
        const leaf = field.split('/').filter(Boolean).pop() ?? '';
        assert.throws(
          () => registry.validate(spec, value),
          (e: unknown) => e instanceof ValidationError && e.message.startsWith(`Aspect ${name} is invalid: `) && e.message.includes(leaf),
          JSON.stringify(value),
        );
      }
    });
  }

  it('seeds data types, entity types and common platforms', () => {
    const urns = registry.seed().map((s) => s.urn);
    for (const t of ['string', 'rich_text', 'number', 'date', 'urn']) assert.ok(urns.includes(`urn:li:dataType:datahub.${t}`));
    for (const e of required) assert.ok(urns.includes(`urn:li:entityType:datahub.${e}`), e);
    for (const p of ['hive', 'snowflake', 'bigquery', 'postgres', 'mysql', 'kafka', 's3']) {
      assert.ok(urns.includes(`urn:li:dataPlatform:${p}`), p);
    }
  });
});
