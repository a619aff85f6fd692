import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { jsonEqual, nestsDeeperThan } from '../src/json.js';

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
});
