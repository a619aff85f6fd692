/**
 * A reader of Pegasus schema files (PDL), the language DataHub's model is written in: just what
 * the registry generator needs — named records, enums, typerefs and fixed types, with their
 * fields, types, optionality, defaults and annotations. Doc comments are skipped: the generator
 * carries facts over, not prose.
 */

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** Annotations as PDL nests them: `@Searchable = {…}` and `@Searchable.fieldType = "TEXT"` alike. */
export type Annotations = Record<string, Json>;

export type TypeExpr =
  | { kind: 'primitive'; name: Primitive }
  | { kind: 'ref'; name: string }
  | { kind: 'array'; items: TypeExpr }
  | { kind: 'map'; values: TypeExpr }
  | { kind: 'union'; members: UnionMember[] }
  | { kind: 'inline'; def: NamedType };

export type Primitive = 'string' | 'int' | 'long' | 'float' | 'double' | 'boolean' | 'bytes' | 'null';

export interface UnionMember {
  /** The member's alias, when the union names its members (`union[a: A, b: B]`). */
  alias?: string;
  type: TypeExpr;
}

export interface Field {
  name: string;
  type: TypeExpr;
  optional: boolean;
  default?: Json;
  annotations: Annotations;
}

export type NamedType =
  | { kind: 'record'; name: string; includes: TypeExpr[]; fields: Field[]; annotations: Annotations }
  | { kind: 'enum'; name: string; symbols: string[]; annotations: Annotations }
  | { kind: 'typeref'; name: string; ref: TypeExpr; annotations: Annotations }
  | { kind: 'fixed'; name: string; size: number; annotations: Annotations };

export class PdlError extends Error {
  override name = 'PdlError';
}

const PRIMITIVES = new Set<string>(['string', 'int', 'long', 'float', 'double', 'boolean', 'bytes', 'null']);

type Token = { kind: 'word' | 'string' | 'number' | 'punct'; text: string; value?: Json; at: number };

/** Every named type a file defines (its top-level type and the ones defined inline), by full name. */
export function parsePdl(source: string, file: string): NamedType[] {
  return new Parser(tokenize(source, file), file).parseFile();
}

function tokenize(source: string, file: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  const fail = (message: string): never => {
    throw new PdlError(`${file}:${lineOf(source, i)}: ${message}`);
  };
  while (i < source.length) {
    const c = source[i];
    if (/\s|,/.test(c)) {
      // Commas separate like whitespace does in PDL (fields, symbols, JSON members alike).
      if (c === ',') tokens.push({ kind: 'punct', text: ',', at: i });
      i++;
    } else if (source.startsWith('//', i)) {
      i = source.indexOf('\n', i) === -1 ? source.length : source.indexOf('\n', i);
    } else if (source.startsWith('/*', i)) {
      const end = source.indexOf('*/', i + 2);
      if (end === -1) fail('a comment is not closed');
      i = end + 2;
    } else if (c === '"') {
      let j = i + 1;
      while (j < source.length && source[j] !== '"') j += source[j] === '\\' ? 2 : 1;
      if (j >= source.length) fail('a string is not closed');
      const text = source.slice(i, j + 1);
      tokens.push({ kind: 'string', text, value: JSON.parse(text) as string, at: i });
      i = j + 1;
    } else if (/[-0-9]/.test(c)) {
      const match = /^-?\d+(\.\d+)?([eE][-+]?\d+)?/.exec(source.slice(i));
      if (!match) fail(`unexpected ${JSON.stringify(c)}`);
      tokens.push({ kind: 'number', text: match![0], value: Number(match![0]), at: i });
      i += match![0].length;
    } else if (c === '`') {
      const end = source.indexOf('`', i + 1);
      if (end === -1) fail('an escaped name is not closed');
      tokens.push({ kind: 'word', text: source.slice(i, end + 1), at: i });
      i = end + 1;
    } else if (/[A-Za-z_$]/.test(c)) {
      const match = /^[A-Za-z_$][A-Za-z0-9_$]*(\.(`[^`]*`|[A-Za-z_$][A-Za-z0-9_$]*))*/.exec(source.slice(i))!;
      // Backquoted segments stay whole (`@validate.\`a.b.C\``: one key); names elsewhere lose the quotes.
      tokens.push({ kind: 'word', text: match[0], at: i });
      i += match[0].length;
    } else if ('{}[]():=@?'.includes(c)) {
      tokens.push({ kind: 'punct', text: c, at: i });
      i++;
    } else {
      fail(`unexpected ${JSON.stringify(c)}`);
    }
  }
  return tokens;
}

function lineOf(source: string, at: number): number {
  let line = 1;
  for (let i = 0; i < at && i < source.length; i++) if (source[i] === '\n') line++;
  return line;
}

class Parser {
  private at = 0;
  private namespace = '';
  private readonly imports = new Map<string, string>();
  private readonly defined: NamedType[] = [];

  constructor(
    private readonly tokens: Token[],
    private readonly fileName: string,
  ) {}

  parseFile(): NamedType[] {
    if (this.peekWord('namespace')) {
      this.next();
      this.namespace = this.word();
    }
    if (this.peekWord('package')) {
      this.next();
      this.word();
    }
    while (this.peekWord('import')) {
      this.next();
      const full = this.word();
      this.imports.set(full.slice(full.lastIndexOf('.') + 1), full);
    }
    this.namedType(this.annotations());
    if (this.at < this.tokens.length) this.fail(`unexpected ${this.tokens[this.at].text} after the type`);
    return this.defined;
  }

  /** `record`, `enum`, `typeref` or `fixed`, with the annotations read before it. */
  private namedType(annotations: Annotations): NamedType {
    const keyword = this.word();
    const name = this.fullName(this.word());
    let type: NamedType;
    switch (keyword) {
      case 'record': {
        const includes: TypeExpr[] = [];
        if (this.peekWord('includes')) {
          this.next();
          do {
            this.skipCommas();
            includes.push(this.typeExpr());
          } while (this.peek()?.text === ',');
        }
        const fields = this.fields();
        // Includes may also come after the fields.
        if (this.peekWord('includes')) {
          this.next();
          do {
            this.skipCommas();
            includes.push(this.typeExpr());
          } while (this.peek()?.text === ',');
        }
        type = { kind: 'record', name, includes, fields, annotations };
        break;
      }
      case 'enum':
        type = { kind: 'enum', name, symbols: this.symbols(), annotations };
        break;
      case 'typeref':
        this.expect('=');
        type = { kind: 'typeref', name, ref: this.typeExpr(), annotations };
        break;
      case 'fixed':
        type = { kind: 'fixed', name, size: Number(this.expectKind('number').value), annotations };
        break;
      default:
        return this.fail(`expected record, enum, typeref or fixed, found ${keyword}`);
    }
    this.defined.push(type);
    return type;
  }

  private fields(): Field[] {
    this.expect('{');
    const fields: Field[] = [];
    for (;;) {
      this.skipCommas();
      if (this.peek()?.text === '}') break;
      const annotations = this.annotations();
      if (this.peek()?.text === '}') break;
      const name = this.word();
      this.expect(':');
      let optional = false;
      if (this.peekWord('optional')) {
        this.next();
        optional = true;
      }
      const type = this.typeExpr();
      let defaultValue: Json | undefined;
      if (this.peek()?.text === '=') {
        this.next();
        defaultValue = this.json();
      }
      fields.push({ name, type, optional, ...(defaultValue === undefined ? {} : { default: defaultValue }), annotations });
    }
    this.expect('}');
    return fields;
  }

  private symbols(): string[] {
    this.expect('{');
    const symbols: string[] = [];
    for (;;) {
      this.skipCommas();
      this.annotations();
      if (this.peek()?.text === '}') break;
      symbols.push(this.word());
    }
    this.expect('}');
    return symbols;
  }

  private typeExpr(): TypeExpr {
    const token = this.peek();
    if (!token) return this.fail('expected a type');
    if (token.text === '@' || ['record', 'enum', 'typeref', 'fixed'].includes(token.text)) {
      return { kind: 'inline', def: this.namedType(this.annotations()) };
    }
    const word = this.word();
    if (word === 'array' || word === 'map' || word === 'union') {
      this.expect('[');
      let type: TypeExpr;
      if (word === 'array') type = { kind: 'array', items: this.typeExpr() };
      else if (word === 'map') {
        const key = this.typeExpr();
        if (!(key.kind === 'primitive' && key.name === 'string')) this.fail('a map is keyed by string');
        this.skipCommas();
        type = { kind: 'map', values: this.typeExpr() };
      } else {
        const members: UnionMember[] = [];
        for (;;) {
          this.skipCommas();
          if (this.peek()?.text === ']') break;
          this.annotations();
          const next = this.tokens[this.at + 1];
          if (this.peek()?.kind === 'word' && next?.text === ':') {
            const alias = this.word();
            this.expect(':');
            members.push({ alias, type: this.typeExpr() });
          } else {
            members.push({ type: this.typeExpr() });
          }
        }
        type = { kind: 'union', members };
      }
      this.expect(']');
      return type;
    }
    if (PRIMITIVES.has(word)) return { kind: 'primitive', name: word as Primitive };
    return { kind: 'ref', name: this.resolve(word) };
  }

  /** Annotations before a declaration: `@a.b = value` or a bare `@a` (true). */
  private annotations(): Annotations {
    const annotations: Annotations = {};
    while (this.peek()?.text === '@') {
      this.next();
      const path = (this.rawWord().match(/`[^`]*`|[^.]+/g) ?? []).map((segment) => segment.replace(/`/g, ''));
      let value: Json = true;
      if (this.peek()?.text === '=') {
        this.next();
        value = this.json();
      }
      let target = annotations;
      for (const key of path.slice(0, -1)) {
        const existing = target[key];
        target = (existing && typeof existing === 'object' && !Array.isArray(existing) ? existing : (target[key] = {})) as Record<string, Json>;
      }
      target[path[path.length - 1]] = value;
    }
    return annotations;
  }

  /** A JSON value, as annotations and defaults write them. */
  private json(): Json {
    const token = this.next();
    if (token.kind === 'string' || token.kind === 'number') return token.value!;
    if (token.kind === 'word') {
      if (token.text === 'true') return true;
      if (token.text === 'false') return false;
      if (token.text === 'null') return null;
      return this.fail(`unexpected ${token.text} in a value`);
    }
    if (token.text === '[') {
      const items: Json[] = [];
      for (;;) {
        this.skipCommas();
        if (this.peek()?.text === ']') break;
        items.push(this.json());
      }
      this.expect(']');
      return items;
    }
    if (token.text === '{') {
      const members: Record<string, Json> = {};
      for (;;) {
        this.skipCommas();
        if (this.peek()?.text === '}') break;
        const key = this.next();
        if (key.kind !== 'string' && key.kind !== 'word') this.fail('expected a member name');
        this.expect(':');
        members[key.kind === 'string' ? (key.value as string) : key.text] = this.json();
      }
      this.expect('}');
      return members;
    }
    return this.fail(`unexpected ${token.text} in a value`);
  }

  /** A name as written, made full: imported, or in this file's namespace. */
  private resolve(name: string): string {
    if (name.includes('.')) return name;
    return this.imports.get(name) ?? (this.namespace ? `${this.namespace}.${name}` : name);
  }

  private fullName(name: string): string {
    return name.includes('.') || !this.namespace ? name : `${this.namespace}.${name}`;
  }

  private skipCommas(): void {
    while (this.peek()?.text === ',') this.at++;
  }

  private peek(): Token | undefined {
    return this.tokens[this.at];
  }

  private peekWord(word: string): boolean {
    const token = this.peek();
    return token?.kind === 'word' && token.text === word;
  }

  private next(): Token {
    const token = this.tokens[this.at++];
    if (!token) this.fail('unexpected end of file');
    return token!;
  }

  /** A name, its backquotes removed. */
  private word(): string {
    return this.rawWord().replace(/`/g, '');
  }

  private rawWord(): string {
    const token = this.next();
    if (token.kind !== 'word') this.fail(`expected a name, found ${token.text}`);
    return token.text;
  }

  private expect(text: string): void {
    const token = this.next();
    if (token.text !== text) this.fail(`expected ${text}, found ${token.text}`);
  }

  private expectKind(kind: Token['kind']): Token {
    const token = this.next();
    if (token.kind !== kind) this.fail(`expected a ${kind}, found ${token.text}`);
    return token;
  }

  private fail(message: string): never {
    const token = this.tokens[Math.min(this.at, this.tokens.length - 1)];
    throw new PdlError(`${this.fileName} (near offset ${token?.at ?? 0}): ${message}`);
  }
}
