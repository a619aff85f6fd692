import type { FastifyInstance } from 'fastify';
import { MAX_EVENTS, MAX_WAIT_SECONDS, readParameters, type ChangeLog } from '../../events/change-log.js';

const READ = { permission: 'read' } as const;

/** `GET /openapi/v2/events`: the change log after a sequence, long-polling when asked. */
export function eventRoutes(app: FastifyInstance, changeLog: ChangeLog): void {
  app.get<{ Querystring: { after?: string; limit?: string; wait?: string } }>(
    '/openapi/v2/events',
    {
      config: READ,
      schema: {
        tags: ['Change log'],
        summary: 'Committed aspect changes after a sequence, in order: {events:[{sequence, urn, entityType, aspectName, changeType, created, aspect, previousAspectValue, systemMetadata}], nextAfter}',
        querystring: {
          type: 'object',
          properties: {
            after: { type: 'string', description: 'the last sequence already handled (default 0: from the oldest kept)' },
            limit: { type: 'string', description: `at most this many events (default 100, at most ${MAX_EVENTS})` },
            wait: { type: 'string', description: `when none is newer, wait up to this many seconds for one (default 0, at most ${MAX_WAIT_SECONDS})` },
          },
        },
      },
    },
    async (req, reply) => {
      const { after, limit, waitMs } = readParameters(req.query);
      // A client that hangs up stops the wait.
      const gone = new AbortController();
      reply.raw.once('close', () => gone.abort());
      return changeLog.read(after, limit, waitMs, gone.signal);
    },
  );
}
