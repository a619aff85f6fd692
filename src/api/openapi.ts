import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import { VERSION } from './status.js';

/**
 * The OpenAPI 3 document of every route, built from the route schemas, at /openapi/v3/api-docs,
 * and Swagger UI (assets bundled in the package, so it works offline) at /openapi/swagger-ui/.
 */
export async function registerOpenApi(app: FastifyInstance): Promise<void> {
  await app.register(swagger, {
    exposeHeadRoutes: true,
    openapi: {
      openapi: '3.0.3',
      info: { title: 'urnbase', description: 'Metadata catalog speaking DataHub\'s HTTP APIs', version: VERSION },
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } } },
      security: [{ bearer: [] }],
    },
  });
  await app.register(swaggerUi, {
    routePrefix: '/openapi/swagger-ui',
    uiConfig: { url: '/openapi/v3/api-docs', deepLinking: true },
  });
  app.get('/openapi/v3/api-docs', { schema: { hide: true }, config: { public: true } }, async () => app.swagger());
}
