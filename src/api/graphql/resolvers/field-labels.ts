import jsonpatch from 'fast-json-patch';
import { ValidationError } from '../../../errors.js';
import type { PatchOperation } from '../../../ingest/patch.js';
import type { Proposal } from '../../../ingest/proposal.js';
import { isRecord } from '../../../json.js';
import type { GraphQLContext } from '../context.js';

/**
 * Labels of a dataset's schema field (a mutation's subResource, DATASET_FIELD): kept in the
 * dataset's editableSchemaMetadata, on the field's editableSchemaFieldInfo entry (keyed by its
 * fieldPath), in the same globalTags / glossaryTerms shapes the entity's own labels have. The
 * field must be in the dataset's latest schemaMetadata, with DataHub's messages (its LabelUtils').
 */

/** Where one kind of label sits inside a field's entry (mutations.ts LabelAspect has these). */
export interface FieldLabel {
  aspect: string;
  field: string;
  key: string;
  stamp?: string;
}

interface SubResource {
  resourceUrn: string;
  subResourceType?: string | null;
  subResource?: string | null;
}

const EDITABLE = 'editableSchemaMetadata';

/** The schema field a resource names, '' for none; a half-given one or a field the schema lacks is refused. */
export async function checkSubResource(ctx: GraphQLContext, ref: SubResource): Promise<string> {
  const urn = ref.resourceUrn;
  const field = ref.subResource ?? '';
  const type = ref.subResourceType ?? null;
  if (field === '' && type === null) return '';
  if (field === '') throw new ValidationError(`Failed to update resource with urn ${urn}. SubResourceType (${type}) provided without a subResource.`);
  // DataHub's message, "updates" included.
  if (type === null) throw new ValidationError(`Failed to updates resource with urn ${urn}. SubResource (${field}) provided without a subResourceType.`);
  const found = await schemaField(ctx, urn, field);
  if (found === undefined) throw new ValidationError(`Failed to update ${urn} & field ${field}. ${urn} has no schema.`);
  if (!found) throw new ValidationError(`Failed to update ${urn} & field ${field}. Field ${field} does not exist in the datasets schema.`);
  return field;
}

/** Whether the entity's latest schemaMetadata has the field; undefined when it has no schema (or its type none). */
export async function schemaField(ctx: GraphQLContext, urn: string, fieldPath: string): Promise<boolean | undefined> {
  // Only datasets (and the few types like them) have schemas; any other entity has none to name a field of.
  const hasSchemas = ctx.services.registry.aspectOf(ctx.services.reader.entityOf(urn).entity, 'schemaMetadata') !== undefined;
  const schema = hasSchemas ? (await ctx.services.reader.getAspect(urn, 'schemaMetadata'))?.value : undefined;
  if (!isRecord(schema)) return undefined;
  return Array.isArray(schema.fields) && schema.fields.some((f) => isRecord(f) && f.fieldPath === fieldPath);
}

/**
 * A proposal adding (or removing) labels of one schema field, only those that would change it: a
 * keyed patch of editableSchemaMetadata, so other fields' entries and other labels are kept, and
 * the field's entry is made on its first label. None when nothing would change.
 */
export async function toggleFieldItems(
  ctx: GraphQLContext,
  urn: string,
  fieldPath: string,
  { aspect, field, key, stamp }: FieldLabel,
  items: ReadonlyArray<Record<string, unknown>>,
  adding: boolean,
  actor: string,
): Promise<Proposal[]> {
  const value = (await ctx.services.reader.getAspect(urn, EDITABLE))?.value;
  const infos = isRecord(value) && Array.isArray(value.editableSchemaFieldInfo) ? value.editableSchemaFieldInfo : [];
  const info = infos.find((i) => isRecord(i) && i.fieldPath === fieldPath) as Record<string, unknown> | undefined;
  const labels = isRecord(info?.[aspect]) ? (info[aspect] as Record<string, unknown>)[field] : undefined;
  const present = new Set((Array.isArray(labels) ? labels : []).map((item) => (isRecord(item) ? item[key] : undefined)));
  const at = `/editableSchemaFieldInfo/${jsonpatch.escapePathComponent(fieldPath)}/${aspect}`;
  const ops: PatchOperation[] = items
    .filter((item) => present.has(item[key]) !== adding)
    .map((item) => {
      const path = `${at}/${field}/${jsonpatch.escapePathComponent(String(item[key]))}`;
      return adding ? { op: 'add' as const, path, value: item } : { op: 'remove' as const, path };
    });
  if (ops.length === 0) return [];
  const now = { time: Date.now(), actor };
  if (stamp) ops.push({ op: 'add', path: `${at}/${stamp}`, value: now });
  // The aspect's required stamps, on its first write.
  if (!isRecord(value)) ops.unshift({ op: 'add', path: '/created', value: now }, { op: 'add', path: '/lastModified', value: now });
  return [{ urn, aspect: EDITABLE, changeType: 'PATCH', patch: { patch: ops, arrayPrimaryKeys: { editableSchemaFieldInfo: ['fieldPath'], [field]: [key] } } }];
}
