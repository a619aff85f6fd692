import fc from 'fast-check';

/**
 * The building blocks of hostile requests: strings that break parsers, URNs valid and mutated,
 * and the ways a string can travel in a URL (well encoded, raw, or with broken escapes).
 */

/** Keys that reach Object.prototype when code indexes plain objects with client text. */
export const PROTOTYPE_KEYS = ['__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty', 'valueOf', '__defineGetter__'];

/** Characters that mean something to URNs, URLs, JSON, query languages, SQL or FTS5. */
const NASTY_CHARS = [
  '(', ')', ',', ':', '%', '/', '\\', '?', '#', '&', '=', '+', '[', ']', '{', '}', '"', "'", ' ', '*', '~', '.', '-', '^', '$', '|', ';',
  '\u0000', '\t', '\n', '\r', '\u007f', '\u00ff', '\u00e9', '\u0301', '\u202e', '\ufeff', '\ufffd', '\ud800', '\udc00', '😀', '𝕏', '中',
];

/** Byte sequences that are not UTF-8: a lone continuation byte, an overlong slash, a surrogate, 0xFF. */
export const INVALID_UTF8 = [[0xff], [0x80], [0xc0, 0xaf], [0xed, 0xa0, 0x80], [0xf8, 0x88, 0x80, 0x80, 0x80], [0xe2, 0x82], [0xfe, 0xfe, 0xff, 0xff]];

export const nastyChar = fc.constantFrom(...NASTY_CHARS);

/** Any text: arbitrary code points (lone surrogates included), or runs of the characters above. */
export const anyText = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.array(nastyChar, { maxLength: 20 }).map((chars) => chars.join('')),
  fc.constantFrom('', ' ', '*', 'null', 'true', '-1', '0', '1e309', '9007199254740993', 'NaN', 'undefined', ...PROTOTYPE_KEYS),
);

/** A string edited a few times: characters inserted, removed, replaced, repeated or cut off. */
export function mutated(base: fc.Arbitrary<string>): fc.Arbitrary<string> {
  const edit = fc.tuple(fc.constantFrom('insert', 'delete', 'replace', 'repeat', 'truncate', 'wrap'), fc.nat(), fc.nat({ max: 4000 }), anyText);
  return fc.tuple(base, fc.array(edit, { minLength: 1, maxLength: 4 })).map(([text, edits]) => {
    let s = text;
    for (const [kind, at, n, piece] of edits) {
      const i = s.length === 0 ? 0 : at % (s.length + 1);
      if (kind === 'insert') s = s.slice(0, i) + piece + s.slice(i);
      else if (kind === 'delete') s = s.slice(0, i) + s.slice(i + 1 + (n % 8));
      else if (kind === 'replace') s = s.slice(0, i) + piece + s.slice(i + 1);
      else if (kind === 'repeat') s = s.slice(0, i) + s.slice(i, i + 8).repeat(n % 500) + s.slice(i);
      else if (kind === 'truncate') s = s.slice(0, i);
      else s = `(${s})`.repeat(1 + (n % 3));
    }
    return s;
  });
}

export const SEED_DATASETS = ['hostile.orders', 'hostile.customers'].map((name) => `urn:li:dataset:(urn:li:dataPlatform:hive,${name},PROD)`);
export const SEED_PROPERTY = 'urn:li:structuredProperty:hostile.retention';
export const SEED_TEST = 'urn:li:test:hostile.owned';

/** URNs of the seeded catalog and others of many types, well formed. */
export const wellFormedUrn = fc.oneof(
  fc.constantFrom(...SEED_DATASETS, SEED_PROPERTY, SEED_TEST, 'urn:li:tag:gold', 'urn:li:corpuser:alice', 'urn:li:glossaryTerm:pii', 'urn:li:domain:sales'),
  fc.constantFrom('hive', 'snowflake', 's3').chain((platform) =>
    fc.tuple(fc.string({ unit: 'grapheme-ascii', minLength: 1, maxLength: 20 }), fc.constantFrom('PROD', 'DEV', 'prod', 'MARS')).map(
      ([name, fabric]) => `urn:li:dataset:(urn:li:dataPlatform:${platform},${name},${fabric})`,
    ),
  ),
  fc.tuple(fc.constantFrom('chart', 'dashboard', 'tag', 'corpuser', 'container', 'dataFlow', 'schemaField', 'test'), fc.string({ unit: 'grapheme-ascii', maxLength: 20 })).map(
    ([type, id]) => `urn:li:${type}:${id}`,
  ),
);

/** URNs valid, mutated, absurd, nested a thousand parentheses deep, or far too long. */
export const hostileUrn = fc.oneof(
  { weight: 4, arbitrary: wellFormedUrn },
  { weight: 4, arbitrary: mutated(wellFormedUrn) },
  { weight: 1, arbitrary: anyText },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      'urn:li:',
      'urn:li:dataset:',
      'urn:li:dataset:()',
      'urn:li:dataset:(,,)',
      'urn:li:dataset:(urn:li:dataPlatform:hive,a,PROD',
      'urn:li:__proto__:x',
      'urn:li:constructor:prototype',
      `urn:li:dataset:(urn:li:dataPlatform:hive,${'('.repeat(1000)}x${')'.repeat(1000)},PROD)`,
      `urn:li:dataset:(urn:li:dataPlatform:hive,${'x'.repeat(9000)},PROD)`,
      'URN:LI:DATASET:(URN:LI:DATAPLATFORM:HIVE,A,PROD)',
    ),
  },
);

/** Percent-encodes the UTF-8 bytes of a string (lone surrogates become U+FFFD, as TextEncoder does). */
export function percentEncode(text: string): string {
  let out = '';
  for (const byte of Buffer.from(text, 'utf8')) {
    const c = String.fromCharCode(byte);
    out += /[A-Za-z0-9\-_.~]/.test(c) ? c : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

/** Raw in a request line: characters Node refuses to send there are encoded, bytes 0x80–0xFF go out raw. */
export function rawInPath(text: string): string {
  let out = '';
  for (const c of text) out += c >= '\u0021' && c <= '\u00ff' ? c : percentEncode(c);
  return out;
}

/** How a piece of text travels in a URL: well encoded (mostly), raw, or with broken or non-UTF-8 escapes. */
export function inUrl(text: fc.Arbitrary<string>): fc.Arbitrary<string> {
  const badEscape = fc.constantFrom('%', '%G0', '%2', '%%', '%00', '%2F', '%2e%2e', ...INVALID_UTF8.map((bytes) => bytes.map((b) => `%${b.toString(16).toUpperCase()}`).join('')));
  return fc.oneof(
    { weight: 6, arbitrary: text.map(percentEncode) },
    { weight: 1, arbitrary: text.map(rawInPath) },
    { weight: 1, arbitrary: fc.tuple(text.map(percentEncode), fc.nat(), badEscape).map(([s, at, bad]) => s.slice(0, at % (s.length + 1)) + bad + s.slice(at % (s.length + 1))) },
  );
}
