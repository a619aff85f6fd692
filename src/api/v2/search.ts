import type { FastifyInstance } from 'fastify';
import { ref, SEARCH_REFUSAL } from '../answers.js';
import { clientGone } from '../client-gone.js';
import type { Services } from '../../services.js';
import { aspectList } from '../params.js';
import { foundEntities, scrollBody, scrollSchema, searchQuerySchema, searchRequest, type SearchQueryParams } from '../search.js';
import { entityJson } from './shapes.js';

const READ = { permission: 'read' } as const;
const tags = ['Entity API v2'];
const error = { type: 'object', properties: { error: { type: 'string' }, message: { type: 'string' } } };

interface ListQuery extends SearchQueryParams {
  aspects?: string[];
  aspectNames?: string[];
}

/** v2 search: list one entity type (`GET /{type}`), and scroll across types (`POST /scroll`). */
export function searchRoutesV2(app: FastifyInstance, { search, reader }: Services): void {
  const prefix = '/openapi/v2/entity';

  app.get<{ Params: { type: string }; Querystring: ListQuery }>(
    `${prefix}/:type`,
    {
      config: READ,
      schema: {
        operationId: 'getEntities',
        tags,
        summary: 'List or search entities of one type',
        params: { type: 'object', properties: { type: { type: 'string' } }, required: ['type'] },
        querystring: {
          type: 'object',
          properties: {
            ...searchQuerySchema,
            aspects: { type: 'array', items: { type: 'string' }, description: 'Aspects to return (default all)' },
            aspectNames: { type: 'array', items: { type: 'string' }, description: 'Legacy spelling of aspects' },
          },
        },
        response: { 400: error },
        answers: { 200: { description: 'A page of entities', body: ref('EntityPage') }, 400: SEARCH_REFUSAL },
      },
    },
    async (req, reply) => {
      const q = req.query;
      const page = await search.search(searchRequest(q, [req.params.type], undefined, clientGone(reply)));
      const entities = await foundEntities(reader, page.urns, aspectList(q.aspects, q.aspectNames));
      return {
        ...(page.scrollId ? { scrollId: page.scrollId } : {}),
        results: entities.map((e) => entityJson(e, q.systemMetadata ?? false)),
        totalCount: page.totalCount,
      };
    },
  );

  app.post<{ Querystring: SearchQueryParams; Body: unknown }>(
    `${prefix}/scroll`,
    {
      config: READ,
      schema: {
        ...scrollSchema(tags, 'Search entities of several types: {scrollId, results:[{urn, aspects}], totalCount, facets}'),
        operationId: 'scrollEntities',
        answers: { 200: { description: 'A page of entities', body: ref('ScrollResult') }, 400: SEARCH_REFUSAL },
      },
    },
    async (req, reply) => {
      const body = scrollBody(req.body);
      const page = await search.search(searchRequest(req.query, body.entities, body, clientGone(reply)));
      const results =
        body.aspects === undefined
          ? page.urns.map((urn) => ({ urn, aspects: {} }))
          : (await foundEntities(reader, page.urns, body.aspects)).map((e) => entityJson(e, req.query.systemMetadata ?? false));
      return {
        ...(page.scrollId ? { scrollId: page.scrollId } : {}),
        results,
        totalCount: page.totalCount,
        facets: page.facets,
      };
    },
  );
}
/** The shapes of these answers, as named schemas of the API document. */
export const searchShapes = {
  Facet: {
    type: 'object',
    required: ['field', 'aggregations'],
    properties: { field: { type: 'string' }, aggregations: { type: 'object', additionalProperties: { type: 'integer' }, description: 'Value → count' } },
  },
  EntityPage: {
    type: 'object',
    required: ['results', 'totalCount'],
    properties: {
      scrollId: { type: 'string', description: 'Present when more may follow: pass it to get the next page' },
      results: { type: 'array', items: ref('Entity') },
      totalCount: { type: 'integer' },
    },
  },
  ScrollResult: {
    type: 'object',
    required: ['results', 'totalCount', 'facets'],
    properties: {
      scrollId: { type: 'string', description: 'Present when more may follow: pass it to get the next page' },
      results: { type: 'array', items: ref('Entity'), description: 'Without `aspects` in the body, each entity\'s aspects are {}' },
      totalCount: { type: 'integer' },
      facets: { type: 'array', items: ref('Facet') },
    },
  },
};
