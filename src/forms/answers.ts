import type { ValidationContext } from '../ingest/plugins.js';
import { isSoftDeleted, type StructuredPropertiesAspect } from '../structured/model.js';
import type { Answers } from './compute.js';

/** The schemaField URN of one field of an asset (DataHub's shape). */
export function schemaFieldUrn(asset: string, fieldPath: string): string {
  return `urn:li:schemaField:(${asset},${fieldPath})`;
}

/**
 * What the assets have answered, as the request leaves them so far: the properties holding a
 * value (a soft-deleted property's value is hidden from reads, so it answers nothing) and, when
 * asked for, the same for each field of the asset's schema.
 */
export async function answersOf(context: ValidationContext, assets: readonly string[], withFields: boolean): Promise<Map<string, Answers>> {
  const own = await context.getMany(assets, 'structuredProperties');
  const schemas = withFields ? await context.getMany(assets, 'schemaMetadata') : new Map<string, unknown>();
  const fieldsOf = new Map<string, string[]>();
  for (const asset of assets) {
    const fields = (schemas.get(asset) as { fields?: { fieldPath?: unknown }[] } | undefined)?.fields;
    if (Array.isArray(fields)) fieldsOf.set(asset, fields.map((f) => f?.fieldPath).filter((p): p is string => typeof p === 'string'));
  }
  const fieldUrns = [...fieldsOf].flatMap(([asset, paths]) => paths.map((p) => schemaFieldUrn(asset, p)));
  const onFields = fieldUrns.length > 0 ? await context.getMany(fieldUrns, 'structuredProperties') : new Map<string, unknown>();
  const hidden = await softDeletedOf(context, [...own.values(), ...onFields.values()]);
  const answers = new Map<string, Answers>();
  for (const asset of assets) {
    const paths = fieldsOf.get(asset);
    const fieldAnswered = new Map(paths?.map((p) => [p, answeredIn(onFields.get(schemaFieldUrn(asset, p)), hidden)]) ?? []);
    answers.set(asset, { answered: answeredIn(own.get(asset), hidden), ...(withFields ? { fields: paths ?? [], fieldAnswered } : {}) });
  }
  return answers;
}

function answeredIn(value: unknown, hidden: ReadonlySet<string>): Set<string> {
  const answered = new Set<string>();
  for (const a of (value as StructuredPropertiesAspect | undefined)?.properties ?? []) {
    // An empty text answers nothing: a required prompt is not met by "".
    const given = Array.isArray(a?.values) && a.values.some((v) => !('string' in v) || v.string.trim() !== '');
    if (given && !hidden.has(a.propertyUrn)) answered.add(a.propertyUrn);
  }
  return answered;
}

async function softDeletedOf(context: ValidationContext, values: readonly unknown[]): Promise<Set<string>> {
  const properties = new Set<string>();
  for (const value of values) for (const a of (value as StructuredPropertiesAspect | undefined)?.properties ?? []) if (typeof a?.propertyUrn === 'string') properties.add(a.propertyUrn);
  if (properties.size === 0) return new Set();
  const statuses = await context.getMany([...properties], 'status');
  return new Set([...properties].filter((p) => isSoftDeleted(statuses.get(p))));
}
