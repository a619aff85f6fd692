import { Ajv, type ValidateFunction } from 'ajv';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ValidationError } from '../errors.js';
import { nestsDeeperThan } from '../json.js';

/**
 * The deepest a request body may nest: Jackson's default limit, which DataHub's server parses
 * with. Deeper bodies would reach code that recurses over values (patching, comparing, storing).
 */
export const MAX_BODY_DEPTH = 1000;

/**
 * JSON in, JSON Patch in, nothing else (415). Route schemas coerce query strings and headers;
 * bodies are left to the write path, which validates them against the registry.
 */
export function registerBodyParsing(app: FastifyInstance): void {
  // A request that announces no body has none, whatever its Content-Type says: OpenAPI-generated
  // clients and HTTP sessions with default headers send one on DELETE too, and Fastify would
  // hand the empty body to a parser (400 for JSON, 415 for others).
  app.addHook('onRequest', (req, _reply, done) => {
    const headers = req.raw.headers;
    if (headers['content-type'] !== undefined && headers['transfer-encoding'] === undefined && (headers['content-length'] ?? '0') === '0') {
      delete headers['content-type'];
    }
    done();
  });
  app.removeContentTypeParser(['application/json', 'text/plain']);
  // Fastify's own parser, which refuses __proto__ and constructor.prototype keys with a 400.
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.addContentTypeParser(['application/json', 'application/json-patch+json'], { parseAs: 'string' }, (request: FastifyRequest, body: string | Buffer, done) => {
    // A chunked body may still turn out empty: no body, as above.
    if (body.length === 0) return done(null, undefined);
    parseJson(request, body as string, (error: Error | null, value?: unknown) => {
      if (error) return done(error, undefined);
      if (nestsDeeperThan(value, MAX_BODY_DEPTH)) return done(new ValidationError(`Request body nests deeper than ${MAX_BODY_DEPTH} levels`), undefined);
      done(null, value);
    });
  });
  const ajv = new Ajv({ coerceTypes: 'array', useDefaults: true, removeAdditional: false, allErrors: false, strict: false });
  app.setValidatorCompiler(({ schema, httpPart }) => (httpPart === 'body' ? () => true : compiledOnFirstUse(ajv, schema)));
}

/**
 * A route's parameter validator, compiled when the route is first called: compiling them all
 * when the server starts cost 80 ms of a 1.4 s start. Fastify reads `errors` after a failure.
 */
function compiledOnFirstUse(ajv: Ajv, schema: object): ValidateFunction {
  let compiled: ValidateFunction | undefined;
  const validate = ((data: unknown) => {
    compiled ??= ajv.compile(schema);
    const valid = compiled(data);
    validate.errors = compiled.errors;
    return valid;
  }) as ValidateFunction;
  return validate;
}
