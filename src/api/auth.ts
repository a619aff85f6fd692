import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { FailedAuthLimiter } from '../auth/limiter.js';
import { can, type Permission, type Principal } from '../auth/roles.js';
import type { TokenService } from '../auth/tokens.js';
import { ForbiddenError, TooManyRequestsError, UnauthorizedError } from '../errors.js';

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

/** Bearer-token authentication and role checks on every route, in one hook. */
export function registerAuth(app: FastifyInstance, tokens: TokenService, limiter: FailedAuthLimiter, enabled: boolean): void {
  app.decorateRequest('principal', null);
  app.addHook('onRequest', async (req) => {
    if (!enabled) {
      req.principal = ANONYMOUS;
      return;
    }
    if (req.routeOptions.config?.public || PUBLIC_PREFIXES.some((p) => req.url.startsWith(p))) return;
    const principal = await authenticate(req, tokens, limiter);
    req.principal = principal;
    const permission = req.routeOptions.config?.permission;
    if (permission) authorize(req, permission);
  });
}

/** Throws 403 unless the request's principal may do `permission`; `operation` words the message. */
export function authorize(req: FastifyRequest, permission: Permission, operation = OPERATIONS[permission]): void {
  const principal = req.principal;
  if (principal && !can(principal.role, permission)) throw new ForbiddenError(`${principal.actor} is unauthorized to ${operation}.`);
}

async function authenticate(req: FastifyRequest, tokens: TokenService, limiter: FailedAuthLimiter): Promise<Principal> {
  const header = req.headers.authorization;
  const match = header === undefined ? undefined : /^Bearer\s+(\S+)\s*$/i.exec(header);
  const principal = match ? await tokens.authenticate(match[1]) : undefined;
  if (principal) return principal;
  const wait = limiter.fail(req.ip);
  if (wait > 0) throw new TooManyRequestsError('Too many failed authentication attempts from this address; retry later', wait);
  if (header === undefined) throw new UnauthorizedError('Authentication required: send Authorization: Bearer <token>');
  if (!match) throw new UnauthorizedError('Malformed Authorization header: expected "Bearer <token>"');
  throw new UnauthorizedError('Invalid, expired or revoked token');
}
