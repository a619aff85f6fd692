import { ValidationError } from '../errors.js';
import type { LineageKind } from '../graph/lineage.js';
import { lineageSides } from '../graph/lineage-kinds.js';
import { quoted } from '../limits.js';
import type { CompareOp, Condition, NeighbourSides, StringOp } from '../store/search-types.js';
import { isUrn } from '../urn/urn.js';

/** What a criterion asks (resolve.ts's Match, which imports this file). */
type Asked = { op: 'exists' } | { op: StringOp; values: string[] } | { op: CompareOp; value: string };

/**
 * The lineage filter fields: `upstreams` (DataHub's name for a dataset's upstreamLineage) and
 * `downstreams` select entities by their direct lineage neighbours — one edge away, of any kind
 * the lineage API walks (a dataset's upstreams, a job's inputs and outputs, a chart's inputs,
 * column lineage) — read from the edges table, so they answer as the graph stands.
 */
export type LineageFields = ReadonlyMap<string, NeighbourSides>;

export function lineageFields(kinds: readonly LineageKind[]): LineageFields {
  return new Map([
    ['upstreams', lineageSides(kinds, 'UPSTREAM')],
    ['downstreams', lineageSides(kinds, 'DOWNSTREAM')],
  ]);
}

/**
 * `EQUAL`/`IN` take entity URNs (a short form such as `orders` names no entity: refused, not an
 * empty answer); `STARTS_WITH`, `ENDS_WITH` and `CONTAIN` compare URN text (without control
 * characters, which no URN holds); `EXISTS` asks for any neighbour. Soft-deleted neighbours count
 * only in a search that includes soft-deleted entities.
 */
export function neighbourCondition(name: string, sides: NeighbourSides, match: Asked, includeSoftDelete: boolean): Condition {
  if (match.op === 'exists') return { kind: 'neighbour', sides, op: 'exists', values: [], removedNeighbours: includeSoftDelete };
  if (!('values' in match)) throw new ValidationError(`${name}: ranges are not supported`);
  if (match.op === 'eq') {
    const bad = match.values.find((v) => !isUrn(v));
    if (bad !== undefined) throw new ValidationError(`${name}: expected entity URNs, got ${quoted(bad)}`);
  }
  // No URN holds one, and SQLite's LIKE would end its pattern at a NUL (matching everything).
  const control = match.values.find((v) => /[\u0000-\u001f]/.test(v));
  if (control !== undefined) throw new ValidationError(`${name}: URNs hold no control characters, got ${quoted(control)}`);
  return { kind: 'neighbour', sides, op: match.op, values: match.values, removedNeighbours: includeSoftDelete };
}
