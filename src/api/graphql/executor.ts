import Fastify, { type FastifyReply, type FastifyRequest } from 'fastify';
import { execute as graphqlExecute, getOperationAST, getVariableValues, GraphQLError, type DocumentNode, type ExecutionResult, type GraphQLSchema } from 'graphql';
import mercurius from 'mercurius';
import type { Services } from '../../services.js';
import { clientGone } from '../client-gone.js';
import { CLIENT_GONE_LOG } from '../errors.js';
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
import { formMutations } from './resolvers/mutations-forms.js';
import { ownerMutations } from './resolvers/mutations-owners.js';
import { structuredMutations } from './resolvers/mutations-structured.js';
import { tagMutations } from './resolvers/mutations-tags.js';
import { termMutations } from './resolvers/mutations-terms.js';
import { searchResolvers } from './resolvers/search.js';
import { schemaText } from './schema.js';
import { lenientBooleans } from './variables.js';

/** A GraphQL request as routes.ts reads it from a POST body or a GET's parameters. */
export interface GraphQLRequest {
  query: string;
  variables: Record<string, unknown>;
  operationName?: string;
}

type Answer = { data?: unknown; errors?: GraphQLAnswerError[] };

/** Runs one GraphQL request over the services; what GraphQL finds wrong is in the answer's errors. */
export type Execute = (request: GraphQLRequest, req: FastifyRequest, reply: FastifyReply) => Promise<Answer>;

/**
 * DataHub's schema made executable by mercurius (on a Fastify instance of its own: it only builds
 * the schema, the routes are routes.ts's) and executed by graphql-js. Built at the first GraphQL
 * request: mercurius, graphql-js and graphql-jit take a few hundred milliseconds to load, which
 * a server answering /health or the REST API need not wait for.
 */
export async function buildExecutor(services: Services): Promise<Execute> {
  const types = new EntityTypes(services.registry);
  const host = Fastify();
  await host.register(mercurius, {
    schema: schemaText(types),
    resolvers: { Query: { ...searchResolvers, ...fetchResolvers, ...lineageResolvers }, Mutation: { ...tagMutations, ...termMutations, ...ownerMutations, ...domainMutations, ...descriptionMutations, ...deleteMutations, ...structuredMutations, ...formMutations }, ...entityResolvers } as never,
    // The routes are ours (routes.ts): auth, limits and error shapes as on every route.
    routes: false,
    graphiql: false,
    // Documents are parsed, validated and kept by ./documents.ts, and executed below.
    cache: false,
  });
  // Fields added to types entityResolvers has (DataJob's platform, forms, relationships and lineage): defined field by field, beside its own.
  host.graphql.defineResolvers(dataJobPlatformResolvers as never);
  host.graphql.defineResolvers(formResolvers as never);
  host.graphql.defineResolvers(entityGraphResolvers as never);

  // mercurius builds the executable schema from ours and its resolvers; graphql-js executes it.
  const schema = host.graphql.schema;
  const documents = new Documents(schema, [operationCost]);
  await host.ready();
  return async (request: GraphQLRequest, req: FastifyRequest, reply: FastifyReply): Promise<Answer> => {
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
      else if (status === 499) req.log.info({ path: e.path }, CLIENT_GONE_LOG);
      return formatted;
    });
    return { errors, data: result.data ?? null };
  };
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
