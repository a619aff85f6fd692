/**
 * The search query language: a documented subset of Elasticsearch's `query_string`. Free words,
 * "phrases", `field:value` (prefix with a trailing `*`), `field:"phrase"`, ranges `field:>=n`,
 * `_exists_:field`, AND / OR / NOT (also `&&`, `||`, `!`, `-`, `+`) and parentheses. Juxtaposed
 * clauses are joined by AND, as DataHub's search does. Which fields exist is checked downstream.
 */

import { ValidationError } from '../errors.js';
import { quoted } from '../limits.js';

/** A parsed query. Columns are 1-based positions in the query text, for error messages downstream. */
export type QueryNode =
  | { kind: 'all' }
  | { kind: 'and' | 'or'; children: QueryNode[] }
  | { kind: 'not'; child: QueryNode }
  | { kind: 'term'; field?: string; value: string; prefix: boolean; column: number }
  | { kind: 'phrase'; field?: string; value: string; column: number }
  | { kind: 'range'; field: string; op: '>' | '>=' | '<' | '<='; value: string; column: number }
  | { kind: 'exists'; field: string; column: number };

/** A ValidationError, so that it is a 400 wherever it surfaces. */
export class QuerySyntaxError extends ValidationError {
  override name = 'QuerySyntaxError';
  constructor(
    readonly column: number,
    readonly reason: string,
  ) {
    super(`Invalid query at column ${column}: ${reason}`);
  }
}

export const MAX_QUERY_LENGTH = 4096;

/** Parentheses nest by recursion; the cap keeps any input far from the stack limit. */
const MAX_DEPTH = 100;

export function parseQuery(text: string): QueryNode {
  if (text.length > MAX_QUERY_LENGTH) {
    throw new QuerySyntaxError(MAX_QUERY_LENGTH + 1, `query too long (at most ${MAX_QUERY_LENGTH} characters)`);
  }
  return new Parser(new Lexer(text)).parse();
}

type Token =
  | { type: 'leaf'; node: QueryNode; column: number }
  | { type: 'and' | 'or' | 'not' | 'plus'; text: string; column: number }
  | { type: 'open' | 'close' | 'end'; column: number };

type Operator = Extract<Token, { text: string }>;

const FIELD_PREFIX = /[A-Za-z_][A-Za-z0-9_.]*:/y;
const FIELD_NAME = /^[A-Za-z_][A-Za-z0-9_.]*$/;
const WORD_OPERATORS = new Map<string, 'and' | 'or' | 'not'>([
  ['AND', 'and'],
  ['OR', 'or'],
  ['NOT', 'not'],
]);
const RANGE_OPERATORS = ['>=', '<=', '>', '<'] as const;

/** A word read up to whitespace or a parenthesis, with escapes resolved. */
interface Word {
  text: string;
  /** How many unescaped `*` end it: they mark a prefix match, an escaped one is literal. */
  stars: number;
  end: number;
}

function isSpace(c: string): boolean {
  return /\s/.test(c);
}

/** Reads tokens one at a time, so the error reported is always the leftmost one the parser meets. */
class Lexer {
  private pos = 0;
  private ahead: Token | undefined;

  constructor(private readonly text: string) {}

  peek(): Token {
    return (this.ahead ??= this.read());
  }

  next(): Token {
    const token = this.peek();
    this.ahead = undefined;
    return token;
  }

  private read(): Token {
    const { text } = this;
    while (this.pos < text.length && isSpace(text[this.pos])) this.pos++;
    const start = this.pos;
    const column = start + 1;
    if (start >= text.length) return { type: 'end', column };
    const c = text[start];
    const two = text.slice(start, start + 2);
    if (c === '(' || c === ')') {
      this.pos++;
      return { type: c === '(' ? 'open' : 'close', column };
    }
    if (c === ':') throw new QuerySyntaxError(column, 'unexpected ":"');
    if (c === '"') return this.leaf(column, { kind: 'phrase', value: this.phrase(start), column });
    if (two === '&&' || two === '||') return this.operator(two === '&&' ? 'and' : 'or', two);
    if (c === '!') return this.operator('not', c);
    if (c === '-' || c === '+') {
      // `-x` / `+x` modify the clause they touch; a detached one (`a - b`) is more likely a typo than a NOT.
      if (start + 1 >= text.length || isSpace(text[start + 1])) {
        throw new QuerySyntaxError(column + 1, `expected a query after ${c}`);
      }
      return this.operator(c === '-' ? 'not' : 'plus', c);
    }
    FIELD_PREFIX.lastIndex = start;
    if (FIELD_PREFIX.test(text)) return this.fieldClause(start, FIELD_PREFIX.lastIndex);
    const word = this.word(start);
    const raw = text.slice(start, word.end);
    const operator = WORD_OPERATORS.get(raw);
    if (operator !== undefined) return this.operator(operator, raw);
    this.pos = word.end;
    const value = word.text.slice(0, word.text.length - word.stars);
    // A free word is always a prefix match; a bare `*` means everything.
    return this.leaf(column, value === '' ? { kind: 'all' } : { kind: 'term', value, prefix: true, column });
  }

  private leaf(column: number, node: QueryNode): Token {
    return { type: 'leaf', node, column };
  }

  private operator(type: Operator['type'], text: string): Token {
    const column = this.pos + 1;
    this.pos += text.length;
    return { type, text, column };
  }

  /** `field:` has been seen (colon at `valueStart - 1`); reads what follows it. */
  private fieldClause(start: number, valueStart: number): Token {
    const { text } = this;
    const field = text.slice(start, valueStart - 1);
    const column = start + 1;
    if (field === '_exists_') return this.leaf(column, { kind: 'exists', field: this.existsField(valueStart), column });
    const c = text[valueStart];
    if (valueStart >= text.length || isSpace(c) || c === ')') {
      throw new QuerySyntaxError(valueStart + 1, `expected a value after "${field}:"`);
    }
    if (c === '(') {
      throw new QuerySyntaxError(valueStart + 1, `unexpected "(" after "${field}:" (quote a value that contains parentheses)`);
    }
    if (c === '"') return this.leaf(column, { kind: 'phrase', field, value: this.phrase(valueStart), column });
    const op = RANGE_OPERATORS.find((o) => text.startsWith(o, valueStart));
    if (op !== undefined) {
      const from = valueStart + op.length;
      if (from >= text.length || isSpace(text[from]) || text[from] === '(' || text[from] === ')') {
        throw new QuerySyntaxError(from + 1, `expected a value after "${op}"`);
      }
      const word = this.word(from);
      this.pos = word.end;
      return this.leaf(column, { kind: 'range', field, op, value: word.text, column });
    }
    const word = this.word(valueStart);
    this.pos = word.end;
    const value = word.text.slice(0, word.text.length - word.stars);
    // `field:*` is Elasticsearch's way of saying "has any value".
    if (value === '') return this.leaf(column, { kind: 'exists', field, column });
    return this.leaf(column, { kind: 'term', field, value, prefix: word.stars > 0, column });
  }

  private existsField(from: number): string {
    const { text } = this;
    const c = text[from];
    if (from >= text.length || isSpace(c) || c === '(' || c === ')') {
      throw new QuerySyntaxError(from + 1, 'expected a field name after "_exists_:"');
    }
    const word = this.word(from);
    const name = text.slice(from, word.end);
    if (!FIELD_NAME.test(name)) {
      throw new QuerySyntaxError(from + 1, `invalid field name ${quoted(name)} after "_exists_:"`);
    }
    this.pos = word.end;
    return name;
  }

  /** Reads `"..."` starting at the quote; only `\"` and `\\` are escapes, so `"C:\dir"` stays as typed. */
  private phrase(quote: number): string {
    const { text } = this;
    let value = '';
    for (let i = quote + 1; i < text.length; i++) {
      const c = text[i];
      if (c === '"') {
        this.pos = i + 1;
        return value;
      }
      if (c === '\\' && (text[i + 1] === '"' || text[i + 1] === '\\')) value += text[++i];
      else value += c;
    }
    throw new QuerySyntaxError(quote + 1, 'unterminated phrase (missing closing ")');
  }

  private word(from: number): Word {
    const { text } = this;
    let value = '';
    let stars = 0;
    let i = from;
    for (; i < text.length; i++) {
      const c = text[i];
      if (isSpace(c) || c === '(' || c === ')') break;
      if (c === '\\') {
        if (i + 1 >= text.length) throw new QuerySyntaxError(i + 2, 'expected a character after "\\"');
        value += text[++i];
        stars = 0;
      } else {
        value += c;
        stars = c === '*' ? stars + 1 : 0;
      }
    }
    return { text: value, stars, end: i };
  }
}

// Grammar: or := and (OR and)* ; and := unary ((AND)? unary)* ; unary := (NOT|-|+)* primary ;
// primary := leaf | "(" or ")"

class Parser {
  /** The innermost open parenthesis, to word errors about empty or unclosed groups. */
  private group: Token | undefined;
  private depth = 0;

  constructor(private readonly lexer: Lexer) {}

  parse(): QueryNode {
    if (this.lexer.peek().type === 'end') return { kind: 'all' };
    const node = this.or();
    const token = this.lexer.peek();
    if (token.type === 'close') throw new QuerySyntaxError(token.column, 'unexpected ")"');
    return node;
  }

  private or(): QueryNode {
    const children = [this.and(undefined)];
    for (let token = this.lexer.peek(); token.type === 'or'; token = this.lexer.peek()) {
      this.lexer.next();
      children.push(this.and(token));
    }
    return combine('or', children);
  }

  /** `after` is the operator just consumed, if any: an operand missing after it is its fault. */
  private and(after: Operator | undefined): QueryNode {
    const children = [this.unary(after)];
    for (;;) {
      const token = this.lexer.peek();
      if (token.type === 'and') {
        this.lexer.next();
        children.push(this.unary(token));
      } else if (token.type === 'or' || token.type === 'close' || token.type === 'end') {
        break;
      } else {
        children.push(this.unary(undefined));
      }
    }
    return combine('and', children);
  }

  /** Iterative, so a long run of `NOT NOT ...` costs no stack. */
  private unary(after: Operator | undefined): QueryNode {
    let negations = 0;
    for (let token = this.lexer.peek(); token.type === 'not' || token.type === 'plus'; token = this.lexer.peek()) {
      this.lexer.next();
      after = token;
      if (token.type === 'not') negations++;
    }
    const node = this.primary(after);
    // NOT NOT x is x: a run of a thousand NOTs is one negation or none, not a thousand nested conditions.
    return negations % 2 === 1 ? { kind: 'not', child: node } : node;
  }

  private primary(after: Operator | undefined): QueryNode {
    const token = this.lexer.peek();
    if (token.type === 'leaf') {
      this.lexer.next();
      return token.node;
    }
    if (token.type === 'open') return this.parenthesized();
    throw this.missingOperand(token, after);
  }

  private parenthesized(): QueryNode {
    const open = this.lexer.next();
    if (this.depth >= MAX_DEPTH) throw new QuerySyntaxError(open.column, `too deeply nested (at most ${MAX_DEPTH} levels)`);
    const outer = this.group;
    this.group = open;
    this.depth++;
    const node = this.or();
    if (this.lexer.peek().type !== 'close') throw new QuerySyntaxError(open.column, 'missing closing ")"');
    this.lexer.next();
    this.group = outer;
    this.depth--;
    return node;
  }

  private missingOperand(token: Token, after: Operator | undefined): QuerySyntaxError {
    if (after !== undefined) return new QuerySyntaxError(token.column, `expected a query after ${after.text}`);
    if (token.type === 'and' || token.type === 'or') {
      return new QuerySyntaxError(token.column, `expected a query before ${token.text}`);
    }
    if (this.group === undefined) return new QuerySyntaxError(token.column, 'unexpected ")"');
    if (token.type === 'close') return new QuerySyntaxError(this.group.column, 'expected a query inside ( )');
    return new QuerySyntaxError(this.group.column, 'missing closing ")"');
  }
}

/**
 * Builds an AND / OR, flattening nested ones of the same kind. `*` is the neutral element of AND
 * (dropped) and absorbs an OR; an AND left with one child is that child.
 */
function combine(kind: 'and' | 'or', children: QueryNode[]): QueryNode {
  const flat: QueryNode[] = [];
  for (const child of children) {
    if (child.kind === 'all') {
      if (kind === 'or') return { kind: 'all' };
    } else if (child.kind === kind) {
      flat.push(...child.children);
    } else {
      flat.push(child);
    }
  }
  if (flat.length === 0) return { kind: 'all' };
  return flat.length === 1 ? flat[0] : { kind, children: flat };
}
