import type { FastifyInstance } from 'fastify';
import { ref, SEARCH_REFUSAL } from '../answers.js';
import type { Services } from '../../services.js';
import { foundEntities, scrollBody, scrollSchema, searchRequest, type SearchQueryParams } from '../search.js';

/** `POST /openapi/v3/entity/scroll`, in DataHub's v3 shape: `{scrollId, entities: [{urn, <aspect>: {value}}], totalCount, facets}`. */
export function scrollRoutesV3(app: FastifyInstance, { search, reader }: Services): void {
  app.post<{ Querystring: SearchQueryParams; Body: unknown }>(
    '/openapi/v3/entity/scroll',
    {
      config: { permission: 'read' },
      schema: {
        ...scrollSchema(['Entity API v3'], 'Search entities of several types (v3 shape)'),
        // DataHub's name is scrollEntities too; the v2 operation has it here.
        operationId: 'scrollEntitiesV3',
        answers: { 200: { description: 'A page of entities', body: ref('ScrollResultV3') }, 400: SEARCH_REFUSAL },
      },
    },
    async (req) => {
      const body = scrollBody(req.body);
      // v3 lists entity types by default as a facet, as DataHub does.
      const page = await search.search(searchRequest(req.query, body.entities, { ...body, facets: body.facets ?? ['entity'] }));
      const withMetadata = req.query.systemMetadata ?? false;
      const entities = body.aspects === undefined ? page.urns.map((urn) => ({ urn })) : (await foundEntities(reader, page.urns, body.aspects)).map((e) => {
        const json: Record<string, unknown> = { urn: e.urn };
        for (const [name, aspect] of e.aspects) json[name] = withMetadata ? { value: aspect.value, systemMetadata: aspect.systemMetadata } : { value: aspect.value };
        return json;
      });
      return { scrollId: page.scrollId ?? null, entities, totalCount: page.totalCount, facets: page.facets };
    },
  );
}

/** The shape of this answer, as a named schema of the API document. */
export const scrollShapesV3 = {
  ScrollResultV3: {
    type: 'object',
    required: ['scrollId', 'entities', 'totalCount', 'facets'],
    properties: {
      scrollId: { type: 'string', nullable: true, description: 'null on the last page' },
      entities: {
        type: 'array',
        description: '{urn, <aspect name>: {value, systemMetadata?}…}; without `aspects` in the body, just {urn}',
        items: { type: 'object', required: ['urn'], properties: { urn: { type: 'string' } }, additionalProperties: ref('Aspect') },
      },
      totalCount: { type: 'integer' },
      facets: { type: 'array', items: ref('Facet'), description: 'By default the entity types found (facet `entity`)' },
    },
  },
};
