import { Pacer } from '../pace.js';
import type { AspectVersion } from '../store/store.js';
import type { AspectDiffer } from './differ.js';
import { changeEvent, heaviest, type ChangeCategory, type ChangeEvent, type ChangeTransaction, type PatchOperation, type SemVerChange } from './model.js';
import { rawDiff } from './raw-diff.js';
import { formatVersion, nextVersion, type SemanticVersion } from './semver.js';
import { compare } from './values.js';

/** What a timeline is computed for. */
export interface TimelineQuery {
  urn: string;
  categories: readonly ChangeCategory[];
  /** The window, epoch millis: versions written at or after `start` and before `end`. */
  start: number;
  end: number;
  raw: boolean;
}

/** The value before an aspect's first version (DataHub's sentinel): nothing. */
const NOTHING = undefined;

/** One aspect change of one category, before changes at the same time are merged. */
interface Change {
  timestamp: number;
  actor: string;
  semVerChange: SemVerChange;
  events: ChangeEvent[];
  rawDiff?: PatchOperation[];
}

/**
 * DataHub's timeline from an entity's versions (Store.getHistory): per aspect, the versions written
 * in the window, compared each with the one before (the first with the version before the window,
 * or with nothing when it is the aspect's first); the changes of the categories asked for, grouped
 * by time; each group a semantic version (0.0.0 first, then bumped by its heaviest change) and a
 * version stamp of every aspect as it stood then. Oldest first.
 */
export async function computeTimeline(versions: readonly AspectVersion[], query: TimelineQuery, differs: ReadonlyMap<string, AspectDiffer>): Promise<ChangeTransaction[]> {
  const timelines = new Map<string, Array<AspectVersion | typeof NOTHING>>();
  for (const [aspect, rows] of byAspect(versions)) timelines.set(aspect, inWindow(rows, query));
  const changes = new Map<number, Change[]>();
  const pacer = new Pacer();
  for (const [aspect, timeline] of timelines) {
    const differ = differs.get(aspect);
    const categories = query.categories.filter((c) => differ?.categories.includes(c));
    if (!differ || categories.length === 0) continue;
    for (let i = 1; i < timeline.length; i++) {
      const previous = timeline[i - 1];
      const current = timeline[i]!;
      const raw = query.raw ? rawDiff(previous?.value ?? {}, current.value) : undefined;
      for (const category of categories) {
        const change = changeOf(differ, previous, current, category, query.urn, raw);
        if (!change) continue;
        const group = changes.get(change.timestamp);
        if (group) group.push(change);
        else changes.set(change.timestamp, [change]);
      }
      if (pacer.due()) await pacer.pace();
    }
  }
  const transactions: ChangeTransaction[] = [];
  let version: SemanticVersion | undefined;
  for (const timestamp of [...changes.keys()].sort((a, b) => a - b)) {
    const group = changes.get(timestamp)!;
    const semVerChange = heaviest(group.map((c) => c.semVerChange));
    version = nextVersion(version, semVerChange);
    // A group is its first change (its actor and raw diff, as DataHub merges them) with every event.
    const [first] = group;
    transactions.push({
      timestamp,
      actor: first.actor,
      semVer: formatVersion(version),
      semVerChange,
      changeEvents: group.flatMap((c) => c.events),
      ...(first.rawDiff ? { rawDiff: first.rawDiff } : {}),
      versionStamp: versionStamp(timelines, timestamp),
    });
  }
  return transactions;
}

function byAspect(versions: readonly AspectVersion[]): Map<string, AspectVersion[]> {
  const aspects = new Map<string, AspectVersion[]>();
  for (const v of versions) {
    const rows = aspects.get(v.aspect);
    if (rows) rows.push(v);
    else aspects.set(v.aspect, [v]);
  }
  for (const rows of aspects.values()) rows.sort((a, b) => a.version - b.version);
  return new Map([...aspects].sort(([a], [b]) => compare(a, b)));
}

/**
 * The versions of one aspect a timeline compares: those in the window, after the one they are
 * compared with first (the version before, or NOTHING before a first version). An aspect with none
 * in the window keeps its latest version, which only the version stamps read.
 */
function inWindow(rows: readonly AspectVersion[], { start, end }: TimelineQuery): Array<AspectVersion | typeof NOTHING> {
  const inside = rows.filter((r) => r.created.time >= start && r.created.time < end);
  if (inside.length === 0) return rows.filter((r) => r.latest);
  const before = inside[0].version === 1 ? NOTHING : rows.find((r) => r.version === inside[0].version - 1);
  return [before, ...inside];
}

function changeOf(
  differ: AspectDiffer,
  previous: AspectVersion | undefined,
  current: AspectVersion,
  category: ChangeCategory,
  urn: string,
  raw: PatchOperation[] | undefined,
): Change | undefined {
  const stamp = { timestamp: current.created.time, actor: current.created.actor, ...(raw ? { rawDiff: raw } : {}) };
  try {
    const events = differ.events(previous?.value, current.value, category, urn);
    if (events.length === 0) return undefined;
    return { ...stamp, semVerChange: heaviest(events.map((e) => e.semVerChange)), events };
  } catch (error) {
    // As DataHub: a change that cannot be computed is reported, and the rest of the timeline stands.
    const reason = error instanceof Error ? error.message : String(error);
    const description = `The ${category} changes of ${differ.aspect} version ${current.version} could not be computed: ${reason}`;
    return { ...stamp, semVerChange: 'EXCEPTIONAL', events: [changeEvent({ entityUrn: urn, category, semVerChange: 'EXCEPTIONAL', description })] };
  }
}

/**
 * `aspect:version;…` sorted by aspect: each aspect's version as it stood at `timestamp` (the one
 * written then, or the last one before), numbered as DataHub numbers versions (0 the latest, N
 * the N-th value otherwise). Aspects with no version by then are left out.
 */
function versionStamp(timelines: ReadonlyMap<string, ReadonlyArray<AspectVersion | typeof NOTHING>>, timestamp: number): string {
  const parts: string[] = [];
  for (const [aspect, timeline] of timelines) {
    let standing: AspectVersion | undefined;
    for (const v of timeline) {
      if (!v) continue;
      if (v.created.time > timestamp) break;
      if (v.created.time === timestamp) {
        standing = v;
        break;
      }
      standing = v;
    }
    if (standing) parts.push(`${aspect}:${standing.latest ? 0 : standing.version}`);
  }
  return parts.join(';');
}
