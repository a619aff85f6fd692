import { GraphQLError, Kind, parse, specifiedRules, validate, type DocumentNode, type GraphQLSchema, type ValidationRule } from 'graphql';
import { compileQuery, isCompiledQuery, type CompiledQuery } from 'graphql-jit';
import { LIMITS } from '../../limits.js';
import { requestError, type GraphQLAnswerError } from './errors.js';

/** What a document's text became: a document ready to execute, or what is wrong with it. */
export type Prepared = { document: DocumentNode; compiled?: CompiledQuery; errors?: undefined } | { document?: undefined; compiled?: undefined; errors: GraphQLAnswerError[] };

/** A document kept, and once it is used again, compiled. */
interface Kept {
  document: DocumentNode;
  compiled?: CompiledQuery;
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
 * A document used a second time is compiled (graphql-jit) into a function that executes it: a
 * page of 5,000 results costs graphql-js 3 to 7 µs a result, as much as the search itself, and
 * the compiled function a third of it. Only documents of one operation are compiled (the
 * operation asked for is then never in question); the others, and any graphql-jit declines,
 * are executed by graphql-js.
 */
const CACHED_TEXT = 128 * 1024;
const CACHED_DOCUMENT = 16 * 1024;

export class Documents {
  private readonly cache = new Map<string, Kept>();
  private text = 0;
  private readonly rules: readonly ValidationRule[];

  constructor(
    private readonly schema: GraphQLSchema,
    rules: readonly ValidationRule[],
  ) {
    this.rules = [...specifiedRules, ...rules];
  }

  prepare(source: string): Prepared {
    const kept = this.cache.get(source);
    if (kept) {
      // Map keeps insertion order: taken out and put back, it is the most recently used.
      this.cache.delete(source);
      this.cache.set(source, kept);
      kept.compiled ??= this.compiled(kept.document);
      return kept;
    }
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
    this.keep(source, document);
    return { document };
  }

  private compiled(document: DocumentNode): CompiledQuery | undefined {
    if (document.definitions.filter((d) => d.kind === Kind.OPERATION_DEFINITION).length !== 1) return undefined;
    const compiled = compileQuery(this.schema, document);
    return isCompiledQuery(compiled) ? compiled : undefined;
  }

  private keep(source: string, document: DocumentNode): void {
    if (source.length > CACHED_DOCUMENT) return;
    this.cache.set(source, { document });
    this.text += source.length;
    for (const oldest of this.cache.keys()) {
      if (this.text <= CACHED_TEXT) break;
      this.cache.delete(oldest);
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
