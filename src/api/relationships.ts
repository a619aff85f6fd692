import type { FastifyInstance } from 'fastify';
import { ValidationError } from '../errors.js';
import type { LineageDirection, LineageKind } from '../graph/lineage.js';
import { edgeDirection, edgesOf, otherEnd, relationshipTypes, type Relationships, type RelationshipScope } from '../graph/relationships.js';
import type { Registry } from '../registry/registry.js';
import type { StoredEdge } from '../store/graph-types.js';
import { ref, type JsonSchema } from './answers.js';
import { MAX_COUNT, pageSize } from './params.js';
import { lineageDirection } from './lineage.js';
import { pathEntityType, requestUrn, typedUrn } from './urns.js';

const READ = { permission: 'read' } as const;

interface ScrollQuery {
  count?: number;
  scrollId?: string;
  includeSoftDelete?: boolean;
}

const scrollQuery = {
  count: { type: 'integer', description: `Edges per page (default 10, at most ${MAX_COUNT})` },
  scrollId: { type: 'string', description: 'From the previous page, to go on' },
  includeSoftDelete: { type: 'boolean', description: 'Keep edges to soft-deleted entities (default false)' },
  sliceId: { type: 'integer', description: 'Accepted for DataHub\'s clients; urnbase answers the whole listing' },
  sliceMax: { type: 'integer', description: 'Accepted for DataHub\'s clients; urnbase answers the whole listing' },
  pitKeepAlive: { type: 'string', description: 'Accepted for DataHub\'s clients: a scroll id stays valid for ever' },
};

/**
 * DataHub's relationship APIs over the graph: the SDK's `get_related_entities` (its v1
 * RelationshipsController, a page by offset with a total), and the v2/v3 scrolls of one
 * relationship type or of one entity's edges (its GenericRelationshipController).
 */
export function relationshipRoutes(app: FastifyInstance, relationships: Relationships, registry: Registry): void {
  // DataHub's path ends with a slash, and its SDK calls it so; documented without (a linted API
  // document has no trailing slashes), served both ways.
  for (const path of ['/openapi/relationships/v1', '/openapi/relationships/v1/']) {
    app.get<{ Querystring: { urn: string; relationshipTypes: string[]; direction: string; start?: number; count?: number; includeSoftDelete?: boolean } }>(
      path,
      {
        config: READ,
        schema: {
          hide: path.endsWith('/'),
          operationId: 'getRelationshipsV1',
          tags: ['Relationships'],
          summary: 'The entities related to one by the relationship types named, in one direction, a page by offset: {start, count, total, entities: [{relationshipType, urn}]}',
          querystring: {
            type: 'object',
            properties: {
              urn: { type: 'string', description: 'The entity whose relationships are read' },
              relationshipTypes: { type: 'array', items: { type: 'string' }, description: 'Relationship names, repeated or comma-separated (DownstreamOf, OwnedBy, …)' },
              direction: { type: 'string', description: 'OUTGOING: the entities it points to; INCOMING: those pointing to it' },
              start: { type: 'integer', description: 'Offset of the first edge (default 0)' },
              count: { type: 'integer', description: `Edges per page (default 200, at most ${MAX_COUNT})` },
              includeSoftDelete: { type: 'boolean', description: 'Keep soft-deleted entities (default false)' },
            },
            required: ['urn', 'relationshipTypes', 'direction'],
          },
          answers: {
            200: { description: 'A page of related entities; count is how many this page holds (0 past the end)', body: ref('RelatedEntities') },
            400: 'An invalid URN or unknown entity type, no relationship types, a direction other than INCOMING or OUTGOING, a bad start or count',
          },
        },
      },
      async (req) => {
        const { urn } = requestUrn(registry, req.query.urn);
        const direction = edgeDirection(req.query.direction);
        const types = relationshipTypes(req.query.relationshipTypes);
        if (types.length === 0) throw new ValidationError('relationshipTypes must name at least one relationship type');
        const start = req.query.start ?? 0;
        if (!Number.isInteger(start) || start < 0) throw new ValidationError(`start must be a whole number, got ${start}`);
        const count = req.query.count === undefined ? 200 : pageSize(req.query.count);
        const page = await relationships.page(edgesOf(urn.text, direction, { types, includeRemoved: req.query.includeSoftDelete === true }), start, count);
        return { start, count: page.edges.length, total: page.total, entities: page.edges.map((e) => ({ relationshipType: e.relationship, urn: otherEnd(e, direction) })) };
      },
    );
  }

  for (const version of ['v2', 'v3'] as const) {
    app.get<{ Params: { relationshipType: string }; Querystring: ScrollQuery }>(
      `/openapi/${version}/relationship/:relationshipType`,
      {
        config: READ,
        schema: {
          operationId: `scrollRelationshipsByType${version.toUpperCase()}`,
          tags: ['Relationships'],
          summary: 'Every edge of one relationship type, a page at a time: {scrollId, results: [{relationshipType, source, destination}]}',
          params: { type: 'object', properties: { relationshipType: { type: 'string', description: 'A relationship name, e.g. DownstreamOf' } }, required: ['relationshipType'] },
          querystring: { type: 'object', properties: scrollQuery },
          answers: {
            200: { description: 'A page of edges; scrollId null on the last', body: ref('RelationshipScroll') },
            400: 'A bad count or scrollId',
          },
        },
      },
      async (req) => {
        const scope = { types: relationshipTypes([req.params.relationshipType]), includeRemoved: req.query.includeSoftDelete === true };
        return scrollAnswer(await relationships.scroll(scope, pageSize(req.query.count), req.query.scrollId));
      },
    );

    app.get<{ Params: { entityName: string; entityUrn: string }; Querystring: ScrollQuery & { 'relationshipType[]'?: string[]; direction?: string } }>(
      `/openapi/${version}/relationship/:entityName/:entityUrn`,
      {
        config: READ,
        schema: {
          operationId: `scrollRelationshipsByEntity${version.toUpperCase()}`,
          tags: ['Relationships'],
          summary: 'One entity\'s edges in one direction, a page at a time: {scrollId, results: [{relationshipType, source, destination}]}',
          params: {
            type: 'object',
            properties: { entityName: { type: 'string' }, entityUrn: { type: 'string', description: 'Percent-encoded entity URN' } },
            required: ['entityName', 'entityUrn'],
          },
          querystring: {
            type: 'object',
            properties: {
              'relationshipType[]': { type: 'array', items: { type: 'string' }, description: 'Relationship names, repeated (default *: all)' },
              direction: { type: 'string', description: 'OUTGOING (the default): edges out of the entity; INCOMING: edges into it' },
              ...scrollQuery,
            },
          },
          answers: {
            200: { description: 'A page of edges; scrollId null on the last', body: ref('RelationshipScroll') },
            400: 'An unknown entity type, a URN that is invalid or not of that type, a direction other than INCOMING or OUTGOING, a bad count or scrollId',
          },
        },
      },
      async (req) => {
        const { urn } = typedUrn(registry, req.params.entityName, req.params.entityUrn);
        const types = relationshipTypes(req.query['relationshipType[]']).filter((t) => t !== '*');
        const scope = edgesOf(urn.text, edgeDirection(req.query.direction, 'OUTGOING'), { types, includeRemoved: req.query.includeSoftDelete === true });
        return scrollAnswer(await relationships.scroll(scope, pageSize(req.query.count), req.query.scrollId));
      },
    );
  }
}

interface FilteredScrollQuery extends ScrollQuery {
  direction?: string;
  relationshipTypes?: string[];
  sourceTypes?: string[];
  destinationTypes?: string[];
  sourceUrns?: string[];
  destinationUrns?: string[];
}

const listParam = (description: string) => ({ type: 'array', items: { type: 'string' }, description: `${description}, repeated or comma-separated` });

/**
 * DataHub's v3 scrolls of edges by filters: the SDK's `scroll_relationships` (GET, its query
 * parameters) and the same over lineage edges only (`/openapi/v3/lineage/scroll`: the
 * relationships DataHub's model marks as lineage, between the entity types it names), which also
 * takes anchor URNs in its body (`{urns}`, the SDK's `scroll_lineage`) with a `direction`, and
 * says of each edge which end is upstream. POST takes the same parameters; other filters in its
 * body (sourceFilter, destinationFilter, edgeFilter) are refused rather than ignored.
 */
export function filteredScrollRoutes(app: FastifyInstance, relationships: Relationships, registry: Registry, lineage: readonly LineageKind[]): void {
  const routes = [
    { path: '/openapi/v3/relationship/scroll', id: 'scrollRelationships', kinds: undefined, what: 'Edges by relationship type, entity types and URNs of either end' },
    { path: '/openapi/v3/lineage/scroll', id: 'scrollLineage', kinds: lineage, what: 'Lineage edges (DownstreamOf, Consumes, Produces, …) by the same filters, or around anchor URNs (body {urns}, direction)' },
  ];
  for (const { path, id, kinds, what } of routes) {
    for (const method of ['GET', 'POST'] as const) {
      app.route<{ Querystring: FilteredScrollQuery; Body: unknown }>({
        method,
        url: path,
        config: READ,
        schema: {
          operationId: `${id}${method === 'POST' ? 'Post' : ''}`,
          tags: ['Relationships'],
          summary: `${what}, a page at a time: {scrollId, results: [{relationshipType, source, destination${kinds ? ', upstream, downstream' : ''}}]}`,
          querystring: {
            type: 'object',
            properties: {
              relationshipTypes: listParam('Relationship names (default: all)'),
              sourceTypes: listParam('Entity types of the source'),
              destinationTypes: listParam('Entity types of the destination'),
              sourceUrns: { type: 'array', items: { type: 'string' }, description: 'Source URNs, repeated' },
              destinationUrns: { type: 'array', items: { type: 'string' }, description: 'Destination URNs, repeated' },
              ...(kinds ? { direction: { type: 'string', description: 'With anchor URNs: UPSTREAM (edges to their upstreams) or DOWNSTREAM (to their downstreams); default both' } } : {}),
              ...scrollQuery,
            },
          },
          answers: {
            200: { description: 'A page of edges, by relationship, source and destination; scrollId null on the last', body: ref(kinds ? 'LineageScroll' : 'RelationshipScroll') },
            400: kinds
              ? 'An invalid URN, an unknown entity type, a direction other than UPSTREAM or DOWNSTREAM, a bad count or scrollId, body filters other than urns, anchor URNs with sourceUrns or destinationUrns'
              : 'An invalid URN, an unknown entity type, a bad count or scrollId, filters in a POST body',
          },
        },
        handler: async (req) => {
          const q = req.query;
          const anchors = kinds ? anchorUrns(registry, req.body) : undefined;
          if (!kinds && !emptyBody(req.body)) throw new ValidationError('Filters in the request body are not served: give them as query parameters (relationshipTypes, sourceTypes, destinationTypes, sourceUrns, destinationUrns)');
          // URNs hold commas: repeated only, never split.
          const urnList = (raw: string[] | undefined) => [...new Set((raw ?? []).filter((text) => text !== '').map((text) => requestUrn(registry, text).urn.text))];
          const typeList = (raw: string[] | undefined) =>
            [...new Set((raw ?? []).flatMap((v) => v.split(',')).map((v) => v.trim()).filter((v) => v !== ''))].map((name) => pathEntityType(registry, name).name);
          const scope = {
            types: relationshipTypes(q.relationshipTypes),
            sourceTypes: typeList(q.sourceTypes),
            destinationTypes: typeList(q.destinationTypes),
            sources: urnList(q.sourceUrns),
            destinations: urnList(q.destinationUrns),
            ...(kinds ? { kinds } : {}),
            includeRemoved: q.includeSoftDelete === true,
          };
          const direction = kinds && q.direction !== undefined ? lineageDirection(q.direction) : undefined;
          if (!kinds || !anchors?.length) return scrollAnswer(await relationships.scroll(scope, pageSize(q.count), q.scrollId), kinds);
          if (scope.sources.length || scope.destinations.length) throw new ValidationError('Give anchor URNs in the body or sourceUrns and destinationUrns, not both');
          return scrollAnswer(await relationships.scroll(aroundAnchors(scope, anchors, kinds, direction), pageSize(q.count), q.scrollId), kinds);
        },
      });
    }
  }
}

/** The anchors of a lineage scroll's body (`{urns: [...]}`); any other filter is refused. */
function anchorUrns(registry: Registry, body: unknown): string[] {
  if (emptyBody(body)) return [];
  const { urns, ...rest } = body as { urns?: unknown };
  if (!emptyBody(rest)) throw new ValidationError('Body filters other than urns are not served: give the others as query parameters (relationshipTypes, sourceTypes, destinationTypes, sourceUrns, destinationUrns)');
  if (urns === undefined || urns === null) return [];
  if (!Array.isArray(urns) || urns.length > MAX_COUNT || !urns.every((u) => typeof u === 'string')) throw new ValidationError(`urns must be a list of at most ${MAX_COUNT} URNs`);
  return [...new Set(urns.map((text: string) => requestUrn(registry, text).urn.text))];
}

/**
 * The lineage edges at anchors, as scopes to scroll together: an edge pointing upstream (a
 * dataset DownstreamOf its upstream) has its downstream end at its source, one pointing
 * downstream (a job Produces its output) at its destination.
 */
function aroundAnchors(scope: RelationshipScope, anchors: string[], kinds: readonly LineageKind[], direction: LineageDirection | undefined): RelationshipScope[] {
  const pointing = (upstream: boolean) => kinds.filter((k) => k.upstream === upstream);
  if (direction === undefined) return [{ ...scope, sources: anchors }, { ...scope, destinations: anchors }];
  // UPSTREAM: the anchor is each edge's downstream end.
  const anchorAtSource = direction === 'UPSTREAM' ? pointing(true) : pointing(false);
  const anchorAtDestination = direction === 'UPSTREAM' ? pointing(false) : pointing(true);
  return [
    { ...scope, sources: anchors, kinds: anchorAtSource },
    { ...scope, destinations: anchors, kinds: anchorAtDestination },
  ];
}

/** No body, or one that filters nothing (DataHub's clients may send `{}` or nulls). */
function emptyBody(body: unknown): boolean {
  if (body === undefined || body === null || body === '') return true;
  if (typeof body !== 'object' || Array.isArray(body)) return false;
  return Object.values(body).every((v) => v === null || (Array.isArray(v) && v.length === 0) || (typeof v === 'object' && v !== null && Object.keys(v).length === 0));
}

function scrollAnswer({ edges, scrollId }: { edges: StoredEdge[]; scrollId: string | null }, lineage?: readonly LineageKind[]) {
  return {
    scrollId,
    results: edges.map((e) => {
      const result = {
        relationshipType: e.relationship,
        source: { entityType: e.sourceType, urn: e.source },
        destination: { entityType: e.destinationType, urn: e.destination },
      };
      if (!lineage) return result;
      const pointsUpstream = lineage.find((k) => k.relationship === e.relationship && k.sourceTypes.includes(e.sourceType) && k.destinationTypes.includes(e.destinationType))?.upstream !== false;
      return { ...result, upstream: pointsUpstream ? e.destination : e.source, downstream: pointsUpstream ? e.source : e.destination };
    }),
  };
}

const node: JsonSchema = { type: 'object', required: ['entityType', 'urn'], properties: { entityType: { type: 'string' }, urn: { type: 'string' } } };

/** A page of edges, each with the fields given beside its relationship and ends. */
function edgeScroll(more: Record<string, JsonSchema>): JsonSchema {
  return {
    type: 'object',
    required: ['scrollId', 'results'],
    properties: {
      scrollId: { type: 'string', nullable: true, description: 'Pass it back for the next page; null on the last' },
      results: {
        type: 'array',
        items: {
          type: 'object',
          required: ['relationshipType', 'source', 'destination', ...Object.keys(more)],
          properties: { relationshipType: { type: 'string' }, source: node, destination: node, ...more },
        },
      },
    },
  };
}

/** The shapes of the answers, as named schemas of the API document. */
export const relationshipShapes: Record<string, JsonSchema> = {
  RelatedEntities: {
    type: 'object',
    required: ['start', 'count', 'total', 'entities'],
    properties: {
      start: { type: 'integer' },
      count: { type: 'integer', description: 'How many entities this page holds' },
      total: { type: 'integer', description: 'How many there are in all' },
      entities: {
        type: 'array',
        items: { type: 'object', required: ['relationshipType', 'urn'], properties: { relationshipType: { type: 'string' }, urn: { type: 'string' } } },
      },
    },
  },
  LineageScroll: edgeScroll({
    upstream: { type: 'string', description: 'The end data flows from (the destination of DownstreamOf, the source of Produces)' },
    downstream: { type: 'string', description: 'The end data flows to' },
  }),
  RelationshipScroll: edgeScroll({}),
};
