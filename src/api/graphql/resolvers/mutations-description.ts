import jsonpatch from 'fast-json-patch';
import { ValidationError } from '../../../errors.js';
import type { PatchOperation } from '../../../ingest/patch.js';
import type { Proposal } from '../../../ingest/proposal.js';
import { isRecord } from '../../../json.js';
import { entityTypeOf, parseUrn } from '../../../urn/urn.js';
import type { GraphQLContext } from '../context.js';
import { schemaField } from './field-labels.js';
import { writer } from './mutations.js';

/**
 * updateDescription: the description an entity's users edit, written where DataHub's
 * DescriptionUtils writes it for the entity's type (an editable properties aspect, or the
 * entity's own properties for the entities that have no editable ones), and a dataset field's in
 * editableSchemaMetadata. A PATCH of the description alone, so what else the aspect holds and
 * concurrent writes of it are kept.
 */

interface DescriptionUpdateInput {
  description: string;
  resourceUrn: string;
  subResourceType?: string | null;
  subResource?: string | null;
}

/**
 * Where the description goes, by entity type. `required`: the aspect has other required fields,
 * so it must exist already (DataHub's message when it does not); otherwise a missing aspect is
 * made with the audit stamps its schema requires.
 */
interface DescriptionPlace {
  aspect: string;
  field: string;
  stamped?: boolean;
  required?: string;
}

const editable = (aspect: string): DescriptionPlace => ({ aspect, field: 'description', stamped: true });
const plain = (aspect: string): DescriptionPlace => ({ aspect, field: 'description' });

const PLACES: Record<string, DescriptionPlace> = {
  // DataHub's resolver serves datasets' fields only; the dataset's own description is its editable properties' (what DataHub's UI writes with updateDataset).
  dataset: editable('editableDatasetProperties'),
  chart: editable('editableChartProperties'),
  dashboard: editable('editableDashboardProperties'),
  dataJob: editable('editableDataJobProperties'),
  dataFlow: editable('editableDataFlowProperties'),
  container: plain('editableContainerProperties'),
  notebook: editable('editableNotebookProperties'),
  mlModel: plain('editableMlModelProperties'),
  mlModelGroup: plain('editableMlModelGroupProperties'),
  mlFeature: plain('editableMlFeatureProperties'),
  mlFeatureTable: plain('editableMlFeatureTableProperties'),
  mlPrimaryKey: plain('editableMlPrimaryKeyProperties'),
  corpGroup: plain('corpGroupEditableInfo'),
  domain: { aspect: 'domainProperties', field: 'description', required: 'Properties for this Domain do not yet exist!' },
  tag: { aspect: 'tagProperties', field: 'description', required: 'Properties for this Tag do not yet exist!' },
  // Glossary entities call their description a definition.
  glossaryTerm: { aspect: 'glossaryTermInfo', field: 'definition', required: 'Properties for this Glossary Term do not yet exist!' },
  glossaryNode: { aspect: 'glossaryNodeInfo', field: 'definition', required: 'Glossary Node does not exist' },
  dataProduct: plain('dataProductProperties'),
};

async function updateDescription(_: unknown, { input }: { input: DescriptionUpdateInput }, ctx: GraphQLContext): Promise<boolean> {
  const context = writer(ctx);
  const urn = input.resourceUrn;
  parseUrn(urn);
  const type = entityTypeOf(urn);
  const field = (input.subResource ?? '') !== '' || input.subResourceType != null;
  const place = PLACES[type];
  if (!place || (field && type !== 'dataset')) throw new ValidationError(`Failed to update description. Unsupported resource type ${urn} provided.`);
  if (!(await ctx.services.reader.exists(urn))) throw new ValidationError(`Failed to update ${urn}. ${urn} does not exist.`);
  const stamp = { time: Date.now(), actor: context.actor };
  const proposal = field ? await fieldDescription(ctx, urn, input, stamp) : await entityDescription(ctx, urn, place, input.description, stamp);
  await ctx.services.ingest.ingest([proposal], context);
  return true;
}

type Stamp = { time: number; actor: string };

async function entityDescription(ctx: GraphQLContext, urn: string, place: DescriptionPlace, description: string, stamp: Stamp): Promise<Proposal> {
  const current = (await ctx.services.reader.getAspect(urn, place.aspect))?.value;
  if (place.required && !isRecord(current)) throw new ValidationError(place.required);
  const ops: PatchOperation[] = [{ op: 'add', path: `/${place.field}`, value: description }];
  if (place.stamped) {
    ops.push({ op: 'add', path: '/lastModified', value: stamp });
    if (!isRecord(current) || current.created === undefined) ops.push({ op: 'add', path: '/created', value: stamp });
  }
  return { urn, aspect: place.aspect, changeType: 'PATCH', patch: { patch: ops } };
}

/** A dataset field's description: its editableSchemaFieldInfo item, keyed by fieldPath; the field must be in the dataset's schema. */
async function fieldDescription(ctx: GraphQLContext, urn: string, input: DescriptionUpdateInput, stamp: Stamp): Promise<Proposal> {
  const fieldPath = input.subResource ?? '';
  if (input.subResourceType !== 'DATASET_FIELD' || fieldPath === '') {
    throw new ValidationError(`Failed to update ${urn}: a field's description needs subResourceType DATASET_FIELD and the field's path as subResource`);
  }
  // DataHub's DescriptionUtils says this alike for a dataset without a schema.
  if (!(await schemaField(ctx, urn, fieldPath))) throw new ValidationError(`Failed to update ${urn} & field ${fieldPath}. Field ${fieldPath} does not exist.`);
  const current = (await ctx.services.reader.getAspect(urn, 'editableSchemaMetadata'))?.value;
  const infos = isRecord(current) && Array.isArray(current.editableSchemaFieldInfo) ? current.editableSchemaFieldInfo : undefined;
  const item = `/editableSchemaFieldInfo/${jsonpatch.escapePathComponent(fieldPath)}`;
  const ops: PatchOperation[] = [];
  if (!isRecord(current)) ops.push({ op: 'add', path: '/created', value: stamp });
  if (!infos) ops.push({ op: 'add', path: '/editableSchemaFieldInfo', value: [] });
  // The field's item is changed in place when there is one, so its tags and terms are kept.
  const known = infos?.some((info) => isRecord(info) && info.fieldPath === fieldPath) ?? false;
  ops.push(known ? { op: 'add', path: `${item}/description`, value: input.description } : { op: 'add', path: item, value: { fieldPath, description: input.description } });
  ops.push({ op: 'add', path: '/lastModified', value: stamp });
  return { urn, aspect: 'editableSchemaMetadata', changeType: 'PATCH', patch: { patch: ops, arrayPrimaryKeys: { editableSchemaFieldInfo: ['fieldPath'] } } };
}

export const descriptionMutations = { updateDescription };
