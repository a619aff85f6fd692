import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ValidationError } from '../../errors.js';
import { checkProposalCount } from '../../ingest/ingest.js';
import type { AppliedChange, Proposal } from '../../ingest/proposal.js';
import { isRecord } from '../../json.js';
import { Pacer } from '../../pace.js';
import type { Services } from '../../services.js';
import { writeContext } from '../context.js';
import { aspectPatch, aspectWrite, withCreated } from '../entity-writes.js';
import { requestUrn } from '../urns.js';
import { checkBatchSize, readBatch, type BatchGetItem } from './batch-get.js';
import * as s from './schemas.js';
import { V3 } from './schemas.js';
import { changesJsonV3, entityJsonV3, type EntityJsonV3 } from './shapes.js';

const READ = { permission: 'read' } as const;
const WRITE = { permission: 'write' } as const;

type Kind = 'UPSERT' | 'PATCH';

// Keys of a body entity that are not aspects (DataHub's newer servers skip scrollId too).
const NOT_ASPECTS = new Set(['urn', 'scrollId']);

/**
 * The v3 batch routes. The path's entity name is ignored, as in DataHub: each URN says its own
 * type. Every batch, `/generic`'s groups together, is checked and written in ONE ingest call (one
 * transaction): a bad item is a 400 and nothing is written, whatever `async` says.
 */
export function batchRoutesV3(app: FastifyInstance, services: Services): void {
  const { reader, ingest, registry } = services;

  /** Writes the groups' entities together; answers per group, in the order of the request. */
  const write = async (groups: ReadonlyArray<{ items: unknown; where: string }>, kind: Kind, req: FastifyRequest) => {
    const proposalsPerGroup: Proposal[][] = [];
    const pacer = new Pacer();
    let counted = 0;
    for (const g of groups) {
      const proposals = await batchProposals(g.items, kind, g.where, (urn) => requestUrn(registry, urn), pacer, counted);
      counted += proposals.length;
      proposalsPerGroup.push(proposals);
    }
    const changes = await reader.present(await ingest.ingest(proposalsPerGroup.flat(), writeContext(req)));
    // Ingest answers one change per proposal, in order: each group gets its own slice back.
    let at = 0;
    return proposalsPerGroup.map((proposals): AppliedChange[] => changes.slice(at, (at += proposals.length)));
  };

  app.post<{ Params: { entityName: string }; Querystring: s.BatchQuery; Body: unknown }>(
    `${V3}/:entityName`,
    { schema: s.createEntities, config: WRITE },
    async (req, reply) => {
      const [changes] = await write([{ items: req.body, where: '' }], 'UPSERT', req);
      const async = req.query.async ?? true;
      return reply.status(async ? 202 : 200).send(changesJsonV3(async ? changes : withCreated(changes), req.query.systemMetadata ?? false));
    },
  );

  app.patch<{ Params: { entityName: string }; Querystring: s.BatchQuery; Body: unknown }>(
    `${V3}/:entityName`,
    { schema: s.patchEntities, config: WRITE },
    async (req, reply) => {
      const [changes] = await write([{ items: req.body, where: '' }], 'PATCH', req);
      if (req.query.async ?? true) return reply.status(202).send();
      return changesJsonV3(withCreated(changes), req.query.systemMetadata ?? false);
    },
  );

  app.post<{ Querystring: s.BatchQuery; Body: unknown }>(`${V3}/generic`, { schema: s.createGeneric, config: WRITE }, async (req, reply) => {
    const groups = typeGroups(req.body);
    const written = await write(groups, 'UPSERT', req);
    const withMetadata = req.query.systemMetadata ?? false;
    const async = req.query.async ?? true;
    const answer = Object.fromEntries(groups.map((g, i) => [g.name, changesJsonV3(async ? written[i] : withCreated(written[i]), withMetadata)]));
    return reply.status(async ? 202 : 200).send(answer);
  });

  app.patch<{ Querystring: s.BatchQuery; Body: unknown }>(`${V3}/generic`, { schema: s.patchGeneric, config: WRITE }, async (req, reply) => {
    const groups = typeGroups(req.body);
    const written = await write(groups, 'PATCH', req);
    const async = req.query.async ?? true;
    const withMetadata = req.query.systemMetadata ?? false;
    // As DataHub: an async patch answers each group with an empty list.
    const answer = Object.fromEntries(groups.map((g, i) => [g.name, async ? [] : changesJsonV3(withCreated(written[i]), withMetadata)]));
    return reply.status(async ? 202 : 200).send(answer);
  });

  app.post<{ Params: { entityName: string }; Querystring: s.WithSystemMetadata; Body: unknown }>(
    `${V3}/:entityName/batchGet`,
    { schema: s.batchGet, config: READ },
    async (req) => {
      const found = await readBatch(reader, registry, batchGetItems(req.body, ''));
      return found.map((e) => entityJsonV3(e, req.query.systemMetadata ?? false));
    },
  );

  app.post<{ Querystring: s.WithSystemMetadata; Body: unknown }>(`${V3}/generic/batchGet`, { schema: s.batchGetGeneric, config: READ }, async (req) => {
    // One read for the whole body: a URN named in several groups (or several times) is read once
    // and answered once, in the first group naming it, so an answer never outgrows the catalog.
    const groups = typeGroups(req.body).map((g) => ({ name: g.name, items: batchGetItems(g.items, g.where) }));
    const firstGroup = new Map<string, string>();
    for (const group of groups) {
      for (const item of group.items) {
        const urn = requestUrn(registry, item.urn).urn.text;
        if (!firstGroup.has(urn)) firstGroup.set(urn, group.name);
      }
    }
    const answer: Record<string, EntityJsonV3[]> = Object.fromEntries(groups.map((g) => [g.name, []]));
    for (const entity of await readBatch(reader, registry, groups.flatMap((g) => g.items))) {
      answer[firstGroup.get(entity.urn)!].push(entityJsonV3(entity, req.query.systemMetadata ?? false));
    }
    return answer;
  });
}

/** `{<entity type>: [item…], …}`: the groups of a `/generic` body, in order. */
function typeGroups(body: unknown): Array<{ name: string; items: unknown; where: string }> {
  if (!isRecord(body)) throw new ValidationError('The body must be a JSON object: {"<entity type>": [entity…], …}');
  return Object.entries(body).map(([name, items]) => {
    if (!Array.isArray(items)) throw new ValidationError(`Value of property '${name}' must be an array`);
    return { name, items, where: name };
  });
}

/** `[{urn, <aspect>: {value, systemMetadata?, headers?}…}]` → proposals, checking the shape. */
async function batchProposals(body: unknown, kind: Kind, where: string, checkUrn: (urn: string) => void, pacer: Pacer, counted: number): Promise<Proposal[]> {
  if (!Array.isArray(body)) throw new ValidationError('The body must be a JSON array of entities: [{"urn": …, "<aspect>": {"value": …}}, …]');
  const proposals: Proposal[] = [];
  for (const [i, item] of (body as unknown[]).entries()) {
    const at = `${where}[${i}]`;
    if (!isRecord(item)) throw new ValidationError(`${at} must be an object: {"urn": …, "<aspect>": {"value": …}}`);
    if (typeof item.urn !== 'string') throw new ValidationError(`${at}: missing \`urn\` field`);
    const urn = item.urn;
    checkUrn(urn);
    for (const [aspect, wrapper] of Object.entries(item)) {
      if (NOT_ASPECTS.has(aspect)) continue;
      proposals.push(kind === 'PATCH' ? aspectPatch(urn, aspect, wrapper, `${at}.${aspect}`) : aspectWrite(urn, aspect, wrapper, `${at}.${aspect}`));
    }
    checkProposalCount(proposals.length + counted, true);
    await pacer.pace();
  }
  return proposals;
}

/** `[{urn, <aspect>?: {headers?: {If-Version-Match}}…}]` → what to read, checking the shape. */
function batchGetItems(body: unknown, where: string): BatchGetItem[] {
  if (!Array.isArray(body)) throw new ValidationError('The body must be a JSON array: [{"urn": …, "<aspect>"?: {}}, …]');
  checkBatchSize(body.length);
  return body.map((item: unknown, i): BatchGetItem => {
    const at = `${where}[${i}]`;
    if (!isRecord(item)) throw new ValidationError(`${at} must be an object: {"urn": …, "<aspect>"?: {}}`);
    if (typeof item.urn !== 'string') throw new ValidationError(`${at}: missing \`urn\` field`);
    const aspects = new Map<string, unknown>();
    for (const [aspect, wanted] of Object.entries(item)) if (!NOT_ASPECTS.has(aspect)) aspects.set(aspect, wanted);
    return { urn: item.urn, aspects, where: at };
  });
}
