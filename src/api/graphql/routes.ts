import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { execute as graphqlExecute, getOperationAST, getVariableValues, GraphQLError, type DocumentNode, type ExecutionResult, type GraphQLSchema } from 'graphql';
import mercurius from 'mercurius';
import { ValidationError } from '../../errors.js';
import { isRecord } from '../../json.js';
import type { Services } from '../../services.js';
import { clientGone } from '../client-gone.js';
import type { GraphQLContext } from './context.js';
import { operationCost } from './cost.js';
import { EntityTypes } from './entity-types.js';
import { Documents } from './documents.js';
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
 * `POST /api/graphql` and `GET /api/graphql?query=…`: DataHub's GraphQL endpoint, its schema made
 * executable by mercurius and executed by graphql-js over the same services as the REST API. HTTP is handled here as on every
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
    // Documents are parsed, validated and kept by ./documents.ts, and executed below.
    cache: false,
  });
  // Fields added to types entityResolvers has (DataJob's platform, forms, relationships and lineage): defined field by field, beside its own.
  app.graphql.defineResolvers(dataJobPlatformResolvers as never);
  app.graphql.defineResolvers(formResolvers as never);
  app.graphql.defineResolvers(entityGraphResolvers as never);

  // mercurius builds the executable schema from ours and its resolvers; graphql-js executes it.
  const schema = app.graphql.schema;
  const documents = new Documents(schema, [operationCost]);
  const execute = async (request: GraphQLRequest, req: FastifyRequest, reply: FastifyReply): Promise<Answer> => {
    const prepared = documents.prepare(request.query);
    if (prepared.errors) return { errors: prepared.errors };
    const { document } = prepared;
    // A compiled query runs its document's one operation: one named otherwise is left to graphql-js to refuse.
    const compiled = request.operationName === undefined || getOperationAST(document, request.operationName) ? prepared.compiled : undefined;
    const mutation = req.method === 'GET' ? mutationError(document, request.operationName) : undefined;
    if (mutation) return { errors: [requestError(mutation, 'ValidationError')] };
    const context: GraphQLContext = { services, types, entities: new EntityLoader(services.reader), schemas: new EntityLoader(services.reader, SCHEMA_ASPECTS), principal: req.principal, signal: clientGone(reply) };
    const variableValues = lenientBooleans(schema, document, request.operationName, request.variables);
    // Variables are judged by graphql-js, whose messages name the field and the value expected.
    const wrongVariables = compiled ? variableErrors(schema, document, variableValues) : undefined;
    if (wrongVariables) return { errors: wrongVariables.map((e) => requestError(e, 'ValidationError')) };
    const result: ExecutionResult = compiled
      ? await compiled.query(undefined, context, variableValues)
      : await graphqlExecute({ schema, document, contextValue: context, variableValues, operationName: request.operationName });
    if (!result.errors || result.errors.length === 0) return { data: result.data };
    // Refusals before any field ran: variables of the wrong type, an operation not in the document
    // or of a type the schema lacks (graphql-js answers no data at all then).
    if (result.data === undefined || ((result.data ?? null) === null && result.errors.every((e) => !e.originalError && !e.path))) {
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

/** What is wrong with the variables of a document's one operation, as graphql-js says it (undefined: nothing). */
function variableErrors(schema: GraphQLSchema, document: DocumentNode, variables: Record<string, unknown>): readonly GraphQLError[] | undefined {
  const operation = getOperationAST(document);
  return operation ? getVariableValues(schema, operation.variableDefinitions ?? [], variables, { maxErrors: 50 }).errors : undefined;
}

/** A GET runs queries only (GraphQL over HTTP's rule): a link or an image in a page must never write. */
function mutationError(document: DocumentNode, operationName: string | undefined): GraphQLError | undefined {
  const operation = getOperationAST(document, operationName);
  if (operation?.operation !== 'mutation') return undefined;
  return new GraphQLError('Mutations are not accepted with GET: send them with POST', { nodes: [operation] });
}
