import type { AspectSpec, JsonSchema, Registry, SearchableField } from '../registry/registry.js';

/** The kinds of search field: words, URNs, whole values, true or false. */
export type FieldType = 'text' | 'urn' | 'keyword' | 'boolean';

/** A searchable field of DataHub's model, as this index can keep it. */
export interface AnnotatedField {
  aspect: string;
  name: string;
  type: FieldType;
  /** The value's path in the aspect, `.`-separated (arrays are flattened on the way). */
  path: string;
  /** The path crosses an array or map: the field may hold several values. */
  many: boolean;
  /** Its words go to the free text (DataHub's `queryByDefault`). */
  fullText: boolean;
  /** For URN fields: the entity types at the other end (the annotation's relationship, or the URN's type). */
  entityTypes: string[];
  /** The name of the field that says whether it has a value (DataHub's `hasValuesFieldName`: `hasOwners`). */
  hasValuesName?: string;
  /** Other names DataHub lets a query use for it (`fieldNameAliases`: `_entityName`). */
  aliases: string[];
}

/**
 * The searchable fields DataHub's `@Searchable` annotations declare (each aspect's `searchable`
 * in the registry), typed for this index. URNs, keywords (and browse paths) and booleans are kept
 * as values to filter and count on; text goes to the full text; the text of a key aspect (an
 * identifier: a dataset's name, its origin) is kept whole as a keyword, because that is how it is
 * filtered on. DataHub's other kinds (counts, dates, doubles, maps) are not indexed, nor are
 * timeseries aspects (DataHub keeps them out of entity search). A field's name is the
 * annotation's `fieldName`, else the field's own; with no kind named, the value's schema decides
 * (an enum is a keyword, a URN a URN, other strings text).
 */
export function annotatedFields(registry: Registry): AnnotatedField[] {
  const found: AnnotatedField[] = [];
  const seen = new Set<string>();
  for (const entity of registry.entityTypes()) {
    for (const aspect of entity.aspects.values()) {
      if (seen.has(aspect.name) || aspect.kind === 'timeseries') continue;
      seen.add(aspect.name);
      for (const annotation of aspect.searchable) {
        const segments = annotation.path.split('/');
        const steps = segments.filter((s) => s !== '*');
        const schema = schemaAt(registry, aspect, segments);
        let type = fieldType(annotation.fieldType, schema);
        if (!type || steps.length === 0) continue;
        if (type === 'text' && aspect.keyFields) type = 'keyword';
        found.push({
          aspect: aspect.name,
          name: annotation.fieldName ?? steps[steps.length - 1],
          type,
          path: steps.join('.'),
          many: segments.includes('*'),
          fullText: queriedByDefault(annotation, type),
          entityTypes: type === 'urn' ? urnTypes(aspect, annotation.path, schema) : [],
          ...(typeof annotation.hasValuesFieldName === 'string' ? { hasValuesName: annotation.hasValuesFieldName } : {}),
          aliases: Array.isArray(annotation.fieldNameAliases) ? annotation.fieldNameAliases.filter((n): n is string => typeof n === 'string') : [],
        });
      }
    }
  }
  return found;
}

function fieldType(declared: string | undefined, schema: JsonSchema | undefined): FieldType | undefined {
  switch (declared) {
    case 'URN':
    case 'URN_PARTIAL':
      return 'urn';
    case 'KEYWORD':
    case 'BROWSE_PATH':
    case 'BROWSE_PATH_V2':
      return 'keyword';
    case 'BOOLEAN':
      return 'boolean';
    case 'TEXT':
    case 'TEXT_PARTIAL':
    case 'WORD_GRAM':
      return 'text';
    case undefined:
      if (!schema) return undefined;
      if (schema.format === 'urn') return 'urn';
      if (Array.isArray(schema.enum)) return 'keyword';
      if (schema.type === 'boolean') return 'boolean';
      if (schema.type === 'string') return 'text';
      return undefined;
    default:
      return undefined;
  }
}

/** DataHub's default: text and URNs are searched by free words, keywords and booleans are not. */
function queriedByDefault(annotation: SearchableField, type: FieldType): boolean {
  const declared = annotation.queryByDefault;
  if (declared !== undefined) return declared === true || declared === 'true';
  return type === 'text' || type === 'urn';
}

/** The entity types a URN field names: its relationship's other end, else the URN's own type. */
function urnTypes(aspect: AspectSpec, path: string, schema: JsonSchema | undefined): string[] {
  const relationship = aspect.relationships.find((r) => r.path === path);
  if (relationship) return [...relationship.entityTypes];
  return schema?.urnType === undefined ? [] : [schema.urnType].flat();
}

/** The schema of the values at an annotation's path (`fields`, `*`, `fieldPath`), following `$ref`s. */
function schemaAt(registry: Registry, aspect: AspectSpec, segments: readonly string[]): JsonSchema | undefined {
  let schema: JsonSchema | undefined = registry.deref(aspect.schema);
  for (const step of segments) {
    if (!schema) return undefined;
    if (step === '*') schema = schema.items ? registry.deref(schema.items) : typeof schema.additionalProperties === 'object' ? registry.deref(schema.additionalProperties) : undefined;
    else schema = schema.properties?.[step] ? registry.deref(schema.properties[step]) : undefined;
  }
  return schema;
}
