import type { FastifyInstance } from 'fastify';
import type { Registry } from '../../registry/registry.js';
import { ref } from '../answers.js';
import { pathEntityType } from '../urns.js';

const READ = { permission: 'read' } as const;

/**
 * `GET /openapi/v2/entity-types/{type}`: the aspects an entity type may hold, from the registry,
 * so that a client offers only the edits the type takes (a user has no domain, a domain no tags).
 */
export function entityTypeRoutes(app: FastifyInstance, registry: Registry): void {
  app.get<{ Params: { type: string } }>(
    '/openapi/v2/entity-types/:type',
    {
      config: READ,
      schema: {
        operationId: 'getEntityType',
        tags: ['Registry'],
        summary: 'An entity type of the registry and the aspects it may hold: {name, keyAspect, aspects}',
        params: { type: 'object', properties: { type: { type: 'string', description: 'Entity type, in any case (e.g. dataset)' } }, required: ['type'] },
        answers: {
          200: { description: 'The entity type, its key aspect, and every aspect it may hold (the key aspect included), sorted', body: ref('EntityTypeAspects') },
          400: 'An unknown entity type',
        },
      },
    },
    async (req) => {
      const spec = pathEntityType(registry, req.params.type);
      return { name: spec.name, keyAspect: spec.keyAspect.name, aspects: [...spec.aspects.keys()].sort() };
    },
  );
}

/** The shape of this answer, as a named schema of the API document. */
export const entityTypeShapes = {
  EntityTypeAspects: {
    type: 'object',
    required: ['name', 'keyAspect', 'aspects'],
    properties: {
      name: { type: 'string' },
      keyAspect: { type: 'string' },
      aspects: { type: 'array', items: { type: 'string' } },
    },
  },
};
