import type { FastifyRequest } from 'fastify';
import type { WriteContext } from '../ingest/proposal.js';

/** Who writes: the request's authenticated principal (DataHub's default user when auth is off). */
export function writeContext(req: FastifyRequest): WriteContext {
  return { actor: req.principal?.actor ?? 'urn:li:corpuser:datahub', source: 'OPENAPI', admin: req.principal?.role === 'admin' };
}
