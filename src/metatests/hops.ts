import type { EntityView, Reader } from '../read/read.js';
import type { Registry } from '../registry/registry.js';
import type { LineageNeighbours } from '../graph/neighbours.js';
import { parseUrn } from '../urn/urn.js';
import { LineageReaches, NOT_REACHED, type LineageStep, type Reach } from './lineage-steps.js';
import { NOT_LOADED, type HopTargets } from './paths.js';

/**
 * The hop targets of one evaluation (a request, a page of a catalog run), read through the read
 * path: each URN once per set of aspects, the misses of a pass in one read. The entities under
 * evaluation serve as targets themselves when they were read with the aspects the hop needs.
 * Lineage steps read their edges the same way, a level a pass (LineageReaches).
 */
export class LoadedHops implements HopTargets {
  misses = 0;
  private readonly evaluated: Map<string, EntityView>;
  /** By the aspects loaded ('' for all of them), then URN (undefined: no such entity). */
  private readonly loaded = new Map<string, Map<string, EntityView | undefined>>();
  /** Misses noted since the last fetch, keyed like `loaded`. */
  private readonly wanted = new Map<string, { aspects?: ReadonlySet<string>; urns: Set<string> }>();
  private readonly reaches: LineageReaches;

  constructor(
    private readonly reader: Reader,
    private readonly registry: Registry,
    neighbours: LineageNeighbours,
    evaluated: readonly EntityView[],
    /** The aspects the evaluated entities were read with (undefined: all). */
    private readonly evaluatedAspects?: ReadonlySet<string>,
  ) {
    this.evaluated = new Map(evaluated.map((e) => [e.urn, e]));
    this.reaches = new LineageReaches(neighbours);
  }

  lineage(urn: string, step: LineageStep): Reach | typeof NOT_LOADED {
    const reach = this.reaches.reach(urn, step);
    if (reach !== NOT_REACHED) return reach;
    this.misses++;
    return NOT_LOADED;
  }

  get(urn: string, aspects: ReadonlySet<string> | undefined): EntityView | undefined | typeof NOT_LOADED {
    const own = this.evaluated.get(urn);
    if (own && this.readWith(aspects)) return own;
    const key = aspects ? [...aspects].join(',') : '';
    const cache = this.loaded.get(key);
    if (cache?.has(urn)) return cache.get(urn);
    this.misses++;
    let wanted = this.wanted.get(key);
    if (!wanted) this.wanted.set(key, (wanted = { aspects, urns: new Set() }));
    wanted.urns.add(urn);
    return NOT_LOADED;
  }

  /** Whether misses were noted since the last fetch. */
  get pending(): boolean {
    return this.wanted.size > 0 || this.reaches.pending;
  }

  /** Loads the targets noted as missing; URNs of unknown entity types find nothing. */
  async fetch(): Promise<void> {
    await this.reaches.fetch();
    const wanted = [...this.wanted];
    this.wanted.clear();
    for (const [key, { aspects, urns }] of wanted) {
      let cache = this.loaded.get(key);
      if (!cache) this.loaded.set(key, (cache = new Map()));
      const known = [...urns].filter((u) => this.registry.entityType(parseUrn(u).entityType) !== undefined);
      const views = await this.reader.getEntities(known, aspects, { points: true });
      for (const urn of urns) cache.set(urn, views.get(urn));
    }
  }

  private readWith(aspects: ReadonlySet<string> | undefined): boolean {
    const read = this.evaluatedAspects;
    if (!read) return true;
    if (!aspects) return false;
    for (const aspect of aspects) if (!read.has(aspect)) return false;
    return true;
  }
}
