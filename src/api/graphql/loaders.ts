import type { EntityView, Reader } from '../../read/read.js';

/**
 * The aspects the schema's entity fields read (resolvers/entities.ts, governance.ts): a batch reads these and
 * the key, never every aspect (a dataset's schema can weigh megabytes).
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
  // resolvers/forms.ts
  'forms',
  'formInfo',
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

/**
 * One request's entity reads, batched: every URN asked for while resolvers run in one turn of the
 * event loop is read by one `Reader.getEntities` call (so a page of 5,000 results is one read, not
 * 5,000), and each URN is read at most once per request.
 */
export class EntityLoader {
  private readonly loaded = new Map<string, Promise<EntityView | undefined>>();
  private pending: Array<{ urn: string; settle: (view: EntityView | undefined) => void; fail: (error: unknown) => void }> = [];
  /** How many batches were read (tests count them). */
  batches = 0;

  constructor(
    private readonly reader: Reader,
    private readonly aspects: ReadonlySet<string> = ASPECTS_READ,
  ) {}

  /** The entity with the loader's aspects (ASPECTS_READ unless told); undefined when it is not stored. */
  load(urn: string): Promise<EntityView | undefined> {
    let found = this.loaded.get(urn);
    if (!found) {
      found = new Promise((settle, fail) => {
        if (this.pending.length === 0) setImmediate(() => void this.readPending());
        this.pending.push({ urn, settle, fail });
      });
      this.loaded.set(urn, found);
    }
    return found;
  }

  /** Reads the entity again when next asked: a mutation changed it, and a later field of the same document must see that. */
  forget(urn: string): void {
    this.loaded.delete(urn);
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
    this.batches++;
    try {
      // A URN an aspect names may be of no known type: it has no entity to read, and must not fail the batch.
      const readable = batch.filter((p) => this.readable(p.urn));
      const views = await this.reader.getEntities(
        readable.map((p) => p.urn),
        this.aspects,
      );
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
