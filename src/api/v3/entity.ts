import type { FastifyInstance } from 'fastify';
import { NotFoundError, ValidationError } from '../../errors.js';
import { parsePatchDocument } from '../../ingest/patch.js';
import type { Proposal } from '../../ingest/proposal.js';
import { isRecord } from '../../json.js';
import type { Services } from '../../services.js';
import { writeContext } from '../context.js';
import { aspectWrite, entityDeletion, requestConditions, singleWriteType } from '../entity-writes.js';
import { aspectList } from '../params.js';
import { requestUrn, typedUrn } from '../urns.js';
import * as s from './schemas.js';
import { V3 } from './schemas.js';
import { aspectJsonV3, changesJsonV3, entityJsonV3 } from './shapes.js';

const READ = { permission: 'read' } as const;
const WRITE = { permission: 'write' } as const;

interface EntityParams {
  entityName: string;
  urn: string;
}
interface AspectParams extends EntityParams {
  aspectName: string;
}

/**
 * The v3 routes of one entity or aspect, addressed by URN. As in DataHub, the path's entity name
 * is ignored where the URN says it all (reads, deletes: `/generic/{urn}` works); single-aspect
 * writes look the aspect up under it, so there it must be the URN's own type.
 */
export function entityRoutesV3(app: FastifyInstance, services: Services): void {
  const { reader, ingest, registry } = services;
  const latestPointAt = async (urn: string, aspect: string, time: number) =>
    time > 0 ? (await reader.points(urn, aspect, { end: time, limit: 1, filter: [] }))[0] : reader.latestPoint(urn, aspect);
  /** The canonical name of a timeseries aspect of the URN's type; undefined for any other name. */
  const timeseries = (urn: string, name: string): string | undefined => {
    const aspect = registry.aspectOf(reader.entityOf(urn).entity, name);
    return aspect?.kind === 'timeseries' ? aspect.name : undefined;
  };

  app.get<{ Params: EntityParams; Querystring: s.EntityQuery }>(`${V3}/:entityName/:urn`, { schema: s.getEntity, config: READ }, async (req) => {
    const { urn } = requestUrn(registry, req.params.urn);
    // DataHub's v3 reads answer a timeseries aspect with its latest point.
    const entity = await reader.getEntity(urn.text, aspectList(req.query.aspects, req.query.aspectNames), { points: true });
    // DataHub leaves out an entity without any of the asked aspects: 404 as for a missing one.
    if (!entity || entity.aspects.size === 0) throw new NotFoundError(`Entity ${urn.text} not found`);
    return entityJsonV3(entity, req.query.systemMetadata ?? false);
  });

  app.head<{ Params: EntityParams }>(`${V3}/:entityName/:urn`, { schema: s.headEntity, config: READ }, async (req, reply) => {
    const { urn, entity } = requestUrn(registry, req.params.urn);
    return reply.status((await reader.live(urn.text, entity)) ? 204 : 404).send();
  });

  app.delete<{ Params: EntityParams; Querystring: s.DeleteQuery }>(`${V3}/:entityName/:urn`, { schema: s.deleteEntity, config: WRITE }, async (req, reply) => {
    const { urn, entity } = requestUrn(registry, req.params.urn);
    const proposals = await entityDeletion(reader, urn, entity, aspectList(req.query.aspects), req.query.clear ?? false);
    await ingest.ingest(proposals, writeContext(req));
    return reply.status(200).send();
  });

  app.get<{ Params: AspectParams; Querystring: s.AspectQuery }>(`${V3}/:entityName/:urn/:aspectName`, { schema: s.getAspect, config: READ }, async (req) => {
    const { urn } = requestUrn(registry, req.params.urn);
    const version = req.query.version ?? 0;
    const points = timeseries(urn.text, req.params.aspectName);
    // A timeseries aspect is its latest point, as DataHub's v3 answers it.
    // (`version` N > 0 of a timeseries aspect is its latest point at or before time N, as DataHub's v3 reads it.)
    const aspect = points ? await latestPointAt(urn.text, points, version) : await reader.getAspect(urn.text, req.params.aspectName, version);
    if (!aspect) {
      throw new NotFoundError(`Aspect ${req.params.aspectName} of ${urn.text} not found${version ? ` at version ${version}` : ''}`);
    }
    return aspectJsonV3(aspect, req.query.systemMetadata ?? false);
  });

  app.head<{ Params: AspectParams }>(`${V3}/:entityName/:urn/:aspectName`, { schema: s.headAspect, config: READ }, async (req, reply) => {
    const { urn, entity } = requestUrn(registry, req.params.urn);
    const spec = registry.aspectOf(entity, req.params.aspectName);
    const found =
      spec !== undefined && (spec.kind === 'timeseries' ? await reader.latestPoint(urn.text, spec.name) : await reader.getAspect(urn.text, spec.name)) !== undefined;
    return reply.status(found && (await reader.live(urn.text, entity)) ? 204 : 404).send();
  });

  app.delete<{ Params: AspectParams }>(`${V3}/:entityName/:urn/:aspectName`, { schema: s.deleteAspect, config: WRITE }, async (req, reply) => {
    const { urn } = requestUrn(registry, req.params.urn);
    await ingest.ingest([{ urn: urn.text, aspect: req.params.aspectName, changeType: 'DELETE' }], writeContext(req));
    return reply.status(200).send();
  });

  app.post<{ Params: AspectParams; Querystring: s.WriteAspectQuery; Body: unknown }>(
    `${V3}/:entityName/:urn/:aspectName`,
    { schema: s.postAspect, config: WRITE },
    async (req, reply) => {
      const { urn } = typedUrn(registry, req.params.entityName, req.params.urn);
      const q = req.query;
      const createEntity = q.createIfEntityNotExists ?? q.createEntityIfNotExists ?? false;
      const changeType = singleWriteType(q.createIfNotExists ?? true, createEntity);
      if (!isRecord(req.body)) throw new ValidationError('The body must be {"value": …, "systemMetadata"?: …, "headers"?: …}');
      // The body's `headers` decide; the HTTP request's headers count where they do not say.
      const proposal = { ...requestConditions(req), ...aspectWrite(urn.text, req.params.aspectName, req.body, 'body', changeType) };
      const changes = await reader.present(await ingest.ingest([proposal], writeContext(req)));
      // A create dropped under If-None-Match: * on an entity without the aspect has nothing to show.
      const written = changesJsonV3(changes, q.systemMetadata ?? false)[0] ?? { urn: urn.text };
      return reply.status(q.async ? 202 : 200).send(written);
    },
  );

  app.patch<{ Params: AspectParams; Querystring: s.BatchQuery; Body: unknown }>(
    `${V3}/:entityName/:urn/:aspectName`,
    { schema: s.patchAspect, config: WRITE },
    async (req) => {
      const { urn } = typedUrn(registry, req.params.entityName, req.params.urn);
      const proposal: Proposal = {
        urn: urn.text,
        aspect: req.params.aspectName,
        changeType: 'PATCH',
        patch: parsePatchDocument(req.body),
        ...requestConditions(req),
      };
      const changes = await reader.present(await ingest.ingest([proposal], writeContext(req)));
      // DataHub answers 200 here whatever `async` says.
      return changesJsonV3(changes, req.query.systemMetadata ?? false)[0];
    },
  );
}
