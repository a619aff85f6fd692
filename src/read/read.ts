import { NotFoundError } from '../errors.js';
import type { AspectSpec, EntitySpec, Registry } from '../registry/registry.js';
import type { AspectVersion, PointCursor, PointMetadata, Store, StoredAspect, StoredPoint, SystemMetadata } from '../store/store.js';
import { checkAnswerSize, readPoints, type PointRead } from './points.js';
import { parseUrn, type Urn } from '../urn/urn.js';

export interface AspectView {
  readonly value: unknown;
  /** A timeseries aspect's latest point has PointMetadata (no version). */
  readonly systemMetadata: SystemMetadata | PointMetadata;
}

/** A versioned aspect's value as read: its system metadata has a version and audit stamps. */
export interface VersionedView extends AspectView {
  readonly systemMetadata: SystemMetadata;
}

/** When and by whom a value was written: a version's aspectModified; a point's lastObserved (no actor kept there). */
export function modifiedTime(systemMetadata: SystemMetadata | PointMetadata): number {
  return systemMetadata.version === undefined ? systemMetadata.lastObserved : systemMetadata.aspectModified.time;
}

export interface EntityView {
  urn: string;
  entityType: string;
  /** By canonical aspect name. */
  aspects: Map<string, AspectView>;
}

/**
 * A read-time filter for one aspect (e.g. hiding values of soft-deleted structured properties).
 * Returns the value to show; undefined hides the aspect.
 */
export type ReadFilter = (urn: Urn, value: unknown) => unknown | Promise<unknown>;

/** What present() needs of a change the write path applied. */
export interface WrittenValue {
  urn: string;
  aspect: string;
  /** Undefined when the change deleted the aspect. */
  value: unknown;
}

/** `points`: include the latest point of timeseries aspects (DataHub's v3 reads do; its v2 and Rest.li reads do not). */
export interface PointOptions {
  points?: boolean;
}

export interface EntityPage {
  entities: EntityView[];
  /** The last URN of the page when more may follow. */
  last?: string;
}

/** THE read path: every route reads through here, so read-time filters apply everywhere. */
export class Reader {
  constructor(
    private readonly store: Store,
    private readonly registry: Registry,
    private readonly filters: ReadonlyMap<string, readonly ReadFilter[]> = new Map(),
  ) {}

  /** The entity type of a URN; throws InvalidUrnError for a bad URN or unknown type. */
  entityOf(urnText: string): { urn: Urn; entity: EntitySpec } {
    const urn = parseUrn(urnText);
    return { urn, entity: this.registry.entityOf(urn) };
  }

  /**
   * Resolves aspect names (canonical or lower-case). Unknown names are dropped, as DataHub does;
   * undefined (no known name) means every aspect.
   */
  aspectNames(entity: EntitySpec, names: readonly string[] | undefined): string[] | undefined {
    if (!names || names.length === 0) return undefined;
    const known = names.map((n) => this.registry.aspectOf(entity, n)?.name).filter((n): n is string => !!n);
    return known.length > 0 ? [...new Set(known)] : undefined;
  }

  /** An entity with its latest aspects; undefined when it has no stored aspect. */
  async getEntity(urnText: string, aspectNames?: readonly string[], options: PointOptions = {}): Promise<EntityView | undefined> {
    const { urn, entity } = this.entityOf(urnText);
    const names = this.aspectNames(entity, aspectNames);
    const rows = await this.store.getLatest(urn.text, names);
    if (rows.length === 0 && !(await this.exists(urn.text, entity))) return undefined;
    const found = view(urn, entity, await this.filtered(urn, rows));
    if (options.points) await this.addLatestPoints([found], names);
    return found;
  }

  /**
   * Several entities with their latest aspects — all of them, or only the named ones (keys are
   * always read, so an entity without any of them is still found). Missing entities are absent.
   */
  async getEntities(urnTexts: readonly string[], aspectNames?: ReadonlySet<string>, options: PointOptions = {}): Promise<Map<string, EntityView>> {
    const parsed = urnTexts.map((text) => this.entityOf(text));
    const names = aspectNames && [...new Set([...aspectNames, ...parsed.map((p) => p.entity.keyAspect.name)])];
    const rows = await this.store.getLatestMany(parsed.map((p) => p.urn.text), names);
    const views = await this.views(parsed, rows, false);
    if (options.points) await this.addLatestPoints(views, names);
    return new Map(views.map((e) => [e.urn, e]));
  }

  /**
   * An entity's points of a timeseries aspect, newest first (by timestampMillis), those in
   * [start, end] that pass the filter, at most `limit`.
   */
  points(urn: string, aspect: string, read: PointRead): Promise<StoredPoint[]> {
    return readPoints(this.store, urn, aspect, read);
  }

  /** The latest point of an entity's timeseries aspect. */
  async latestPoint(urn: string, aspect: string): Promise<StoredPoint | undefined> {
    return (await this.store.latestPoints([{ urn, aspect }]))[0];
  }

  /** Points of an aspect across the entities of a type, newest first, after a scroll's cursor. */
  async scrollPoints(entityType: string, aspect: string, query: { start?: number; end?: number; after?: PointCursor; limit: number }): Promise<StoredPoint[]> {
    const points = await this.store.scrollPoints(entityType, aspect, query);
    checkAnswerSize(points);
    return points;
  }

  /**
   * Adds to entity views the latest point of each timeseries aspect (the named ones, or all of
   * the entity type's), as DataHub's v3 reads and metadata tests see a timeseries aspect.
   */
  private async addLatestPoints(views: readonly EntityView[], names: readonly string[] | undefined): Promise<void> {
    const pairs: Array<{ urn: string; aspect: string }> = [];
    for (const v of views) {
      const entity = this.registry.entityType(v.entityType)!;
      for (const aspect of names ?? entity.aspects.keys()) if (entity.aspects.get(aspect)?.kind === 'timeseries') pairs.push({ urn: v.urn, aspect });
    }
    if (pairs.length === 0) return;
    const byUrn = new Map(views.map((v) => [v.urn, v]));
    for (const point of await this.store.latestPoints(pairs)) byUrn.get(point.urn)?.aspects.set(point.aspect, point);
  }

  /** Every entity's latest value of one aspect, in URN order, read-time filters applied. */
  async *scan(aspect: string, pageSize = 500): AsyncIterable<{ urn: string; value: unknown }> {
    let after: string | undefined;
    for (;;) {
      const page = await this.store.scanAspect(aspect, after, pageSize);
      for (const row of page) {
        const value = await this.show(parseUrn(row.urn), row.aspect, row.value);
        if (value !== undefined) yield { urn: row.urn, value };
      }
      if (page.length < pageSize) return;
      after = page[page.length - 1].urn;
    }
  }

  /**
   * Every entity of one type in URN order, a page at a time, with its latest aspects: all of them,
   * or the named ones (and the key).
   */
  async *entitiesOf(entity: EntitySpec, pageSize: number, aspectNames?: ReadonlySet<string>): AsyncIterable<EntityView[]> {
    let after: string | undefined;
    for await (const urns of this.urnsOf(entity, pageSize)) {
      yield this.entitiesBetween(entity, after, urns[urns.length - 1], aspectNames);
      after = urns[urns.length - 1];
    }
  }

  /** The entities of one type whose URNs lie in (after, last], as entitiesOf reads them. */
  async entitiesBetween(entity: EntitySpec, after: string | undefined, last: string, aspectNames?: ReadonlySet<string>, options: PointOptions = {}): Promise<EntityView[]> {
    // The key is always read, so every entity has a row (an entity is its key).
    const names = aspectNames && [...new Set([...aspectNames, entity.keyAspect.name])];
    const rows = await this.store.getLatestRange(entity.name, after, last, names);
    const urns: string[] = [];
    for (const row of rows) if (urns[urns.length - 1] !== row.urn) urns.push(row.urn);
    const views = await this.views(urns.map((text) => ({ urn: parseUrn(text), entity })), rows, false);
    if (options.points) await this.addLatestPoints(views, names);
    return views;
  }

  /** URNs of one entity type in URN order, a page at a time. */
  async *urnsOf(entity: EntitySpec, pageSize = 1000): AsyncIterable<string[]> {
    let after: string | undefined;
    for (;;) {
      const page = await this.store.listUrns(entity.keyAspect.name, after, pageSize);
      if (page.length > 0) yield page;
      if (page.length < pageSize) return;
      after = page[page.length - 1];
    }
  }

  async exists(urnText: string, entity?: EntitySpec): Promise<boolean> {
    const spec = entity ?? this.entityOf(urnText).entity;
    return (await this.store.getVersion(urnText, spec.keyAspect.name, 0)) !== undefined;
  }

  /**
   * Exists and is not soft-deleted (`status.removed`): what DataHub's HEAD routes call existing
   * (they ask without soft-deleted entities, whatever the request says).
   */
  async live(urnText: string, entity?: EntitySpec): Promise<boolean> {
    const spec = entity ?? this.entityOf(urnText).entity;
    if (!(await this.exists(urnText, spec))) return false;
    if (!this.registry.aspectOf(spec, 'status')) return true;
    const status = await this.getAspect(urnText, 'status');
    const value = status?.value as { removed?: unknown } | undefined;
    return value?.removed !== true;
  }

  /**
   * One aspect. `version` 0 is the latest; N > 0 is the N-th stored value in write order, or the
   * latest when its systemMetadata.version is N.
   */
  async getAspect(urnText: string, aspectName: string, version = 0): Promise<VersionedView | undefined> {
    const { urn, entity } = this.entityOf(urnText);
    const aspect = this.aspect(entity, aspectName);
    // The latest first: a write moves it into the history, which only grows, so version N is
    // found whichever side of a concurrent write each read falls (history first could miss it on both).
    let row = await this.store.getVersion(urn.text, aspect.name, 0);
    if (row && version > 0) {
      const latest = Number(row.systemMetadata.version);
      row = latest === version ? row : latest < version ? undefined : await this.store.getVersion(urn.text, aspect.name, version);
    }
    if (!row) return undefined;
    // Most aspects have no read-time filter: the row is the answer.
    if (!this.filters.has(aspect.name)) return row;
    return (await this.filtered(urn, [row])).get(aspect.name) as VersionedView | undefined;
  }

  /**
   * The aspect versions a timeline from `since` needs (Store.getHistory, at most `limit`), each
   * value through the aspect's read-time filters (a version they hide is left out), with the URN
   * as stored. An invalid URN or unknown entity type is an InvalidUrnError.
   */
  async history(urnText: string, since: number, limit: number): Promise<{ urn: string; versions: AspectVersion[] }> {
    const { urn } = this.entityOf(urnText);
    const versions: AspectVersion[] = [];
    for (const version of await this.store.getHistory(urn.text, since, limit)) {
      if (!this.filters.has(version.aspect)) {
        versions.push(version);
        continue;
      }
      const value = await this.show(urn, version.aspect, version.value);
      if (value !== undefined) versions.push({ ...version, value });
    }
    return { urn: urn.text, versions };
  }

  /** The aspect spec by name, or NotFoundError. */
  aspect(entity: EntitySpec, aspectName: string): AspectSpec {
    const aspect = this.registry.aspectOf(entity, aspectName);
    if (!aspect) throw new NotFoundError(`Unknown aspect ${aspectName} for entity type ${entity.name}`, 'ASPECT');
    return aspect;
  }

  /** A page of entities of one type, in URN order, after `after`. */
  async listEntities(entity: EntitySpec, count: number, after: string | undefined, aspectNames?: readonly string[]): Promise<EntityPage> {
    const urns = await this.store.listUrns(entity.keyAspect.name, after, count + 1);
    const more = urns.length > count;
    const page = urns.slice(0, count);
    const rows = await this.store.getLatestMany(page, this.aspectNames(entity, aspectNames));
    const entities = await this.views(page.map((text) => ({ urn: parseUrn(text), entity })), rows, true);
    return { entities, last: more ? page[page.length - 1] : undefined };
  }

  /**
   * Values just written, shown the way reads show them (read-time filters applied). Generic over
   * the write path's outcome type (ingest's AppliedChange), which sits in a layer above this one.
   */
  async present<C extends WrittenValue>(changes: readonly C[]): Promise<C[]> {
    return Promise.all(
      changes.map(async (change) =>
        change.value === undefined || !this.filters.has(change.aspect)
          ? change
          : { ...change, value: await this.show(parseUrn(change.urn), change.aspect, change.value) },
      ),
    );
  }

  /** An aspect value through its read-time filters; undefined when a filter hides it. */
  private async show(urn: Urn, aspect: string, stored: unknown): Promise<unknown> {
    let value = stored;
    for (const filter of this.filters.get(aspect) ?? []) {
      if (value === undefined) break;
      value = await filter(urn, value);
    }
    return value;
  }

  private async filtered(urn: Urn, rows: readonly StoredAspect[]): Promise<Map<string, AspectView>> {
    const aspects = new Map<string, AspectView>();
    for (const row of rows) {
      // Most aspects have no read-time filter: no await (each one a turn of the microtask queue).
      if (!this.filters.has(row.aspect)) {
        aspects.set(row.aspect, row);
        continue;
      }
      const value = await this.show(urn, row.aspect, row.value);
      if (value === row.value) aspects.set(row.aspect, row);
      // A getter keeps the store's lazy parsing of system metadata.
      else if (value !== undefined) aspects.set(row.aspect, { value, get systemMetadata() { return row.systemMetadata; } });
    }
    return aspects;
  }

  /** Entity views of the URNs that have rows, in the given order. */
  private async views(entities: ReadonlyArray<{ urn: Urn; entity: EntitySpec }>, rows: readonly StoredAspect[], keepEmpty: boolean): Promise<EntityView[]> {
    const byUrn = new Map<string, StoredAspect[]>();
    for (const row of rows) {
      const list = byUrn.get(row.urn);
      if (list) list.push(row);
      else byUrn.set(row.urn, [row]);
    }
    const views: EntityView[] = [];
    for (const { urn, entity } of entities) {
      const found = byUrn.get(urn.text);
      if (found || keepEmpty) views.push(view(urn, entity, await this.filtered(urn, found ?? [])));
    }
    return views;
  }
}

function view(urn: Urn, entity: EntitySpec, aspects: Map<string, AspectView>): EntityView {
  return { urn: urn.text, entityType: entity.name, aspects };
}
