import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { getOperationAST, GraphQLError, parse, type ExecutionResult } from 'graphql';
import mercurius from 'mercurius';
import { ValidationError } from '../../errors.js';
import { isRecord } from '../../json.js';
import { LIMITS } from '../../limits.js';
import type { Services } from '../../services.js';
import { clientGone } from '../client-gone.js';
import type { GraphQLContext } from './context.js';
import { operationCost } from './cost.js';
import { EntityTypes } from './entity-types.js';
import { executionError, requestError, type GraphQLAnswerError } from './errors.js';
import { EntityLoader, SCHEMA_ASPECTS } from './loaders.js';
import { dataJobPlatformResolvers } from './resolvers/data-job-platform.js';
import { entityResolvers } from './resolvers/entities.js';
import { entityGraphResolvers } from './resolvers/entity-graph.js';
import { fetchResolvers } from './resolvers/fetch.js';
import { formResolvers } from './resolvers/forms.js';
import { lineageResolvers } from './resolvers/lineage.js';
import { deleteMutations } from './resolvers/mutations-deletes.js';
import { descriptionMutations } from './resolvers/mutations-description.js';
import { domainMutations } from './resolvers/mutations-domains.js';
import { ownerMutations } from './resolvers/mutations-owners.js';
import { structuredMutations } from './resolvers/mutations-structured.js';
import { tagMutations } from './resolvers/mutations-tags.js';
import { termMutations } from './resolvers/mutations-terms.js';
import { searchResolvers } from './resolvers/search.js';
import { schemaText } from './schema.js';
import { lenientBooleans } from './variables.js';

export const GRAPHQL_PATH = '/api/graphql';

interface GraphQLRequest {
  query: string;
  variables: Record<string, unknown>;
  operationName?: string;
}

type Answer = { data?: unknown; errors?: GraphQLAnswerError[] };

/**
 * `POST /api/graphql` and `GET /api/graphql?query=…`: DataHub's GraphQL endpoint, executed by
 * mercurius (graphql-js) over the same services as the REST API. HTTP is handled here as on every
 * route (the token, the read body limit, `{error, message}` refusals of a request that is not a
 * GraphQL request); what GraphQL finds wrong is answered 200 with `errors`, as DataHub answers.
 */
export async function graphqlRoutes(app: FastifyInstance, services: Services): Promise<void> {
  const types = new EntityTypes(services.registry);
  await app.register(mercurius, {
    schema: schemaText(types),
    resolvers: { Query: { ...searchResolvers, ...fetchResolvers, ...lineageResolvers }, Mutation: { ...tagMutations, ...termMutations, ...ownerMutations, ...domainMutations, ...descriptionMutations, ...deleteMutations, ...structuredMutations }, ...entityResolvers } as never,
    // The routes are ours (below): auth, limits and error shapes as on every route.
    routes: false,
    graphiql: false,
    // No cache of parsed documents: mercurius keeps 1,024 of them by their text, and one of 15,000
    // tokens holds 4.4 MB of heap, so distinct large documents could grow the heap by gigabytes;
    // parsing and validating again costs 0.5 ms for get_urns_by_filter's query and 1.4 ms for
    // the CLI's search (fragments for eleven types), beside a page's reads.
    cache: false,
    validationRules: [operationCost],
    graphql: { parseOptions: { maxTokens: LIMITS.graphqlTokens } },
    // Errors are shaped once, below, where the request is known.
    errorFormatter: (execution) => ({ statusCode: 200, response: execution as never }),
  });
  // Fields added to types entityResolvers has (DataJob's platform, forms, relationships and lineage): defined field by field, beside its own.
  app.graphql.defineResolvers(dataJobPlatformResolvers as never);
  app.graphql.defineResolvers(formResolvers as never);
  app.graphql.defineResolvers(entityGraphResolvers as never);

  const execute = async (request: GraphQLRequest, req: FastifyRequest, reply: FastifyReply): Promise<Answer> => {
    const refused = jsonDocumentError(request.query);
    if (refused) return { errors: [requestError(refused, 'InvalidSyntax')] };
    const mutation = req.method === 'GET' ? mutationError(request) : undefined;
    if (mutation) return { errors: [requestError(mutation, 'ValidationError')] };
    const context: GraphQLContext = { services, types, entities: new EntityLoader(services.reader), schemas: new EntityLoader(services.reader, SCHEMA_ASPECTS), principal: req.principal, signal: clientGone(reply) };
    const variables = lenientBooleans(app.graphql.schema, request.query, request.operationName, request.variables);
    let result: ExecutionResult;
    try {
      result = await app.graphql(request.query, context as never, variables, request.operationName);
    } catch (error) {
      const found = (error as { errors?: unknown }).errors;
      if ((error as { code?: string }).code !== 'MER_ERR_GQL_VALIDATION' || !Array.isArray(found)) throw error;
      return { errors: found.map(documentError) };
    }
    if (!result.errors || result.errors.length === 0) return { data: result.data };
    // graphql-js's own refusals of the operation before any field ran (an operation type the schema lacks).
    if ((result.data ?? null) === null && result.errors.every((e) => !e.originalError && !e.path)) {
      return { errors: result.errors.map((e) => requestError(e, 'ValidationError')) };
    }
    const errors = result.errors.map((e) => {
      const { formatted, status } = executionError(e);
      if (status >= 500) req.log.error({ err: e.originalError ?? e, path: e.path }, 'GraphQL field failed');
      return formatted;
    });
    return { errors, data: result.data ?? null };
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

/**
 * A GET runs queries only (GraphQL over HTTP's rule): a link or an image in a page must never
 * write. A document that does not parse is left to execution, which answers its syntax error.
 */
function mutationError(request: GraphQLRequest): GraphQLError | undefined {
  let operation;
  try {
    operation = getOperationAST(parse(request.query, { maxTokens: LIMITS.graphqlTokens }), request.operationName);
  } catch {
    return undefined;
  }
  if (operation?.operation !== 'mutation') return undefined;
  return new GraphQLError('Mutations are not accepted with GET: send them with POST', { nodes: [operation] });
}

/** What graphql-js found wrong with the document; a stack overflow is its recursive parser meeting deep nesting. */
function documentError(error: Error): GraphQLAnswerError {
  if (error instanceof RangeError) return requestError(new GraphQLError('Syntax Error: the document nests too deeply to be parsed'), 'InvalidSyntax');
  return requestError(error, error.message.startsWith('Syntax Error') ? 'InvalidSyntax' : 'ValidationError');
}

/**
 * mercurius reads a query that is not GraphQL but is JSON as a ready-parsed document, which it
 * then trusts; a client's text is always GraphQL here, so JSON text gets GraphQL's syntax error.
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
