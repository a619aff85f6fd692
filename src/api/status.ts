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

  // DataHub clients (the Python SDK's emitter, the CLI) call /config to check the server.
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
    async () => ({
      versions: {
        urnbase: { version: VERSION },
        'acryldata/datahub': { version: 'v1.0.0' },
      },
      noCode: 'true',
      patchCapable: true,
      statefulIngestionCapable: true,
      retention: 'true',
      timeZone: 'GMT',
      datahub: { serverType: 'urnbase' },
      models: {},
    }),
  );
}

/** The shapes of these answers, as named schemas of the API document. */
export const statusShapes = {
  Health: { type: 'object', required: ['status'], properties: { status: { type: 'string', enum: ['ok'] } } },
  ServerConfig: {
    type: 'object',
    description: 'What DataHub clients (the Python SDK\'s emitter, the CLI) look for in /config',
    required: ['versions', 'noCode', 'patchCapable', 'statefulIngestionCapable', 'retention', 'timeZone', 'datahub', 'models'],
    properties: {
      versions: {
        type: 'object',
        additionalProperties: { type: 'object', required: ['version'], properties: { version: { type: 'string' } } },
        description: 'urnbase\'s version, and the DataHub version it answers as (acryldata/datahub)',
      },
      noCode: { type: 'string' },
      patchCapable: { type: 'boolean' },
      statefulIngestionCapable: { type: 'boolean' },
      retention: { type: 'string' },
      timeZone: { type: 'string' },
      datahub: { type: 'object', properties: { serverType: { type: 'string' } } },
      models: { type: 'object' },
    },
  },
};
