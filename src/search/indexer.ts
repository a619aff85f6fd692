import { ValidationError } from '../errors.js';
import { LIMITS } from '../limits.js';
import { Pacer } from '../pace.js';
import type { EntitySpec, Registry } from '../registry/registry.js';
import type { IndexWrite } from '../store/search-types.js';
import type { Store } from '../store/store.js';
import { parseUrn } from '../urn/urn.js';
import { SearchDocuments, type ValueTypes } from './documents.js';
import type { SearchFields } from './fields.js';

/** One aspect's value before and after a request (undefined: absent). */
export interface IndexedChange {
  urn: string;
  entity: EntitySpec;
  aspect: string;
  before: unknown;
  after: unknown;
}

/**
 * The request's view of latest values (earlier changes of the same request visible). The write
 * path's ValidationContext is one; declared here because search sits below ingest.
 */
export interface RequestValues {
  getMany(urns: readonly string[], aspect: string): Promise<Map<string, unknown>>;
}

const SCAN_PAGE = 500;

/**
 * Keeps the search index in step with the aspects: the write path hands it each request's aspect
 * changes and commits the index writes it returns in the same transaction.
 */
export class SearchIndexer {
  private readonly documents: SearchDocuments;

  constructor(
    private readonly registry: Registry,
    private readonly fields: SearchFields,
  ) {
    this.documents = new SearchDocuments(fields);
  }

  indexes(entity: EntitySpec, aspect: string): boolean {
    return this.documents.indexes(entity, aspect);
  }

  /** Refuses an aspect value that would give the index more than LIMITS.indexValues values. */
  checkSize(urn: string, entity: EntitySpec, aspect: string, value: unknown): void {
    if (this.documents.indexes(entity, aspect) && this.documents.exceeds(aspect, value, LIMITS.indexValues)) {
      throw new ValidationError(
        `Aspect ${aspect} of ${urn} holds more than ${LIMITS.indexValues.toLocaleString('en-US')} values to index (tags, owners, terms, property values, …), the most an aspect may hold`,
      );
    }
  }

  /**
   * Index writes for the changes. The old entries are typed by the property definitions as stored
   * (they were indexed under those, and a cascade may be deleting a definition in this request);
   * the new ones by the definitions as the request leaves them.
   */
  async writes(changes: readonly IndexedChange[], context: RequestValues, store: Store): Promise<IndexWrite[]> {
    const stored: ValueTypes = async (urns) => {
      const rows = await store.getLatestMany(urns, ['propertyDefinition']);
      const types = new Map(rows.map((r) => [r.urn, (r.value as { valueType?: string }).valueType]));
      return new Map(urns.map((u) => [u, types.get(u)]));
    };
    const requested: ValueTypes = async (urns) => {
      const definitions = await context.getMany(urns, 'propertyDefinition');
      return new Map(urns.map((u) => [u, (definitions.get(u) as { valueType?: string } | undefined)?.valueType]));
    };
    const writes: IndexWrite[] = [];
    const pacer = new Pacer();
    for (const { urn, entity, aspect, before, after } of changes) {
      const [old, next] = await Promise.all([
        this.documents.entries(entity, aspect, before, stored),
        this.documents.entries(entity, aspect, after, requested),
      ]);
      const write = await this.documents.write(urn, entity, aspect, old, next);
      if (write) writes.push(write);
      await pacer.pace();
    }
    return writes;
  }

  /**
   * Builds the index anew from the stored aspects when it was built from another version of
   * search.json (or never: a data dir from before search). Runs at start, before serving.
   */
  async ensureBuilt(store: Store): Promise<void> {
    if ((await store.searchIndexVersion()) === this.fields.version) return;
    await store.clearSearchIndex();
    const definitions = new Map<string, string | undefined>();
    const valueTypes: ValueTypes = async (urns) => {
      const missing = urns.filter((u) => !definitions.has(u));
      const rows = await store.getLatestMany(missing, ['propertyDefinition']);
      for (const u of missing) definitions.set(u, undefined);
      for (const row of rows) definitions.set(row.urn, (row.value as { valueType?: string }).valueType);
      return new Map(urns.map((u) => [u, definitions.get(u)]));
    };
    const aspects = new Set([
      ...this.registry.entityTypes().map((e) => e.keyAspect.name),
      'structuredProperties',
      ...this.fields.indexedAspects(),
    ]);
    const empty = { terms: [], numbers: [] };
    for (const aspect of aspects) {
      let after: string | undefined;
      for (;;) {
        const rows = await store.scanAspect(aspect, after, SCAN_PAGE);
        const index: IndexWrite[] = [];
        for (const row of rows) {
          const entity = this.registry.entityType(parseUrn(row.urn).entityType);
          if (!entity || !entity.aspects.has(aspect)) continue;
          const write = await this.documents.write(row.urn, entity, aspect, empty, await this.documents.entries(entity, aspect, row.value, valueTypes));
          if (write) index.push(write);
        }
        if (index.length > 0) await store.commit({ writes: [], events: [], index });
        if (rows.length < SCAN_PAGE) break;
        after = rows[rows.length - 1].urn;
      }
    }
    await store.setSearchIndexVersion(this.fields.version);
  }
}
