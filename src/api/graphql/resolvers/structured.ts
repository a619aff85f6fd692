import { isRecord } from '../../../json.js';
import { parseUrn } from '../../../urn/urn.js';
import type { GraphQLContext } from '../context.js';

/**
 * Structured properties: the values an entity carries (`structuredProperties`, through the read
 * path, which hides the values of soft-deleted properties), and a property's own `definition`
 * and `settings`, shaped as DataHub's StructuredPropertyMapper shapes them.
 */
interface EntityRef {
  urn: string;
}

type Value = { stringValue: string } | { numberValue: number };

/** DataHub's StdDataType, by the data type's qualified name (the rest are OTHER). */
const STD_DATA_TYPES: Readonly<Record<string, string>> = {
  'datahub.string': 'STRING',
  'datahub.number': 'NUMBER',
  'datahub.urn': 'URN',
  'datahub.rich_text': 'RICH_TEXT',
  'datahub.date': 'DATE',
};

const list = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);
const text = (value: unknown): string | null => (typeof value === 'string' ? value : null);
const flag = (value: unknown): boolean => value === true;
/** The id of a `urn:li:<type>:<id>` URN: a data or entity type's qualified name. */
const idOf = (urn: string): string => urn.slice(urn.indexOf(':', 'urn:li:'.length) + 1);

async function aspect(ctx: GraphQLContext, urn: string, name: string) {
  return ctx.entities.aspect(urn, name);
}

/** A PrimitivePropertyValue (`{string}` or `{double}`) as DataHub's PropertyValue union; undefined for neither. */
function propertyValue(value: unknown): Value | undefined {
  if (!isRecord(value)) return undefined;
  if (typeof value.string === 'string') return { stringValue: value.string };
  if (typeof value.double === 'number') return { numberValue: value.double };
  return undefined;
}

/** The entity a value names, as DataHub's mapper reads it: a string value that is a URN. */
function valueEntity(value: Value): EntityRef[] {
  if (!('stringValue' in value) || !value.stringValue.startsWith('urn:li:')) return [];
  try {
    parseUrn(value.stringValue);
  } catch {
    return [];
  }
  return [{ urn: value.stringValue }];
}

/** A definition's typeQualifier: its allowedTypes as entity type entities; null without any. */
function typeQualifier(value: unknown) {
  if (!isRecord(value) || !Array.isArray(value.allowedTypes)) return null;
  return { allowedTypes: value.allowedTypes.filter((t): t is string => typeof t === 'string').map((urn) => ({ urn })) };
}

/** An entity's `structuredProperties` field: null without the aspect, as DataHub answers. */
export async function structuredValues(o: EntityRef, _: unknown, ctx: GraphQLContext) {
  const value = await aspect(ctx, o.urn, 'structuredProperties');
  return value ? shapeValues(o.urn, value) : null;
}

/** A `structuredProperties` aspect's value as DataHub's StructuredProperties type. */
export function shapeValues(urn: string, value: Record<string, unknown>) {
  return {
    properties: list(value.properties).flatMap((entry) => {
      if (!isRecord(entry) || typeof entry.propertyUrn !== 'string') return [];
      const values = list(entry.values).flatMap((v) => propertyValue(v) ?? []);
      return [{ structuredProperty: { urn: entry.propertyUrn }, values, valueEntities: values.flatMap(valueEntity), associatedUrn: urn }];
    }),
  };
}

export const structuredResolvers = {
  PropertyValue: {
    resolveType: (o: Value) => ('stringValue' in o ? 'StringValue' : 'NumberValue'),
  },
  StructuredPropertyEntity: {
    type: (o: EntityRef, _: unknown, ctx: GraphQLContext) => ctx.types.enumOfUrn(o.urn),
    async definition(o: EntityRef, _: unknown, ctx: GraphQLContext) {
      const v = await aspect(ctx, o.urn, 'propertyDefinition');
      if (!v) return null;
      return {
        qualifiedName: text(v.qualifiedName) ?? idOf(o.urn),
        displayName: text(v.displayName),
        description: text(v.description),
        cardinality: text(v.cardinality),
        immutable: flag(v.immutable),
        valueType: { urn: text(v.valueType) ?? '' },
        allowedValues: Array.isArray(v.allowedValues)
          ? v.allowedValues.flatMap((allowed) => {
              const value = isRecord(allowed) ? propertyValue(allowed.value) : undefined;
              return value && isRecord(allowed) ? [{ value, description: text(allowed.description) }] : [];
            })
          : null,
        entityTypes: list(v.entityTypes).filter((t): t is string => typeof t === 'string').map((urn) => ({ urn })),
        typeQualifier: typeQualifier(v.typeQualifier),
      };
    },
    /** Null without a settings aspect, as DataHub's mapper leaves it. */
    async settings(o: EntityRef, _: unknown, ctx: GraphQLContext) {
      const v = await aspect(ctx, o.urn, 'structuredPropertySettings');
      if (!v) return null;
      return {
        isHidden: flag(v.isHidden),
        showInSearchFilters: flag(v.showInSearchFilters),
        showAsAssetBadge: flag(v.showAsAssetBadge),
        showInAssetSummary: flag(v.showInAssetSummary),
        showInColumnsTable: flag(v.showInColumnsTable),
      };
    },
  },
  DataTypeEntity: {
    type: (o: EntityRef, _: unknown, ctx: GraphQLContext) => ctx.types.enumOfUrn(o.urn),
    /** The type from the URN; its names from the seeded dataTypeInfo, when stored. */
    async info(o: EntityRef, _: unknown, ctx: GraphQLContext) {
      const qualifiedName = idOf(o.urn);
      const v = await aspect(ctx, o.urn, 'dataTypeInfo');
      return { type: STD_DATA_TYPES[qualifiedName] ?? 'OTHER', qualifiedName, displayName: text(v?.displayName), description: text(v?.description) };
    },
  },
  EntityTypeEntity: {
    type: (o: EntityRef, _: unknown, ctx: GraphQLContext) => ctx.types.enumOfUrn(o.urn),
    /** From the URN: `urn:li:entityType:datahub.dataset` is DATASET. */
    info(o: EntityRef, _: unknown, ctx: GraphQLContext) {
      const qualifiedName = idOf(o.urn);
      return { type: ctx.types.enumOf(qualifiedName.replace(/^datahub\./, '')), qualifiedName };
    },
  },
};
