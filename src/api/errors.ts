import type { Socket } from 'node:net';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import {
  ClientGoneError,
  ConflictError,
  DomainError,
  ForbiddenError,
  InvalidUrnError,
  NotFoundError,
  PreconditionError,
  StoreUnavailableError,
  TooLargeError,
  TooManyRequestsError,
  UnauthorizedError,
  ValidationError,
} from '../errors.js';
import { MAX_URN_BYTES } from '../urn/urn.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The error body shape of the route's family: Rest.li routes answer as Rest.li does (default: `{error, message}`). */
    errorFormat?: 'restli';
  }
}

export interface ErrorBody {
  error: string;
  message?: string;
  requestId?: string;
}

/** Rest.li's ErrorResponse, as DataHub's Python and Java clients read it (they show `message`). */
export interface RestliErrorBody {
  exceptionClass: string;
  message: string;
  status: number;
  /** Rest.li sends the Java stack trace; here only its first line, which names class, status and message. */
  stackTrace: string;
  requestId?: string;
}

const RESTLI_EXCEPTION = 'com.linkedin.restli.server.RestLiServiceException';
// DataHub's reads answer "not found" with this subclass.
const RESTLI_NOT_FOUND = 'com.linkedin.metadata.restli.NonExceptionHttpErrorResponse';

const RESTLI_ERROR_HEADERS = { 'x-restli-error-response': 'true', 'x-restli-protocol-version': '2.0.0' };

/** The same refusal in Rest.li's shape: same status, the message the clients print. */
function restliErrorBody(status: number, body: ErrorBody): RestliErrorBody {
  const exceptionClass = status === 404 ? RESTLI_NOT_FOUND : RESTLI_EXCEPTION;
  const message = body.message ?? body.error;
  return {
    exceptionClass,
    message,
    status,
    stackTrace: `${exceptionClass} [HTTP Status:${status}]: ${message}`,
    ...(body.requestId ? { requestId: body.requestId } : {}),
  };
}

/** The one place where errors become HTTP statuses and JSON bodies. */
export function toHttpError(error: unknown): { status: number; body: ErrorBody; headers?: Record<string, string> } {
  if (error instanceof DomainError) {
    if (error instanceof InvalidUrnError) return { status: 400, body: { error: error.message } };
    if (error instanceof ValidationError) return { status: 400, body: { error: 'Validation Error', message: error.message } };
    if (error instanceof TooLargeError) return { status: 413, body: { error: 'Payload Too Large', message: error.message } };
    if (error instanceof NotFoundError) {
      return { status: 404, body: { error: 'Not Found', message: error.message }, headers: { 'not-found-reason': error.reason } };
    }
    if (error instanceof ConflictError) return { status: 409, body: { error: 'Conflict', message: error.message } };
    if (error instanceof PreconditionError) {
      return { status: 412, body: { error: 'Precondition Error', message: error.message } };
    }
    if (error instanceof UnauthorizedError) {
      return { status: 401, body: { error: 'Unauthorized', message: error.message }, headers: { 'www-authenticate': 'Bearer' } };
    }
    if (error instanceof ForbiddenError) return { status: 403, body: { error: 'Forbidden', message: error.message } };
    if (error instanceof StoreUnavailableError) {
      return { status: 503, body: { error: 'Service Unavailable', message: error.message }, headers: { 'retry-after': '2' } };
    }
    // nginx's 499: nobody reads it, and it is not the server's failure (not logged as one).
    if (error instanceof ClientGoneError) return { status: 499, body: { error: 'Client Closed Request', message: error.message } };
    if (error instanceof TooManyRequestsError) {
      return { status: 429, body: { error: 'Too Many Requests', message: error.message }, headers: { 'retry-after': String(error.retryAfter) } };
    }
  }
  const fastifyError = error as Partial<FastifyError>;
  // Path segments longer than the router takes (app.ts) are URNs far over their limit.
  if (fastifyError.code === 'FST_ERR_MAX_PARAM_LENGTH') {
    return { status: 400, body: { error: 'Validation Error', message: `A path segment is too long: a URN may be at most ${MAX_URN_BYTES} bytes long (UTF-8)` } };
  }
  if (fastifyError.validation) {
    return { status: 400, body: { error: 'Validation Error', message: fastifyError.message } };
  }
  const status = fastifyError.statusCode;
  if (status !== undefined && status >= 400 && status < 500) {
    return { status, body: { error: STATUS_NAMES[status] ?? 'Bad Request', message: fastifyError.message } };
  }
  return { status: 500, body: { error: 'Internal server error occurred' } };
}

const STATUS_NAMES: Record<number, string> = {
  400: 'Bad Request',
  404: 'Not Found',
  405: 'Method Not Allowed',
  406: 'Not Acceptable',
  408: 'Request Timeout',
  413: 'Payload Too Large',
  415: 'Unsupported Media Type',
  429: 'Too Many Requests',
  431: 'Request Header Fields Too Large',
};

/** How long a request refused before its body arrived may go on sending it (then its connection is closed). */
const LINGER_MS = 1000;

/**
 * A request refused before its body was read (401, 413, …): Node reads and drops the rest of the
 * body, so that a client still sending reads the answer rather than a broken connection (as
 * nginx lingers); but a body that has not all arrived within LINGER_MS is not waited for, and the
 * connection is closed: slow senders were kept open for minutes after their 401.
 */
function lingerThenClose(request: FastifyRequest): void {
  const incoming = request.raw;
  // (app.inject's requests have a socket of their own making, without destroy.)
  const timer = setTimeout(() => incoming.socket?.destroy?.(), LINGER_MS).unref();
  const settled = () => clearTimeout(timer);
  incoming.once('end', settled);
  incoming.once('close', settled);
}

/** The line logged (at info) when a client left before its answer and its work was stopped. */
export const CLIENT_GONE_LOG = 'the client closed the connection before the answer: its search was stopped';

export function registerErrorHandlers(app: FastifyInstance): void {
  app.setErrorHandler((error: unknown, request: FastifyRequest, reply: FastifyReply) => {
    const { status, body, headers } = toHttpError(error);
    if (status === 415) {
      body.message = `Content type ${request.headers['content-type'] ?? '(none)'} is not supported; send application/json`;
    }
    if ((error as Partial<FastifyError>).code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
      body.message = `Request body is too large: this route takes at most ${(request.routeOptions.bodyLimit ?? 0).toLocaleString('en-US')} bytes`;
    }
    // Not the server's failure: noted (a search stopped for nobody), never logged as an error.
    if (error instanceof ClientGoneError) request.log.info(CLIENT_GONE_LOG);
    if (status >= 500) {
      request.log.error({ err: error }, 'request failed');
      body.requestId = String(request.id);
    }
    if (headers) reply.headers(headers);
    if (!request.raw.complete) lingerThenClose(request);
    if (request.routeOptions.config?.errorFormat === 'restli') {
      return reply.status(status).headers(RESTLI_ERROR_HEADERS).send(restliErrorBody(status, body));
    }
    return reply.status(status).send(body);
  });
  app.setNotFoundHandler((request: FastifyRequest, reply: FastifyReply) => {
    return reply.status(404).send({ error: `No endpoint ${request.method} ${request.url}.` });
  });
}

// The Rest.li resources urnbase serves (api/restli): a refusal before routing knows no route, only the path.
const RESTLI_PATH = /^\/(aspects|entities|entitiesV2)([/?]|$)/;

/**
 * Fastify's own refusals before routing (an undecodable URL, an over-long parameter): the usual
 * error body, or Rest.li's on a Rest.li resource's path.
 */
export function frameworkErrors(error: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  const { status, body } = toHttpError(error);
  if (RESTLI_PATH.test(request.url)) {
    void reply.status(status).headers(RESTLI_ERROR_HEADERS).send(restliErrorBody(status, body));
    return;
  }
  void reply.status(status).send(body);
}

const CLIENT_ERRORS: Record<string, [number, string]> = {
  ERR_HTTP_REQUEST_TIMEOUT: [408, 'The request was not received in time'],
  HPE_HEADER_OVERFLOW: [431, 'The request headers are too large'],
};

/**
 * HTTP that Node's parser refuses: answered in the usual error shape when no request on the
 * connection is still being answered. Otherwise the connection is only closed: a 400 there would
 * read as the answer to that earlier request, which may yet commit (Fastify's default, like
 * Node's, wrote it anyway, and after a response had gone out wrote a second one).
 */
export function clientErrorHandler(error: Error & { code?: string }, socket: Socket): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const inFlight = (socket as Socket & { _httpMessage?: unknown })._httpMessage;
  if (socket.writable && !inFlight) {
    const [status, message] = CLIENT_ERRORS[error.code ?? ''] ?? [400, 'Malformed HTTP request'];
    // An answer to HEAD has no body, or the client would read it as the start of another answer.
    const { rawPacket } = error as { rawPacket?: Buffer };
    const body = rawPacket?.subarray(0, 5).toString('latin1') === 'HEAD ' ? '' : JSON.stringify({ error: STATUS_NAMES[status], message });
    socket.write(`HTTP/1.1 ${status} ${STATUS_NAMES[status]}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`);
  }
  socket.destroy(error);
}
