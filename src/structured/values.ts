import { isUrn, parseUrn } from '../urn/urn.js';
import type { PrimitiveValue, PropertyDefinition } from './model.js';

/** The five value types DataHub seeds; a definition's valueType must be one of them. */
export type LogicalType = 'string' | 'rich_text' | 'number' | 'date' | 'urn';
export const LOGICAL_TYPES: readonly LogicalType[] = ['string', 'rich_text', 'number', 'date', 'urn'];

/** `urn:li:dataType:datahub.number` → `number`; undefined for anything else. */
export function logicalType(valueType: string): LogicalType | undefined {
  const prefix = 'urn:li:dataType:';
  if (!valueType.startsWith(prefix)) return undefined;
  const id = valueType.slice(prefix.length).replace(/^datahub\./, '').toLowerCase();
  return LOGICAL_TYPES.find((t) => t === id);
}

/** Lucene's keyword limit: longer string values cannot be indexed for search. */
export const MAX_VALUE_BYTES = 32766;

/** Pegasus-style rendering used in messages, as DataHub prints it: `{string=baz}`, `{double=30}`. */
export function formatValue(value: PrimitiveValue): string {
  return 'string' in value ? `{string=${value.string}}` : `{double=${value.double}}`;
}

/** Two values are the same when their members match; numbers compare numerically. */
export function sameValue(a: PrimitiveValue, b: PrimitiveValue): boolean {
  if ('double' in a && 'double' in b) return a.double === b.double;
  if ('string' in a && 'string' in b) return a.string === b.string;
  return false;
}

/** Why a value does not fit the property's type (and allowedTypes), or undefined when it does. */
export function typeProblem(propertyUrn: string, definition: PropertyDefinition, value: PrimitiveValue): string | undefined {
  const subject = `Property: ${propertyUrn}, value: ${formatValue(value)}`;
  const type = logicalType(definition.valueType);
  if (type === 'number') return 'double' in value ? undefined : `${subject} should be a number (a "double" member)`;
  if (!('string' in value)) return `${subject} should be a string (a "string" member)`;
  const text = value.string;
  const bytes = Buffer.byteLength(text, 'utf8');
  if (bytes > MAX_VALUE_BYTES) {
    return `Property: ${propertyUrn}, value is ${bytes} bytes which exceeds the maximum of ${MAX_VALUE_BYTES} UTF-8 bytes`;
  }
  if (type === 'date' && !isCalendarDate(text)) return `${subject} should be a date with format YYYY-MM-DD`;
  if (type === 'urn') {
    if (!isUrn(text)) return `${subject} should be an urn`;
    const allowed = definition.typeQualifier?.allowedTypes;
    if (allowed && allowed.length > 0) {
      const entityType = parseUrn(text).entityType.toLowerCase();
      const ok = allowed.some((t) => t.replace(/^urn:li:entityType:/, '').replace(/^datahub\./, '').toLowerCase() === entityType);
      if (!ok) return `${subject} is not of any supported urn types:[${allowed.join(', ')}]`;
    }
  }
  return undefined;
}

/** A real calendar date `YYYY-MM-DD` between years 1000 and 9999 (no rolling Feb 30 into March). */
export function isCalendarDate(text: string): boolean {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  if (!match) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  if (year < 1000) return false;
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}
