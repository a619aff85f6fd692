import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { compareJson, excluder, keyPath, pythonRepr } from './compare.js';
import { JsonNumber, JsonSyntaxError, parseLexical, stringifyLexical } from './lexical-json.js';

/** Compares two JSON texts as the smoke runner compares a response with a fixture. */
const cmp = (actual: string, expected: string, exclude: string[] = []) => compareJson(parseLexical(actual), parseLexical(expected), exclude);

describe('lexical JSON', () => {
  it('keeps how each number was written, and its Python type', () => {
    const doc = parseLexical('{"a": 30, "b": 30.0, "c": 3e1, "d": -0, "e": 12345678901234567890}') as Record<string, JsonNumber>;
    assert.deepEqual(
      Object.entries(doc).map(([k, n]) => [k, n.lexeme, n.kind]),
      [['a', '30', 'int'], ['b', '30.0', 'float'], ['c', '3e1', 'float'], ['d', '-0', 'int'], ['e', '12345678901234567890', 'int']],
    );
    assert.equal(stringifyLexical(parseLexical('{"double": 60.0, "list": [1, 2.50]}')), '{"double":60.0,"list":[1,2.50]}');
  });

  it('refuses what is not strict JSON, naming the offset', () => {
    for (const text of ['', '{', '{"a":1,}', '[1 2]', "{'a':1}", '01', '1.', 'NaN', '"\u0001"', '{"a":1} x', 'tru']) {
      assert.throws(() => parseLexical(text), JsonSyntaxError, text);
    }
    assert.throws(() => parseLexical('[1,]'), /unexpected token at offset 3/);
  });

  it('keeps the last of duplicated keys, as Python does, and "__proto__" as a plain key', () => {
    assert.equal(stringifyLexical(parseLexical('{"a": 1, "a": 2}')), '{"a":2}');
    const doc = parseLexical('{"__proto__": {"x": 1}}') as Record<string, unknown>;
    assert.ok(Object.hasOwn(doc, '__proto__'));
    assert.equal(Object.getPrototypeOf(doc), Object.prototype);
  });

  it('decodes string escapes as JSON does', () => {
    assert.equal(parseLexical('"a\\"b\\\\c\\u00e7\\n"'), 'a"b\\cç\n');
  });
});

describe('DeepDiff path notation', () => {
  it("writes keys as Python's repr and indexes as numbers", () => {
    assert.equal(keyPath('root', 'scrollId'), "root['scrollId']");
    assert.equal(keyPath('root', "it's"), 'root["it\'s"]');
    assert.equal(keyPath('root', `a'b"c`), "root['a\\'b\"c']");
    assert.equal(pythonRepr('back\\slash\tand\nnew'), "'back\\\\slash\\tand\\nnew'");
  });

  it('searches the regexes anywhere in the path, as re.search does', () => {
    const excluded = excluder(["root\\['message'\\]", "root\\[.+?\\]\\['timestamp'\\]", '(?i)ROOT\\[0\\]']);
    assert.ok(excluded("root['message']"));
    assert.ok(excluded("root['message']['detail']"));
    assert.ok(!excluded("root['messages']"));
    assert.ok(excluded("root[3]['timestamp']"));
    assert.ok(excluded("root[3]['changeEvents'][0]['timestamp']"));
    assert.ok(excluded('root[0]'));
    assert.throws(() => excluder(['root\\Z']), /no JavaScript equivalent/);
  });
});

describe('comparing a response with a fixture', () => {
  it('passes equal bodies whatever their key order', () => {
    assert.deepEqual(cmp('{"a": 1, "b": {"c": [true, null]}}', '{"b": {"c": [true, null]}, "a": 1}'), []);
  });

  it('fails an extra key and a missing key, naming each', () => {
    assert.deepEqual(cmp('{"urn": "u", "status": {"value": {}}}', '{"urn": "u"}'), ["root['status']: unexpected key, value {\"value\":{}}"]);
    assert.deepEqual(cmp('{"urn": "u"}', '{"urn": "u", "aspects": {}}'), ["root['aspects']: missing key, expected {}"]);
  });

  it("fails type changes as DeepDiff does: int is not float, '1' is not 1, true is not 1", () => {
    assert.deepEqual(cmp('{"double": 30}', '{"double": 30.0}'), ["root['double']: type int 30, expected float 30.0"]);
    assert.deepEqual(cmp('{"v": "1"}', '{"v": 1}'), ["root['v']: type str \"1\", expected int 1"]);
    assert.deepEqual(cmp('[true]', '[1]'), ['root[0]: type bool true, expected int 1']);
    assert.deepEqual(cmp('{"a": null}', '{"a": {}}'), ["root['a']: type NoneType null, expected dict {}"]);
    assert.deepEqual(cmp('{"a": []}', '{"a": {}}'), ["root['a']: type list [], expected dict {}"]);
  });

  it('compares floats by value and ints exactly, beyond what a double holds', () => {
    assert.deepEqual(cmp('[60.00, 1e2]', '[60.0, 100.0]'), []);
    assert.deepEqual(cmp('12345678901234567890', '12345678901234567891'), ['root: 12345678901234567890, expected 12345678901234567891']);
  });

  it('compares lists as multisets, recursively', () => {
    assert.deepEqual(cmp('[3, 1, 2]', '[1, 2, 3]'), []);
    assert.deepEqual(cmp('[{"t": [2, 1]}, {"t": [1]}]', '[{"t": [1]}, {"t": [1, 2]}]'), []);
    assert.deepEqual(cmp('[1, 1, 2]', '[1, 2, 2]'), ['root[1]: 1, expected 2']);
    assert.deepEqual(cmp('[1, 1]', '[1]'), ['root[1]: unexpected item 1']);
    assert.deepEqual(cmp('[1]', '[1, 1]'), ['root: missing item (expected index 1) 1']);
    assert.deepEqual(cmp('[{"a": 1}, {"a": 1}]', '[{"a": 1}, {"a": 2}]'), ["root[1]['a']: 1, expected 2"]);
  });

  it('says which items differ when several do', () => {
    assert.deepEqual(cmp('["x", "y", "z"]', '["z", "p", "q"]'), [
      'root[0]: unexpected item "x"',
      'root[1]: unexpected item "y"',
      'root: missing item (expected index 1) "p"',
      'root: missing item (expected index 2) "q"',
    ]);
  });

  it('leaves excluded paths out on both sides, present or not', () => {
    const exclude = ["root\\['message'\\]", "root\\['scrollId'\\]"];
    assert.deepEqual(cmp('{"error": "Validation Error", "message": "details"}', '{"error": "Validation Error"}', exclude), []);
    assert.deepEqual(cmp('{"error": "E"}', '{"error": "E", "scrollId": "abc"}', exclude), []);
    assert.deepEqual(cmp('{"error": "F", "message": "m"}', '{"error": "E"}', exclude), ["root['error']: \"F\", expected \"E\""]);
  });

  it("applies an indexed exclusion to each list item at its own index, as DeepDiff hashes each side's items", () => {
    const actual = '{"entities": [{"urn": "a", "t": 5}, {"urn": "b", "t": 6}]}';
    const expected = '{"entities": [{"urn": "b", "t": 9}, {"urn": "a", "t": 7}]}';
    assert.deepEqual(cmp(actual, expected, ["root\\['entities'\\]\\[.+?\\]\\['t'\\]"]), []);
    assert.notDeepEqual(cmp(actual, expected, ["root\\['entities'\\]\\[0\\]\\['t'\\]"]), []);
    // Only the first item's t is excluded: equal when the first items correspond.
    assert.deepEqual(cmp('[{"u": "a", "t": 1}, {"u": "b", "t": 2}]', '[{"u": "a", "t": 9}, {"u": "b", "t": 2}]', ['root\\[0\\]\\[\'t\'\\]']), []);
  });

  it('excludes nested paths inside matched items', () => {
    const exclude = ["root\\['dataJobInputOutput'\\]\\['value'\\]\\['(input|output)DatasetEdges'\\]\\[\\d+\\]\\['(created|lastModified)'\\]"];
    const actual = '{"dataJobInputOutput": {"value": {"inputDatasetEdges": [{"destinationUrn": "d", "created": {"time": 1}}]}}}';
    const expected = '{"dataJobInputOutput": {"value": {"inputDatasetEdges": [{"destinationUrn": "d"}]}}}';
    assert.deepEqual(cmp(actual, expected, exclude), []);
    assert.deepEqual(cmp(actual.replace('"d"', '"e"'), expected, exclude), [
      "root['dataJobInputOutput']['value']['inputDatasetEdges'][0]['destinationUrn']: \"e\", expected \"d\"",
    ]);
  });

  it('fails a wrong body of the shape DataHub answers, at the right place', () => {
    const expected = `{"urn": "urn:li:structuredProperty:p", "aspects": {"propertyDefinition": {"value": {
      "allowedValues": [{"value": {"double": 30.0}, "description": "a"}, {"value": {"double": 60.0}, "description": "b"}],
      "entityTypes": ["urn:li:entityType:datahub.dataset", "urn:li:entityType:datahub.dataFlow"], "cardinality": "MULTIPLE"}}}}`;
    assert.deepEqual(cmp(expected, expected), []);
    const reordered = expected.replace('"urn:li:entityType:datahub.dataset", "urn:li:entityType:datahub.dataFlow"', '"urn:li:entityType:datahub.dataFlow", "urn:li:entityType:datahub.dataset"');
    assert.deepEqual(cmp(reordered, expected), []);
    assert.deepEqual(cmp(expected.replace('"MULTIPLE"', '"SINGLE"'), expected), [
      "root['aspects']['propertyDefinition']['value']['cardinality']: \"SINGLE\", expected \"MULTIPLE\"",
    ]);
    assert.deepEqual(cmp(expected.replace('"double": 60.0', '"double": 60'), expected), [
      "root['aspects']['propertyDefinition']['value']['allowedValues'][1]['value']['double']: type int 60, expected float 60.0",
    ]);
    // A duplicate in place of a missing item: the multiset comparison notices.
    assert.deepEqual(cmp(expected.replace('urn:li:entityType:datahub.dataFlow', 'urn:li:entityType:datahub.dataset'), expected), [
      "root['aspects']['propertyDefinition']['value']['entityTypes'][1]: \"urn:li:entityType:datahub.dataset\", expected \"urn:li:entityType:datahub.dataFlow\"",
    ]);
  });
});
