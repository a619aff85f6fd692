import type { FastifyInstance } from 'fastify';
import { ref } from '../answers.js';
import { MAX_EVENTS, MAX_WAIT_SECONDS, readParameters, readSelection, type ChangeLog } from '../../events/change-log.js';
import type { Registry } from '../../registry/registry.js';

const READ = { permission: 'read' } as const;

/** `GET /openapi/v2/events`: the change log after a sequence, long-polling when asked. */
export function eventRoutes(app: FastifyInstance, changeLog: ChangeLog, registry: Registry): void {
  app.get<{ Querystring: { after?: string; limit?: string; wait?: string; latest?: string; entityType?: string; excludeEntityTypes?: string; aspect?: string; actor?: string } }>(
    '/openapi/v2/events',
    {
      config: READ,
      schema: {
        // DataHub's events API calls its equivalent `poll`.
        operationId: 'pollEvents',
        tags: ['Change log'],
        summary: 'Committed aspect changes after a sequence, in order, of one entity type, aspect or actor if asked, leaving out entity types if asked: {events:[{sequence, urn, entityType, aspectName, changeType, created, aspect, previousAspectValue, systemMetadata}], nextAfter}',
        querystring: {
          type: 'object',
          properties: {
            after: { type: 'string', description: 'the last sequence already handled (default 0: from the oldest kept)' },
            limit: { type: 'string', description: `at most this many events (default 100, at most ${MAX_EVENTS})` },
            wait: { type: 'string', description: `when none is newer, wait up to this many seconds for one (default 0, at most ${MAX_WAIT_SECONDS})` },
            latest: { type: 'string', description: `instead of after/limit/wait: the newest events, at most this many (1 to ${MAX_EVENTS}), oldest first` },
            entityType: { type: 'string', description: 'only the events of this entity type (e.g. dataset)' },
            excludeEntityTypes: { type: 'string', description: 'none of the events of these entity types, comma-separated (e.g. dataPlatform,dataType,entityType)' },
            aspect: { type: 'string', description: 'only the events of this aspect (e.g. globalTags)' },
            actor: { type: 'string', description: 'only the events written by this actor (its URN, e.g. urn:li:corpuser:jdoe)' },
          },
        },
        answers: {
          200: { description: 'The events, oldest first, and where to continue', body: ref('ChangeLogPage') },
          400: 'after, limit, wait or latest is not a number in range, or latest comes with the others; an unknown entityType, excludeEntityTypes or aspect, or an actor that is not a URN',
        },
      },
    },
    async (req, reply) => {
      const { after, limit, waitMs, latest } = readParameters(req.query);
      const only = readSelection(req.query, registry);
      if (latest !== undefined) return changeLog.latest(latest, only);
      // A client that hangs up stops the wait.
      const gone = new AbortController();
      reply.raw.once('close', () => gone.abort());
      return changeLog.read(after, limit, waitMs, gone.signal, only);
    },
  );
}

/** The shape of this answer, as named schemas of the API document. */
export const eventShapes = {
  ChangeLogEvent: {
    type: 'object',
    required: ['sequence', 'urn', 'entityType', 'aspectName', 'changeType', 'created', 'aspect', 'previousAspectValue', 'systemMetadata'],
    properties: {
      sequence: { type: 'integer' },
      urn: { type: 'string' },
      entityType: { type: 'string' },
      aspectName: { type: 'string' },
      changeType: { type: 'string', description: 'UPSERT, PATCH, DELETE, …' },
      created: ref('AuditStamp'),
      aspect: { type: 'object', nullable: true, additionalProperties: true, description: 'The value after the change (null for a delete)' },
      previousAspectValue: { type: 'object', nullable: true, additionalProperties: true, description: 'The value it replaced (null when there was none)' },
      systemMetadata: { type: 'object', nullable: true, additionalProperties: true },
    },
  },
  ChangeLogPage: {
    type: 'object',
    required: ['events', 'nextAfter'],
    properties: {
      events: { type: 'array', items: ref('ChangeLogEvent') },
      nextAfter: { type: 'integer', description: 'Pass it as `after` next time: the last event\'s sequence, or `after` when there was none' },
    },
  },
};
