import type { FastifyReply } from 'fastify';
import { ClientGoneError } from '../errors.js';

/**
 * A signal that fires when the client closes its connection before the answer was sent, so that
 * the work it asked for (a search's queries) is stopped rather than run for nobody: an impatient
 * as-you-type client or an attacker would otherwise leave queries running after giving up.
 */
export function clientGone(reply: FastifyReply): AbortSignal {
  const controller = new AbortController();
  const gone = () => {
    if (!reply.raw.writableFinished) controller.abort(new ClientGoneError());
  };
  // A client may have gone before the handler asked (a busy server reads a request late): its
  // 'close' has been emitted already and will not be again.
  if (reply.request.raw.socket?.destroyed === true) gone();
  else reply.raw.once('close', gone);
  return controller.signal;
}
