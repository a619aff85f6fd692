import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';

// `npm run build` puts the console (console/, built by Vite) here, beside the compiled server.
const CONSOLE_DIR = fileURLToPath(new URL('../../console/', import.meta.url));

/**
 * The page may load only its own scripts, styles and images, talk only to this server, and not
 * be framed: an injected script or attribute (a description holding `<script>`) cannot run.
 */
export const CONSOLE_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

/** GraphiQL's page (console/graphiql/), a second page of the console's build. */
export const GRAPHIQL_PAGE = '/graphiql/';

/** Where DataHub serves GraphiQL, and the page's path without its slash: both lead to the page. */
const GRAPHIQL_ALIASES = ['/api/graphiql', '/graphiql'];

/**
 * Paths of the console's files: public (the sign-in page must load before any token; GraphiQL's
 * page sends a tab without a session to it, and calls /api/graphql only with the session's token).
 */
export function isConsolePath(url: string): boolean {
  const path = url.split('?', 1)[0];
  return path === '/' || path.startsWith('/assets/') || path === '/favicon.svg' || path === '/index.html' || path === GRAPHIQL_PAGE || path === `${GRAPHIQL_PAGE}index.html`;
}

/**
 * The web console at `/`: static files built from console/, served with a strict
 * Content-Security-Policy. It is a client of the public API like any other.
 */
export async function consoleRoutes(app: FastifyInstance): Promise<void> {
  if (!existsSync(CONSOLE_DIR)) {
    app.log.warn({ dir: CONSOLE_DIR }, 'the console is not built (npm run build): / is not served');
    return;
  }
  await app.register(fastifyStatic, {
    root: CONSOLE_DIR,
    prefix: '/',
    wildcard: false,
    index: 'index.html',
    // Hashed asset names never change; the page itself is always checked again.
    setHeaders: (res, path) => {
      res.header('content-security-policy', CONSOLE_CSP);
      res.header('x-content-type-options', 'nosniff');
      res.header('referrer-policy', 'no-referrer');
      res.header('cache-control', path.includes('/assets/') ? 'public, max-age=31536000, immutable' : 'no-cache');
    },
  });
  for (const alias of GRAPHIQL_ALIASES) {
    app.get(alias, { config: { public: true }, schema: { hide: true } }, async (_req, reply) => reply.redirect(GRAPHIQL_PAGE, 302));
  }
}
