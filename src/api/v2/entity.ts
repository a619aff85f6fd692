import type { FastifyInstance } from 'fastify';
import { NotFoundError, ValidationError } from '../../errors.js';
import { parsePatchDocument } from '../../ingest/patch.js';
import { checkProposalCount } from '../../ingest/ingest.js';
import type { Proposal } from '../../ingest/proposal.js';
import { isRecord } from '../../json.js';
import { Pacer } from '../../pace.js';
import type { Services } from '../../services.js';
import { writeContext } from '../context.js';
import { aspectWrite, entityDeletion, requestConditions, singleWriteType, withCreated } from '../entity-writes.js';
import { aspectList } from '../params.js';
import { typedUrn } from '../urns.js';
import { aspectJson, changesJson, entityJson } from './shapes.js';
import * as s from './schemas.js';

const READ = { permission: 'read' } as const;
const WRITE = { permission: 'write' } as const;

interface TypeParams {
  type: string;
}
interface EntityParams extends TypeParams {
  urn: string;
}
interface AspectParams extends EntityParams {
  aspect: string;
}

/** OpenAPI v2 entity API: HTTP in, proposals or reads out. No logic beyond translation. */
export function entityRoutesV2(app: FastifyInstance, services: Services): void {
  const { reader, ingest, registry } = services;
  const prefix = '/openapi/v2/entity';
  // Every route names the entity type twice (path and URN); they must agree.
  const checkUrn = (type: string, urn: string) => typedUrn(registry, type, urn);

  app.post<{ Params: TypeParams; Querystring: s.BatchQuery; Body: unknown }>(
    `${prefix}/:type`, { schema: s.batch, config: WRITE },
    async (req, reply) => {
      const proposals = await batchProposals(req.body, (urn) => checkUrn(req.params.type, urn));
      const changes = await ingest.ingest(proposals, writeContext(req));
      if (req.query.async ?? true) {
        return reply.status(202).send([...new Set(proposals.map((p) => p.urn))].map((urn) => ({ urn })));
      }
      return changesJson(await reader.present(withCreated(changes)), req.query.systemMetadata ?? false);
    },
  );

  app.get<{ Params: EntityParams; Querystring: s.EntityQuery }>(`${prefix}/:type/:urn`, { schema: s.getEntity, config: READ }, async (req) => {
    checkUrn(req.params.type, req.params.urn);
    const entity = await reader.getEntity(req.params.urn, aspectList(req.query.aspects, req.query.aspectNames));
    if (!entity) throw new NotFoundError(`Entity ${req.params.urn} not found`);
    return entityJson(entity, req.query.systemMetadata ?? false);
  });

  app.head<{ Params: EntityParams }>(`${prefix}/:type/:urn`, { schema: s.headEntity, config: READ }, async (req, reply) => {
    const { urn, entity } = checkUrn(req.params.type, req.params.urn);
    // As DataHub's: a soft-deleted entity does not exist for HEAD (GET still reads it).
    return reply.status((await reader.live(urn.text, entity)) ? 204 : 404).send();
  });

  app.delete<{ Params: EntityParams; Querystring: s.DeleteQuery }>(
    `${prefix}/:type/:urn`, { schema: s.deleteEntity, config: WRITE },
    async (req, reply) => {
      const { urn, entity } = checkUrn(req.params.type, req.params.urn);
      const proposals = await entityDeletion(reader, urn, entity, aspectList(req.query.aspects), req.query.clear ?? false);
      await ingest.ingest(proposals, writeContext(req));
      return reply.status(200).send();
    },
  );

  app.get<{ Params: AspectParams; Querystring: s.AspectQuery }>(
    `${prefix}/:type/:urn/:aspect`,
    { schema: s.getAspect, config: READ },
    async (req) => {
      checkUrn(req.params.type, req.params.urn);
      const version = req.query.version ?? 0;
      const aspect = await reader.getAspect(req.params.urn, req.params.aspect, version);
      if (!aspect) {
        throw new NotFoundError(`Aspect ${req.params.aspect} of ${req.params.urn} not found${version ? ` at version ${version}` : ''}`);
      }
      return aspectJson(aspect, req.query.systemMetadata ?? false);
    },
  );

  app.head<{ Params: AspectParams }>(`${prefix}/:type/:urn/:aspect`, { schema: s.headAspect, config: READ }, async (req, reply) => {
    const { urn, entity } = checkUrn(req.params.type, req.params.urn);
    if (!registry.aspectOf(entity, req.params.aspect)) return reply.status(404).send();
    const found = (await reader.getAspect(urn.text, req.params.aspect)) !== undefined;
    return reply.status(found && (await reader.live(urn.text, entity)) ? 204 : 404).send();
  });

  app.post<{ Params: AspectParams; Querystring: s.WriteAspectQuery; Body: unknown }>(
    `${prefix}/:type/:urn/:aspect`, { schema: s.postAspect, config: WRITE },
    async (req, reply) => {
      checkUrn(req.params.type, req.params.urn);
      const q = req.query;
      const proposal: Proposal = {
        urn: req.params.urn,
        aspect: req.params.aspect,
        changeType: singleWriteType(q.createIfNotExists ?? false, q.createEntityIfNotExists ?? false),
        value: req.body,
        ...requestConditions(req),
      };
      const changes = await reader.present(await ingest.ingest([proposal], writeContext(req)));
      // A create dropped under If-None-Match: * on an entity without the aspect has nothing to show.
      const written = changesJson(changes, q.systemMetadata ?? false)[0] ?? { urn: req.params.urn, aspects: {} };
      return reply.status(q.async ? 202 : 200).send(written);
    },
  );

  app.patch<{ Params: AspectParams; Querystring: s.PatchAspectQuery; Body: unknown }>(
    `${prefix}/:type/:urn/:aspect`, { schema: s.patchAspect, config: WRITE },
    async (req) => {
      checkUrn(req.params.type, req.params.urn);
      const proposal: Proposal = {
        urn: req.params.urn,
        aspect: req.params.aspect,
        changeType: 'PATCH',
        patch: parsePatchDocument(req.body),
        ...requestConditions(req),
      };
      const changes = await reader.present(await ingest.ingest([proposal], writeContext(req)));
      return changesJson(changes, req.query.systemMetadata ?? false)[0];
    },
  );

  app.delete<{ Params: AspectParams }>(`${prefix}/:type/:urn/:aspect`, { schema: s.deleteAspect, config: WRITE }, async (req, reply) => {
    checkUrn(req.params.type, req.params.urn);
    await ingest.ingest([{ urn: req.params.urn, aspect: req.params.aspect, changeType: 'DELETE' }], writeContext(req));
    return reply.status(200).send();
  });
}

/** `[{urn, aspects:{name:{value, systemMetadata?, headers?}}}]` → proposals, checking the shape. */
async function batchProposals(body: unknown, checkUrn: (urn: string) => void): Promise<Proposal[]> {
  if (!Array.isArray(body)) throw new ValidationError('The body must be a JSON array of entities');
  const proposals: Proposal[] = [];
  const pacer = new Pacer();
  for (const [i, item] of (body as unknown[]).entries()) {
    if (!isRecord(item)) throw new ValidationError(`[${i}] must be an object with \`urn\` and \`aspects\``);
    if (typeof item.urn !== 'string') throw new ValidationError(`[${i}]: missing \`urn\` field`);
    if (!isRecord(item.aspects)) throw new ValidationError(`[${i}]: missing \`aspects\` field`);
    const urn = item.urn;
    checkUrn(urn);
    for (const [aspect, wrapper] of Object.entries(item.aspects)) proposals.push(aspectWrite(urn, aspect, wrapper, `[${i}].aspects.${aspect}`));
    checkProposalCount(proposals.length, true);
    await pacer.pace();
  }
  return proposals;
}
