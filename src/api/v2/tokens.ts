import type { FastifyInstance } from 'fastify';
import type { TokenInfo, TokenService } from '../../auth/tokens.js';
import { ref } from '../answers.js';
import { writeContext } from '../context.js';

const ADMIN = { permission: 'admin' } as const;
const tags = ['Access tokens'];
const tokenSchema = {
  type: 'object',
  properties: {
    id: { type: 'string' },
    name: { type: 'string' },
    role: { type: 'string', enum: ['admin', 'editor', 'viewer'] },
    actorUrn: { type: 'string' },
    createdAt: { type: 'string' },
    createdBy: { type: 'string' },
    expiresAt: { type: 'string', nullable: true },
    lastUsedAt: { type: 'string', nullable: true },
    revokedAt: { type: 'string', nullable: true },
  },
};

/** Token management (admin only). Secrets appear once, in the answer to create. */
export function tokenRoutes(app: FastifyInstance, tokens: TokenService): void {
  const prefix = '/openapi/v2/auth/tokens';

  app.post<{ Body: unknown }>(
    prefix,
    {
      config: ADMIN,
      schema: {
        // DataHub's GraphQL names: createAccessToken, listAccessTokens, revokeAccessToken.
        operationId: 'createAccessToken',
        tags,
        summary: 'Create a token; the answer holds its secret, shown only this once',
        body: {
          type: 'object',
          properties: { name: { type: 'string' }, role: { type: 'string', enum: ['admin', 'editor', 'viewer'] }, expiresInDays: { type: 'integer' } },
          required: ['name', 'role'],
        },
        answers: {
          201: { description: 'The token, with its secret (shown only this once)', body: ref('CreatedToken') },
          400: 'An invalid name, role or expiresInDays',
        },
      },
    },
    async (req, reply) => {
      const body = (typeof req.body === 'object' && req.body !== null ? req.body : {}) as { name?: unknown; role?: unknown; expiresInDays?: unknown };
      const { token, info } = await tokens.create(body, writeContext(req).actor);
      const { id, name, role, actorUrn, expiresAt } = tokenJson(info);
      return reply.status(201).send({ id, name, role, actorUrn, expiresAt, token });
    },
  );

  app.get(
    prefix,
    {
      config: ADMIN,
      schema: {
        operationId: 'listAccessTokens',
        tags,
        summary: 'List tokens (never their secrets)',
        response: { 200: { type: 'array', items: tokenSchema } },
        answers: { 200: { description: 'Every token, revoked and expired ones too', body: { type: 'array', items: ref('AccessToken') } } },
      },
    },
    async () => (await tokens.list()).map(tokenJson),
  );

  app.get(
    '/openapi/v2/auth/me',
    {
      schema: {
        operationId: 'whoAmI',
        tags,
        summary: 'Who the token in the request is: its actor and role (any valid token may ask)',
        answers: { 200: { description: 'The principal', body: ref('Principal') } },
      },
    },
    async (req) => ({ actor: req.principal!.actor, role: req.principal!.role }),
  );

  app.delete<{ Params: { id: string } }>(
    `${prefix}/:id`,
    {
      config: ADMIN,
      schema: {
        operationId: 'revokeAccessToken',
        tags,
        summary: 'Revoke a token, effective at once',
        params: { type: 'object', properties: { id: { type: 'string' } } },
        answers: { 204: { description: 'Revoked' }, 404: 'No live token has this id (unknown, or revoked already)' },
      },
    },
    async (req, reply) => {
      await tokens.revoke(req.params.id);
      return reply.status(204).send();
    },
  );
}

function tokenJson(info: TokenInfo) {
  const time = (t: number | null) => (t === null ? null : new Date(t).toISOString());
  return {
    id: info.id,
    name: info.name,
    role: info.role,
    actorUrn: info.actor,
    createdAt: new Date(info.createdAt).toISOString(),
    createdBy: info.createdBy,
    expiresAt: time(info.expiresAt),
    lastUsedAt: time(info.lastUsedAt),
    revokedAt: time(info.revokedAt),
  };
}

/** The shapes of these answers, as named schemas of the API document. */
export const tokenShapes = {
  Principal: {
    type: 'object',
    required: ['actor', 'role'],
    properties: { actor: { type: 'string', description: 'The actor URN writes are recorded as' }, role: tokenSchema.properties.role },
  },
  AccessToken: { ...tokenSchema, required: ['id', 'name', 'role', 'actorUrn', 'createdAt', 'createdBy', 'expiresAt', 'lastUsedAt', 'revokedAt'] },
  CreatedToken: {
    type: 'object',
    required: ['id', 'name', 'role', 'actorUrn', 'expiresAt', 'token'],
    properties: {
      id: tokenSchema.properties.id,
      name: tokenSchema.properties.name,
      role: tokenSchema.properties.role,
      actorUrn: tokenSchema.properties.actorUrn,
      expiresAt: tokenSchema.properties.expiresAt,
      token: { type: 'string', description: 'The secret: send it as Authorization: Bearer <token>' },
    },
  },
};
