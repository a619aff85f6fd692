import type { FastifyInstance } from 'fastify';
import { ValidationError } from '../../errors.js';
import { isRecord } from '../../json.js';
import type { Services } from '../../services.js';
import type { Execute, GraphQLRequest } from './executor.js';

export const GRAPHQL_PATH = '/api/graphql';

/**
 * `POST /api/graphql` and `GET /api/graphql?query=…`: DataHub's GraphQL endpoint, its schema made
 * executable by mercurius and executed by graphql-js over the same services as the REST API. HTTP is handled here as on every
 * route (the token, the read body limit, `{error, message}` refusals of a request that is not a
 * GraphQL request); what GraphQL finds wrong is answered 200 with `errors`, as DataHub answers.
 * The executor (executor.ts) is loaded at the first request, so that a start need not wait for it.
 */
export async function graphqlRoutes(app: FastifyInstance, services: Services): Promise<void> {
  let executor: Promise<Execute> | undefined;
  const execute: Execute = async (request, req, reply) => {
    // One build for all the requests that wait for it; a failed one is tried again by the next request.
    executor ??= import('./executor.js')
      .then(({ buildExecutor }) => buildExecutor(services))
      .catch((error: unknown) => {
        executor = undefined;
        throw error;
      });
    return (await executor)(request, req, reply);
  };

  const READ = { permission: 'read' } as const;
  app.post<{ Body: unknown }>(GRAPHQL_PATH, { config: READ, schema: { hide: true } }, async (req, reply) => execute(postedRequest(req.body), req, reply));
  app.get<{ Querystring: Record<string, unknown> }>(GRAPHQL_PATH, { config: READ, schema: { hide: true } }, async (req, reply) => execute(queryStringRequest(req.query), req, reply));
}

/** A POST body: `{query, variables?, operationName?}`, as DataHub reads it. */
function postedRequest(body: unknown): GraphQLRequest {
  if (!isRecord(body)) throw new ValidationError('The body must be a JSON object: {query, variables?, operationName?}');
  return checked(body.query, body.variables, body.operationName);
}

/** GET's parameters: the query, the variables as JSON text, the operation's name (a repeated parameter's first value). */
function queryStringRequest(query: Record<string, unknown>): GraphQLRequest {
  const first = (v: unknown) => (Array.isArray(v) ? v[0] : v);
  let variables = first(query.variables);
  if (typeof variables === 'string' && variables !== '') {
    try {
      variables = JSON.parse(variables);
    } catch {
      throw new ValidationError('variables must be a JSON object');
    }
  }
  return checked(first(query.query), variables === '' ? undefined : variables, first(query.operationName));
}

function checked(query: unknown, variables: unknown, operationName: unknown): GraphQLRequest {
  if (typeof query !== 'string' || query.trim() === '') throw new ValidationError('query: expected a GraphQL document (a non-empty string)');
  if (variables !== undefined && variables !== null && !isRecord(variables)) throw new ValidationError('variables must be a JSON object');
  if (operationName !== undefined && operationName !== null && typeof operationName !== 'string') throw new ValidationError('operationName must be a string');
  return { query, variables: (variables as Record<string, unknown> | null | undefined) ?? {}, ...(typeof operationName === 'string' && operationName !== '' ? { operationName } : {}) };
}

