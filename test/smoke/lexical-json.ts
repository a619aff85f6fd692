/**
 * JSON that remembers how its numbers were written. DataHub's smoke runner compares bodies in
 * Python, where `30` is an int and `30.0` a float and DeepDiff reports the difference as a type
 * change; `JSON.parse` forgets it. Fixtures expect `{"double": 30.0}` where a server that
 * answers `30` would fail DataHub's own check, so both the fixture and the response text are
 * read with this parser, which keeps each number's lexeme and its Python type.
 */

export class JsonNumber {
  /** `int` when the lexeme has no fraction or exponent (Python's json.loads gives an int), else `float`. */
  readonly kind: 'int' | 'float';
  constructor(readonly lexeme: string) {
    this.kind = /[.eE]/.test(lexeme) ? 'float' : 'int';
  }
  /** The value as Python holds it: ints exactly, floats as doubles. */
  canonical(): string {
    return this.kind === 'int' ? BigInt(this.lexeme).toString() : String(Number(this.lexeme));
  }
}

export type LexicalJson = null | boolean | string | JsonNumber | LexicalJson[] | { [key: string]: LexicalJson };

export function isObject(value: LexicalJson): value is { [key: string]: LexicalJson } {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof JsonNumber);
}

export class JsonSyntaxError extends Error {}

/** Parses strict JSON (RFC 8259); a duplicated key keeps its last value, as Python's json does. */
export function parseLexical(text: string): LexicalJson {
  let at = 0;
  const fail = (what: string): never => {
    throw new JsonSyntaxError(`${what} at offset ${at}`);
  };
  const space = () => {
    while (at < text.length && (text[at] === ' ' || text[at] === '\t' || text[at] === '\n' || text[at] === '\r')) at++;
  };
  const literal = (word: string, value: LexicalJson): LexicalJson => {
    if (text.startsWith(word, at)) {
      at += word.length;
      return value;
    }
    return fail('unexpected token');
  };
  const string = (): string => {
    const start = at;
    // JSON's string grammar is a subset of JavaScript's string literal grammar: let JSON.parse decode it.
    at++;
    while (at < text.length && text[at] !== '"') {
      if (text[at] === '\\') at++;
      else if (text.charCodeAt(at) < 0x20) fail('control character in string');
      at++;
    }
    if (at >= text.length) fail('unterminated string');
    at++;
    return JSON.parse(text.slice(start, at)) as string;
  };
  const number = (): JsonNumber => {
    const match = /^-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?/.exec(text.slice(at, at + 400));
    if (!match || match[0].length === 0) return fail('unexpected token');
    at += match[0].length;
    return new JsonNumber(match[0]);
  };
  let depth = 0;
  const value = (): LexicalJson => {
    space();
    const c = text[at];
    if (c === '{') {
      if (++depth > 1000) fail('nested too deeply');
      at++;
      const object: { [key: string]: LexicalJson } = {};
      space();
      if (text[at] === '}') {
        at++;
        depth--;
        return object;
      }
      for (;;) {
        space();
        if (text[at] !== '"') fail('expected a key');
        const key = string();
        space();
        if (text[at] !== ':') fail("expected ':'");
        at++;
        Object.defineProperty(object, key, { value: value(), enumerable: true, writable: true, configurable: true });
        space();
        if (text[at] === ',') {
          at++;
          continue;
        }
        if (text[at] === '}') {
          at++;
          depth--;
          return object;
        }
        fail("expected ',' or '}'");
      }
    }
    if (c === '[') {
      if (++depth > 1000) fail('nested too deeply');
      at++;
      const list: LexicalJson[] = [];
      space();
      if (text[at] === ']') {
        at++;
        depth--;
        return list;
      }
      for (;;) {
        list.push(value());
        space();
        if (text[at] === ',') {
          at++;
          continue;
        }
        if (text[at] === ']') {
          at++;
          depth--;
          return list;
        }
        fail("expected ',' or ']'");
      }
    }
    if (c === '"') return string();
    if (c === 't') return literal('true', true);
    if (c === 'f') return literal('false', false);
    if (c === 'n') return literal('null', null);
    return number();
  };
  const result = value();
  space();
  if (at !== text.length) fail('trailing characters');
  return result;
}

/** Serializes as Python's json.dumps would send it (numbers exactly as written), compactly. */
export function stringifyLexical(value: LexicalJson): string {
  if (value instanceof JsonNumber) return value.lexeme;
  if (Array.isArray(value)) return `[${value.map(stringifyLexical).join(',')}]`;
  if (isObject(value)) return `{${Object.entries(value).map(([k, v]) => `${JSON.stringify(k)}:${stringifyLexical(v)}`).join(',')}}`;
  return JSON.stringify(value);
}

/** A plain JavaScript value (numbers as numbers), for the few places that need one. */
export function toPlain(value: LexicalJson): unknown {
  if (value instanceof JsonNumber) return Number(value.lexeme);
  if (Array.isArray(value)) return value.map(toPlain);
  if (isObject(value)) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, toPlain(v)]));
  return value;
}
