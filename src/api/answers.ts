/**
 * What a route answers, for the API document only. Fastify never reads `schema.answers`: a route's
 * `response` schemas are what it serializes with (fast-json-stringify drops properties a schema
 * does not list), so describing answers there could change them. `openapi.ts` turns answers into
 * the document's responses and adds the ones every route of a kind shares (auth, bodies).
 */

/** A JSON Schema (OpenAPI 3.0 flavour: `nullable`, no type arrays). */
export type JsonSchema = Record<string, unknown>;

/** A successful answer: its body (none: no content) and the body's media type (default JSON). */
export interface Success {
  description: string;
  body?: JsonSchema;
  contentType?: string;
}

/** A success, or a refusal: the text says when it happens; the body is the shared Error shape. */
export type Answer = Success | string;

/** Status code → answer. */
export type Answers = Partial<Record<number, Answer>>;

declare module 'fastify' {
  interface FastifySchema {
    /** Documentation only: what the route answers (see src/api/answers.ts). */
    answers?: Answers;
  }
}

/** A reference to a named schema of the document (`components.schemas`). */
export function ref(name: string): JsonSchema {
  return { $ref: `#/components/schemas/${name}` };
}

/** Every refusal's body, as `api/errors.ts` writes it. */
export const errorSchema = {
  type: 'object',
  required: ['error'],
  properties: {
    error: { type: 'string', description: 'What went wrong: a status name such as "Validation Error", or (for an invalid URN) the whole message' },
    message: { type: 'string', description: 'The details' },
  },
};

/** Every refusal's body on Rest.li routes (`config.errorFormat: 'restli'`), as `api/errors.ts` writes it. */
export const restliErrorSchema = {
  type: 'object',
  required: ['exceptionClass', 'message', 'status', 'stackTrace'],
  properties: {
    exceptionClass: { type: 'string', description: 'com.linkedin.restli.server.RestLiServiceException (com.linkedin.metadata.restli.NonExceptionHttpErrorResponse for 404)' },
    message: { type: 'string', description: 'What went wrong: what DataHub\'s clients show' },
    status: { type: 'integer', description: 'The HTTP status again' },
    stackTrace: { type: 'string', description: 'One line naming class, status and message (never a real stack trace)' },
    requestId: { type: 'string', description: 'On 5xx: the request id to look for in the server log' },
  },
};

/** Why a list or scroll is refused (they share their parameters). */
export const SEARCH_REFUSAL = 'An unknown entity type, aspect name or field, a query or filter that does not parse, or an invalid parameter';
