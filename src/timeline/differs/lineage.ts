import type { AspectDiffer } from '../differ.js';
import { changeEvent, type ChangeEvent } from '../model.js';
import { mergeByKey, records, strings, text } from '../values.js';

/** A column-level edge of `fineGrainedLineages`: a downstream field fed by an upstream one. */
interface FieldEdge {
  downstream: string;
  upstream: string;
}

function fieldEdges(upstreamLineage: unknown): FieldEdge[] {
  const edges = new Map<string, FieldEdge>();
  for (const lineage of records(upstreamLineage, 'fineGrainedLineages')) {
    for (const downstream of strings(lineage, 'downstreams')) {
      for (const upstream of strings(lineage, 'upstreams')) edges.set(`${downstream}\u0000${upstream}`, { downstream, upstream });
    }
  }
  return [...edges.values()];
}

/**
 * Upstreams of an entity (DataHub's `upstreamLineage`): a dataset added or removed as an upstream
 * is MINOR, as an association is; the same upstream with another lineage type is a MODIFY, PATCH.
 * Then the column-level edges of `fineGrainedLineages` added or removed, MINOR, modifier the
 * downstream field. DataHub's timeline has no generator for this aspect: the shape follows its
 * association events (modifier the upstream, parameters naming it).
 */
export const upstreamLineageDiffer: AspectDiffer = {
  aspect: 'upstreamLineage',
  categories: ['LINEAGE'],
  events(previous, current, _category, entityUrn): ChangeEvent[] {
    const upstreams = (value: unknown) => records(value, 'upstreams').filter((u) => typeof u.dataset === 'string');
    const datasets = mergeByKey(upstreams(previous), upstreams(current), (u) => u.dataset as string).flatMap(({ base, target }) => {
      const upstream = (target ?? base)!.dataset as string;
      const type = text(target ?? base, 'type');
      if (base && target) {
        const was = text(base, 'type');
        if (was === type) return [];
        return [
          changeEvent({
            entityUrn, category: 'LINEAGE', operation: 'MODIFY', modifier: upstream,
            parameters: { upstreamUrn: upstream, lineageType: type, previousLineageType: was },
            semVerChange: 'PATCH',
            description: `The lineage from '${upstream}' to '${entityUrn}' changed from ${was} to ${type}.`,
          }),
        ];
      }
      const added = target !== undefined;
      return [
        changeEvent({
          entityUrn, category: 'LINEAGE', operation: added ? 'ADD' : 'REMOVE', modifier: upstream,
          parameters: { upstreamUrn: upstream, lineageType: type },
          semVerChange: 'MINOR',
          description: `'${upstream}' was ${added ? 'added as' : 'removed as'} an upstream of '${entityUrn}'.`,
        }),
      ];
    });
    const columns = mergeByKey(fieldEdges(previous), fieldEdges(current), (e) => `${e.downstream}\u0000${e.upstream}`).flatMap(({ base, target }) => {
      if (base && target) return [];
      const edge = (target ?? base)!;
      const added = target !== undefined;
      return [
        changeEvent({
          entityUrn, category: 'LINEAGE', operation: added ? 'ADD' : 'REMOVE', modifier: edge.downstream,
          parameters: { downstreamUrn: edge.downstream, upstreamUrn: edge.upstream },
          semVerChange: 'MINOR',
          description: `The column lineage from '${edge.upstream}' to '${edge.downstream}' was ${added ? 'added' : 'removed'}.`,
        }),
      ];
    });
    return [...datasets, ...columns];
  },
};
