import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ValidationError } from '../../src/errors.js';
import { applyPatch, type PatchOperation } from '../../src/ingest/patch.js';
import { Registry } from '../../src/registry/registry.js';

/**
 * A patch without arrayPrimaryKeys uses the aspect's own keys (the registry's patchKeys, from
 * DataHub's patch templates): what DataHub's SDK patch builders send relies on them.
 */
const registry = Registry.load();
const dataset = registry.entityType('dataset')!;
const patchOf = (aspect: string, base: unknown, patch: PatchOperation[]) => {
  const spec = dataset.aspects.get(aspect)!;
  return applyPatch(base ?? structuredClone(spec.template), { patch }, spec.patchKeys, spec.patchKeysRequired);
};
const refused = (aspect: string, base: unknown, patch: PatchOperation[], message: string) =>
  assert.throws(() => patchOf(aspect, base, patch), (error: unknown) => error instanceof ValidationError && error.message === message);

describe('patches with the aspect\'s template keys', () => {
  const tags = { tags: [{ tag: 'urn:li:tag:a' }, { tag: 'urn:li:tag:b' }] };

  it('address globalTags items by tag: add appends or replaces, remove drops, removing an absent tag does nothing', () => {
    const patched = patchOf('globalTags', tags, [
      { op: 'add', path: '/tags/urn:li:tag:c', value: { tag: 'urn:li:tag:c' } },
      { op: 'add', path: '/tags/urn:li:tag:a', value: { tag: 'urn:li:tag:a', context: 'again' } },
      { op: 'remove', path: '/tags/urn:li:tag:b', value: {} },
      { op: 'remove', path: '/tags/urn:li:tag:zzz', value: {} },
    ]);
    assert.deepEqual(patched, { tags: [{ tag: 'urn:li:tag:a', context: 'again' }, { tag: 'urn:li:tag:c' }] });
  });

  it('keep RFC 6902 positions: `-` appends and an index addresses an item', () => {
    const patched = patchOf('globalTags', tags, [
      { op: 'add', path: '/tags/-', value: { tag: 'urn:li:tag:c' } },
      { op: 'remove', path: '/tags/0' },
      { op: 'add', path: '/tags/1/context', value: 'second' },
    ]);
    assert.deepEqual(patched, { tags: [{ tag: 'urn:li:tag:b' }, { tag: 'urn:li:tag:c', context: 'second' }] });
  });

  it('address arrays of strings by the string itself (domains), without duplicates', () => {
    const domain = 'urn:li:domain:sales';
    const patched = patchOf('domains', undefined, [
      { op: 'add', path: `/domains/${domain}`, value: domain },
      { op: 'add', path: `/domains/${domain}`, value: domain },
      { op: 'add', path: '/domains/urn:li:domain:ops', value: 'urn:li:domain:ops' },
      { op: 'remove', path: '/domains/urn:li:domain:ops', value: {} },
    ]);
    assert.deepEqual(patched, { domains: [domain] });
  });

  it('remove by the first of two keys drops every item under it (an owner of every type); by both, just that one', () => {
    const owners = {
      owners: [
        { owner: 'urn:li:corpuser:jane', type: 'DATAOWNER' },
        { owner: 'urn:li:corpuser:bob', type: 'DATAOWNER' },
        { owner: 'urn:li:corpuser:jane', type: 'TECHNICAL_OWNER' },
        { owner: 'urn:li:corpuser:ann', type: 'DATAOWNER' },
        { owner: 'urn:li:corpuser:ann', type: 'STEWARD' },
      ],
    };
    const patched = patchOf('ownership', owners, [
      { op: 'remove', path: '/owners/urn:li:corpuser:jane', value: 'urn:li:corpuser:jane' },
      { op: 'remove', path: '/owners/urn:li:corpuser:ann/STEWARD', value: 'urn:li:corpuser:ann' },
      { op: 'remove', path: '/owners/urn:li:corpuser:nobody', value: {} },
      { op: 'add', path: '/owners/urn:li:corpuser:bob/TECHNICAL_OWNER', value: { owner: 'urn:li:corpuser:bob', type: 'TECHNICAL_OWNER' } },
    ]);
    assert.deepEqual(patched, {
      owners: [
        { owner: 'urn:li:corpuser:bob', type: 'DATAOWNER' },
        { owner: 'urn:li:corpuser:ann', type: 'DATAOWNER' },
        { owner: 'urn:li:corpuser:bob', type: 'TECHNICAL_OWNER' },
      ],
    });
  });

  it('refuse an add by part of a compound key', () => {
    refused('ownership', undefined, [{ op: 'add', path: '/owners/urn:li:corpuser:jane', value: { owner: 'urn:li:corpuser:jane', type: 'DATAOWNER' } }], 'Patch path /owners/urn:li:corpuser:jane needs 2 key segment(s) for owners');
  });

  describe('the keys newer SDKs add: typeUrn and attribution.source', () => {
    const JANE = 'urn:li:corpuser:jane';
    const BOB = 'urn:li:corpuser:bob';
    const STEWARD = 'urn:li:ownershipType:steward';
    const SYNC = 'urn:li:dataHubAction:sync';
    const attribution = { time: 0, actor: 'urn:li:corpuser:datahub', source: SYNC };

    it('key owners by (owner, type, typeUrn, source), an absent one as the empty segment or, where older SDKs wrote it, None', () => {
      const patched = patchOf('ownership', { owners: [{ owner: JANE, type: 'DATAOWNER' }] }, [
        { op: 'add', path: `/owners/${JANE}/DATAOWNER//`, value: { owner: JANE, type: 'DATAOWNER', source: { type: 'MANUAL' } } },
        { op: 'add', path: `/owners/${JANE}/DATAOWNER/${STEWARD}/`, value: { owner: JANE, type: 'DATAOWNER', typeUrn: STEWARD } },
        { op: 'add', path: `/owners/${BOB}/TECHNICAL_OWNER/None`, value: { owner: BOB, type: 'TECHNICAL_OWNER' } },
        { op: 'add', path: `/owners/${BOB}/TECHNICAL_OWNER/None`, value: { owner: BOB, type: 'TECHNICAL_OWNER' } },
        { op: 'add', path: `/owners/${BOB}/TECHNICAL_OWNER//${SYNC}`, value: { owner: BOB, type: 'TECHNICAL_OWNER', attribution } },
      ]);
      assert.deepEqual(patched, {
        owners: [
          { owner: JANE, type: 'DATAOWNER', source: { type: 'MANUAL' } },
          { owner: JANE, type: 'DATAOWNER', typeUrn: STEWARD },
          { owner: BOB, type: 'TECHNICAL_OWNER' },
          { owner: BOB, type: 'TECHNICAL_OWNER', attribution },
        ],
      });
    });

    it('take the keys an older path leaves out from the value it adds: the same add twice writes one item', () => {
      const owned = { owner: JANE, type: 'DATAOWNER', typeUrn: STEWARD };
      const patched = patchOf('ownership', { owners: [owned] }, [
        { op: 'add', path: `/owners/${JANE}/DATAOWNER`, value: { ...owned, source: { type: 'MANUAL' } } },
        { op: 'add', path: `/owners/${JANE}/DATAOWNER`, value: { owner: JANE, type: 'DATAOWNER' } },
      ]);
      assert.deepEqual(patched, { owners: [{ ...owned, source: { type: 'MANUAL' } }, { owner: JANE, type: 'DATAOWNER' }] });
      const tagged = patchOf('globalTags', { tags: [{ tag: 'urn:li:tag:a', attribution }] }, [
        { op: 'add', path: '/tags/urn:li:tag:a', value: { tag: 'urn:li:tag:a', attribution, context: 'again' } },
        { op: 'add', path: '/tags/urn:li:tag:a/', value: { tag: 'urn:li:tag:a' } },
      ]);
      assert.deepEqual(tagged, { tags: [{ tag: 'urn:li:tag:a', attribution, context: 'again' }, { tag: 'urn:li:tag:a' }] });
    });

    it('remove by a leading part of the keys: every item under it; by all of them: that one', () => {
      const owners = {
        owners: [
          { owner: JANE, type: 'DATAOWNER' },
          { owner: JANE, type: 'DATAOWNER', typeUrn: STEWARD },
          { owner: JANE, type: 'TECHNICAL_OWNER' },
          { owner: BOB, type: 'DATAOWNER' },
        ],
      };
      const patched = patchOf('ownership', owners, [
        { op: 'remove', path: `/owners/${JANE}/DATAOWNER/None`, value: {} },
        { op: 'remove', path: `/owners/${BOB}/DATAOWNER//`, value: {} },
      ]);
      assert.deepEqual(patched, { owners: [{ owner: JANE, type: 'DATAOWNER', typeUrn: STEWARD }, { owner: JANE, type: 'TECHNICAL_OWNER' }] });
    });

    it('key terms and structured property values by their source too', () => {
      const property = 'urn:li:structuredProperty:retention';
      const terms = patchOf('glossaryTerms', undefined, [
        { op: 'add', path: '/terms/urn:li:glossaryTerm:t/', value: { urn: 'urn:li:glossaryTerm:t' } },
        { op: 'add', path: '/terms/urn:li:glossaryTerm:t/', value: { urn: 'urn:li:glossaryTerm:t' } },
      ]) as { terms: unknown[] };
      assert.deepEqual(terms.terms, [{ urn: 'urn:li:glossaryTerm:t' }]);
      const values = patchOf('structuredProperties', { properties: [{ propertyUrn: property, values: [{ double: 30 }] }] }, [
        { op: 'add', path: `/properties/${property}/`, value: { propertyUrn: property, values: [{ double: 90 }] } },
        { op: 'add', path: `/properties/${property}/${SYNC}`, value: { propertyUrn: property, values: [{ double: 7 }], attribution } },
      ]);
      assert.deepEqual(values, { properties: [{ propertyUrn: property, values: [{ double: 90 }] }, { propertyUrn: property, values: [{ double: 7 }], attribution }] });
    });

    it('match the arrayPrimaryKeys envelope\'s nested keys against items without them as the empty segment', () => {
      const spec = dataset.aspects.get('globalTags')!;
      const base = { tags: [{ tag: 'urn:li:tag:a' }, { tag: 'urn:li:tag:b' }] };
      const added = applyPatch(base, {
        arrayPrimaryKeys: { tags: ['attribution\u241Fsource', 'tag'] },
        patch: [
          { op: 'add', path: '/tags//urn:li:tag:a', value: { tag: 'urn:li:tag:a', context: 'again' } },
          { op: 'add', path: `/tags/${SYNC}/urn:li:tag:a`, value: { tag: 'urn:li:tag:a', attribution } },
          { op: 'add', path: '/tags//urn:li:tag:c', value: {} },
        ],
      }, spec.patchKeys, spec.patchKeysRequired);
      assert.deepEqual(added, { tags: [{ tag: 'urn:li:tag:a', context: 'again' }, { tag: 'urn:li:tag:b' }, { tag: 'urn:li:tag:a', attribution }, { tag: 'urn:li:tag:c' }] });
      const removed = applyPatch(added, { arrayPrimaryKeys: { tags: ['tag', 'attribution\u241Fsource'] }, patch: [{ op: 'remove', path: '/tags/urn:li:tag:a', value: {} }] }, spec.patchKeys, spec.patchKeysRequired);
      assert.deepEqual(removed, { tags: [{ tag: 'urn:li:tag:b' }, { tag: 'urn:li:tag:c' }] });
    });

    it('still refuse an add that gives fewer keys than an older SDK did', () => {
      refused('globalTags', undefined, [{ op: 'add', path: '/tags', value: [] }, { op: 'add', path: '/tags/0/x', value: 1 }], 'Patch operation 1 (add /tags/0/x) cannot be applied: Cannot perform an `add` operation at the desired path');
      refused('ownership', undefined, [{ op: 'add', path: `/owners/${JANE}`, value: { owner: JANE, type: 'DATAOWNER', typeUrn: STEWARD } }], `Patch path /owners/${JANE} needs 2 key segment(s) for owners`);
    });
  });

  it('create what an add goes through: a schema field\'s entry, keyed by its fieldPath, with its tags (editableSchemaMetadata)', () => {
    const patched = patchOf('editableSchemaMetadata', undefined, [
      { op: 'add', path: '/editableSchemaFieldInfo/customer_id/globalTags/tags/urn:li:tag:pii', value: { tag: 'urn:li:tag:pii' } },
      { op: 'add', path: '/editableSchemaFieldInfo/customer_id/glossaryTerms/terms/urn:li:glossaryTerm:id', value: { urn: 'urn:li:glossaryTerm:id' } },
      { op: 'add', path: '/editableSchemaFieldInfo/customer_id/globalTags/tags/urn:li:tag:key', value: { tag: 'urn:li:tag:key' } },
      { op: 'add', path: '/editableSchemaFieldInfo/a~1b/globalTags/tags/urn:li:tag:pii', value: { tag: 'urn:li:tag:pii' } },
      { op: 'remove', path: '/editableSchemaFieldInfo/customer_id/globalTags/tags/urn:li:tag:key', value: {} },
      { op: 'remove', path: '/editableSchemaFieldInfo/unknown/globalTags/tags/urn:li:tag:pii', value: {} },
    ]) as { editableSchemaFieldInfo: unknown[] };
    assert.deepEqual(patched.editableSchemaFieldInfo, [
      { fieldPath: 'customer_id', globalTags: { tags: [{ tag: 'urn:li:tag:pii' }] }, glossaryTerms: { terms: [{ urn: 'urn:li:glossaryTerm:id' }] } },
      { fieldPath: 'a/b', globalTags: { tags: [{ tag: 'urn:li:tag:pii' }] } },
    ]);
  });

  it('leave aspects without template keys to RFC 6902: an add through what is not there is refused', () => {
    refused('editableDatasetProperties', {}, [{ op: 'add', path: '/created/time', value: 1 }], 'Patch operation 0 (add /created/time) cannot be applied: Cannot perform an `add` operation at the desired path');
  });

  it('never create a member that reaches Object.prototype', () => {
    refused(
      'editableSchemaMetadata',
      undefined,
      [{ op: 'add', path: '/editableSchemaFieldInfo/f/__proto__/polluted', value: true }],
      'Patch operation 0 (add /editableSchemaFieldInfo/f/__proto__/polluted) cannot be applied: JSON-Patch: modifying `__proto__` or `constructor/prototype` prop is banned for security reasons, if this was on purpose, please set `banPrototypeModifications` flag false and pass it to this function. More info in fast-json-patch README',
    );
    assert.equal(({} as Record<string, unknown>).polluted, undefined);
  });

  it('never walk into a prototype on the way to what an add creates (the request\'s keys, or none)', () => {
    const banned = 'cannot be applied: JSON-Patch: modifying `__proto__` or `constructor/prototype` prop is banned for security reasons, if this was on purpose, please set `banPrototypeModifications` flag false and pass it to this function. More info in fast-json-patch README';
    for (const [path, arrayPrimaryKeys] of [['/a/__proto__//b', {}], ['/a/constructor/prototype/x', undefined], ['/constructor/prototype/polluted', {}]] as const) {
      assert.throws(
        () => applyPatch({ terms: [] }, { patch: [{ op: 'add', path, value: 1 }], ...(arrayPrimaryKeys ? { arrayPrimaryKeys } : {}) }, { terms: ['urn'] }),
        (error: unknown) => error instanceof ValidationError && error.message === `Patch operation 0 (add ${path}) ${banned}`,
      );
    }
    assert.deepEqual(Object.getOwnPropertyNames(Object.prototype).filter((name) => ['', 'b', 'x', 'polluted'].includes(name)), []);
    assert.equal(({} as Record<string, unknown>).polluted, undefined);
  });

  it('give way to the request\'s own arrayPrimaryKeys', () => {
    const spec = dataset.aspects.get('globalTags')!;
    const patched = applyPatch(tags, { patch: [{ op: 'add', path: '/tags/x/tag', value: 'urn:li:tag:z' }], arrayPrimaryKeys: { tags: ['context'] } }, spec.patchKeys);
    assert.deepEqual(patched, { tags: [...tags.tags, { context: 'x', tag: 'urn:li:tag:z' }] });
  });
});
