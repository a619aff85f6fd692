import type { Store, StoredAspect, SystemMetadata } from '../store/store.js';
import type { ValidationContext } from './plugins.js';
import type { WriteContext } from './proposal.js';

export interface CurrentAspect {
  value: unknown;
  systemMetadata: SystemMetadata;
  /** systemMetadata.version as a number. */
  version: number;
}

const SCAN_PAGE = 500;

/**
 * The latest aspect values a request works on: loaded from the store once, then changed in memory
 * as the request's proposals apply, and finally committed together.
 */
export class BatchState {
  private readonly entities = new Map<string, Map<string, CurrentAspect>>();
  /** Per URN, the aspect names loaded (undefined: all of them). */
  private readonly loaded = new Map<string, Set<string> | undefined>();
  /** Values looked up outside the batch, by aspect, then URN. */
  private readonly looked = new Map<string, Map<string, unknown>>();

  constructor(private readonly store: Store) {}

  /** Loads the named aspects (all when omitted) of URNs not loaded yet, in one store call. */
  async load(urns: readonly string[], aspects?: readonly string[]): Promise<void> {
    const missing = urns.filter((urn) => !this.covers(urn, aspects));
    if (missing.length === 0) return;
    const rows = await this.store.getLatestMany(missing, aspects);
    for (const urn of missing) {
      if (!this.entities.has(urn)) this.entities.set(urn, new Map());
      if (aspects === undefined) this.loaded.set(urn, undefined);
      else this.loaded.set(urn, new Set([...(this.loaded.get(urn) ?? []), ...aspects]));
    }
    for (const row of rows) {
      const aspects = this.entities.get(row.urn)!;
      if (!aspects.has(row.aspect)) aspects.set(row.aspect, current(row));
    }
  }

  /** The loaded aspects of an entity (call load first). */
  aspects(urn: string): Map<string, CurrentAspect> {
    const aspects = this.entities.get(urn);
    if (!aspects) throw new Error(`BatchState: ${urn} was not loaded`);
    return aspects;
  }

  context({ actor, admin }: WriteContext): ValidationContext {
    return {
      actor,
      admin: admin ?? false,
      get: async (urn, aspect) => (await this.valuesOf([urn], aspect)).get(urn),
      getMany: (urns, aspect) => this.valuesOf(urns, aspect),
      scan: (aspect) => this.scan(aspect),
    };
  }

  private covers(urn: string, aspects?: readonly string[]): boolean {
    if (!this.loaded.has(urn)) return false;
    const names = this.loaded.get(urn);
    return names === undefined || (aspects !== undefined && aspects.every((a) => names.has(a)));
  }

  /** Batch state where it covers the aspect, else the store (cached for the request). */
  private async valuesOf(urns: readonly string[], aspect: string): Promise<Map<string, unknown>> {
    const result = new Map<string, unknown>();
    const fetch: string[] = [];
    let looked = this.looked.get(aspect);
    if (!looked) this.looked.set(aspect, (looked = new Map()));
    for (const urn of urns) {
      if (this.covers(urn, [aspect])) result.set(urn, this.entities.get(urn)!.get(aspect)?.value);
      else if (looked.has(urn)) result.set(urn, looked.get(urn));
      else fetch.push(urn);
    }
    if (fetch.length > 0) {
      const rows = new Map((await this.store.getLatestMany(fetch, [aspect])).map((r) => [r.urn, r.value]));
      for (const urn of fetch) {
        looked.set(urn, rows.get(urn));
        result.set(urn, rows.get(urn));
      }
    }
    return result;
  }

  /** Stored entities having the aspect, seen through this batch, then those the batch adds. */
  private async *scan(aspect: string): AsyncIterable<{ urn: string; value: unknown }> {
    const seen = new Set<string>();
    let after: string | undefined;
    for (;;) {
      const page = await this.store.scanAspect(aspect, after, SCAN_PAGE);
      for (const row of page) {
        seen.add(row.urn);
        const value = this.covers(row.urn, [aspect]) ? this.entities.get(row.urn)!.get(aspect)?.value : row.value;
        if (value !== undefined) yield { urn: row.urn, value };
      }
      if (page.length < SCAN_PAGE) break;
      after = page[page.length - 1].urn;
    }
    for (const [urn, aspects] of this.entities) {
      const value = aspects.get(aspect)?.value;
      if (!seen.has(urn) && value !== undefined) yield { urn, value };
    }
  }
}

function current(row: StoredAspect): CurrentAspect {
  return { value: row.value, systemMetadata: row.systemMetadata, version: Number(row.systemMetadata.version) };
}
