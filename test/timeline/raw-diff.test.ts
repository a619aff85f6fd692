import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import jsonpatch from 'fast-json-patch';
import fc from 'fast-check';
import { rawDiff } from '../../src/timeline/raw-diff.js';

const { applyPatch, deepClone } = jsonpatch;

describe('raw diffs (raw=true): RFC 6902 patches from one aspect value to the next', () => {
  it('changes objects member by member: removals and changes first, then additions', () => {
    assert.deepEqual(rawDiff({ a: 1, b: { c: 'x' }, gone: true }, { a: 2, b: { c: 'x', d: 'y' }, 'new/key': [] }), [
      { op: 'replace', path: '/a', value: 2 },
      { op: 'add', path: '/b/d', value: 'y' },
      { op: 'remove', path: '/gone' },
      { op: 'add', path: '/new~1key', value: [] },
    ]);
  });

  it('diffs from nothing to an aspect as additions of its members, and equal values as no operation', () => {
    assert.deepEqual(rawDiff({}, { tags: [{ tag: 'urn:li:tag:a' }] }), [{ op: 'add', path: '/tags', value: [{ tag: 'urn:li:tag:a' }] }]);
    assert.deepEqual(rawDiff({ a: [1, { b: 2 }] }, { a: [1, { b: 2 }] }), []);
  });

  it('aligns arrays on what they share: an insertion and a removal, not a rewrite', () => {
    const tags = (...names: string[]) => ({ tags: names.map((n) => ({ tag: `urn:li:tag:${n}` })) });
    assert.deepEqual(rawDiff(tags('a', 'b', 'c'), tags('a', 'x', 'c', 'd')), [
      { op: 'add', path: '/tags/3', value: { tag: 'urn:li:tag:d' } },
      { op: 'replace', path: '/tags/1/tag', value: 'urn:li:tag:x' },
    ]);
    assert.deepEqual(rawDiff(tags('a', 'b', 'c'), tags('a', 'c')), [{ op: 'remove', path: '/tags/1' }]);
  });

  it('gives patches that turn any value into the other when applied in order', () => {
    const json = fc.letrec((tie) => ({
      value: fc.oneof({ depthSize: 'small' }, fc.integer({ min: 0, max: 3 }), fc.constantFrom('a', 'b'), tie('array'), tie('object')),
      array: fc.array(tie('value'), { maxLength: 5 }),
      object: fc.dictionary(fc.constantFrom('a', 'b', 'c/d', 'e~f'), tie('value'), { maxKeys: 3 }),
    }));
    fc.assert(
      fc.property(json.object, json.object, (generatedSource, generatedTarget) => {
        // As plain JSON (the generator makes objects without a prototype).
        const [source, target] = [generatedSource, generatedTarget].map((v) => JSON.parse(JSON.stringify(v)));
        const patched = applyPatch(deepClone(source), rawDiff(source, target) as never).newDocument;
        assert.deepEqual(patched, target);
      }),
      { numRuns: 500 },
    );
  });
});
