import type { FastifyInstance } from 'fastify';
import { ValidationError } from '../../errors.js';
import { edgeDirection, edgesOf, otherEnd, relationshipTypes } from '../../graph/relationships.js';
import type { Services } from '../../services.js';
import { MAX_COUNT, pageSize } from '../params.js';
import { requestUrn } from '../urns.js';
import { restliRoute } from './routes.js';

/**
 * DataHub's Rest.li `GET /relationships?urn=&types=List(..)&direction=`: the entities related to
 * one, a page by offset with the total, as its graph client reads them.
 */
export function relationshipRoutes(app: FastifyInstance, { registry, relationships }: Services): void {
  app.get<{ Querystring: { urn: string; types?: string[]; direction: string; start?: number; count?: number } }>(
    '/relationships',
    {
      ...restliRoute('read'),
      schema: {
        operationId: 'restliRelationships',
        tags: ['Rest.li'],
        summary: 'The entities related to one by the relationship types named, in one direction: {start, count, total, relationships: [{type, entity}]}',
        querystring: {
          type: 'object',
          properties: {
            urn: { type: 'string' },
            types: { type: 'array', items: { type: 'string' }, description: 'Rest.li 2.0 `List(a,b)`, or repeated' },
            direction: { type: 'string', description: 'OUTGOING or INCOMING' },
            start: { type: 'integer', description: 'Offset (default 0)' },
            count: { type: 'integer', description: `Page size (default 10, at most ${MAX_COUNT})` },
          },
          required: ['urn', 'types', 'direction'],
        },
        answers: {
          200: { description: 'A page of relationships', body: { type: 'object', additionalProperties: true } },
          400: 'An invalid URN, no relationship types, a direction other than INCOMING or OUTGOING, a bad start or count',
        },
      },
    },
    async (req) => {
      const { urn } = requestUrn(registry, req.query.urn);
      const direction = edgeDirection(req.query.direction);
      const types = relationshipTypes((req.query.types ?? []).map((item) => /^List\((.*)\)$/s.exec(item)?.[1] ?? item));
      if (types.length === 0) throw new ValidationError('types must name at least one relationship type');
      const start = req.query.start ?? 0;
      if (!Number.isInteger(start) || start < 0) throw new ValidationError(`start must be a whole number, got ${start}`);
      const page = await relationships.page(edgesOf(urn.text, direction, { types }), start, pageSize(req.query.count));
      return { start, count: page.edges.length, total: page.total, relationships: page.edges.map((e) => ({ type: e.relationship, entity: otherEnd(e, direction) })) };
    },
  );
}
