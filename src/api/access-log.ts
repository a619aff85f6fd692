import { LogController, type FastifyReply, type FastifyRequest } from 'fastify';

/**
 * One access-log line per request, when it completes: `request completed` (or `request errored`)
 * with the request id, the request (method, URL, host, remote address and port), the status and
 * the response time in ms — what an operator's access log holds. Fastify's own logs a second line
 * as each request comes in, with the request's half of this; at the default level (info) the two
 * lines cost a tenth and more of a request's CPU.
 *
 * The line is written by the server's logger with the request id as a field, so a request that
 * logs nothing else never makes its own child logger (see request-logger.ts).
 */
export class AccessLog extends LogController {
  override incomingRequest(): void {}

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    // pino's methods for levels below the logger's do nothing.
    const log = request.server.log;
    if (error) log.error({ reqId: request.id, req: request, res: reply, err: error, responseTime: reply.elapsedTime }, 'request errored');
    else log.info({ reqId: request.id, req: request, res: reply, responseTime: reply.elapsedTime }, 'request completed');
  }
}
