import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { ref } from '../answers.js';

/** What the server knows about where its first admin token is. */
export interface SignInFacts {
  dataDir: string;
  /** The address listened on (`--host`); unknown when the app is embedded. */
  host?: string;
  /** URNBASE_ADMIN_TOKEN is set. */
  adminTokenFromEnv: boolean;
}

/** Where the sign-in page says the first admin token is; never the token itself. */
export type SignInHint =
  | { adminToken: 'file'; file: string }
  | { adminToken: 'data-dir' }
  | { adminToken: 'environment' }
  | { adminToken: 'none' };

/** 127.0.0.1 (the default), ::1, localhost: only this machine can reach the server. */
export function isLoopback(host: string | undefined): boolean {
  if (host === undefined) return false;
  return host === 'localhost' || host === '::1' || host === '[::1]' || /^127\.\d+\.\d+\.\d+$/.test(host);
}

/**
 * The path of `<data-dir>/admin.token` is told only on a loopback binding: whoever reaches the
 * page is on this machine and could list the data dir anyway. On another binding it would tell
 * strangers the server's file layout (a home directory, a user name), so only the file's name is
 * told. Either way the file is the operator's (mode 0600): knowing where it is opens nothing.
 */
export function signInHint(facts: SignInFacts): SignInHint {
  if (facts.adminTokenFromEnv) return { adminToken: 'environment' };
  if (facts.dataDir === ':memory:') return { adminToken: 'none' };
  const file = resolve(facts.dataDir, 'admin.token');
  // Read at each request: an operator who has copied the token may have removed the file.
  if (!existsSync(file)) return { adminToken: 'none' };
  return isLoopback(facts.host) ? { adminToken: 'file', file } : { adminToken: 'data-dir' };
}

/** The sign-in page's hint, served before any token exists in the browser. */
export function signInHintRoutes(app: FastifyInstance, facts: SignInFacts): void {
  app.get(
    '/openapi/v2/auth/sign-in-hint',
    {
      config: { public: true },
      schema: {
        operationId: 'getSignInHint',
        tags: ['Access tokens'],
        summary: 'Where the first admin token is, for the sign-in page (the path on a loopback binding only; never the token)',
        answers: { 200: { description: 'Where the first admin token is', body: ref('SignInHint') } },
      },
    },
    async () => signInHint(facts),
  );
}

/** The shape of the answer, as a named schema of the API document. */
export const signInHintShapes = {
  SignInHint: {
    type: 'object',
    required: ['adminToken'],
    properties: {
      adminToken: {
        type: 'string',
        enum: ['file', 'data-dir', 'environment', 'none'],
        description:
          "file: in `file`; data-dir: in admin.token in the server's data dir (the server listens beyond this machine, so the path is not told); environment: the value of URNBASE_ADMIN_TOKEN; none: no file is left (ask an admin)",
      },
      file: { type: 'string', description: 'The absolute path of admin.token (adminToken: file)' },
    },
  },
};
