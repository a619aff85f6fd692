import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { jsonEqual, nestsDeeperThan, nestsDeeperThanSteps } from '../src/json.js';

describe('jsonEqual: equality of JSON values', () => {
  it('ignores the order of object members but not of array items', () => {
    assert.equal(jsonEqual({ a: 1, b: [1, { c: 'x', d: null }] }, { b: [1, { d: null, c: 'x' }], a: 1 }), true);
    assert.equal(jsonEqual([1, 2], [2, 1]), false);
  });

  it('counts members set to undefined as absent, as JSON does', () => {
    assert.equal(jsonEqual({ a: 1, b: undefined }, { a: 1 }), true);
    assert.equal(jsonEqual({ a: 1 }, { a: 1, b: undefined }), true);
    assert.equal(jsonEqual({ a: undefined }, { a: null }), false);
  });

  it('tells apart values of different kinds and shapes', () => {
    const different: Array<[unknown, unknown]> = [
      [{}, []],
      [[], {}],
      [null, {}],
      [{}, null],
      [1, '1'],
      [true, 1],
      [{ a: 1 }, { a: 1, b: 2 }],
      [{ a: 1, b: 2 }, { a: 1 }],
      [{ a: 1 }, { b: 1 }],
      [[1, 2], [1, 2, 3]],
      [{ a: { b: [1] } }, { a: { b: [2] } }],
    ];
    for (const [a, b] of different) assert.equal(jsonEqual(a, b), false, `${JSON.stringify(a)} vs ${JSON.stringify(b)}`);
    for (const same of [null, 0, 'x', true, [], {}, [[]], { a: [] }]) assert.equal(jsonEqual(same, structuredClone(same)), true);
  });
});

describe('nestsDeeperThan: the nesting depth of a JSON value', () => {
  it('counts arrays and objects, not scalars', () => {
    assert.equal(nestsDeeperThan('x', 0), false);
    assert.equal(nestsDeeperThan({}, 0), true);
    assert.equal(nestsDeeperThan({ a: [1, { b: 'c' }] }, 3), false);
    assert.equal(nestsDeeperThan({ a: [1, { b: 'c' }] }, 2), true);
    assert.equal(nestsDeeperThan([[], [[{}]]], 3), true);
  });

  it('measures a million levels without overflowing the stack, going no deeper than the limit', () => {
    const deep = JSON.parse(`${'['.repeat(1_000_000)}${']'.repeat(1_000_000)}`);
    assert.equal(nestsDeeperThan(deep, 1000), true);
    assert.equal(nestsDeeperThan(JSON.parse(`${'['.repeat(1000)}${']'.repeat(1000)}`), 1000), false);
  });

  /** nestsDeeperThanSteps run to its end, and how many times it yielded. */
  const inSteps = (value: unknown, max: number) => {
    const steps = nestsDeeperThanSteps(value, max);
    let yields = 0;
    for (let step = steps.next(); ; step = steps.next(), yields++) if (step.done) return { answer: step.value, yields };
  };

  it('in steps, gives the same answer for any value and limit', () => {
    fc.assert(fc.property(fc.jsonValue({ maxDepth: 8 }), fc.nat(10), (value, max) => inSteps(value, max).answer === nestsDeeperThan(value, max)), { numRuns: 2000 });
    const deep = JSON.parse(`${'['.repeat(100_000)}${']'.repeat(100_000)}`);
    assert.equal(inSteps(deep, 1000).answer, true);
  });

  it('in steps, yields every 1,000 values, so a large body is checked between turns of the event loop', () => {
    const batch = Array.from({ length: 50_000 }, (_, i) => ({ urn: `u${i}`, status: { value: { removed: false } } }));
    // Five values an item (the item, its urn, status, value and removed): 250,000 values.
    assert.deepEqual(inSteps(batch, 1000), { answer: false, yields: 250 });
  });
});
