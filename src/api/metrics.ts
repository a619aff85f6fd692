import type { FastifyInstance } from 'fastify';
import type { Metrics } from '../metrics/metrics.js';

/**
 * Counts and times every answer by its route *pattern* (`/openapi/v2/entity/:type/:urn`): URNs
 * in labels would make a time series per entity. Requests no route matched count as `unmatched`.
 * GET /metrics needs a token that may read (any role) when auth is on: the figures describe the
 * catalog's use, and Prometheus sends a bearer token as easily as none.
 */
export function metricsRoutes(app: FastifyInstance, metrics: Metrics): void {
  app.addHook('onResponse', (req, reply, done) => {
    metrics.request(req.routeOptions.url ?? 'unmatched', req.method, reply.statusCode, reply.elapsedTime / 1000);
    done();
  });
  app.get(
    '/metrics',
    {
      schema: {
        operationId: 'getMetrics',
        tags: ['Server'],
        summary: 'Prometheus metrics (text format)',
        answers: { 200: { description: 'The metrics', contentType: 'text/plain', body: { type: 'string' } } },
      },
      config: { permission: 'read' },
    },
    async (_req, reply) => reply.type(metrics.registry.contentType).send(await metrics.registry.metrics()),
  );
}
