import type { FastifyReply } from 'fastify';
import { ClientGoneError } from '../errors.js';

/**
 * A signal that fires when the client closes its connection before the answer was sent, so that
 * the work it asked for (a search's queries) is stopped rather than run for nobody: an impatient
 * as-you-type client or an attacker would otherwise leave queries running after giving up.
 */
export function clientGone(reply: FastifyReply): AbortSignal {
  const controller = new AbortController();
  reply.raw.once('close', () => {
    if (!reply.raw.writableFinished) controller.abort(new ClientGoneError());
  });
  return controller.signal;
}
