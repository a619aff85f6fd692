import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { comparable, operatorNamed } from '../../src/metatests/operators.js';

const op = (name: string) => {
  const o = operatorNamed(name);
  assert.ok(o, name);
  return o;
};
const holds = (name: string, found: unknown[], given: string[] = []) => op(name).evaluate(found, given);

describe('test operators', () => {
  it('looks operators up case-insensitively', () => {
    assert.equal(operatorNamed('EQUALS')?.name, 'equals');
    assert.equal(operatorNamed('eq'), undefined);
  });

  it('equals: any found value equals any given value, exactly and case-sensitively', () => {
    assert.equal(holds('equals', ['a', 'b'], ['b']), true);
    assert.equal(holds('equals', ['A'], ['a']), false);
    assert.equal(holds('equals', [], ['a']), false, 'missing property');
    assert.equal(holds('equals', [30], ['30']), true, 'numbers compare by their text');
    assert.equal(holds('equals', [true], ['true']), true);
  });

  it('contains_any: the lists share an element', () => {
    assert.equal(holds('contains_any', ['urn:li:tag:a', 'urn:li:tag:b'], ['urn:li:tag:x', 'urn:li:tag:b']), true);
    assert.equal(holds('contains_any', ['urn:li:tag:a'], ['urn:li:tag:x']), false);
    assert.equal(holds('contains_any', [], ['urn:li:tag:x']), false, 'empty list');
  });

  it('contains_str and starts_with: substring and prefix of any value', () => {
    assert.equal(holds('contains_str', ['sales orders'], ['ord']), true);
    assert.equal(holds('contains_str', ['sales orders'], ['ORD']), false);
    assert.equal(holds('starts_with', ['sales.orders'], ['sales.']), true);
    assert.equal(holds('starts_with', ['sales.orders'], ['orders']), false);
    assert.equal(holds('starts_with', [], ['x']), false);
  });

  it('regex_match: the whole string must match (anchored)', () => {
    assert.equal(holds('regex_match', ['orders_v2'], ['orders_v\\d']), true);
    assert.equal(holds('regex_match', ['raw_orders_v2'], ['orders_v\\d']), false, 'no partial match');
    assert.equal(holds('regex_match', ['orders_v2x'], ['orders_v\\d']), false, 'anchored at the end');
    assert.equal(holds('regex_match', ['a', 'b'], ['x|b']), true, 'alternation stays inside the anchors');
    assert.equal(holds('regex_match', [], ['.*']), false, 'missing property');
    assert.match(op('regex_match').checkValues!(['(']) ?? '', /^invalid regular expression "\(": /);
  });

  it('regex_match runs in linear time: a catastrophic-backtracking pattern cannot stall the server', () => {
    const started = performance.now();
    assert.equal(holds('regex_match', ['a'.repeat(100_000) + '!'], ['(a+)+b']), false);
    assert.equal(holds('regex_match', ['x'.repeat(50_000)], ['(x|x)*y']), false);
    assert.ok(performance.now() - started < 2_000, `took ${performance.now() - started} ms`);
  });

  it('greater_than and less_than: 64-bit float comparison', () => {
    assert.equal(holds('greater_than', [3000000000], ['2147483648']), true, 'no 32-bit truncation');
    assert.equal(holds('greater_than', ['10.5'], ['10.25']), true);
    assert.equal(holds('less_than', [-1], ['0']), true);
    assert.equal(holds('greater_than', [5], ['5']), false);
    assert.equal(holds('greater_than', ['abc'], ['1']), false, 'non-numeric values do not compare');
    assert.equal(holds('less_than', [], ['1']), false, 'missing property');
    assert.equal(holds('greater_than', [1, 100], ['50']), true, 'any of the values');
  });

  it('greater_than and less_than compare ISO dates and epoch millis as instants', () => {
    assert.equal(holds('greater_than', ['2024-05-02'], ['2024-05-01']), true);
    assert.equal(holds('less_than', ['2024-05-01T10:00:00Z'], ['2024-05-01T11:00:00Z']), true);
    assert.equal(holds('greater_than', [Date.UTC(2024, 4, 2)], ['2024-05-01']), true, 'epoch millis against a date');
    assert.equal(holds('less_than', ['2024-05-01'], [String(Date.UTC(2024, 4, 2))]), true, 'a date against epoch millis');
    assert.equal(comparable('2024-02-30x'), undefined);
    assert.match(op('greater_than').checkValues!(['soon']) ?? '', /numbers, ISO dates or epoch milliseconds/);
  });

  it('exists: some value is present (not null, not an empty string, not an empty list)', () => {
    assert.equal(holds('exists', ['x']), true);
    assert.equal(holds('exists', [0]), true);
    assert.equal(holds('exists', [false]), true);
    assert.equal(holds('exists', []), false, 'missing property');
    assert.equal(holds('exists', ['']), false, 'empty string');
    assert.equal(holds('exists', [[]]), false, 'empty list');
    assert.equal(holds('exists', [null]), false);
  });

  it('is_true: some value is neither "" nor false', () => {
    assert.equal(holds('is_true', [true]), true);
    assert.equal(holds('is_true', ['TRUE']), true);
    assert.equal(holds('is_true', ['0']), true, 'any other string counts as true, as in DataHub');
    assert.equal(holds('is_true', [false]), false);
    assert.equal(holds('is_true', ['False', '']), false);
    assert.equal(holds('is_true', []), false, 'missing property');
  });

  it('is_false: missing, any false, or all empty', () => {
    assert.equal(holds('is_false', []), true, 'a missing property counts as false');
    assert.equal(holds('is_false', [false]), true);
    assert.equal(holds('is_false', ['FALSE', 'x']), true);
    assert.equal(holds('is_false', ['', '']), true);
    assert.equal(holds('is_false', [true]), false);
  });

  it('schema_fields_have_descriptions: at least one field, each with a description or editable description', () => {
    const op = 'schema_fields_have_descriptions';
    assert.equal(holds(op, [{ fieldPath: 'a', description: 'x' }, { fieldPath: 'b', editableDescription: 'y' }]), true);
    assert.equal(holds(op, [{ fieldPath: 'a', description: 'x' }, { fieldPath: 'b', description: '' }]), false);
    assert.equal(holds(op, []), false, 'no fields');
  });
});
