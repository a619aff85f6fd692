import type { FastifyInstance } from 'fastify';
import { ValidationError } from '../errors.js';
import { DEGREE_BUCKETS, type DegreeBucket, type Lineage, type LineageDirection } from '../graph/lineage.js';
import { platformUrn } from '../graph/platform.js';
import type { Registry } from '../registry/registry.js';
import { ref, type JsonSchema } from './answers.js';
import { MAX_COUNT, pageSize } from './params.js';
import { pathEntityType, typedUrn } from './urns.js';

/** Hops at most: DataHub's walks stop there too. */
export const MAX_HOPS = 1000;
export const DEFAULT_BUDGET_MS = 10_000;
const MAX_BUDGET_MS = 60_000;

interface LineageQuery {
  direction: string;
  maxHops?: number;
  types?: string[];
  platforms?: string[];
  degree?: string[];
  start?: number;
  count?: number;
  budgetMs?: number;
  includeSoftDelete?: boolean;
}

const list = (description: string) => ({ type: 'array', items: { type: 'string' }, description: `${description}, repeated or comma-separated` });

/**
 * Multi-hop lineage of one entity: every entity upstream or downstream of it to `maxHops`, each
 * with its degree and a shortest path, filtered and paged. A walk past its time budget answers
 * what it reached, with `partial: true`, rather than timing out.
 */
export function lineageRoutes(app: FastifyInstance, lineage: Lineage, registry: Registry): void {
  app.get<{ Params: { entityName: string; entityUrn: string }; Querystring: LineageQuery }>(
    '/openapi/v3/lineage/:entityName/:entityUrn',
    {
      config: { permission: 'read' },
      schema: {
        operationId: 'walkLineage',
        tags: ['Relationships'],
        summary: 'The entities upstream or downstream of one, to N hops, each with its degree and a shortest path: {total, partial, degrees, results}',
        params: {
          type: 'object',
          properties: { entityName: { type: 'string' }, entityUrn: { type: 'string', description: 'Percent-encoded entity URN (a schemaField URN walks column lineage)' } },
          required: ['entityName', 'entityUrn'],
        },
        querystring: {
          type: 'object',
          properties: {
            direction: { type: 'string', description: 'UPSTREAM or DOWNSTREAM' },
            maxHops: { type: 'integer', description: `Hops at most, an edge each (dataset → job → dataset is two; default and most ${MAX_HOPS})` },
            types: list('Entity types of the results (dataset, dataJob, …); the walk goes through every type'),
            platforms: list('Platforms of the results, as URNs or names (snowflake)'),
            degree: list('Degrees of the results: 1, 2, 3+'),
            start: { type: 'integer', description: 'Offset of the first result (default 0)' },
            count: { type: 'integer', description: `Results per page (default 100, at most ${MAX_COUNT})` },
            budgetMs: { type: 'integer', description: `Milliseconds the walk may take before it answers what it has, marked partial (default ${DEFAULT_BUDGET_MS}, at most ${MAX_BUDGET_MS})` },
            includeSoftDelete: { type: 'boolean', description: 'Walk through soft-deleted entities too (default false)' },
          },
          required: ['direction'],
        },
        answers: {
          200: { description: 'A page of the entities reached, by degree then URN', body: ref('LineageWalk') },
          400: 'An unknown entity type, a URN that is invalid or not of that type, a direction other than UPSTREAM or DOWNSTREAM, a bad maxHops, degree, start, count or budgetMs',
        },
      },
    },
    async (req) => {
      const { urn } = typedUrn(registry, req.params.entityName, req.params.entityUrn);
      const q = req.query;
      const direction = lineageDirection(q.direction);
      const maxHops = bounded('maxHops', q.maxHops, MAX_HOPS, MAX_HOPS);
      const budgetMs = bounded('budgetMs', q.budgetMs, DEFAULT_BUDGET_MS, MAX_BUDGET_MS);
      const start = q.start ?? 0;
      if (!Number.isInteger(start) || start < 0) throw new ValidationError(`start must be a whole number, got ${start}`);
      const count = q.count === undefined ? 100 : pageSize(q.count);
      const filters = {
        entityTypes: split(q.types).map((name) => pathEntityType(registry, name).name),
        platforms: split(q.platforms).map(platformUrn),
        degrees: split(q.degree).map(degreeOf),
      };
      const page = await lineage.page({ root: urn.text, direction, maxHops, budgetMs, includeRemoved: q.includeSoftDelete === true }, filters, start, count);
      return {
        urn: urn.text,
        direction,
        start,
        count: page.hits.length,
        total: page.total,
        partial: page.partial,
        degrees: page.degrees,
        results: page.hits.map((h) => ({ entity: h.urn, entityType: h.entityType, type: h.relationship, degree: h.degree, paths: [h.path] })),
      };
    },
  );
}

export function lineageDirection(text: string | undefined): LineageDirection {
  const upper = text?.toUpperCase();
  if (upper === 'UPSTREAM' || upper === 'DOWNSTREAM') return upper;
  throw new ValidationError(`direction must be UPSTREAM or DOWNSTREAM, got ${text === undefined ? 'none' : JSON.stringify(text)}`);
}

function bounded(name: string, value: number | undefined, fallback: number, most: number): number {
  if (value === undefined) return fallback;
  if (!Number.isInteger(value) || value < 1 || value > most) throw new ValidationError(`${name} must be a whole number from 1 to ${most}, got ${value}`);
  return value;
}

function split(raw: readonly string[] | undefined): string[] {
  return [...new Set((raw ?? []).flatMap((v) => v.split(',')).map((v) => v.trim()).filter((v) => v !== ''))];
}

function degreeOf(text: string): DegreeBucket {
  if ((DEGREE_BUCKETS as readonly string[]).includes(text)) return text as DegreeBucket;
  throw new ValidationError(`degree must be 1, 2 or 3+, got ${JSON.stringify(text.slice(0, 100))}`);
}

/** The answer's shape, a named schema of the API document. */
export const lineageShapes: Record<string, JsonSchema> = {
  LineageWalk: {
    type: 'object',
    required: ['urn', 'direction', 'start', 'count', 'total', 'partial', 'degrees', 'results'],
    properties: {
      urn: { type: 'string', description: 'The entity walked from' },
      direction: { type: 'string', enum: ['UPSTREAM', 'DOWNSTREAM'] },
      start: { type: 'integer' },
      count: { type: 'integer', description: 'How many results this page holds' },
      total: { type: 'integer', description: 'How many entities pass the filters' },
      partial: { type: 'boolean', description: 'The walk ran out of its time budget: entities further away may be missing' },
      degrees: {
        type: 'object',
        description: 'Entities reached that pass the type and platform filters, by degree (before the degree filter)',
        required: ['1', '2', '3+'],
        properties: { '1': { type: 'integer' }, '2': { type: 'integer' }, '3+': { type: 'integer' } },
      },
      results: {
        type: 'array',
        items: {
          type: 'object',
          required: ['entity', 'entityType', 'type', 'degree', 'paths'],
          properties: {
            entity: { type: 'string', description: 'The URN reached' },
            entityType: { type: 'string' },
            type: { type: 'string', description: 'The relationship of the edge it was first reached by' },
            degree: { type: 'integer', description: 'Its least number of hops from the walked entity' },
            paths: { type: 'array', items: { type: 'array', items: { type: 'string' } }, description: 'A shortest path, walked entity first' },
          },
        },
      },
    },
  },
};
