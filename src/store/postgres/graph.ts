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
  const removed = (column: string) =>
    `NOT EXISTS (SELECT 1 FROM aspects s WHERE s.urn = e.${column} AND s.aspect = 'status' AND (s.metadata::jsonb ->> 'removed') = 'true')`;
  if (!query.includeRemoved) {
    if (!query.sources?.length) where.push(removed('source'));
    if (!query.destinations?.length) where.push(removed('destination'));
  }
  return `SELECT DISTINCT e.source, e.source_type AS "sourceType", e.relationship, e.destination, e.destination_type AS "destinationType"
            FROM edges e WHERE ${where.join(' AND ') || 'true'}${ordered ? ' ORDER BY e.relationship, e.source, e.destination' : ''}`;
}
