import type { FastifyInstance } from 'fastify';
import type { Services } from '../../services.js';
import { foundEntities, scrollBody, scrollSchema, searchRequest, type SearchQueryParams } from '../search.js';

/** `POST /openapi/v3/entity/scroll`, in DataHub's v3 shape: `{scrollId, entities: [{urn, <aspect>: {value}}], totalCount, facets}`. */
export function scrollRoutesV3(app: FastifyInstance, { search, reader }: Services): void {
  app.post<{ Querystring: SearchQueryParams; Body: unknown }>(
    '/openapi/v3/entity/scroll',
    { config: { permission: 'read' }, schema: scrollSchema(['Entity API v3'], 'Search entities of several types (v3 shape)') },
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
