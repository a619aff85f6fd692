import type { FastifyInstance } from 'fastify';
import { NotFoundError, ValidationError } from '../../errors.js';
import { checkProposalCount } from '../../ingest/ingest.js';
import type { Proposal } from '../../ingest/proposal.js';
import { Pacer } from '../../pace.js';
import { isRecord } from '../../json.js';
import type { Services } from '../../services.js';
import { ref } from '../answers.js';
import { proposalOf } from './proposal.js';
import { restliRoute, restliWriteContext, unservedAction } from './routes.js';
import { timeseriesValues } from './timeseries.js';
import { quoted } from '../../limits.js';

const ACTIONS = ['ingestProposal', 'ingestProposalBatch', 'getTimeseriesAspectValues'] as const;

interface ActionQuery {
  action?: string;
}
interface AspectQuery {
  aspect?: string;
  version?: number;
}

/**
 * DataHub's `aspects` Rest.li resource: the ingest actions its emitters send proposals to, and
 * the versioned aspect read of the Python graph client (`get_aspect`, `exists`).
 */
export function aspectRoutes(app: FastifyInstance, { ingest, reader, registry }: Services): void {
  app.post<{ Querystring: ActionQuery; Body: unknown }>(
    '/aspects',
    {
      ...restliRoute('write'),
      // Reading points needs only the read permission.
      config: { ...restliRoute('write').config, readActions: ['getTimeseriesAspectValues'] },
      schema: {
        operationId: 'ingestProposal',
        tags: ['Rest.li'],
        summary: 'Ingest MetadataChangeProposals as DataHub\'s emitters send them (action=ingestProposal | ingestProposalBatch), or read timeseries points (getTimeseriesAspectValues)',
        description:
          'ingestProposal: `{"proposal": MCP, "async": "true"|"false"}`; ingestProposalBatch: `{"proposals": [MCP…], "async": …}`, ' +
          'written in ONE transaction (all or nothing). An MCP\'s aspect is `{"value": "<aspect JSON as a string>", "contentType": ' +
          '"application/json"}` (`application/json-patch+json` for PATCH). `async` is accepted; the answer always follows the commit. ' +
          'getTimeseriesAspectValues: `{"urn", "entity", "aspect", "startTimeMillis"?, "endTimeMillis"?, "limit"? (default and at most 10000), ' +
          '"latestValue"?, "filter"? (DataHub\'s Filter on top-level fields: EQUAL, IN, EXISTS, GREATER_THAN…)}`, answered newest first (needs only read).',
        querystring: { type: 'object', properties: { action: { type: 'string', description: ACTIONS.join(' | ') } } },
        body: { type: 'object' },
        answers: {
          200: { description: 'Committed; or the points asked for', body: { oneOf: [ref('RestliSuccess'), ref('TimeseriesAspectValues')] } },
          400: 'An invalid proposal (URN, entity type, change type, aspect name, aspect JSON or value, a rule it breaks, a PATCH of a timeseries aspect), a read of an aspect that is not timeseries or with a bad filter, or an action not served',
          409: 'CREATE of an aspect or CREATE_ENTITY of an entity that exists, a delete the rules refuse, or too many concurrent writes',
          412: 'An If-Version-Match header that does not match the aspect\'s version',
        },
      },
    },
    async (req) => {
      const body = isRecord(req.body) ? req.body : {};
      let proposals: Proposal[];
      if (req.query.action === 'ingestProposal') {
        if (body.proposal === undefined) throw new ValidationError('proposal is required');
        proposals = [proposalOf(body.proposal, 'proposal', registry)];
      } else if (req.query.action === 'ingestProposalBatch') {
        if (!Array.isArray(body.proposals)) throw new ValidationError('proposals must be a list of MetadataChangeProposals');
        checkProposalCount(body.proposals.length);
        proposals = [];
        const pacer = new Pacer();
        for (const [i, mcp] of (body.proposals as unknown[]).entries()) {
          proposals.push(proposalOf(mcp, `proposals[${i}]`, registry));
          await pacer.pace();
        }
      } else if (req.query.action === 'getTimeseriesAspectValues') {
        return { value: await timeseriesValues(body, reader, registry) };
      } else {
        throw new ValidationError(unservedAction('aspects', req.query.action, ACTIONS));
      }
      asyncFlag(body.async);
      await ingest.ingest(proposals, restliWriteContext(req));
      return { value: 'success' };
    },
  );

  app.get<{ Params: { urn: string }; Querystring: AspectQuery }>(
    '/aspects/:urn',
    {
      ...restliRoute('read'),
      schema: {
        operationId: 'getVersionedAspect',
        tags: ['Rest.li'],
        summary: 'One aspect, keyed by its Pegasus record name, as DataHub\'s Python graph client reads it (get_aspect)',
        params: { type: 'object', properties: { urn: { type: 'string', description: 'The entity URN, percent-encoded' } }, required: ['urn'] },
        querystring: {
          type: 'object',
          properties: {
            aspect: { type: 'string', description: 'The aspect name' },
            version: { type: 'integer', minimum: 0, description: '0 (default) is the latest, 1 the oldest' },
          },
        },
        answers: {
          200: { description: 'The aspect', body: ref('VersionedAspect') },
          400: 'An invalid URN, no aspect name, or a negative version',
          404: 'No such aspect of the entity type, or the entity has no such aspect (at that version)',
        },
      },
    },
    async (req) => {
      const { aspect: name, version = 0 } = req.query;
      if (name === undefined || name === '') throw new ValidationError('aspect is required: the name of the aspect to read');
      const { entity } = reader.entityOf(req.params.urn);
      const spec = reader.aspect(entity, name);
      const found = await reader.getAspect(req.params.urn, spec.name, version);
      if (!found) throw new NotFoundError(`Aspect ${spec.name} of ${req.params.urn} not found${version ? ` at version ${version}` : ''}`, version ? 'VERSION' : 'ASPECT');
      return { version, aspect: { [spec.pegasusClass ?? spec.name]: found.value } };
    },
  );
}

/** `async` is "true" or "false" (a string, as Rest.li takes it); durable before acknowledged either way. */
function asyncFlag(raw: unknown): void {
  if (raw === undefined || raw === 'true' || raw === 'false' || typeof raw === 'boolean') return;
  throw new ValidationError(`async must be "true" or "false", got ${quoted(raw)}`);
}
