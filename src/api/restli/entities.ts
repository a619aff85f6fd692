import type { FastifyInstance } from 'fastify';
import { ValidationError } from '../../errors.js';
import { isRecord } from '../../json.js';
import type { Reader, VersionedView } from '../../read/read.js';
import type { EntitySpec, Registry } from '../../registry/registry.js';
import type { Services } from '../../services.js';
import type { AuditStamp, SystemMetadata } from '../../store/store.js';
import { ref } from '../answers.js';
import { clientSystemMetadata } from '../entity-writes.js';
import { restliRoute, restliWriteContext, unservedAction } from './routes.js';
import { requestUrn } from '../urns.js';
import { snapshotFor, snapshotOf, snapshotProposals } from './snapshot.js';
import { millis } from './timeseries.js';
import { Pacer } from '../../pace.js';
import { checkProposalCount } from '../../ingest/ingest.js';
import type { Proposal, WriteContext } from '../../ingest/proposal.js';

const ACTIONS = ['batchIngest', 'delete', 'ingest'] as const;
// Who DataHub says "created" an entity's key when it answers for an entity that does not exist.
const SYSTEM_ACTOR = 'urn:li:corpuser:__datahub_system';

interface EnvelopedAspect {
  name: string;
  type: 'VERSIONED';
  version: 0;
  value: unknown;
  created: AuditStamp;
  systemMetadata?: SystemMetadata;
}

/**
 * DataHub's `entitiesV2` read (EntityResponse) and the `entities` actions a pipeline needs:
 * hard delete, and the legacy snapshot ingest (MetadataChangeEvent).
 */
export function entityRoutes(app: FastifyInstance, services: Services): void {
  const { ingest, reader, registry } = services;
  app.get<{ Params: { urn: string }; Querystring: { aspects?: string[] } }>(
    '/entitiesV2/:urn',
    {
      ...restliRoute('read'),
      schema: {
        operationId: 'getEntityV2',
        tags: ['Rest.li'],
        summary: 'An entity\'s latest aspects as an EntityResponse (DataHub\'s Python get_entity_raw, the Java client\'s reads)',
        params: { type: 'object', properties: { urn: { type: 'string', description: 'The entity URN, percent-encoded' } }, required: ['urn'] },
        querystring: {
          type: 'object',
          properties: {
            aspects: {
              type: 'array',
              items: { type: 'string' },
              description: 'Rest.li 2.0 `List(a,b)`, or `aspects=a&aspects=b`; unknown names are skipped. Default: every aspect',
            },
          },
        },
        answers: {
          200: { description: 'The entity; for one that does not exist, just its key (as DataHub answers)', body: ref('EntityResponse') },
          400: 'An invalid URN',
        },
      },
    },
    async (req) => {
      const { urn, entity } = reader.entityOf(req.params.urn);
      const names = aspectNames(req.query.aspects, entity, registry);
      const found = await reader.getEntity(urn.text, names && [...names, entity.keyAspect.name]);
      const aspects: Record<string, EnvelopedAspect> = {};
      // Versioned aspects only, as DataHub's entitiesV2 answers (a read of timeseries points is getTimeseriesAspectValues).
  for (const [name, aspect] of found?.aspects ?? []) if (aspect.systemMetadata.version !== undefined) aspects[name] = enveloped(name, aspect as VersionedView);
      // DataHub always answers with the key, which the URN determines, whether the entity exists or not.
      aspects[entity.keyAspect.name] ??= {
        name: entity.keyAspect.name,
        type: 'VERSIONED',
        version: 0,
        value: registry.keyOf(urn, entity),
        created: { time: Date.now(), actor: SYSTEM_ACTOR },
      };
      return { entityName: entity.name, urn: urn.text, aspects };
    },
  );

  app.get<{ Params: { urn: string }; Querystring: { aspects?: string[] } }>(
    '/entities/:urn',
    {
      ...restliRoute('read'),
      schema: {
        operationId: 'getEntitySnapshot',
        tags: ['Rest.li'],
        summary: 'An entity as a legacy snapshot (DataHub\'s Entity: its snapshot record, the aspects its union carries, keyed by record name)',
        params: { type: 'object', properties: { urn: { type: 'string', description: 'The entity URN, percent-encoded' } }, required: ['urn'] },
        querystring: {
          type: 'object',
          properties: {
            aspects: { type: 'array', items: { type: 'string' }, description: 'Rest.li 2.0 `List(a,b)`, or repeated; unknown names are skipped. Default: every aspect' },
          },
        },
        answers: {
          200: { description: 'The entity', body: ref('EntitySnapshot') },
          400: 'An invalid URN, or an entity type DataHub has no snapshot record for',
          404: 'No such entity',
        },
      },
    },
    async (req) => {
      const { urn, entity } = requestUrn(registry, req.params.urn);
      const spec = snapshotFor(registry, urn, entity);
      const names = aspectNames(req.query.aspects, entity, registry);
      return snapshotOf(registry, spec, urn, await reader.getEntity(urn.text, names && [...names, entity.keyAspect.name]));
    },
  );

  app.post<{ Querystring: { action?: string }; Body: unknown }>(
    '/entities',
    {
      ...restliRoute('write'),
      schema: {
        operationId: 'entitiesAction',
        tags: ['Rest.li'],
        summary: 'DataHub\'s entity actions: action=delete (hard delete, `{"urn"}`) | ingest | batchIngest (legacy MetadataChangeEvent snapshots)',
        description:
          'delete: `{"urn": u}` removes the entity with all its aspects, their history and its timeseries points; `{"urn": u, "aspectName": a, ' +
          '"startTimeMillis"?: t0, "endTimeMillis"?: t1}` removes the points of timeseries aspect a in [t0, t1] (counted in timeseriesRows). ingest: `{"entity": {"value": ' +
          '{"com.linkedin.metadata.snapshot.<Type>Snapshot": {"urn": u, "aspects": [{"<aspect record name>": value}]}}}, ' +
          '"systemMetadata": {…}}` upserts every aspect in ONE transaction; batchIngest: `{"entities": [Entity…], "systemMetadata": ' +
          '[{…}…]}` (system metadata by position, optional) writes every entity of the list in ONE transaction, all or nothing. ' +
          'The snapshot types are DataHub\'s 21 (DatasetSnapshot, DataPlatformSnapshot, MLPrimaryKeySnapshot, DataHubPolicySnapshot…). ' +
          'DataHub\'s other entity actions are not served (400).',
        querystring: { type: 'object', properties: { action: { type: 'string', description: ACTIONS.join(' | ') } } },
        body: { type: 'object' },
        answers: {
          200: { description: 'Done', body: { oneOf: [ref('DeleteEntityResult'), ref('RestliSuccess')] } },
          400: 'An invalid URN or snapshot, an aspect not of the entity type, a value or rule it breaks, an aspectName that is not a timeseries aspect, or an action not served',
          409: 'A delete the rules refuse (a structured property still in use), or too many concurrent writes',
        },
      },
    },
    async (req) => {
      const body = isRecord(req.body) ? req.body : {};
      if (req.query.action === 'delete') return { value: await hardDelete(body, services, restliWriteContext(req)) };
      if (req.query.action === 'ingest') {
        const proposals = snapshotProposals(body.entity, 'entity', registry, clientSystemMetadata(body.systemMetadata, 'systemMetadata'));
        await ingest.ingest(proposals, restliWriteContext(req));
        return { value: 'success' };
      }
      if (req.query.action === 'batchIngest') {
        await ingest.ingest(await batchProposals(body, registry), restliWriteContext(req));
        return { value: 'success' };
      }
      throw new ValidationError(unservedAction('entities', req.query.action, ACTIONS));
    },
  );
}

/** batchIngest's entities, each with the system metadata at its position; one bad entity refuses them all. */
async function batchProposals(body: Record<string, unknown>, registry: Registry): Promise<Proposal[]> {
  if (!Array.isArray(body.entities)) throw new ValidationError('entities must be a list of Entity ({"value": {"com.linkedin.metadata.snapshot.<Type>Snapshot": …}})');
  const metadata = body.systemMetadata;
  if (metadata !== undefined && metadata !== null && !Array.isArray(metadata)) throw new ValidationError('systemMetadata must be a list, one SystemMetadata per entity');
  const proposals: Proposal[] = [];
  const pacer = new Pacer();
  for (const [i, entity] of (body.entities as unknown[]).entries()) {
    const systemMetadata = Array.isArray(metadata) ? clientSystemMetadata(metadata[i], `systemMetadata[${i}]`) : undefined;
    proposals.push(...snapshotProposals(entity, `entities[${i}]`, registry, systemMetadata));
    checkProposalCount(proposals.length, true);
    await pacer.pace();
  }
  return proposals;
}

/** `aspects=List(a,b)` (Rest.li 2.0) or repeated (1.0) as canonical names; undefined: all of them. */
function aspectNames(raw: string[] | undefined, entity: EntitySpec, registry: Registry): string[] | undefined {
  if (raw === undefined) return undefined;
  const names = raw.flatMap((item) => {
    const list = /^List\((.*)\)$/s.exec(item);
    return (list ? list[1] : item).split(',').filter((name) => name !== '');
  });
  return [...new Set(names.map((name) => registry.aspectOf(entity, name)?.name).filter((name): name is string => name !== undefined))];
}

function enveloped(name: string, aspect: VersionedView): EnvelopedAspect {
  const { systemMetadata } = aspect;
  // DataHub's `created` is when (and by whom) this version of the aspect was written.
  return { name, type: 'VERSIONED', version: 0, value: aspect.value, created: systemMetadata.aspectModified, systemMetadata };
}

/**
 * DataHub's delete action. Without aspectName: the hard delete of an entity (its key's DELETE,
 * which takes every aspect, its history and its timeseries points). With the name of a timeseries
 * aspect: that aspect's points between startTimeMillis and endTimeMillis (inclusive; unbounded
 * when absent), the entity staying.
 */
async function hardDelete(body: Record<string, unknown>, services: Services, context: WriteContext): Promise<{ urn: string; rows: number; timeseriesRows: number }> {
  const { reader, ingest, registry } = services;
  if (typeof body.urn !== 'string') throw new ValidationError('urn is required: the URN of the entity to delete');
  const { urn, entity } = reader.entityOf(body.urn);
  const start = millis(body.startTimeMillis, 'startTimeMillis');
  const end = millis(body.endTimeMillis, 'endTimeMillis');
  if (body.aspectName !== undefined && body.aspectName !== null) {
    if (typeof body.aspectName !== 'string') throw new ValidationError('aspectName must be the name of a timeseries aspect');
    const aspect = registry.aspectOf(entity, body.aspectName);
    if (!aspect) throw new ValidationError(`Unknown aspect ${body.aspectName} for entity type ${entity.name}`);
    if (aspect.kind !== 'timeseries') throw new ValidationError(`Not supported for non-timeseries aspect ${aspect.name}.`);
    const timeseriesRows = await ingest.deletePoints(urn.text, [aspect.name], start, end, context);
    return { urn: body.urn, rows: 0, timeseriesRows };
  }
  // Rows as DataHub counts them: every stored version of every aspect (read first; informational).
  const stored = await reader.getEntity(urn.text);
  let rows = 0;
  for (const aspect of stored?.aspects.values() ?? []) rows += Number(aspect.systemMetadata.version) || 1;
  // The points in the range first, counted; the entity's DELETE then takes any others with it.
  const timeseriesRows = await ingest.deletePoints(urn.text, undefined, start, end, context);
  await ingest.ingest([{ urn: urn.text, aspect: entity.keyAspect.name, changeType: 'DELETE' }], context);
  return { urn: body.urn, rows, timeseriesRows };
}
