import { readFileSync } from 'node:fs';
import type { FastifyInstance } from 'fastify';
import { ref } from './answers.js';

const pkg = JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as { version: string };

/** Version of urnbase, from package.json. */
export const VERSION = pkg.version;

/** Liveness and the DataHub-style server configuration that clients probe. */
export function statusRoutes(app: FastifyInstance): void {
  app.get(
    '/health',
    {
      schema: {
        operationId: 'getHealth',
        tags: ['Server'],
        summary: 'Liveness: 200 once the store is open',
        answers: { 200: { description: 'Alive', body: ref('Health') } },
      },
      config: { public: true },
    },
    async () => ({ status: 'ok' }),
  );

  // DataHub's clients (the Python SDK and CLI, the Java client) read /config before they send
  // anything: which API to use, which features to expect.
  app.get(
    '/config',
    {
      schema: {
        operationId: 'getConfig',
        tags: ['Server'],
        summary: 'Server configuration, DataHub style',
        answers: { 200: { description: 'The configuration', body: ref('ServerConfig') } },
      },
      config: { public: true },
    },
    async (req) => ({
      versions: {
        urnbase: { version: VERSION },
        'acryldata/datahub': { version: DATAHUB_VERSION, commit: `urnbase-${VERSION}` },
      },
      // A string, as DataHub sends it: clients check for "true" to know they reached GMS, not the frontend.
      noCode: 'true',
      patchCapable: true,
      // Stateful ingestion keeps checkpoints in a timeseries aspect (datahubIngestionCheckpoint), read
      // back with getTimeseriesAspectValues filtered on pipelineName.
      statefulIngestionCapable: true,
      supportsImpactAnalysis: false,
      retention: 'true',
      timeZone: 'GMT',
      baseUrl: `${req.protocol}://${req.host}`,
      // urnbase asks its clients not to report usage to a third party.
      telemetry: { enabledCli: false, enabledIngestion: false },
      managedIngestion: { enabled: false },
      // "core": a self-hosted DataHub; without serverEnv the Java client takes the server for DataHub Cloud.
      datahub: { serverType: 'urnbase', serverEnv: 'core' },
      datasetUrnNameCasing: false,
      models: {},
    }),
  );
}

/**
 * The DataHub release urnbase answers as. Clients turn features on by it: from 1.0.1 (core) the
 * Python SDK emits through the OpenAPI v3 entity API and may poll the trace API, which it does only
 * when a write answers with a `traceparent` header (urnbase sends none). Nothing above 1.0.1 is
 * claimed, so no client expects a later release's features.
 */
export const DATAHUB_VERSION = 'v1.0.1';

/** The shapes of these answers, as named schemas of the API document. */
export const statusShapes = {
  Health: { type: 'object', required: ['status'], properties: { status: { type: 'string', enum: ['ok'] } } },
  ServerConfig: {
    type: 'object',
    description: 'What DataHub\'s clients (the Python SDK and CLI, the Java client) look for in /config',
    required: [
      'versions', 'noCode', 'patchCapable', 'statefulIngestionCapable', 'supportsImpactAnalysis', 'retention', 'timeZone', 'baseUrl',
      'telemetry', 'managedIngestion', 'datahub', 'datasetUrnNameCasing', 'models',
    ],
    properties: {
      versions: {
        type: 'object',
        additionalProperties: {
          type: 'object',
          required: ['version'],
          properties: { version: { type: 'string' }, commit: { type: 'string' } },
        },
        description: 'urnbase\'s version, and the DataHub release it answers as (acryldata/datahub), which clients gate features on',
      },
      noCode: { type: 'string', enum: ['true'] },
      patchCapable: { type: 'boolean' },
      statefulIngestionCapable: { type: 'boolean', description: 'true: ingestion checkpoints (the timeseries aspect datahubIngestionCheckpoint) are kept and read back' },
      supportsImpactAnalysis: { type: 'boolean', description: 'false: no multi-hop lineage' },
      retention: { type: 'string' },
      timeZone: { type: 'string' },
      baseUrl: { type: 'string', description: 'This server, as the request reached it' },
      telemetry: { type: 'object', properties: { enabledCli: { type: 'boolean' }, enabledIngestion: { type: 'boolean' } } },
      managedIngestion: { type: 'object', properties: { enabled: { type: 'boolean' } } },
      datahub: { type: 'object', properties: { serverType: { type: 'string' }, serverEnv: { type: 'string', enum: ['core'] } } },
      datasetUrnNameCasing: { type: 'boolean', description: 'false: clients keep dataset names as they are' },
      models: { type: 'object' },
    },
  },
};
