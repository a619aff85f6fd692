import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { DestinationStream } from 'pino';
import type { FastifyReply, FastifyRequest } from 'fastify';

export const REQUEST_ID_HEADER = 'x-request-id';
const MAX_LENGTH = 128;

/**
 * A caller's X-Request-Id is kept (so a request can be followed across a proxy and urnbase) once
 * cut to characters that cannot forge log lines or headers, and to 128 of them; without a
 * usable one, urnbase makes one (`req-` and a UUID).
 */
export function requestId(req: IncomingMessage): string {
  const given = req.headers[REQUEST_ID_HEADER];
  const text = Array.isArray(given) ? given[0] : given;
  if (text === undefined) return `req-${randomUUID()}`;
  const clean = text.replace(/[^A-Za-z0-9._:+=/@-]/g, '').slice(0, MAX_LENGTH);
  return clean.length > 0 ? clean : `req-${randomUUID()}`;
}

/**
 * pino's JSON lines. Request logs carry method, URL and the request id, never headers; the
 * redaction is a second guard should a header or a token-creation answer ever be logged.
 */
export function loggerOptions(level: string, stream?: DestinationStream) {
  return {
    level,
    ...(stream ? { stream } : {}),
    redact: {
      paths: ['req.headers.authorization', 'req.headers.cookie', 'headers.authorization', 'authorization', 'token', '*.token', 'res.body.token'],
      censor: '[redacted]',
    },
  };
}

/** Echoes the request id in every answer, errors included (see the onRequest hook in app.ts). */
export function echoRequestId(req: FastifyRequest, reply: FastifyReply): void {
  reply.header(REQUEST_ID_HEADER, req.id);
}
