import { jsonEqual } from '../../json.js';
import type { AspectDiffer } from '../differ.js';
import { changeEvent, type ChangeOperation } from '../model.js';
import { mergeByKey, records, text, urnId } from '../values.js';

/**
 * A Java double as DataHub's JSON writes it (Double.toString): `60.0`, `0.5`, `1.0E7`. Clients
 * parse `propertyValues` as JSON, and Python tells 60 from 60.0.
 */
export function javaDouble(n: number): string {
  if (!Number.isFinite(n)) return Number.isNaN(n) ? 'NaN' : n > 0 ? 'Infinity' : '-Infinity';
  if (n === 0) return Object.is(n, -0) ? '-0.0' : '0.0';
  const magnitude = Math.abs(n);
  if (magnitude >= 1e-3 && magnitude < 1e7) return Number.isInteger(n) ? `${n}.0` : String(n);
  const [mantissa, exponent] = n.toExponential().split('e');
  return `${mantissa.includes('.') ? mantissa : `${mantissa}.0`}E${Number(exponent)}`;
}

/** The values of an assignment as DataHub's `propertyValues` parameter: a JSON array, as text. */
function propertyValues(values: unknown): string {
  const items = Array.isArray(values) ? values : [];
  return `[${items
    .map((v) => {
      const string = text(v, 'string');
      if (string !== undefined) return JSON.stringify(string);
      const double = (v as { double?: unknown } | null)?.double;
      return typeof double === 'number' ? javaDouble(double) : 'null';
    })
    .join(',')}]`;
}

function described(operation: ChangeOperation, property: string, entityUrn: string): string {
  if (operation === 'MODIFY') return `The values of structured property '${urnId(property)}' on '${entityUrn}' changed.`;
  return `Structured property '${urnId(property)}' was ${operation === 'ADD' ? 'added to' : 'removed from'} '${entityUrn}'.`;
}

/**
 * Structured properties assigned (ADD), unassigned (REMOVE) and given other values (MODIFY; the
 * values compared in order), MINOR each, in property URN order. Every event carries the property
 * and its values (for a REMOVE, the values it had).
 */
export const structuredPropertiesDiffer: AspectDiffer = {
  aspect: 'structuredProperties',
  categories: ['STRUCTURED_PROPERTY'],
  events(previous, current, _category, entityUrn) {
    const assignments = (value: unknown) => records(value, 'properties').filter((p) => typeof p.propertyUrn === 'string');
    return mergeByKey(assignments(previous), assignments(current), (p) => p.propertyUrn as string).flatMap(({ base, target }) => {
      if (base && target && jsonEqual(base.values, target.values)) return [];
      const operation: ChangeOperation = base && target ? 'MODIFY' : target ? 'ADD' : 'REMOVE';
      const assignment = (target ?? base)!;
      const property = assignment.propertyUrn as string;
      return [
        changeEvent({
          entityUrn,
          category: 'STRUCTURED_PROPERTY',
          operation,
          modifier: property,
          parameters: { propertyUrn: property, propertyValues: propertyValues(assignment.values) },
          semVerChange: 'MINOR',
          description: described(operation, property, entityUrn),
        }),
      ];
    });
  },
};
