import type { FastifyInstance } from 'fastify';
import { ValidationError } from '../../errors.js';
import type { Services } from '../../services.js';
import type { PointCursor } from '../../store/store.js';
import { ref } from '../answers.js';
import { pageSize } from '../params.js';
import { pathEntityType } from '../urns.js';

interface TimeseriesQuery {
  count?: number;
  scrollId?: string;
  startTimeMillis?: number;
  endTimeMillis?: number;
  systemMetadata?: boolean;
}

/**
 * DataHub's `GET /openapi/v2/timeseries/{entityName}/{aspectName}` (its TimeseriesController): the
 * points of one aspect across the entities of a type, newest first, a page at a time.
 */
export function timeseriesRoutesV2(app: FastifyInstance, { reader, registry }: Services): void {
  app.get<{ Params: { entityName: string; aspectName: string }; Querystring: TimeseriesQuery }>(
    '/openapi/v2/timeseries/:entityName/:aspectName',
    {
      config: { permission: 'read' },
      schema: {
        operationId: 'scrollTimeseries',
        tags: ['Timeseries'],
        summary: 'Points of a timeseries aspect across the entities of a type, newest first: {scrollId, results: [{urn, timestampMillis, messageId?, event, systemMetadata?}]}',
        params: {
          type: 'object',
          properties: { entityName: { type: 'string' }, aspectName: { type: 'string', description: 'A timeseries aspect of the type' } },
          required: ['entityName', 'aspectName'],
        },
        querystring: {
          type: 'object',
          properties: {
            count: { type: 'integer', description: 'Points per page (default 10, at most 1000)' },
            scrollId: { type: 'string', description: 'From the previous page, to go on' },
            startTimeMillis: { type: 'integer', description: 'Only points at or after this time' },
            endTimeMillis: { type: 'integer', description: 'Only points at or before this time' },
            systemMetadata: { type: 'boolean', description: 'Include each point\'s systemMetadata' },
          },
        },
        answers: {
          200: { description: 'A page of points; scrollId null on the last', body: ref('TimeseriesScroll') },
          400: 'An unknown entity type or aspect, an aspect that is not timeseries, a bad count or scrollId',
        },
      },
    },
    async (req) => {
      const entity = pathEntityType(registry, req.params.entityName);
      const aspect = registry.aspectOf(entity, req.params.aspectName);
      if (!aspect) throw new ValidationError(`Unknown aspect ${req.params.aspectName} for entity type ${entity.name}`);
      if (aspect.kind !== 'timeseries') throw new ValidationError('Only timeseries aspects are supported.');
      const count = pageSize(req.query.count);
      const after = decodeCursor(req.query.scrollId);
      const { startTimeMillis: start, endTimeMillis: end } = req.query;
      const points = await reader.scrollPoints(entity.name, aspect.name, { start, end, ...(after ? { after } : {}), limit: count + 1 });
      const page = points.slice(0, count);
      const last = page[page.length - 1];
      return {
        scrollId: points.length > count ? encodeCursor({ timestampMillis: last.timestampMillis, id: last.id }) : null,
        results: page.map((p) => {
          const messageId = (p.value as { messageId?: unknown }).messageId;
          return {
            timestampMillis: p.timestampMillis,
            urn: p.urn,
            event: p.value,
            ...(typeof messageId === 'string' ? { messageId } : {}),
            ...(req.query.systemMetadata ? { systemMetadata: p.systemMetadata } : {}),
          };
        }),
      };
    },
  );
}

/** The scroll id: where the last page stopped, opaque to clients. */
function encodeCursor(cursor: PointCursor): string {
  return Buffer.from(JSON.stringify({ t: cursor.timestampMillis, id: cursor.id }), 'utf8').toString('base64url');
}

function decodeCursor(scrollId: string | undefined): PointCursor | undefined {
  if (scrollId === undefined || scrollId === '') return undefined;
  try {
    const { t, id } = JSON.parse(Buffer.from(scrollId, 'base64url').toString('utf8')) as { t?: unknown; id?: unknown };
    if (Number.isSafeInteger(t) && Number.isSafeInteger(id)) return { timestampMillis: t as number, id: id as number };
  } catch {
    // the error below
  }
  throw new ValidationError(`Invalid scrollId: ${scrollId}`);
}

/** The shape of this answer, as named schemas of the API document. */
export const timeseriesShapes = {
  TimeseriesScroll: {
    type: 'object',
    required: ['scrollId', 'results'],
    properties: {
      scrollId: { type: 'string', nullable: true, description: 'Pass it back for the next page; null when there is none' },
      results: {
        type: 'array',
        items: {
          type: 'object',
          required: ['timestampMillis', 'urn', 'event'],
          properties: {
            timestampMillis: { type: 'integer' },
            urn: { type: 'string' },
            event: { type: 'object', additionalProperties: true, description: 'The point\'s value' },
            messageId: { type: 'string' },
            systemMetadata: { type: 'object', additionalProperties: true },
          },
        },
      },
    },
  },
};
