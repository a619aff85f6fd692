import swagger, { type FastifyDynamicSwaggerOptions, type SwaggerTransform } from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyContextConfig, FastifyInstance } from 'fastify';
import { can, ROLES, type Permission } from '../auth/roles.js';
import { errorSchema, ref, restliErrorSchema, type Answer, type Answers, type JsonSchema } from './answers.js';
import { VERSION } from './status.js';

// @fastify/swagger's type of a named schema: OpenAPI's, whose `type` is a union of names.
type SwaggerComponents = NonNullable<NonNullable<FastifyDynamicSwaggerOptions['openapi']>['components']>;
type SchemaObject = Exclude<NonNullable<SwaggerComponents['schemas']>[string], { $ref: string }>;

/**
 * The OpenAPI 3 document of every route, built from the route schemas, at /openapi/v3/api-docs,
 * and Swagger UI (assets bundled in the package, so it works offline) at /openapi/swagger-ui/.
 * Responses come from each route's `schema.answers` (documentation only, see answers.ts) plus
 * what routes share, derived here: refusals of a body, and of a token by the auth hook.
 */
export async function registerOpenApi(app: FastifyInstance, shapes: Record<string, JsonSchema>): Promise<void> {
  await app.register(swagger, {
    exposeHeadRoutes: true,
    openapi: {
      openapi: '3.0.3',
      info: {
        title: 'urnbase',
        description: 'Metadata catalog speaking DataHub\'s HTTP APIs',
        version: VERSION,
        license: { name: 'Apache-2.0', url: 'https://www.apache.org/licenses/LICENSE-2.0' },
      },
      // Relative: the server that serves this document, whatever address it was reached at.
      servers: [{ url: '/', description: 'This server' }],
      components: {
        securitySchemes: {
          bearer: {
            type: 'http',
            scheme: 'bearer',
            description: 'An access token (`urnbase token create`, or createAccessToken). Not needed when the server runs with --auth false',
          },
        },
        // The shared error body, and the shapes of the answers (from the route modules, via app.ts).
        schemas: { Error: errorSchema, RestliError: restliErrorSchema, ...shapes } as Record<string, SchemaObject>,
      },
      security: [{ bearer: [] }],
    },
    // Runs when the document is built (once: @fastify/swagger caches it), never per request.
    transform: documentRoute,
  });
  await app.register(swaggerUi, {
    routePrefix: '/openapi/swagger-ui',
    uiConfig: { url: '/openapi/v3/api-docs', deepLinking: true, validatorUrl: null },
    // Its own inline script and styles by hash, nothing from elsewhere, and never framed.
    staticCSP: true,
    transformStaticCSP: swaggerCsp,
  });
  app.get('/openapi/v3/api-docs', { schema: { hide: true }, config: { public: true } }, async () => app.swagger());
}

/**
 * @fastify/swagger-ui's policy made stricter: not framed at all (it allows its own origin), no
 * fonts or styles from any https origin, no images from the online validator (turned off), and no
 * upgrade-insecure-requests, which would send a plain-HTTP local server's assets to https.
 */
export function swaggerCsp(header: string): string {
  return header
    .replace("frame-ancestors 'self'", "frame-ancestors 'none'")
    .replace(/ https:/g, '')
    .replace(' validator.swagger.io', '')
    .replace(/\s*upgrade-insecure-requests;?/, '');
}

/** A route's documented responses (in place of its `response` schemas, which only serialize) and, when public, no security. */
const documentRoute: SwaggerTransform = ({ schema, url, route }) => {
  if (!schema || schema.hide) return { schema, url };
  const head = [route.method].flat().includes('HEAD');
  const answers = merge(schema.answers ?? {}, bodyRefusals([route.method].flat()), authRefusals(route.config));
  const restli = route.config?.errorFormat === 'restli';
  const response = Object.fromEntries(
    Object.entries(answers)
      .sort(([a], [b]) => Number(a) - Number(b))
      .map(([status, answer]) => [status, responseOf(Number(status), answer!, head, restli)]),
  );
  // @fastify/swagger suffixes the ids of HEAD routes with -head, against clashes with the HEAD
  // routes Fastify derives from GET ones; urnbase has none (exposeHeadRoutes is off in app.ts).
  const operationId = head ? schema.operationId?.replace(/-head$/, '') : schema.operationId;
  return { url, schema: { ...schema, operationId, response, ...(route.config?.public ? { security: [] } : {}) } };
};

// Fastify reads a body for these methods (not GET or HEAD), so they may be refused for it.
const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

function bodyRefusals(methods: readonly string[]): Answers {
  if (!methods.some((m) => BODY_METHODS.has(m))) return {};
  return {
    400: 'A body that is not valid JSON, or nests deeper than 1000 levels',
    413: 'A body larger than the server\'s limit (--body-limit)',
    415: 'A body that is not JSON (application/json, or application/json-patch+json)',
  };
}

const MAY: Record<Permission, string> = { read: 'read entities', write: 'write entities', admin: 'manage access tokens' };

/** What the auth hook (api/auth.ts) refuses on a route, from the route's `public` and `permission`. */
function authRefusals(config: FastifyContextConfig | undefined): Answers {
  if (config?.public) return {};
  const answers: Answers = {
    401: 'No valid token: none, malformed, unknown, expired or revoked (when auth is on)',
    429: 'Too many failed authentications from this address: retry after Retry-After seconds',
  };
  const permission = config?.permission;
  // Only where some role lacks the permission: every role may read, so reads are never 403.
  if (permission && ROLES.some((role) => !can(role, permission))) {
    answers[403] = `The token's role may not ${MAY[permission]} (only ${ROLES.filter((role) => can(role, permission)).join(' and ')} may)`;
  }
  return answers;
}

/** The route's own answers first; where shared ones add a reason to a refusal, both are said. */
function merge(...sources: Answers[]): Answers {
  const merged: Answers = {};
  for (const answers of sources) {
    for (const [key, answer] of Object.entries(answers)) {
      const status = Number(key);
      const known = merged[status];
      merged[status] = typeof known === 'string' && typeof answer === 'string' ? `${known}. ${answer}` : (known ?? answer);
    }
  }
  return merged;
}

/** Headers the error mapping (api/errors.ts) sends with a refusal. */
const REFUSAL_HEADERS: Record<number, Record<string, JsonSchema>> = {
  401: { 'WWW-Authenticate': { type: 'string', enum: ['Bearer'], description: 'The scheme to authenticate with' } },
  404: { 'Not-Found-Reason': { type: 'string', enum: ['ENTITY', 'ASPECT', 'VERSION'], description: 'What was not found (as DataHub says)' } },
  429: { 'Retry-After': { type: 'integer', description: 'Seconds to wait' } },
};

/** Rest.li routes mark every refusal with this header, as Rest.li does. */
const RESTLI_REFUSAL_HEADER = { 'X-RestLi-Error-Response': { type: 'string', enum: ['true'], description: 'The body is a Rest.li error' } };

/**
 * A response in @fastify/swagger's terms: `type: 'null'` means no content; HEAD answers never have
 * any. Refusals of Rest.li routes have Rest.li's error body.
 */
function responseOf(status: number, answer: Answer, head: boolean, restli: boolean): JsonSchema {
  if (typeof answer !== 'string') {
    if (head || !answer.body) return { description: answer.description, type: 'null' };
    return { description: answer.description, content: { [answer.contentType ?? 'application/json']: { schema: answer.body } } };
  }
  // A HEAD route answers 404 itself, without the header; other refusals are thrown errors.
  const shared = head && status === 404 ? undefined : REFUSAL_HEADERS[status];
  const headers = restli ? { ...shared, ...RESTLI_REFUSAL_HEADER } : shared;
  return {
    description: answer,
    ...(headers ? { headers } : {}),
    ...(head ? { type: 'null' } : { content: { 'application/json': { schema: ref(restli ? 'RestliError' : 'Error') } } }),
  };
}
