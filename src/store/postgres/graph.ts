import { stepRelationships } from '../adjacent-edges.js';
import { storedOwner, type EdgeFilter, type EdgeQuery, type EdgeWrite } from '../graph-types.js';
import type { WriteStatement } from './write-statement.js';

/**
 * The edge writes of a group, as two parts of its write statement: the edges removed, and the
 * new or changed ones. An aspect's removals and upserts never share a key (GraphEdges.change),
 * and a group's batches never share an entity, so no two parts touch the same row.
 */
export function addEdgeWrites(statement: WriteStatement, writes: readonly EdgeWrite[]): void {
  const rows = (kind: 'remove' | 'upsert') => writes.flatMap((w) => w[kind].map((e) => ({ ...e, owner: storedOwner(w.owner, e), aspect: w.aspect })));
  const keys = (list: ReturnType<typeof rows>) =>
    (['relationship', 'source', 'destination', 'owner', 'aspect'] as const).map((c) => statement.param(list.map((e) => e[c]), 'text[]')).join(', ');
  const removed = rows('remove');
  if (removed.length > 0) {
    statement.add(
      'edges_gone',
      `DELETE FROM edges e USING unnest(${keys(removed)}) AS x(relationship, source, destination, owner, aspect)
        WHERE e.source = x.source AND e.relationship = x.relationship AND e.destination = x.destination AND e.owner = x.owner AND e.aspect = x.aspect`,
    );
  }
  const upserted = rows('upsert');
  if (upserted.length > 0) {
    const p = (values: unknown[]) => statement.param(values, 'text[]');
    statement.add(
      'edges_set',
      `INSERT INTO edges (relationship, source, destination, owner, aspect, source_type, destination_type, properties)
       SELECT * FROM unnest(${keys(upserted)}, ${p(upserted.map((e) => e.sourceType))}, ${p(upserted.map((e) => e.destinationType))},
                            ${p(upserted.map((e) => (e.properties ? JSON.stringify(e.properties) : null)))})
       ON CONFLICT (relationship, source, destination, owner, aspect) DO UPDATE SET properties = EXCLUDED.properties`,
    );
  }
}

/** Which of $1's entities are soft-deleted (a walk's check of what it reached), from aspects_soft_deleted (migrate.ts), whose predicate this is. */
export const softDeletedSql = `SELECT urn FROM aspects WHERE aspect = 'status' AND urn = ANY($1::text[]) AND (metadata::jsonb ->> 'removed') = 'true'`;

/** A soft-deleted end's status row, for the end named by `column`. */
const removed = (column: string) =>
  `NOT EXISTS (SELECT 1 FROM aspects s WHERE s.urn = e.${column} AND s.aspect = 'status' AND (s.metadata::jsonb ->> 'removed') = 'true')`;

/** Soft-deleted ends left out, but those the filter names (it bounds them: a walk's frontier). */
function unremoved(filter: EdgeFilter, where: string[]): void {
  if (filter.includeRemoved) return;
  if (!filter.sources?.length) where.push(removed('source'));
  if (!filter.destinations?.length) where.push(removed('destination'));
}

/**
 * A walk's step: the filter's distinct (source, relationship, destination) by ends and
 * relationship names, for typedEdges (adjacent-edges.ts); undefined when no relationship can match.
 */
export function adjacentSql(filter: EdgeFilter, params: unknown[]): string | undefined {
  const relationships = stepRelationships(filter);
  if (relationships?.length === 0) return undefined;
  const param = (value: unknown) => {
    params.push(value);
    return `$${params.length}`;
  };
  const where: string[] = [];
  if (filter.sources?.length) where.push(`e.source = ANY(${param(filter.sources)}::text[])`);
  if (filter.destinations?.length) where.push(`e.destination = ANY(${param(filter.destinations)}::text[])`);
  if (relationships) where.push(`e.relationship = ANY(${param(relationships)}::text[])`);
  unremoved(filter, where);
  return `SELECT DISTINCT e.source, e.relationship, e.destination FROM edges e WHERE ${where.join(' AND ') || 'true'}`;
}

/** The query's distinct edges, in (relationship, source, destination) order (see EdgeQuery), with its parameters. */
export function edgesSql(query: EdgeFilter & Pick<EdgeQuery, 'after'>, params: unknown[], ordered: boolean): string {
  const param = (value: unknown) => {
    params.push(value);
    return `$${params.length}`;
  };
  const where: string[] = [];
  const among = (column: string, values: readonly string[] | undefined) => {
    if (values?.length) where.push(`e.${column} = ANY(${param(values)}::text[])`);
  };
  among('source', query.sources);
  among('destination', query.destinations);
  among('relationship', query.types);
  among('source_type', query.sourceTypes);
  among('destination_type', query.destinationTypes);
  if (query.kinds) {
    // The relationships first, so that the key (relationship, source, …) bounds the read.
    among('relationship', [...new Set(query.kinds.map((k) => k.relationship))]);
    const kinds = query.kinds.map(
      (k) => `(e.relationship = ${param(k.relationship)} AND e.source_type = ANY(${param(k.sourceTypes)}::text[]) AND e.destination_type = ANY(${param(k.destinationTypes)}::text[]))`,
    );
    where.push(`(${kinds.join(' OR ') || 'false'})`);
  }
  if (query.after) {
    const { relationship, source, destination } = query.after;
    where.push(`(e.relationship, e.source, e.destination) > (${[relationship, source, destination].map((v) => `${param(v)}::text COLLATE "C"`).join(', ')})`);
  }
  unremoved(query, where);
  return `SELECT DISTINCT e.source, e.source_type AS "sourceType", e.relationship, e.destination, e.destination_type AS "destinationType"
            FROM edges e WHERE ${where.join(' AND ') || 'true'}${ordered ? ' ORDER BY e.relationship, e.source, e.destination' : ''}`;
}
