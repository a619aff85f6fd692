import type { FastifyInstance } from 'fastify';
import { CATEGORIES, SEMVER_CHANGES } from '../timeline/model.js';
import type { Timeline } from '../timeline/timeline.js';
import { ref, type JsonSchema } from './answers.js';

const READ = { permission: 'read' } as const;

interface TimelineQuerystring {
  categories: string[];
  startTime?: number;
  endTime?: number;
  raw?: boolean;
  includeVersionSet?: boolean;
}

/**
 * The paths DataHub serves its timeline at, one handler: its v2 controller's, the one the
 * `datahub timeline` CLI calls (DataHub's deprecated v1 controller), and the v1 path its v1 smoke
 * fixture calls.
 */
const ROUTES = [
  { path: '/openapi/v2/timeline/v1/:urn', operationId: 'getTimeline' },
  { path: '/openapi/timeline/v1/:urn', operationId: 'getTimelineV1' },
  { path: '/openapi/v1/timeline/:urn', operationId: 'getTimelineLegacyV1' },
] as const;

const querystring = {
  type: 'object',
  properties: {
    categories: {
      type: 'array',
      items: { type: 'string' },
      description: `Required: the categories of changes, repeated or comma-separated, any case: ${CATEGORIES.join(', ')}`,
    },
    startTime: { type: 'integer', description: 'From this time (epoch millis); -1 (the default): a week before endTime' },
    endTime: { type: 'integer', description: 'Before this time (epoch millis); 0 (the default): now' },
    raw: { type: 'boolean', description: 'Add each transaction\'s raw diff: the JSON Patch of the aspect change it comes from (default false)' },
    includeVersionSet: { type: 'boolean', description: 'Accepted for DataHub\'s clients: urnbase has no version sets, so the entity\'s own timeline is answered' },
  },
  required: ['categories'],
};

/** GET a timeline: HTTP in, the timeline service's transactions out. */
export function timelineRoutes(app: FastifyInstance, timeline: Timeline): void {
  for (const { path, operationId } of ROUTES) {
    app.get<{ Params: { urn: string }; Querystring: TimelineQuerystring }>(
      path,
      {
        config: READ,
        schema: {
          operationId,
          tags: ['Timeline'],
          summary: 'The semantic history of an entity: its aspect changes in the categories asked for, as change transactions with computed semantic versions, oldest first',
          params: { type: 'object', properties: { urn: { type: 'string', description: 'Percent-encoded entity URN' } }, required: ['urn'] },
          querystring,
          answers: {
            200: { description: 'The change transactions in the window, oldest first (an entity without changes there: an empty list)', body: { type: 'array', items: ref('ChangeTransaction') } },
            400: 'An invalid URN or unknown entity type, categories missing or naming an unknown category, a startTime or endTime that is not a whole number, raw that is not a boolean, or a window holding more aspect versions than the timelineVersions limit',
          },
        },
      },
      async (req) =>
        timeline.of({
          urn: req.params.urn,
          categories: req.query.categories,
          startTime: req.query.startTime,
          endTime: req.query.endTime,
          raw: req.query.raw,
        }),
    );
  }
}

/** The shapes of the answer, as named schemas of the API document. */
export const timelineShapes: Record<string, JsonSchema> = {
  TimelineChangeEvent: {
    type: 'object',
    required: ['semVerChange', 'description'],
    properties: {
      entityUrn: { type: 'string', description: 'What changed: the entity, or one of its schema fields' },
      category: { type: 'string', enum: [...CATEGORIES] },
      operation: { type: 'string', enum: ['ADD', 'MODIFY', 'REMOVE'] },
      modifier: { type: 'string', description: 'What was added, removed or changed: a tag, an owner, a field\'s URN, …' },
      parameters: { type: 'object', additionalProperties: true, description: 'Details by category and operation (DataHub\'s names)' },
      semVerChange: { type: 'string', enum: [...SEMVER_CHANGES] },
      description: { type: 'string' },
    },
  },
  ChangeTransaction: {
    type: 'object',
    required: ['timestamp', 'actor', 'semVer', 'semVerChange', 'changeEvents', 'versionStamp'],
    properties: {
      timestamp: { type: 'integer', description: 'When the changes were written (epoch millis)' },
      actor: { type: 'string', description: 'Who wrote them' },
      semVer: { type: 'string', description: 'The computed semantic version after them, e.g. 1.2.0-computed' },
      semVerChange: { type: 'string', enum: [...SEMVER_CHANGES], description: 'The heaviest of its changes' },
      changeEvents: { type: 'array', items: ref('TimelineChangeEvent') },
      rawDiff: {
        type: 'array',
        description: 'With raw=true: the JSON Patch (RFC 6902) of the aspect change the transaction comes from',
        items: { type: 'object', required: ['op', 'path'], properties: { op: { type: 'string' }, path: { type: 'string' }, value: {} } },
      },
      versionStamp: { type: 'string', description: 'aspect:version;… of every aspect as it stood then (0: the latest version)' },
    },
  },
};
