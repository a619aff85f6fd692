import type { FastifyRequest } from 'fastify';
import type { WriteContext } from '../ingest/proposal.js';

/** The acting principal of a request; authentication (a later layer) will set it from the token. */
export function writeContext(_req: FastifyRequest): WriteContext {
  return { actor: 'urn:li:corpuser:datahub', source: 'OPENAPI' };
}
