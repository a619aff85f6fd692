import { createHash } from 'node:crypto';
import type { AspectSpec, EntitySpec, Registry } from '../registry/registry.js';
import type { Edge, EdgeProperties, EdgeWrite } from '../store/graph-types.js';
import type { Store } from '../store/store.js';
import { isUrn, parseUrn } from '../urn/urn.js';
import type { LineageKind } from './lineage.js';

/**
 * Column lineage's record: each downstream field is `DownstreamOf` each upstream field, with the
 * transformation and confidence (DataHub keeps these schemaField-to-schemaField edges apart from
 * the @Relationship ones, which run from the dataset).
 */
const FINE_GRAINED = 'fineGrainedLineages';
const COLUMN_PROPERTIES = ['transformOperation', 'confidenceScore', 'upstreamType', 'downstreamType', 'query'];

const SCAN_PAGE = 500;

/** Bumped when the way edges are drawn from values changes: the graph is then built again. */
const EXTRACTION = 1;

/**
 * The graph edges the latest aspect values name, from the registry's `@Relationship` facts. The
 * write path hands it each request's aspect changes and commits the edge writes it returns in
 * the same transaction, so the graph never lags the aspects.
 */
export class GraphEdges {
  /** Changes when the registry's relationships or the extraction change: the edges are then drawn again. */
  readonly version: string;

  constructor(private readonly registry: Registry) {
    const facts = registry
      .entityTypes()
      .flatMap((e) => [...e.aspects.values()])
      .filter((a) => this.draws(a))
      .map((a) => [a.name, a.relationships]);
    this.version = `${EXTRACTION}:${createHash('sha256').update(JSON.stringify(facts.sort())).digest('hex').slice(0, 16)}`;
  }

  /** Whether the entity's values of the aspect can name edges. */
  drawsFrom(entity: EntitySpec, aspect: string): boolean {
    const spec = entity.aspects.get(aspect);
    return spec !== undefined && this.draws(spec);
  }

  /** Whether values of the aspect can name edges (timeseries points never do, as in DataHub). */
  draws(aspect: AspectSpec): boolean {
    return aspect.kind === 'versioned' && aspect.relationships.length > 0;
  }

  /** The edges a value of the aspect of `owner` names, each once (the first naming's properties). */
  edgesOf(owner: string, aspect: AspectSpec, value: unknown): Edge[] {
    return [...this.drawn(owner, aspect, value).values()];
  }

  /** The edges a value names, by edgeKey. */
  private drawn(owner: string, aspect: AspectSpec, value: unknown): Map<string, Edge> {
    const edges = new Map<string, Edge>();
    if (value === undefined || value === null || !this.draws(aspect)) return edges;
    const ownerType = parseUrn(owner).entityType;
    const add = (edge: Edge) => {
      const key = edgeKey(edge);
      if (!edges.has(key)) edges.set(key, edge);
    };
    for (const relationship of aspect.relationships) {
      for (const found of valuesAt(value, steps(relationship.path))) {
        // A path ending at an Edge record (outputDatasetEdges/*) names its destinationUrn.
        const { value: target, holder, field } = isRecord(found.value) ? { value: found.value.destinationUrn, holder: found.value, field: 'destinationUrn' } : found;
        if (typeof target !== 'string' || !urnShaped(target)) continue;
        add(edge(owner, ownerType, relationship.name, target, scalars(holder, field)));
      }
    }
    const fineGrained = (value as Record<string, unknown>)[FINE_GRAINED];
    if (Array.isArray(fineGrained)) {
      for (const lineage of fineGrained) {
        if (!isRecord(lineage)) continue;
        const properties = pick(lineage, COLUMN_PROPERTIES);
        for (const downstream of urns(lineage.downstreams, 'schemaField')) {
          for (const upstream of urns(lineage.upstreams, 'schemaField')) add(edge(downstream, 'schemaField', 'DownstreamOf', upstream, properties));
        }
      }
    }
    return edges;
  }

  /** How the aspect's edges change from `before` to `after` (undefined: they do not). */
  change(owner: string, aspect: AspectSpec, before: unknown, after: unknown): EdgeWrite | undefined {
    if (!this.draws(aspect)) return undefined;
    const old = this.drawn(owner, aspect, before);
    const next = this.drawn(owner, aspect, after);
    const upsert: Edge[] = [];
    for (const [key, e] of next) {
      const was = old.get(key);
      if (was === undefined || !sameProperties(was.properties, e.properties)) upsert.push(e);
    }
    const remove: Edge[] = [];
    for (const [key, e] of old) if (!next.has(key)) remove.push(e);
    return remove.length === 0 && upsert.length === 0 ? undefined : { owner, aspect: aspect.name, remove, upsert };
  }

  /**
   * Draws the graph anew from the stored aspects when it was drawn another way (or never: a data
   * dir from before the graph, an import). Runs at start, before serving.
   */
  async ensureBuilt(store: Store): Promise<void> {
    if ((await store.graphVersion()) === this.version) return;
    await store.clearGraph();
    for (const aspect of this.aspects()) {
      let after: string | undefined;
      for (;;) {
        const rows = await store.scanAspect(aspect.name, after, SCAN_PAGE);
        const edges: EdgeWrite[] = [];
        for (const row of rows) {
          const entity = this.registry.entityType(parseUrn(row.urn).entityType);
          const spec = entity?.aspects.get(aspect.name);
          const write = spec && this.change(row.urn, spec, undefined, row.value);
          if (write) edges.push(write);
        }
        if (edges.length > 0) await store.commit({ writes: [], events: [], edges });
        if (rows.length < SCAN_PAGE) break;
        after = rows[rows.length - 1].urn;
      }
    }
    await store.setGraphVersion(this.version);
  }

  /**
   * DataHub's lineage edges: each relationship its model marks as lineage, from the entity types
   * having the aspect that names it to the types the annotation names, and which way it points.
   */
  lineageKinds(): LineageKind[] {
    const kinds = new Map<string, { relationship: string; upstream: boolean; sourceTypes: Set<string>; destinationTypes: Set<string> }>();
    for (const entity of this.registry.entityTypes()) {
      for (const aspect of entity.aspects.values()) {
        if (!this.draws(aspect)) continue;
        for (const r of aspect.relationships) {
          if (!r.isLineage) continue;
          const upstream = r.isUpstream !== false;
          // One kind per relationship, way and destination types: chart Consumes dataset is lineage, chart Consumes schemaField need not be.
          const key = `${r.name}\u0000${upstream}\u0000${[...r.entityTypes].sort().join(',')}`;
          const kind = kinds.get(key) ?? { relationship: r.name, upstream, sourceTypes: new Set<string>(), destinationTypes: new Set(r.entityTypes) };
          kind.sourceTypes.add(entity.name);
          kinds.set(key, kind);
        }
      }
    }
    return [...kinds.values()].map((k) => ({ relationship: k.relationship, upstream: k.upstream, sourceTypes: [...k.sourceTypes].sort(), destinationTypes: [...k.destinationTypes].sort() }));
  }

  /** What a lineage walk follows: the lineage kinds, and column lineage (schema field to schema field). */
  walkKinds(): LineageKind[] {
    return [...this.lineageKinds(), { relationship: 'DownstreamOf', upstream: true, sourceTypes: ['schemaField'], destinationTypes: ['schemaField'] }];
  }

  /** Every relationship an edge can have: the model's, and column lineage's DownstreamOf. */
  relationshipNames(): string[] {
    const names = new Set(['DownstreamOf']);
    for (const aspect of this.aspects()) for (const r of aspect.relationships) names.add(r.name);
    return [...names].sort();
  }

  /** The aspects whose values can name edges (every entity type's, once each). */
  aspects(): AspectSpec[] {
    const found = new Map<string, AspectSpec>();
    for (const entity of this.registry.entityTypes()) for (const aspect of entity.aspects.values()) if (this.draws(aspect)) found.set(aspect.name, aspect);
    return [...found.values()];
  }
}

export function edgeKey(edge: Pick<Edge, 'source' | 'relationship' | 'destination'>): string {
  return `${edge.source}\u0000${edge.relationship}\u0000${edge.destination}`;
}

function edge(source: string, sourceType: string, relationship: string, destination: string, properties: EdgeProperties | undefined): Edge {
  // The type is the URN's third part (`urn:li:<type>:…`); urnShaped checked there is one.
  const drawn: Edge = { source, sourceType, relationship, destination, destinationType: destination.slice(7, destination.indexOf(':', 7)) };
  if (properties) drawn.properties = properties;
  return drawn;
}

/** Relationship paths split once: every write of an aspect walks the same ones. */
const splitPaths = new Map<string, readonly string[]>();

function steps(path: string): readonly string[] {
  let split = splitPaths.get(path);
  if (!split) splitPaths.set(path, (split = path.split('/')));
  return split;
}

/** Edge properties are flat records of scalars. */
function sameProperties(a: EdgeProperties | undefined, b: EdgeProperties | undefined): boolean {
  const left = a ?? {};
  const right = b ?? {};
  const keys = Object.keys(left);
  return keys.length === Object.keys(right).length && keys.every((k) => left[k] === right[k]);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The URNs of the given type in a list (anything else skipped: values were validated already). */
function urns(list: unknown, entityType: string): string[] {
  return Array.isArray(list) ? list.filter((u): u is string => isUrn(u, entityType)) : [];
}

/** The scalar fields of the record holding a reference, but the reference itself: the edge's properties. */
function scalars(holder: Record<string, unknown> | undefined, field: string): EdgeProperties | undefined {
  if (!holder) return undefined;
  let out: EdgeProperties | undefined;
  for (const name in holder) {
    const value = holder[name];
    if (name === field || !(typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean')) continue;
    (out ??= {})[name] = value;
  }
  return out;
}

/**
 * A reference as an edge needs it: `urn:li:<type>:<id>`. The values were checked against their
 * aspects' schemas when written (URN fields are typed); a full parse here cost a write more than
 * the rest of drawing its edges.
 */
function urnShaped(text: string): boolean {
  const typeEnd = text.indexOf(':', 7);
  return text.startsWith('urn:li:') && typeEnd > 7 && typeEnd < text.length - 1;
}

function pick(record: Record<string, unknown>, names: readonly string[]): EdgeProperties | undefined {
  const out: EdgeProperties = {};
  let any = false;
  for (const name of names) {
    const value = record[name];
    if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') {
      out[name] = value;
      any = true;
    }
  }
  return any ? out : undefined;
}

/**
 * The values at a `/`-separated path (`*` for each item of an array or value of a map), each
 * with the record holding it when that record is an item of a list (its other fields describe
 * the edge: an upstream's `type`, an owner's `type`).
 */
function valuesAt(value: unknown, path: readonly string[]): Array<{ value: unknown; holder?: Record<string, unknown>; field: string }> {
  let level: Array<{ value: unknown; holder?: Record<string, unknown>; field: string }> = [{ value, field: '' }];
  for (let i = 0; i < path.length; i++) {
    const step = path[i];
    const next: typeof level = [];
    for (const { value: v, holder } of level) {
      if (step === '*') {
        const items = Array.isArray(v) ? v : isRecord(v) ? Object.values(v) : [];
        for (const item of items) next.push({ value: item, holder: isRecord(item) ? item : undefined, field: '' });
      } else if (isRecord(v) && v[step] !== undefined) {
        // The holder is the nearest list item above: a field of a field of it still describes it.
        next.push({ value: v[step], holder: holder ?? undefined, field: i === path.length - 1 && holder === v ? step : '' });
      }
    }
    level = next;
  }
  return level;
}
