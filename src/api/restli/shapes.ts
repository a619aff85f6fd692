import { ref } from '../answers.js';

/** The shapes of the Rest.li answers, as named schemas of the API document. */
export const restliShapes = {
  RestliSuccess: {
    type: 'object',
    description: 'A Rest.li action\'s result envelope; DataHub\'s ingest actions answer "success"',
    required: ['value'],
    properties: { value: { type: 'string', enum: ['success'] } },
  },
  DeleteEntityResult: {
    type: 'object',
    description: 'The delete action\'s result in its Rest.li envelope',
    required: ['value'],
    properties: {
      value: {
        type: 'object',
        required: ['urn', 'rows', 'timeseriesRows'],
        properties: {
          urn: { type: 'string' },
          rows: { type: 'integer', description: 'Aspect rows removed, earlier versions included' },
          timeseriesRows: { type: 'integer', description: 'Timeseries points removed' },
        },
      },
    },
  },
  TimeseriesAspectValues: {
    type: 'object',
    description: 'getTimeseriesAspectValues\' result in its Rest.li envelope: points newest first',
    required: ['value'],
    properties: {
      value: {
        type: 'object',
        required: ['entityName', 'aspectName', 'limit', 'values'],
        properties: {
          entityName: { type: 'string' },
          aspectName: { type: 'string' },
          startTimeMillis: { type: 'integer' },
          endTimeMillis: { type: 'integer' },
          limit: { type: 'integer', description: '1 for latestValue' },
          values: {
            type: 'array',
            items: {
              type: 'object',
              required: ['aspect', 'systemMetadata'],
              properties: {
                aspect: {
                  type: 'object',
                  required: ['value', 'contentType'],
                  properties: { value: { type: 'string', description: 'The point\'s value as a JSON string' }, contentType: { type: 'string', enum: ['application/json'] } },
                },
                systemMetadata: { type: 'object', additionalProperties: true },
              },
            },
          },
        },
      },
    },
  },
  VersionedAspect: {
    type: 'object',
    required: ['version', 'aspect'],
    properties: {
      version: { type: 'integer', description: 'The version asked for: 0 is the latest, 1 the oldest' },
      aspect: {
        type: 'object',
        description: 'One member: the aspect\'s Pegasus record name (e.g. com.linkedin.dataset.DatasetProperties) → the aspect value',
        additionalProperties: { type: 'object', additionalProperties: true },
      },
    },
  },
  EnvelopedAspect: {
    type: 'object',
    required: ['name', 'type', 'version', 'value', 'created'],
    properties: {
      name: { type: 'string' },
      type: { type: 'string', enum: ['VERSIONED'] },
      version: { type: 'integer', description: 'Always 0: the latest' },
      value: { type: 'object', additionalProperties: true, description: 'The aspect value' },
      created: ref('AuditStamp'),
      systemMetadata: ref('SystemMetadata'),
    },
  },
  EntitySnapshot: {
    type: 'object',
    required: ['value'],
    properties: {
      value: {
        type: 'object',
        description: 'One member: the snapshot record name (e.g. com.linkedin.metadata.snapshot.DatasetSnapshot) → {urn, aspects: [{<aspect record name>: value}…]}',
        additionalProperties: {
          type: 'object',
          required: ['urn', 'aspects'],
          properties: { urn: { type: 'string' }, aspects: { type: 'array', items: { type: 'object', additionalProperties: { type: 'object', additionalProperties: true } } } },
        },
      },
    },
  },
  EntityResponse: {
    type: 'object',
    required: ['entityName', 'urn', 'aspects'],
    properties: {
      entityName: { type: 'string' },
      urn: { type: 'string' },
      aspects: {
        type: 'object',
        description: 'Aspect name → aspect. The key aspect is always there, even for an entity that does not exist (as DataHub answers)',
        additionalProperties: ref('EnvelopedAspect'),
      },
    },
  },
};
