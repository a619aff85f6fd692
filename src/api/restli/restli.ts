import type { FastifyInstance } from 'fastify';
import type { Services } from '../../services.js';
import { aspectRoutes } from './aspects.js';
import { entityRoutes } from './entities.js';
import { relationshipRoutes } from './relationships.js';

export { restliShapes } from './shapes.js';

/**
 * DataHub's Rest.li endpoints as its emitters and graph client use them, over the same write
 * path (proposals into ingest) and read path as the OpenAPI routes.
 */
export function restliRoutes(app: FastifyInstance, services: Services): void {
  aspectRoutes(app, services);
  entityRoutes(app, services);
  relationshipRoutes(app, services);
}
