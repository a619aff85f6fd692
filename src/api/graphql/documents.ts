import { GraphQLError, Kind, parse, specifiedRules, validate, type DocumentNode, type GraphQLSchema, type ValidationRule } from 'graphql';
import { compileQuery, isCompiledQuery, type CompiledQuery } from 'graphql-jit';
import { LIMITS } from '../../limits.js';
import { requestError, type GraphQLAnswerError } from './errors.js';

/** What a document's text became: a document ready to execute, or what is wrong with it. */
export type Prepared = { document: DocumentNode; compiled?: CompiledQuery; errors?: undefined } | { document?: undefined; compiled?: undefined; errors: GraphQLAnswerError[] };

/** A document kept, with how often it was asked for since. */
interface Kept {
  document: DocumentNode;
  uses: number;
}

/**
 * Documents parsed and validated once, by their text. Clients send the same few documents again
 * and again (the SDK's scroll, the CLI's search), and parsing and validating them again cost more
 * than a small search itself (0.5 ms of the CLI's search). mercurius's own cache is counted in
 * documents, and a parsed document holds about 350 bytes of heap a token (the CLI's search, 1,270
 * tokens, 438 KB): 1,024 of them could hold gigabytes. This one is bounded by the text it holds
 * (a character is at most one token): CACHED_TEXT characters in all, the least recently used
 * going first, documents longer than CACHED_DOCUMENT never kept. Refused documents are not kept:
 * a client that sends one gets its errors, and one fixed is a new text.
 *
 * A document asked for a third time is compiled (graphql-jit) into a function that executes it:
 * a page of 5,000 results costs graphql-js 3 to 7 µs a result, as much as the search itself, and
 * the compiled function a third of it. A compiled query holds about 1 KB of heap a character of
 * its text (220 KB for a 200-character search), so compiled queries have a smaller budget of
 * their own, COMPILED_TEXT characters: the SDK's scroll and the CLI's search fit many times over,
 * while documents that differ only in their literals are not compiled one by one. Only documents
 * of one operation are compiled (the operation is then never in question); the others, and any
 * graphql-jit declines, are executed by graphql-js.
 */
const CACHED_TEXT = 128 * 1024;
const CACHED_DOCUMENT = 16 * 1024;
const COMPILED_TEXT = 32 * 1024;
const COMPILE_AT = 3;

export class Documents {
  private readonly documents = new TextCache<Kept>(CACHED_TEXT);
  private readonly compiled = new TextCache<CompiledQuery>(COMPILED_TEXT);
  private readonly rules: readonly ValidationRule[];

  constructor(
    private readonly schema: GraphQLSchema,
    rules: readonly ValidationRule[],
  ) {
    this.rules = [...specifiedRules, ...rules];
  }

  prepare(source: string): Prepared {
    let kept = this.documents.get(source);
    if (!kept) {
      const refused = jsonDocumentError(source);
      if (refused) return { errors: [requestError(refused, 'InvalidSyntax')] };
      let document: DocumentNode;
      try {
        document = parse(source, { maxTokens: LIMITS.graphqlTokens });
      } catch (error) {
        return { errors: [documentError(error as Error)] };
      }
      const errors = validate(this.schema, document, this.rules);
      if (errors.length > 0) return { errors: errors.map(documentError) };
      kept = { document, uses: 0 };
      if (source.length <= CACHED_DOCUMENT) this.documents.set(source, kept);
    }
    kept.uses++;
    return { document: kept.document, compiled: this.compiled.get(source) ?? (kept.uses >= COMPILE_AT ? this.compile(source, kept.document) : undefined) };
  }

  private compile(source: string, document: DocumentNode): CompiledQuery | undefined {
    if (document.definitions.filter((d) => d.kind === Kind.OPERATION_DEFINITION).length !== 1) return undefined;
    const compiled = compileQuery(this.schema, document);
    if (!isCompiledQuery(compiled)) return undefined;
    this.compiled.set(source, compiled);
    return compiled;
  }
}

/** Values by their text, at most `budget` characters of text in all, the least recently used going first. */
class TextCache<T> {
  private readonly entries = new Map<string, T>();
  private text = 0;

  constructor(private readonly budget: number) {}

  get(key: string): T | undefined {
    const value = this.entries.get(key);
    if (value !== undefined) {
      // Map keeps insertion order: taken out and put back, it is the most recently used.
      this.entries.delete(key);
      this.entries.set(key, value);
    }
    return value;
  }

  set(key: string, value: T): void {
    if (key.length > this.budget) return;
    this.entries.set(key, value);
    this.text += key.length;
    for (const oldest of this.entries.keys()) {
      if (this.text <= this.budget) break;
      this.entries.delete(oldest);
      this.text -= oldest.length;
    }
  }
}

/** What graphql-js found wrong with the document; a stack overflow is its recursive parser meeting deep nesting. */
function documentError(error: Error): GraphQLAnswerError {
  if (error instanceof RangeError) return requestError(new GraphQLError('Syntax Error: the document nests too deeply to be parsed'), 'InvalidSyntax');
  return requestError(error, error.message.startsWith('Syntax Error') ? 'InvalidSyntax' : 'ValidationError');
}

/**
 * JSON text is not a GraphQL document, and gets GraphQL's syntax error (mercurius, which urnbase
 * once let parse, read JSON as a ready-parsed document and trusted it).
 */
function jsonDocumentError(query: string): GraphQLError | undefined {
  try {
    // Fails at once on GraphQL (a name, or `{` and then a name): no JSON value is a GraphQL document.
    JSON.parse(query);
  } catch {
    return undefined;
  }
  try {
    parse(query);
  } catch (error) {
    if (error instanceof GraphQLError) return error;
  }
  return new GraphQLError('Syntax Error: a JSON value is not a GraphQL document');
}
