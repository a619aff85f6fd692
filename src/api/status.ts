import { readFileSync } from 'node:fs';
import type { FastifyInstance } from 'fastify';

const pkg = JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as { version: string };

/** Version of urnbase, from package.json. */
export const VERSION = pkg.version;

/** Liveness and the DataHub-style server configuration that clients probe. */
export function statusRoutes(app: FastifyInstance): void {
  app.get('/health', { schema: { tags: ['Server'], summary: 'Liveness: 200 once the store is open' }, config: { public: true } }, async () => ({
    status: 'ok',
  }));

  // DataHub clients (the Python SDK's emitter, the CLI) call /config to check the server.
  app.get('/config', { schema: { tags: ['Server'], summary: 'Server configuration, DataHub style' }, config: { public: true } }, async () => ({
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
  }));
}
