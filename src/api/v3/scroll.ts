import type { FastifyInstance } from 'fastify';
import { ref, SEARCH_REFUSAL } from '../answers.js';
import { clientGone } from '../client-gone.js';
import type { Reader } from '../../read/read.js';
import type { SearchPage } from '../../search/service.js';
import type { Services } from '../../services.js';
import { aspectList } from '../params.js';
import { foundEntities, scrollBody, scrollSchema, searchQuerySchema, searchRequest, type SearchQueryParams } from '../search.js';
import { V3 } from './schemas.js';
import { entityJsonV3, type EntityJsonV3 } from './shapes.js';

const READ = { permission: 'read' } as const;
const tags = ['Entity API v3'];
const error = { type: 'object', properties: { error: { type: 'string' } , message: { type: 'string' } } };

interface ListQuery extends SearchQueryParams {
  aspects?: string[];
  aspectNames?: string[];
}

/**
 * v3 search in DataHub's v3 shape, `{scrollId, entities: [{urn, <aspect>: {value}}], totalCount,
 * facets}`: `POST /scroll` across types, `POST /{entityName}/scroll` (what DataHub's newer Python
 * client calls) for one type, and `GET /{entityName}`.
 */
export function scrollRoutesV3(app: FastifyInstance, { search, reader }: Services): void {
  const scroll = async (query: SearchQueryParams, rawBody: unknown, signal: AbortSignal, entityName?: string) => {
    const body = scrollBody(rawBody);
    const types = entityName === undefined ? body.entities : [entityName];
    // v3 lists entity types by default as a facet, as DataHub does.
    const page = await search.search(searchRequest(query, types, { ...body, facets: body.facets ?? ['entity'] }, signal));
    // Without `aspects` in the body, just URNs; with [] every aspect (DataHub's rule).
    const entities = body.aspects === undefined ? page.urns.map((urn) => ({ urn })) : await entitiesOf(reader, page, body.aspects, query.systemMetadata ?? false);
    return { scrollId: page.scrollId ?? null, entities, totalCount: page.totalCount, facets: page.facets };
  };

  app.post<{ Querystring: SearchQueryParams; Body: unknown }>(
    `${V3}/scroll`,
    {
      config: READ,
      schema: {
        ...scrollSchema(tags, 'Search entities of several types (v3 shape)'),
        // DataHub's name is scrollEntities too; the v2 operation has it here.
        operationId: 'scrollEntitiesV3',
        answers: { 200: { description: 'A page of entities', body: ref('ScrollResultV3') }, 400: SEARCH_REFUSAL },
      },
    },
    async (req, reply) => scroll(req.query, req.body, clientGone(reply)),
  );

  app.post<{ Params: { entityName: string }; Querystring: SearchQueryParams; Body: unknown }>(
    `${V3}/:entityName/scroll`,
    {
      config: READ,
      schema: {
        ...scrollSchema(tags, 'Search entities of one type: POST /scroll with entities=[entityName]'),
        operationId: 'scrollEntitiesOfTypeV3',
        params: { type: 'object', properties: { entityName: { type: 'string', description: 'Entity type, e.g. dataset' } }, required: ['entityName'] },
        answers: { 200: { description: 'A page of entities', body: ref('ScrollResultV3') }, 400: SEARCH_REFUSAL },
      },
    },
    async (req, reply) => scroll(req.query, req.body, clientGone(reply), req.params.entityName),
  );

  app.get<{ Params: { entityName: string }; Querystring: ListQuery }>(
    `${V3}/:entityName`,
    {
      config: READ,
      schema: {
        operationId: 'getEntitiesV3',
        tags,
        summary: 'List or search entities of one type (v3 shape)',
        params: { type: 'object', properties: { entityName: { type: 'string', description: 'Entity type, e.g. dataset' } }, required: ['entityName'] },
        querystring: {
          type: 'object',
          properties: {
            ...searchQuerySchema,
            aspects: { type: 'array', items: { type: 'string' }, description: 'Aspects to return (default all)' },
            aspectNames: { type: 'array', items: { type: 'string' }, description: 'Another spelling of aspects (both lists count)' },
            pitKeepAlive: { type: 'string', description: 'Accepted for DataHub compatibility (an Elasticsearch knob)' },
            skipCache: { type: 'boolean', description: 'Accepted for DataHub compatibility' },
          },
        },
        response: { 400: error },
        answers: { 200: { description: 'A page of entities; facets is always []', body: ref('ScrollResultV3') }, 400: SEARCH_REFUSAL },
      },
    },
    async (req, reply) => {
      const q = req.query;
      const page = await search.search(searchRequest(q, [req.params.entityName], undefined, clientGone(reply)));
      // An empty list of aspects is every aspect here, as in DataHub.
      const entities = await entitiesOf(reader, page, aspectList(q.aspects, q.aspectNames) ?? [], q.systemMetadata ?? false);
      return { scrollId: page.scrollId ?? null, entities, totalCount: page.totalCount, facets: [] };
    },
  );
}

async function entitiesOf(reader: Reader, page: SearchPage, aspects: readonly string[], withMetadata: boolean): Promise<EntityJsonV3[]> {
  // DataHub's v3 answers a timeseries aspect with its latest point, in scrolls too.
  return (await foundEntities(reader, page.urns, aspects, { points: true })).map((e) => entityJsonV3(e, withMetadata));
}

/** The shape of these answers, as a named schema of the API document. */
export const scrollShapesV3 = {
  ScrollResultV3: {
    type: 'object',
    required: ['scrollId', 'entities', 'totalCount', 'facets'],
    properties: {
      scrollId: { type: 'string', nullable: true, description: 'null on the last page' },
      entities: {
        type: 'array',
        description: '{urn, <aspect name>: {value, systemMetadata?, auditStamp?}…}; without `aspects` in a POST body, just {urn}',
        items: ref('EntityV3'),
      },
      totalCount: { type: 'integer' },
      facets: { type: 'array', items: ref('Facet'), description: 'By default the entity types found (facet `entity`); [] on GET' },
    },
  },
};
