import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { buildSchema } from 'graphql';
import { Documents } from '../../src/api/graphql/documents.js';

/** Documents parsed and validated once by their text, within a bound of the text kept. */

const schema = buildSchema('type Query { hello(name: String): String }');
/** A valid document of `length` characters (at least 40), different for each `n`. */
function documentOf(n: number, length = 100): string {
  const [head, tail] = [`query q${String(n).padStart(4, '0')} { hello(name: "`, '") }'];
  return head + 'x'.repeat(length - head.length - tail.length) + tail;
}

describe('GraphQL documents', () => {
  it('answers the same document for the same text, parsed and validated once', () => {
    const documents = new Documents(schema, []);
    const first = documents.prepare(documentOf(1));
    assert.ok(first.document);
    assert.equal(documents.prepare(documentOf(1)).document, first.document);
    assert.notEqual(documents.prepare(documentOf(2)).document, first.document);
  });

  it('refuses an invalid document every time and keeps none', () => {
    const documents = new Documents(schema, []);
    for (let i = 0; i < 2; i++) {
      assert.deepEqual(documents.prepare('{ goodbye }').errors?.map((e) => e.message), ['Cannot query field "goodbye" on type "Query".']);
      assert.deepEqual(documents.prepare('{ hello(').errors?.map((e) => e.extensions.classification), ['InvalidSyntax']);
      assert.deepEqual(documents.prepare('{"query": "{ hello }"}').errors?.map((e) => e.message), ['Syntax Error: Expected Name, found String "query".']);
    }
  });

  it('keeps no document longer than 16 KiB', () => {
    assert.equal(documentOf(1, 16 * 1024 + 1).length, 16 * 1024 + 1);
    const documents = new Documents(schema, []);
    const long = documentOf(1, 16 * 1024 + 1);
    assert.notEqual(documents.prepare(long).document, documents.prepare(long).document);
    const longest = documentOf(2, 16 * 1024);
    assert.equal(documents.prepare(longest).document, documents.prepare(longest).document);
  });

  it('keeps at most 128 KiB of text, the least recently used going first', () => {
    const documents = new Documents(schema, []);
    const size = 16 * 1024;
    const kept = Array.from({ length: 8 }, (_, n) => documents.prepare(documentOf(n, size)).document);
    // Used again: the most recent, so the next one pushes out document 1, not 0.
    assert.equal(documents.prepare(documentOf(0, size)).document, kept[0]);
    documents.prepare(documentOf(8, size));
    assert.equal(documents.prepare(documentOf(0, size)).document, kept[0]);
    assert.notEqual(documents.prepare(documentOf(1, size)).document, kept[1]);
    for (let n = 3; n < 8; n++) assert.equal(documents.prepare(documentOf(n, size)).document, kept[n], `document ${n}`);
  });

  it('compiles a document at its third use, and keeps it compiled', () => {
    const documents = new Documents(schema, []);
    const uses = Array.from({ length: 4 }, () => documents.prepare(documentOf(1)).compiled);
    assert.deepEqual(uses.slice(0, 2), [undefined, undefined]);
    assert.equal(typeof uses[2]?.query, 'function');
    assert.equal(uses[3], uses[2]);
  });

  it('compiles no document of several operations', () => {
    const documents = new Documents(schema, []);
    const two = 'query a { hello } query b { hello(name: "b") }';
    for (let i = 0; i < 4; i++) assert.equal(documents.prepare(two).compiled, undefined);
  });

  it('keeps at most 32 KiB of compiled text, the least recently used going first', () => {
    const documents = new Documents(schema, []);
    const compiled = (n: number) => {
      for (let i = 0; i < 2; i++) documents.prepare(documentOf(n, 16 * 1024));
      return documents.prepare(documentOf(n, 16 * 1024)).compiled;
    };
    const [first, second] = [compiled(0), compiled(1)];
    assert.equal(documents.prepare(documentOf(0, 16 * 1024)).compiled, first);
    compiled(2);
    // The third pushed out the least recently used: the second (the first was used since).
    assert.equal(documents.prepare(documentOf(0, 16 * 1024)).compiled, first);
    assert.notEqual(documents.prepare(documentOf(1, 16 * 1024)).compiled, second);
  });
});
