import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { FailedAuthLimiter } from '../auth/limiter.js';
import { can, type Permission, type Principal } from '../auth/roles.js';
import type { TokenService } from '../auth/tokens.js';
import { ForbiddenError, TooManyRequestsError, UnauthorizedError } from '../errors.js';
import { isConsolePath } from './console.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** Who is acting; set by the authentication hook (null on public routes). */
    principal: Principal | null;
  }
  interface FastifyContextConfig {
    /** What the route needs. Routes without it need a valid token and nothing more. */
    permission?: Permission;
    /** Served without a token (health, config, the API document). */
    public?: boolean;
    /** Actions (`?action=`) of a route that only read: they need `read`, whatever its `permission` (Rest.li's /aspects). */
    readActions?: readonly string[];
  }
}

/** Everything allowed, recorded as DataHub's default user: the principal when auth is off. */
const ANONYMOUS: Principal = { actor: 'urn:li:corpuser:datahub', role: 'admin' };

const OPERATIONS: Record<Permission, string> = {
  read: 'read entities',
  write: 'write entities',
  admin: 'manage access tokens',
};

// Swagger UI serves its own routes; they are as public as the document they show.
const PUBLIC_PREFIXES = ['/openapi/swagger-ui'];

/** What authentication does to a request: sets its principal, or ends it with an error. */
export type AuthStep = (req: FastifyRequest, done: (error?: Error) => void) => void;

/**
 * Bearer-token authentication and role checks, run on every request by app.ts's onRequest hook.
 * A callback, not an async function: the common case (a remembered token) stays synchronous.
 */
export function registerAuth(app: FastifyInstance, tokens: TokenService, limiter: FailedAuthLimiter, enabled: boolean): AuthStep {
  app.decorateRequest('principal', null);
  return (req, done) => {
    if (!enabled) {
      req.principal = ANONYMOUS;
      return done();
    }
    if (req.routeOptions.config?.public || PUBLIC_PREFIXES.some((p) => req.url.startsWith(p)) || isConsolePath(req.url)) return done();
    const secret = bearerSecret(req.headers.authorization);
    const known = secret === undefined ? undefined : tokens.cached(secret);
    const settle = (principal: Principal) => {
      req.principal = principal;
      const config = req.routeOptions.config;
      const action = (req.query as { action?: unknown } | undefined)?.action;
      const permission = typeof action === 'string' && config?.readActions?.includes(action) ? 'read' : config?.permission;
      if (permission) authorize(req, permission);
    };
    if (known) {
      try {
        settle(known);
        return done();
      } catch (error) {
        return done(error as Error);
      }
    }
    authenticate(req, secret, tokens, limiter).then(
      (principal) => {
        try {
          settle(principal);
          done();
        } catch (error) {
          done(error as Error);
        }
      },
      (error: Error) => done(error),
    );
  };
}

/** Throws 403 unless the request's principal may do `permission`; `operation` words the message. */
export function authorize(req: FastifyRequest, permission: Permission, operation = OPERATIONS[permission]): void {
  const principal = req.principal;
  if (principal && !can(principal.role, permission)) throw new ForbiddenError(`${principal.actor} is unauthorized to ${operation}.`);
}

function bearerSecret(header: string | undefined): string | undefined {
  const match = header === undefined ? undefined : /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match?.[1];
}

async function authenticate(req: FastifyRequest, secret: string | undefined, tokens: TokenService, limiter: FailedAuthLimiter): Promise<Principal> {
  // An address that failed too often is refused before its secret costs a lookup, unless the secret is one known to be good.
  const blocked = limiter.blocked(req.ip);
  if (blocked > 0 && !(secret !== undefined && tokens.vouchedFor(secret))) throw tooMany(blocked);
  const principal = secret === undefined ? undefined : await tokens.authenticate(secret);
  if (principal) return principal;
  const wait = limiter.fail(req.ip);
  if (wait > 0) throw tooMany(wait);
  if (req.headers.authorization === undefined) throw new UnauthorizedError('Authentication required: send Authorization: Bearer <token>');
  if (secret === undefined) throw new UnauthorizedError('Malformed Authorization header: expected "Bearer <token>"');
  throw new UnauthorizedError('Invalid, expired or revoked token');
}

function tooMany(seconds: number): TooManyRequestsError {
  return new TooManyRequestsError('Too many failed authentication attempts from this address; retry later', seconds);
}
