import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { aspectText, parseAspectJson } from '../../src/api/restli/aspect-value.js';
import { ValidationError } from '../../src/errors.js';
import { pegasusBytes } from './clients.js';

describe('a GenericAspect value as text', () => {
  it('decodes Pegasus bytes (one char per UTF-8 byte)', () => {
    assert.equal(aspectText(pegasusBytes('{"d":"café ☕ 😀"}')), '{"d":"café ☕ 😀"}');
  });

  it('leaves ASCII, and \\u escapes in it, alone', () => {
    assert.equal(aspectText('{"d": "caf\\u00e9"}'), '{"d": "caf\\u00e9"}');
  });

  it('leaves text that cannot be bytes (a char past U+00FF) alone', () => {
    assert.equal(aspectText('{"d":"café ☕"}'), '{"d":"café ☕"}');
  });

  it('leaves Latin-1 text that is not UTF-8 as bytes alone', () => {
    assert.equal(aspectText('{"d":"café"}'), '{"d":"café"}');
  });
});

describe('parsing an aspect value', () => {
  const refuses = (text: string, message: string) =>
    assert.throws(() => parseAspectJson(text, 'v'), (error: unknown) => error instanceof ValidationError && error.message === message);

  it('parses JSON text', () => {
    assert.deepEqual(parseAspectJson('{"a": [1, {"b": null}]}', 'v'), { a: [1, { b: null }] });
  });

  it('refuses text that is not JSON', () => {
    refuses('{"a": }', 'v is not valid JSON: it must be the aspect serialized as a JSON string');
    refuses('{"a": 1', 'v is not valid JSON: it must be the aspect serialized as a JSON string');
  });

  it('refuses keys that reach an object\'s prototype, at any depth', () => {
    refuses('{"a": [{"__proto__": {}}]}', 'v has a forbidden key __proto__');
    refuses('{"constructor": {"prototype": {}}}', 'v has a forbidden key constructor.prototype');
    assert.deepEqual(parseAspectJson('{"constructor": "x"}', 'v'), { constructor: 'x' });
  });

  it('refuses values nested deeper than 1000 levels', () => {
    refuses(`${'['.repeat(1001)}${']'.repeat(1001)}`, 'v nests deeper than 1000 levels');
    assert.ok(parseAspectJson(`${'['.repeat(1000)}${']'.repeat(1000)}`, 'v'));
  });
});
