import { isUtf8 } from 'node:buffer';
import { Ajv, type ValidateFunction } from 'ajv';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ValidationError } from '../errors.js';
import { loneSurrogateAt, nestsDeeperThan, nestsDeeperThanSteps } from '../json.js';
import { Pacer } from '../pace.js';

/**
 * The deepest a request body may nest: Jackson's default limit, which DataHub's server parses
 * with. Deeper bodies would reach code that recurses over values (patching, comparing, storing).
 */
export const MAX_BODY_DEPTH = 1000;

/**
 * What a parsed body may not hold, answered as the error to refuse it with (null: none): nesting
 * past MAX_BODY_DEPTH, or a lone surrogate (\\ud800 without its pair), which has no UTF-8 form and
 * which only a JSON escape can make.
 */
function checked(text: string, value: unknown, tooDeep: boolean): Error | null {
  if (tooDeep) return new ValidationError(`Request body nests deeper than ${MAX_BODY_DEPTH} levels`);
  const lone = ESCAPED_SURROGATE.test(text) ? loneSurrogateAt(value) : undefined;
  if (lone !== undefined) return new ValidationError(`The request body holds a lone UTF-16 surrogate (an unpaired \\ud800-\\udfff escape) at ${lone}`);
  return null;
}

/** Bodies from this size on are decoded, parsed and checked in separate turns of the event loop. */
const STEPPED_BODY_BYTES = 256 * 1024;

/** A JSON escape of a UTF-16 surrogate: the only way a lone one gets into a parsed body. */
const ESCAPED_SURROGATE = /\\u[dD][89a-fA-F]/;

/**
 * JSON in, JSON Patch in, nothing else (415). Route schemas coerce query strings and headers;
 * bodies are left to the write path, which validates them against the registry.
 */
export function registerBodyParsing(app: FastifyInstance): void {
  app.removeContentTypeParser(['application/json', 'text/plain']);
  // Fastify's own parser, which refuses __proto__ and constructor.prototype keys with a 400.
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.addContentTypeParser(['application/json', 'application/json-patch+json'], { parseAs: 'buffer' }, (request: FastifyRequest, body: string | Buffer, done) => {
    // A chunked body may still turn out empty: no body, as above.
    if (body.length === 0) return done(null, undefined);
    // Stored text must be the text sent: invalid UTF-8 would be kept as U+FFFD without a word.
    if (typeof body !== 'string' && !isUtf8(body)) return done(new ValidationError('The request body is not valid UTF-8'), undefined);
    // Small bodies are read in one go. A large one is decoded, parsed and checked in turns of the
    // event loop of their own (each 15–40 ms for 5 MB here), so other requests go in between.
    if (body.length < STEPPED_BODY_BYTES) {
      const text = body.toString();
      return parseJson(request, text, (error: Error | null, value?: unknown) => {
        if (error) return done(error, undefined);
        const problem = checked(text, value, nestsDeeperThan(value, MAX_BODY_DEPTH));
        done(problem, problem ? undefined : value);
      });
    }
    const turn = () => new Promise<void>((resolve) => setImmediate(resolve));
    void (async () => {
      await turn();
      const text = body.toString();
      await turn();
      const value = await new Promise<unknown>((resolve, reject) => parseJson(request, text, (error: Error | null, parsed?: unknown) => (error ? reject(error) : resolve(parsed))));
      const pacer = new Pacer();
      const steps = nestsDeeperThanSteps(value, MAX_BODY_DEPTH);
      let step = steps.next();
      for (; !step.done; step = steps.next()) if (pacer.due()) await pacer.pace();
      return { value, problem: checked(text, value, step.value) };
    })().then(
      ({ value, problem }) => done(problem, problem ? undefined : value),
      (error: Error) => done(error, undefined),
    );
  });
  const ajv = new Ajv({ coerceTypes: 'array', useDefaults: true, removeAdditional: false, allErrors: false, strict: false });
  app.setValidatorCompiler(({ schema, httpPart }) => {
    if (httpPart === 'body' || (httpPart === 'params' && onlyStrings(schema as ParamsSchema))) return () => true;
    const validate = compiledOnFirstUse(ajv, schema);
    return httpPart === 'querystring' ? asSpringReadsQueries(schema as QuerySchema, validate) : validate;
  });
}

/**
 * A request that announces no body has none, whatever its Content-Type says: OpenAPI-generated
 * clients and HTTP sessions with default headers send one on DELETE too, and Fastify would hand
 * the empty body to a parser (400 for JSON, 415 for others). Run before parsing (app.ts's hook).
 */
export function dropTypeOfNoBody(req: FastifyRequest): void {
  const headers = req.raw.headers;
  if (headers['content-type'] !== undefined && headers['transfer-encoding'] === undefined && (headers['content-length'] ?? '0') === '0') {
    delete headers['content-type'];
  }
}

interface ParamsSchema {
  properties?: Record<string, Record<string, unknown>>;
}

/**
 * Whether a path's parameters schema only says they are strings: a matched route's parameters
 * always are, so checking them is work for nothing on every request.
 */
function onlyStrings(schema: ParamsSchema): boolean {
  return Object.values(schema.properties ?? {}).every((p) => Object.keys(p).every((k) => k === 'description' || (k === 'type' && p.type === 'string')));
}

/** The part of a querystring schema read here. */
interface QuerySchema {
  properties?: Record<string, { type?: unknown }>;
}

const INTEGER = /^[+-]?\d+$/;
const SPRING_TRUE = new Set(['true', 'on', 'yes', '1']);
const SPRING_FALSE = new Set(['false', 'off', 'no', '0']);

/**
 * Query parameters read as DataHub's server (Spring) reads them: a single-valued parameter given
 * twice takes its first value, and booleans are any case of true/false, on/off, yes/no, 1/0.
 * Python's `requests` sends `async=False`, and DataHub's own smoke fixtures repeat a parameter
 * that is both in the URL and in `params`.
 */
function asSpringReadsQueries(schema: QuerySchema, validate: ValidateFunction): ValidateFunction {
  const scalars = Object.entries(schema.properties ?? {}).filter(([, p]) => typeof p.type === 'string' && p.type !== 'array');
  if (scalars.length === 0) return validate;
  const normalized = ((query: Record<string, unknown>) => {
    for (const [name, property] of scalars) {
      let value = query[name];
      if (Array.isArray(value)) value = query[name] = value[0];
      if (property.type === 'boolean' && typeof value === 'string') {
        const word = value.toLowerCase();
        if (SPRING_TRUE.has(word)) query[name] = true;
        else if (SPRING_FALSE.has(word)) query[name] = false;
      }
      // Ajv would take anything `+value` reads (Infinity, 1e3, 0x1, " 1"); Spring reads decimal digits.
      if (property.type === 'integer' && typeof value === 'string' && !(INTEGER.test(value) && Number.isSafeInteger(Number(value)))) {
        normalized.errors = [{ instancePath: `/${name}`, schemaPath: `#/properties/${name}/type`, keyword: 'type', params: { type: 'integer' }, message: 'must be integer' }];
        return false;
      }
    }
    const valid = validate(query);
    normalized.errors = validate.errors;
    return valid;
  }) as ValidateFunction;
  return normalized;
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
