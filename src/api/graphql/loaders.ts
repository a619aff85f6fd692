import type { EntityView, Reader } from '../../read/read.js';

/**
 * The aspects the schema's entity fields read (resolvers/entities.ts, governance.ts): what the
 * entity loader may be asked for, never every aspect (a dataset's schema can weigh megabytes).
 */
export const ASPECTS_READ: ReadonlySet<string> = new Set([
  'datasetProperties',
  'chartInfo',
  'dashboardInfo',
  'dataFlowInfo',
  'dataJobInfo',
  'containerProperties',
  'dataPlatformInstance',
  'tagProperties',
  'corpUserInfo',
  'corpGroupInfo',
  'glossaryTermInfo',
  'glossaryNodeInfo',
  'domainProperties',
  'dataProductProperties',
  'dataPlatformInfo',
  'propertyDefinition',
  'mlModelProperties',
  'mlModelGroupProperties',
  'mlFeatureTableProperties',
  'mlFeatureProperties',
  'mlPrimaryKeyProperties',
  // resolvers/governance.ts
  'globalTags',
  'glossaryTerms',
  'ownership',
  'domains',
  'container',
  'subTypes',
  'status',
  'deprecation',
  'browsePathsV2',
  // resolvers/structured.ts
  'structuredProperties',
  'structuredPropertySettings',
  'dataTypeInfo',
  // resolvers/forms.ts (the memberships: isAssignedToMe)
  'forms',
  'formInfo',
  'groupMembership',
  'nativeGroupMembership',
  // editableProperties (resolvers/entities.ts)
  'editableDatasetProperties',
  'editableChartProperties',
  'editableDashboardProperties',
  'editableDataFlowProperties',
  'editableDataJobProperties',
  'editableContainerProperties',
  'editableMlModelProperties',
  'editableMlModelGroupProperties',
  'editableMlFeatureTableProperties',
  'editableMlFeatureProperties',
  'editableMlPrimaryKeyProperties',
]);

/**
 * The aspects of a dataset's schema (resolvers/dataset-schema.ts): read by a loader of their own,
 * only when a query asks for them, as they can weigh megabytes.
 */
export const SCHEMA_ASPECTS: ReadonlySet<string> = new Set(['schemaMetadata', 'editableSchemaMetadata']);

/** What one resolver asked of an entity: the entity with all the loader's aspects (`aspect` ALL), or one aspect of it. */
interface Asked {
  urn: string;
  aspect: string;
  settle: (view: EntityView | undefined) => void;
  fail: (error: unknown) => void;
}

/**
 * One request's entity reads, batched: every URN and aspect asked for while resolvers run in one
 * turn of the event loop is read by one `Reader.getEntities` call (so a page of 5,000 results is
 * one read, not 5,000), and each aspect of an entity is read at most once per request. A search
 * result's fields read just the aspects they ask (a query of names reads no ownership); a fetch,
 * which must know the entity is stored before its fields are asked, reads every aspect the loader
 * may be asked for (ASPECTS_READ unless told), so that its fields need no second read.
 */
const ALL = '*';
export class EntityLoader {
  /** By URN, then by aspect (ALL: every aspect of the loader): what was read, or is being read. */
  private readonly loaded = new Map<string, Map<string, Promise<EntityView | undefined>>>();
  private pending: Asked[] = [];

  constructor(
    private readonly reader: Reader,
    private readonly aspects: ReadonlySet<string> = ASPECTS_READ,
  ) {}

  /** The entity with the loader's aspects; undefined when it is not stored. */
  load(urn: string): Promise<EntityView | undefined> {
    return this.ask(urn, ALL);
  }

  /** An aspect of the entity as a record; undefined when the entity or the aspect is not stored. */
  async aspect(urn: string, aspect: string): Promise<Record<string, unknown> | undefined> {
    if (!this.aspects.has(aspect)) throw new Error(`the loader does not read ${aspect}: add it to its aspects`);
    return aspectOf(await this.ask(urn, aspect), aspect);
  }

  /** Reads the entity again when next asked: a mutation changed it, and a later field of the same document must see that. */
  forget(urn: string): void {
    this.loaded.delete(urn);
  }

  private ask(urn: string, aspect: string): Promise<EntityView | undefined> {
    let byAspect = this.loaded.get(urn);
    if (!byAspect) this.loaded.set(urn, (byAspect = new Map()));
    let found = byAspect.get(ALL) ?? byAspect.get(aspect);
    if (!found) {
      found = new Promise((settle, fail) => {
        if (this.pending.length === 0) setImmediate(() => void this.readPending());
        this.pending.push({ urn, aspect, settle, fail });
      });
      byAspect.set(aspect, found);
    }
    return found;
  }

  private readable(urn: string): boolean {
    try {
      this.reader.entityOf(urn);
      return true;
    } catch {
      return false;
    }
  }

  private async readPending(): Promise<void> {
    const batch = this.pending;
    this.pending = [];
    try {
      // A URN an aspect names may be of no known type: it has no entity to read, and must not fail the batch.
      const urns = [...new Set(batch.filter((p) => this.readable(p.urn)).map((p) => p.urn))];
      const aspects = batch.some((p) => p.aspect === ALL) ? this.aspects : new Set(batch.map((p) => p.aspect));
      const views = await this.reader.getEntities(urns, aspects);
      for (const p of batch) p.settle(views.get(p.urn));
    } catch (error) {
      for (const p of batch) p.fail(error);
    }
  }
}

/** An aspect's value as a record, or undefined. */
export function aspectOf(view: EntityView | undefined, aspect: string): Record<string, unknown> | undefined {
  const value = view?.aspects.get(aspect)?.value;
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
}
