import { TooLargeError, ValidationError } from '../../errors.js';
import { isRecord } from '../../json.js';
import { LIMITS, quoted } from '../../limits.js';
import { Pacer } from '../../pace.js';
import type { AspectView, Reader } from '../../read/read.js';
import type { Registry } from '../../registry/registry.js';
import { ifVersionMatch } from '../entity-writes.js';
import { requestUrn } from '../urns.js';

/** One item of a batchGet body: a URN, and the aspects asked for (name → `{headers?}`). */
export interface BatchGetItem {
  urn: string;
  aspects: ReadonlyMap<string, unknown>;
  /** Where in the body, for errors. */
  where: string;
}

/** URNs read at a time. */
const READ_SLICE = 500;

interface Wanted {
  urn: string;
  /** Canonical aspect name → version (0: latest); empty: every aspect, latest. */
  versions: Map<string, number>;
}

/**
 * DataHub's batchGet: each entity with the aspects asked for (every aspect when none is named or
 * none is known), each at the version its `If-Version-Match` header names (default 0, the
 * latest). Entities without any of them are left out; the order is the request's, a URN asked
 * twice is read once with both asks.
 */
export async function readBatch(reader: Reader, registry: Registry, items: readonly BatchGetItem[]): Promise<Array<{ urn: string; aspects: Map<string, AspectView> }>> {
  checkBatchSize(items.length);
  const pacer = new Pacer();
  const wanted = new Map<string, Wanted>();
  for (const item of items) {
    const { urn, entity } = requestUrn(registry, item.urn);
    let entry = wanted.get(urn.text);
    if (!entry) wanted.set(urn.text, (entry = { urn: urn.text, versions: new Map() }));
    for (const [name, ask] of item.aspects) {
      const version = askedVersion(ask, `${item.where}.${name}`);
      // Unknown names are skipped, as DataHub does.
      const aspect = registry.aspectOf(entity, name);
      if (aspect) entry.versions.set(aspect.name, version);
    }
    await pacer.pace();
  }
  const isLatest = (w: Wanted) => [...w.versions.values()].every((v) => v === 0);
  const found = new Map<string, Map<string, AspectView>>();
  // Latest values in one read per set of names asked (usually one set for the whole batch).
  const bySet = new Map<string, Wanted[]>();
  for (const w of wanted.values()) {
    if (!isLatest(w)) continue;
    const key = [...w.versions.keys()].sort().join(',');
    const group = bySet.get(key);
    if (group) group.push(w);
    else bySet.set(key, [w]);
  }
  for (const [key, group] of bySet) {
    const names = key === '' ? undefined : new Set(key.split(','));
    // In slices, so that a large batch shares the event loop with other requests.
    for (let i = 0; i < group.length; i += READ_SLICE) {
      const views = await reader.getEntities(group.slice(i, i + READ_SLICE).map((w) => w.urn), names, { points: true });
      for (const [urn, view] of views) found.set(urn, names ? new Map([...view.aspects].filter(([name]) => names.has(name))) : view.aspects);
      await pacer.pace();
    }
  }
  for (const w of wanted.values()) {
    if (isLatest(w)) continue;
    const aspects = new Map<string, AspectView>();
    for (const [name, version] of w.versions) {
      const aspect = await reader.getAspect(w.urn, name, version);
      if (aspect) aspects.set(name, aspect);
    }
    found.set(w.urn, aspects);
    await pacer.pace();
  }
  return [...wanted.keys()].flatMap((urn) => {
    const aspects = found.get(urn);
    return aspects && aspects.size > 0 ? [{ urn, aspects }] : [];
  });
}

/** Refuses a batchGet of more than LIMITS.batchReadUrns URNs (routes call it as soon as they know the count). */
export function checkBatchSize(urns: number): void {
  if (urns > LIMITS.batchReadUrns) {
    throw new TooLargeError(`A batchGet may name at most ${LIMITS.batchReadUrns.toLocaleString('en-US')} URNs; this one names ${urns.toLocaleString('en-US')}`);
  }
}

/** The version an aspect's ask names in its `headers` (If-Version-Match), 0 by default. */
function askedVersion(ask: unknown, where: string): number {
  if (ask === undefined || ask === null) return 0;
  if (!isRecord(ask)) throw new ValidationError(`${where} must be an object: {} or {"headers": {"If-Version-Match": "<version>"}}`);
  const version = ifVersionMatch(ask.headers, `${where}.headers`);
  if (version === undefined) return 0;
  if (!/^\d+$/.test(version.trim())) throw new ValidationError(`${where}.headers.If-Version-Match must be a version (0 or more), got ${quoted(version)}`);
  return Number(version);
}
