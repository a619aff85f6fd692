import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { InvalidUrnError, ValidationError } from '../../src/errors.js';
import { formatUrn, isUrn, MAX_URN_BYTES, parseUrn } from '../../src/urn/urn.js';

describe('URN grammar', () => {
  it('parses a simple URN into entity type and id', () => {
    const urn = parseUrn('urn:li:tag:pii');
    assert.equal(urn.entityType, 'tag');
    assert.equal(urn.id, 'pii');
    assert.deepEqual(urn.parts, ['pii']);
  });

  it('parses a dataset tuple whose first member is a URN', () => {
    const urn = parseUrn('urn:li:dataset:(urn:li:dataPlatform:hive,db.table,PROD)');
    assert.equal(urn.entityType, 'dataset');
    assert.deepEqual(urn.parts, ['urn:li:dataPlatform:hive', 'db.table', 'PROD']);
  });

  it('parses nested tuples: a schema field of a dataset', () => {
    const urn = parseUrn('urn:li:schemaField:(urn:li:dataset:(urn:li:dataPlatform:hive,db.t,PROD),user.id)');
    assert.deepEqual(urn.parts, ['urn:li:dataset:(urn:li:dataPlatform:hive,db.t,PROD)', 'user.id']);
  });

  it('keeps slashes, dots and colons inside ids', () => {
    assert.deepEqual(parseUrn('urn:li:dataset:(urn:li:dataPlatform:s3,bucket/a/b.csv,PROD)').parts[1], 'bucket/a/b.csv');
    assert.equal(parseUrn('urn:li:corpuser:jane.doe@example.com').id, 'jane.doe@example.com');
    assert.equal(parseUrn('urn:li:glossaryTerm:Classification:Sensitive').id, 'Classification:Sensitive');
  });

  it('accepts a tuple member that is itself a tuple', () => {
    assert.deepEqual(parseUrn('urn:li:x:((a,b),c)').parts, ['(a,b)', 'c']);
  });

  const invalid: Array<[string, string]> = [
    ['missing prefix', 'li:dataset:x'],
    ['wrong namespace', 'urn:foo:dataset:x'],
    ['no entity type', 'urn:li::x'],
    ['no id', 'urn:li:tag:'],
    ['no id separator', 'urn:li:tag'],
    ['unbalanced open parenthesis', 'urn:li:dataset:(urn:li:dataPlatform:hive,db.t,PROD'],
    ['unbalanced close parenthesis', 'urn:li:dataset:urn:li:dataPlatform:hive,db.t,PROD)'],
    ['unbalanced nested tuple', 'urn:li:schemaField:(urn:li:dataset:(urn:li:dataPlatform:hive,db.t,PROD,f)'],
    ['empty tuple member', 'urn:li:dataset:(urn:li:dataPlatform:hive,,PROD)'],
    ['empty tuple', 'urn:li:dataset:()'],
    ['invalid nested URN', 'urn:li:dataset:(urn:li::hive,db.t,PROD)'],
    ['control characters', 'urn:li:tag:a\nb'],
    ['entity type with punctuation', 'urn:li:data-set:x'],
  ];
  for (const [why, text] of invalid) {
    it(`rejects ${why}: ${JSON.stringify(text)}`, () => {
      assert.throws(() => parseUrn(text), (e: unknown) => e instanceof InvalidUrnError && e.message === `Invalid urn!: ${text}`);
    });
  }

  it('accepts a URN of exactly 2048 bytes, counted in UTF-8', () => {
    assert.equal(MAX_URN_BYTES, 2048);
    const ascii = `urn:li:tag:${'a'.repeat(2048 - 'urn:li:tag:'.length)}`;
    assert.equal(parseUrn(ascii).text, ascii);
    // 'é' is 2 bytes: 1018 of them and 1 'a' after an 11-byte prefix make 2048 bytes in 1030 characters.
    const accented = `urn:li:tag:a${'é'.repeat(1018)}`;
    assert.equal(Buffer.byteLength(accented), 2048);
    assert.equal(parseUrn(accented).text, accented);
  });

  it('refuses a URN over 2048 bytes with its length and its start, whatever its characters', () => {
    const cases = [`urn:li:tag:${'a'.repeat(2038)}`, `urn:li:tag:${'é'.repeat(1019)}`, `urn:li:dataset:(urn:li:dataPlatform:hive,${'x'.repeat(20_000)},PROD)`];
    for (const text of cases) {
      const bytes = Buffer.byteLength(text);
      assert.throws(
        () => parseUrn(text),
        (e: unknown) => e instanceof ValidationError && e.message === `A URN may be at most 2048 bytes long (UTF-8); this one has ${bytes}: ${text.slice(0, 100)}…`,
      );
      assert.equal(isUrn(text), false);
    }
  });

  it('refuses a URN nesting a URN that is too long', () => {
    const inner = `urn:li:dataPlatform:${'p'.repeat(2100)}`;
    assert.throws(() => parseUrn(`urn:li:dataset:(${inner},t,PROD)`), ValidationError);
  });

  it('isUrn checks the entity type when asked', () => {
    assert.equal(isUrn('urn:li:tag:pii', 'tag'), true);
    assert.equal(isUrn('urn:li:tag:pii', 'glossaryTerm'), false);
    assert.equal(isUrn('urn:li:corpGroup:eng', ['corpuser', 'corpGroup']), true);
    assert.equal(isUrn(42), false);
  });

  it('formats ids and tuples back to text', () => {
    assert.equal(formatUrn('tag', ['pii']), 'urn:li:tag:pii');
    assert.equal(formatUrn('dataset', ['urn:li:dataPlatform:hive', 'db.t', 'PROD']), 'urn:li:dataset:(urn:li:dataPlatform:hive,db.t,PROD)');
  });
});
