import type { FastifyReply, FastifyRequest, RouteShorthandOptions } from 'fastify';
import type { Permission } from '../../auth/roles.js';
import type { WriteContext } from '../../ingest/proposal.js';
import { writeContext } from '../context.js';

/** What every Rest.li route shares: its refusals in Rest.li's error shape, and the protocol header. */
export function restliRoute(permission: Permission): Pick<RouteShorthandOptions, 'config' | 'onSend'> {
  return {
    config: { permission, errorFormat: 'restli' },
    onSend: (_req: FastifyRequest, reply: FastifyReply, payload: unknown, done: (error: null, payload: unknown) => void) => {
      reply.header('x-restli-protocol-version', '2.0.0');
      done(null, payload);
    },
  };
}

/** Who writes, recorded as having come through Rest.li. */
export function restliWriteContext(req: FastifyRequest): WriteContext {
  return { ...writeContext(req), source: 'RESTLI' };
}

/** A Rest.li action's name: served ones here; DataHub's others are refused by name. */
export function unservedAction(resource: string, action: string | undefined, served: readonly string[]): string {
  if (action === undefined || action === '') return `POST /${resource} needs ?action=${served.join('|')}`;
  return `Action ${action} on /${resource} is not served by urnbase (served: ${served.join(', ')})`;
}
