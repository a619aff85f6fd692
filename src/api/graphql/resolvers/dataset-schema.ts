import { ValidationError } from '../../../errors.js';
import { isRecord } from '../../../json.js';
import type { GraphQLContext } from '../context.js';
import { tagAssociations, termAssociations } from './governance.js';

/**
 * A dataset's `schemaMetadata(version:)` and `editableSchemaMetadata`. Version 0 (or none) is the
 * latest, read in the request's schema batch; N > 0 is the N-th value written, as DataHub numbers
 * an aspect's versions (the read path's getAspect), and null when there is no such version.
 */
interface EntityRef {
  urn: string;
}

/** DataHub's SchemaFieldDataType enum, by the record of the PDL union a field's type holds. */
const FIELD_TYPES: Readonly<Record<string, string>> = {
  BooleanType: 'BOOLEAN',
  FixedType: 'FIXED',
  StringType: 'STRING',
  BytesType: 'BYTES',
  NumberType: 'NUMBER',
  DateType: 'DATE',
  TimeType: 'TIME',
  EnumType: 'ENUM',
  NullType: 'NULL',
  MapType: 'MAP',
  ArrayType: 'ARRAY',
  UnionType: 'UNION',
  RecordType: 'STRUCT',
};

const list = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);
const text = (value: unknown): string | null => (typeof value === 'string' ? value : null);

function fieldType(type: unknown): string {
  const member = isRecord(type) && isRecord(type.type) ? Object.keys(type.type)[0] : undefined;
  // The schema check admits only the union's members; NULL stands for anything else.
  return FIELD_TYPES[member?.replace('com.linkedin.schema.', '') ?? ''] ?? 'NULL';
}

function schemaField(field: Record<string, unknown>, datasetUrn: string) {
  return {
    fieldPath: text(field.fieldPath) ?? '',
    jsonPath: text(field.jsonPath),
    label: text(field.label),
    nullable: field.nullable === true,
    description: text(field.description),
    type: fieldType(field.type),
    nativeDataType: text(field.nativeDataType),
    recursive: field.recursive === true,
    isPartOfKey: typeof field.isPartOfKey === 'boolean' ? field.isPartOfKey : null,
    globalTags: tagAssociations(field.globalTags, datasetUrn),
    glossaryTerms: termAssociations(field.glossaryTerms, datasetUrn),
  };
}

async function schemaAt(ctx: GraphQLContext, urn: string, version: number): Promise<Record<string, unknown> | undefined> {
  if (version === 0) return ctx.schemas.aspect(urn, 'schemaMetadata');
  const found = (await ctx.services.reader.getAspect(urn, 'schemaMetadata', version))?.value;
  return isRecord(found) ? found : undefined;
}

export const datasetSchemaResolvers = {
  async schemaMetadata(o: EntityRef, args: { version?: unknown }, ctx: GraphQLContext) {
    const version = args.version ?? 0;
    // Long is a scalar of any JSON number: the check is here.
    if (typeof version !== 'number' || !Number.isSafeInteger(version) || version < 0) {
      throw new ValidationError(`version: expected a whole number at least 0 (0: the latest), got ${JSON.stringify(version)}`);
    }
    const value = await schemaAt(ctx, o.urn, version);
    if (!value) return null;
    return {
      name: text(value.schemaName) ?? '',
      platformUrn: text(value.platform) ?? '',
      version: typeof value.version === 'number' ? value.version : 0,
      hash: text(value.hash) ?? '',
      primaryKeys: Array.isArray(value.primaryKeys) ? value.primaryKeys.filter((k): k is string => typeof k === 'string') : null,
      fields: list(value.fields).filter(isRecord).map((field) => schemaField(field, o.urn)),
    };
  },
  async editableSchemaMetadata(o: EntityRef, _: unknown, ctx: GraphQLContext) {
    const value = await ctx.schemas.aspect(o.urn, 'editableSchemaMetadata');
    if (!value) return null;
    return {
      editableSchemaFieldInfo: list(value.editableSchemaFieldInfo)
        .filter(isRecord)
        .map((info) => ({
          fieldPath: text(info.fieldPath) ?? '',
          description: text(info.description),
          globalTags: tagAssociations(info.globalTags, o.urn),
          glossaryTerms: termAssociations(info.glossaryTerms, o.urn),
        })),
    };
  },
};
