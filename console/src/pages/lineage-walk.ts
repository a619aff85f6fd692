import { useEffect, useRef, useState } from 'preact/hooks';
import { api, V3 } from '../api';
import { entityTypeOf, NAME_ASPECTS, recordedNameOf, type EntityV3 } from './entity-info';
import { walkLineage, type DegreeBucket, type Direction, type LineageResult } from './lineage-model';

/**
 * What the lineage view waits on: walks a page of results at a time (a hub with hundreds of
 * downstreams shows the first page and a "show more"), the counts of a whole walk by degree, and
 * the names of the entities listed.
 */

export interface PagedWalk {
  results: LineageResult[];
  /** Undefined until the first page is in. */
  total?: number;
  partial: boolean;
  error?: unknown;
  loading: boolean;
  /** Loads the next page; resolves to the index of its first result (where focus should go). */
  more(): Promise<number>;
}

interface State {
  key: string;
  results: LineageResult[];
  total?: number;
  partial: boolean;
  error?: unknown;
  loading: boolean;
}

/** The walk from `urn`, `page` results at a time; `maxHops` 1 for a hop, none for a whole walk. */
export function usePagedWalk(urn: string, direction: Direction, page: number, maxHops?: number): PagedWalk {
  const key = `${urn}|${direction}|${maxHops ?? ''}`;
  const [state, setState] = useState<State>({ key, results: [], partial: false, loading: true });
  const controller = useRef<AbortController>();

  const load = (start: number) => {
    controller.current?.abort();
    const current = (controller.current = new AbortController());
    setState((s) => ({ ...s, loading: true, error: undefined }));
    return walkLineage(urn, direction, { start, count: page, maxHops }, current.signal).then(
      (walk) => {
        if (current.signal.aborted) return start;
        setState((s) => {
          // A page answers a fresh walk: an entity already listed (the graph changed between pages) is not listed twice.
          const known = new Set(s.results.map((r) => r.entity));
          const results = start === 0 ? walk.results : [...s.results, ...walk.results.filter((r) => !known.has(r.entity))];
          return { key, results, total: walk.total, partial: s.partial || walk.partial, loading: false };
        });
        return start;
      },
      (error) => {
        if (!current.signal.aborted) setState((s) => ({ ...s, error, loading: false }));
        return start;
      },
    );
  };

  useEffect(() => {
    setState({ key, results: [], partial: false, loading: true });
    void load(0);
    return () => controller.current?.abort();
  }, [key]);

  const shown = state.key === key ? state : { key, results: [], partial: false, loading: true };
  return { ...shown, more: () => load(shown.results.length) };
}

export interface Footprint {
  degrees?: Record<DegreeBucket, number>;
  partial: boolean;
}

/** Milliseconds the count of a whole walk may take before it answers what it reached. */
const FOOTPRINT_BUDGET_MS = 3000;

/** How far lineage reaches one way: the whole walk's counts by degree, within a short budget. */
export function useFootprint(urn: string, direction: Direction): Footprint {
  const [found, setFound] = useState<{ key: string; footprint: Footprint }>();
  const key = `${urn}|${direction}`;
  useEffect(() => {
    const controller = new AbortController();
    // Counting is a nicety beside the first hop: it may stop at its budget (and say so), or fail quietly.
    walkLineage(urn, direction, { count: 1, budgetMs: FOOTPRINT_BUDGET_MS }, controller.signal).then(
      (walk) => setFound({ key, footprint: { degrees: walk.degrees, partial: walk.partial } }),
      () => undefined,
    );
    return () => controller.abort();
  }, [key]);
  return found?.key === key ? found.footprint : { partial: false };
}

/**
 * The names the listed entities record (`datasetProperties.name`, `dataJobInfo.name`, …): one read
 * for each new page of a hop. Until it answers, or where none is recorded, the URN's name stands.
 */
export function useNames(urns: string[]): Map<string, string> {
  const [names, setNames] = useState<Map<string, string>>(new Map());
  const asked = useRef(new Set<string>());
  // A page's read is not dropped when the next page comes (its names were asked once): only leaving ends it.
  const controller = useRef(new AbortController());
  useEffect(() => () => controller.current.abort(), []);
  const key = urns.join(' ');
  useEffect(() => {
    const missing = urns.filter((u) => !asked.current.has(u));
    if (missing.length === 0) return;
    for (const u of missing) asked.current.add(u);
    const body: Record<string, Array<Record<string, unknown>>> = {};
    for (const urn of missing) (body[entityTypeOf(urn)] ??= []).push({ urn, ...Object.fromEntries(NAME_ASPECTS.map((a) => [a, {}])) });
    api<Record<string, EntityV3[]>>('POST', `${V3}/generic/batchGet`, { body, signal: controller.current.signal }).then(
      ({ body: found }) =>
        setNames((old) => {
          const next = new Map(old);
          for (const entity of Object.values(found).flat()) {
            const name = recordedNameOf(entity);
            if (name) next.set(entity.urn, name);
          }
          return next;
        }),
      () => undefined, // Names are a nicety: the URNs' names stay.
    );
  }, [key]);
  return names;
}
