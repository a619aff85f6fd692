import { isUrn } from '../urn/urn.js';
import type { AllowedValue, PropertyDefinition } from './model.js';
import { LOGICAL_TYPES, logicalType } from './values.js';
import { isRecord } from '../json.js';
import { YamlFileError, yamlItems } from '../yaml-list.js';

/** One property from a `datahub properties upsert` YAML file, as urnbase will write it. */
export interface PropertyFromYaml {
  urn: string;
  definition: PropertyDefinition;
}

/** A problem in the file, pointing at the item and field: `props.yaml: [2].type: …`. */
export class YamlPropertyError extends YamlFileError {
  override name = 'YamlPropertyError';
}

const PREFIX = 'urn:li:structuredProperty:';

/**
 * Reads DataHub's structured-property YAML (a list of items with `id`/`urn`/`qualified_name`,
 * `type`, `cardinality`, `display_name`, `description`, `entity_types`, `allowed_values`,
 * `type_qualifier.allowed_types`, `immutable`, `version`) into definitions.
 */
export function propertiesFromYaml(text: string, file: string): PropertyFromYaml[] {
  const items = yamlItems(text, file, 'properties');
  return items.map((item: unknown, i: number) => toProperty(item, (field) => `${file}: [${i}]${field ? `.${field}` : ''}`));
}

function toProperty(item: unknown, at: (field?: string) => string): PropertyFromYaml {
  if (!isRecord(item)) throw new YamlPropertyError(`${at()}: expected a mapping`);
  const fail = (field: string, why: string): never => {
    throw new YamlPropertyError(`${at(field)}: ${why}`);
  };
  const text = (field: string): string | undefined => {
    const value = item[field];
    if (value === undefined || value === null) return undefined;
    if (typeof value !== 'string' && typeof value !== 'number') fail(field, 'expected a string');
    return String(value);
  };

  const known = ['id', 'urn', 'qualified_name', 'type', 'cardinality', 'display_name', 'description', 'entity_types', 'allowed_values', 'type_qualifier', 'immutable', 'version'];
  for (const field of Object.keys(item)) if (!known.includes(field)) fail(field, `unknown field (expected one of ${known.join(', ')})`);

  const urnText = text('urn');
  if (urnText !== undefined && !urnText.startsWith(PREFIX)) fail('urn', `must start with ${PREFIX}`);
  const id = text('id') ?? urnText?.slice(PREFIX.length) ?? text('qualified_name');
  if (!id) fail('id', 'one of id, urn or qualified_name is required');
  const qualifiedName = text('qualified_name') ?? id!;
  if (qualifiedName !== id) fail('qualified_name', `"${qualifiedName}" must equal the id "${id}"`);

  const typeText = text('type') ?? fail('type', 'is required');
  const valueType = typeText.startsWith('urn:li:dataType:') ? typeText : `urn:li:dataType:datahub.${typeText.toLowerCase()}`;
  const type = logicalType(valueType) ?? fail('type', `unknown type "${typeText}" (expected one of ${LOGICAL_TYPES.join(', ')})`);

  const cardinality = (text('cardinality') ?? 'SINGLE').toUpperCase();
  if (cardinality !== 'SINGLE' && cardinality !== 'MULTIPLE') fail('cardinality', 'expected SINGLE or MULTIPLE');

  const definition: PropertyDefinition = {
    qualifiedName,
    valueType,
    cardinality: cardinality as 'SINGLE' | 'MULTIPLE',
    entityTypes: entityTypeUrns(item.entity_types, 'entity_types', fail),
  };
  const displayName = text('display_name');
  if (displayName !== undefined) definition.displayName = displayName;
  const description = text('description');
  if (description !== undefined) definition.description = description;
  if (item.allowed_values !== undefined) definition.allowedValues = allowedValues(item.allowed_values, type === 'number', fail);
  if (item.type_qualifier !== undefined) {
    const qualifier = item.type_qualifier;
    if (!isRecord(qualifier)) fail('type_qualifier', 'expected a mapping with allowed_types');
    definition.typeQualifier = { allowedTypes: entityTypeUrns((qualifier as Record<string, unknown>).allowed_types, 'type_qualifier.allowed_types', fail) };
  }
  if (item.immutable !== undefined) {
    if (typeof item.immutable !== 'boolean') fail('immutable', 'expected true or false');
    definition.immutable = item.immutable as boolean;
  }
  const version = text('version');
  if (version !== undefined) definition.version = version;
  return { urn: `${PREFIX}${id}`, definition };
}

function entityTypeUrns(raw: unknown, field: string, fail: (field: string, why: string) => never): string[] {
  if (!Array.isArray(raw) || raw.length === 0) return fail(field, 'expected a non-empty list of entity types');
  return raw.map((t, i) => {
    if (typeof t !== 'string') return fail(`${field}[${i}]`, 'expected an entity type name or URN');
    const urn = t.startsWith('urn:') ? t : `urn:li:entityType:datahub.${t}`;
    return isUrn(urn, 'entityType') ? urn : fail(`${field}[${i}]`, `"${t}" is not an entity type`);
  });
}

function allowedValues(raw: unknown, numeric: boolean, fail: (field: string, why: string) => never): AllowedValue[] {
  if (!Array.isArray(raw)) return fail('allowed_values', 'expected a list of {value, description}');
  return raw.map((entry, i) => {
    const at = `allowed_values[${i}]`;
    const { value, description } = isRecord(entry) ? entry : { value: entry, description: undefined };
    if (typeof value !== 'string' && typeof value !== 'number') return fail(`${at}.value`, 'expected a string or a number');
    if (numeric && (typeof value !== 'number' || !Number.isFinite(value))) return fail(`${at}.value`, 'expected a number for a number property');
    const allowed: AllowedValue = { value: numeric ? { double: value as number } : { string: String(value) } };
    if (description !== undefined) allowed.description = String(description);
    return allowed;
  });
}
