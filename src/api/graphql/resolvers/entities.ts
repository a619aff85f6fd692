import { parseUrn } from '../../../urn/urn.js';
import type { GraphQLContext } from '../context.js';
import { datasetSchemaResolvers } from './dataset-schema.js';
import { governanceResolvers, ownerTypeResolvers } from './governance.js';
import { structuredResolvers, structuredValues } from './structured.js';

/**
 * The entity types' fields. Key fields come from the URN (no read); the others from the entity's
 * aspects, read through the request's EntityLoader, so a page of results is one batch read.
 * An entity travels between resolvers as `{urn}` alone.
 */
interface EntityRef {
  urn: string;
}

type Record_ = Record<string, unknown>;

const part = (urn: string, i: number): string => parseUrn(urn).parts[i] ?? '';
const platformRef = (name: string): EntityRef => ({ urn: name.startsWith('urn:li:') ? name : `urn:li:dataPlatform:${name}` });

async function aspect(ctx: GraphQLContext, urn: string, name: string): Promise<Record_ | undefined> {
  return ctx.entities.aspect(urn, name);
}

const text = (value: unknown): string | null => (typeof value === 'string' ? value : null);

/** DataHub's map of custom properties as its list of entries. */
function entries(value: unknown): Array<{ key: string; value: string | null }> {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return [];
  return Object.entries(value).map(([key, v]) => ({ key, value: text(v) }));
}

/** The fields of a `properties` object most entity types share. */
function common(value: Record_, name: string) {
  return { name, description: text(value.description), externalUrl: text(value.externalUrl), customProperties: entries(value.customProperties) };
}

/** A `properties` resolver over one aspect: null when the entity does not have it. */
function properties(aspectName: string, shape: (value: Record_, urn: string) => object) {
  return async (o: EntityRef, _: unknown, ctx: GraphQLContext) => {
    const value = await aspect(ctx, o.urn, aspectName);
    return value ? shape(value, o.urn) : null;
  };
}

/** An `editableProperties` resolver: the description (and a dataset's name) edited in DataHub's UI. */
const editable = (aspectName: string) => properties(aspectName, (v) => ({ description: text(v.description), name: text(v.name) }));

const base = {
  type: (o: EntityRef, _: unknown, ctx: GraphQLContext) => ctx.types.enumOfUrn(o.urn),
};

/** Charts and dashboards: a BI tool and an id in the URN, a title in their info aspect. */
function toolEntity(idField: 'chartId' | 'dashboardId', infoAspect: string, editableAspect: string) {
  return {
    ...base,
    ...governanceResolvers,
    tool: (o: EntityRef) => part(o.urn, 0),
    [idField]: (o: EntityRef) => part(o.urn, 1),
    platform: (o: EntityRef) => platformRef(part(o.urn, 0)),
    properties: properties(infoAspect, (v, urn) => common(v, text(v.title) ?? part(urn, 1))),
    editableProperties: editable(editableAspect),
  };
}

/**
 * ML entities: a name second in the URN, after the platform (models, groups, feature tables) or
 * the feature namespace (features, primary keys).
 */
function mlEntity(propertiesAspect: string, editableAspect: string, onPlatform: boolean) {
  return {
    ...base,
    ...governanceResolvers,
    name: (o: EntityRef) => part(o.urn, 1),
    ...(onPlatform ? { platform: (o: EntityRef) => platformRef(part(o.urn, 0)) } : { featureNamespace: (o: EntityRef) => part(o.urn, 0) }),
    properties: properties(propertiesAspect, (v) => ({ description: text(v.description) })),
    editableProperties: editable(editableAspect),
  };
}

export const entityResolvers = {
  Entity: {
    resolveType: (o: EntityRef, ctx: GraphQLContext) => ctx.types.objectTypeOfUrn(o.urn),
  },
  DataPlatform: {
    ...base,
    name: async (o: EntityRef, _: unknown, ctx: GraphQLContext) => text((await aspect(ctx, o.urn, 'dataPlatformInfo'))?.name) ?? part(o.urn, 0),
    properties: properties('dataPlatformInfo', (v) => ({ type: text(v.type), displayName: text(v.displayName), datasetNameDelimiter: text(v.datasetNameDelimiter), logoUrl: text(v.logoUrl) })),
  },
  Dataset: {
    ...base,
    ...governanceResolvers,
    name: (o: EntityRef) => part(o.urn, 1),
    origin: (o: EntityRef) => part(o.urn, 2),
    platform: (o: EntityRef) => platformRef(part(o.urn, 0)),
    properties: properties('datasetProperties', (v, urn) => ({ ...common(v, text(v.name) ?? part(urn, 1)), qualifiedName: text(v.qualifiedName) })),
    editableProperties: editable('editableDatasetProperties'),
    ...datasetSchemaResolvers,
  },
  Chart: toolEntity('chartId', 'chartInfo', 'editableChartProperties'),
  Dashboard: toolEntity('dashboardId', 'dashboardInfo', 'editableDashboardProperties'),
  DataFlow: {
    ...base,
    ...governanceResolvers,
    orchestrator: (o: EntityRef) => part(o.urn, 0),
    flowId: (o: EntityRef) => part(o.urn, 1),
    cluster: (o: EntityRef) => part(o.urn, 2),
    platform: (o: EntityRef) => platformRef(part(o.urn, 0)),
    properties: properties('dataFlowInfo', (v, urn) => ({ ...common(v, text(v.name) ?? part(urn, 1)), project: text(v.project) })),
    editableProperties: editable('editableDataFlowProperties'),
  },
  DataJob: {
    ...base,
    ...governanceResolvers,
    jobId: (o: EntityRef) => part(o.urn, 1),
    dataFlow: (o: EntityRef) => ({ urn: part(o.urn, 0) }),
    properties: properties('dataJobInfo', (v, urn) => common(v, text(v.name) ?? part(urn, 1))),
    editableProperties: editable('editableDataJobProperties'),
  },
  Container: {
    ...base,
    ...governanceResolvers,
    platform: async (o: EntityRef, _: unknown, ctx: GraphQLContext) => {
      const platform = text((await aspect(ctx, o.urn, 'dataPlatformInstance'))?.platform);
      return platform ? platformRef(platform) : null;
    },
    properties: properties('containerProperties', (v, urn) => ({ ...common(v, text(v.name) ?? part(urn, 0)), qualifiedName: text(v.qualifiedName) })),
    editableProperties: editable('editableContainerProperties'),
  },
  Tag: {
    ...base,
    name: (o: EntityRef) => part(o.urn, 0),
    properties: properties('tagProperties', (v, urn) => ({ name: text(v.name) ?? part(urn, 0), description: text(v.description), colorHex: text(v.colorHex) })),
  },
  CorpUser: {
    ...base,
    username: (o: EntityRef) => part(o.urn, 0),
    properties: properties('corpUserInfo', (v) => ({
      active: typeof v.active === 'boolean' ? v.active : null,
      displayName: text(v.displayName),
      email: text(v.email),
      title: text(v.title),
      firstName: text(v.firstName),
      lastName: text(v.lastName),
      fullName: text(v.fullName),
    })),
  },
  CorpGroup: {
    ...base,
    name: (o: EntityRef) => part(o.urn, 0),
    properties: properties('corpGroupInfo', (v) => ({ displayName: text(v.displayName), description: text(v.description), email: text(v.email) })),
  },
  GlossaryTerm: {
    ...base,
    name: (o: EntityRef) => part(o.urn, 0),
    hierarchicalName: (o: EntityRef) => part(o.urn, 0),
    properties: properties('glossaryTermInfo', (v, urn) => ({ name: text(v.name) ?? part(urn, 0), description: text(v.definition), definition: text(v.definition) ?? '', termSource: text(v.termSource) })),
    structuredProperties: structuredValues,
  },
  GlossaryNode: {
    ...base,
    properties: properties('glossaryNodeInfo', (v, urn) => ({ name: text(v.name) ?? part(urn, 0), description: text(v.definition) })),
    structuredProperties: structuredValues,
  },
  Domain: {
    ...base,
    id: (o: EntityRef) => part(o.urn, 0),
    properties: properties('domainProperties', (v, urn) => ({ name: text(v.name) ?? part(urn, 0), description: text(v.description) })),
    structuredProperties: structuredValues,
  },
  DataProduct: {
    ...base,
    properties: properties('dataProductProperties', (v, urn) => common(v, text(v.name) ?? part(urn, 0))),
    structuredProperties: structuredValues,
  },
  MLModel: mlEntity('mlModelProperties', 'editableMlModelProperties', true),
  MLModelGroup: mlEntity('mlModelGroupProperties', 'editableMlModelGroupProperties', true),
  MLFeatureTable: mlEntity('mlFeatureTableProperties', 'editableMlFeatureTableProperties', true),
  MLFeature: mlEntity('mlFeatureProperties', 'editableMlFeatureProperties', false),
  MLPrimaryKey: mlEntity('mlPrimaryKeyProperties', 'editableMlPrimaryKeyProperties', false),
  Document: { ...base, ...governanceResolvers },
  ...ownerTypeResolvers,
  ...structuredResolvers,
  OtherEntity: base,
};
