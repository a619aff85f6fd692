import { GraphQLError, type GraphQLFormattedError } from 'graphql';
import { toHttpError } from '../errors.js';

/**
 * GraphQL errors in DataHub's shape: `extensions: {code, type}` with DataHub's error codes, the
 * status a REST route would answer for the same error (api/errors.ts decides it), so a refusal
 * reads the same on every API. Errors graphql-js finds in the document itself (syntax,
 * validation, variables, limits) are BAD_REQUEST, with graphql-java's classification, which
 * DataHub's SDK looks for in the message list.
 */

/** DataHub's DataHubGraphQLErrorCode, by status. */
const CODES: Record<number, string> = {
  400: 'BAD_REQUEST',
  403: 'UNAUTHORIZED',
  404: 'NOT_FOUND',
  409: 'CONFLICT',
  503: 'SERVICE_UNAVAILABLE',
  500: 'SERVER_ERROR',
};

export interface GraphQLAnswerError extends GraphQLFormattedError {
  extensions: { code: number; type: string; classification?: string };
}

/** An error met while resolving a field: its message and code from the typed error behind it. */
export function executionError(error: GraphQLError): { formatted: GraphQLAnswerError; status: number } {
  const { status, body } = toHttpError(error.originalError ?? error);
  // A status DataHub has no code for (413, 429, 499, …) is reported as the nearest it has.
  const code = CODES[status] ? status : status >= 500 ? 500 : 400;
  const message = status >= 500 ? 'An unknown error occurred.' : (body.message ?? body.error);
  return { formatted: shaped(error, message, code, CODES[code]), status };
}

/** An error in the document or its variables, found before anything ran. */
export function requestError(error: GraphQLError | Error, classification: 'InvalidSyntax' | 'ValidationError'): GraphQLAnswerError {
  const graphqlError = error instanceof GraphQLError ? error : new GraphQLError(error.message);
  return shaped(graphqlError, graphqlError.message, 400, 'BAD_REQUEST', classification);
}

function shaped(error: GraphQLError, message: string, code: number, type: string, classification?: string): GraphQLAnswerError {
  return {
    message,
    ...(error.locations ? { locations: error.locations } : {}),
    ...(error.path ? { path: error.path } : {}),
    extensions: { code, type, ...(classification ? { classification } : {}) },
  };
}
