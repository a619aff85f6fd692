import { ValidationError } from '../errors.js';
import type { Ingest } from '../ingest/ingest.js';
import { newestEvent } from '../metrics/change-log.js';
import type { Registry } from '../registry/registry.js';
import type { EventFilter, LoggedEvent, Store } from '../store/store.js';
import { quoted } from '../limits.js';

/**
 * Reading the change log (DataHub's MetadataChangeLog, without Kafka): events after a sequence,
 * in commit order, waiting for new ones when asked (long polling). A consumer that keeps the last
 * sequence it handled misses nothing across its restarts or ours, within the retention.
 */

/** An event as the API gives it, in DataHub's MetadataChangeLog terms. */
export interface ChangeLogEvent {
  sequence: number;
  urn: string;
  entityType: string;
  aspectName: string;
  changeType: string;
  created: { time: number; actor: string };
  /** The aspect's value after the change (null for a delete). */
  aspect: unknown;
  /** The value it replaced (null when there was none). */
  previousAspectValue: unknown;
  systemMetadata: unknown;
}

export interface ChangeLogPage {
  events: ChangeLogEvent[];
  /** Where to continue: the last event's sequence, or `after` when there was none. */
  nextAfter: number;
}

/** Which events a reader wants: those of one entity type, aspect and actor, and none of some entity types (each optional). */
export type EventSelection = Pick<EventFilter, 'entityType' | 'excludeEntityTypes' | 'aspect' | 'actor'>;

export const MAX_EVENTS = 1000;
export const MAX_WAIT_SECONDS = 60;
/** How often waiters look for events committed by other processes. */
const POLL_MS = 250;

export class ChangeLog {
  /** Waiters woken by this process's commits (others' are found by polling). */
  private readonly waiters = new Set<() => void>();
  private closing = false;

  constructor(
    private readonly store: Store,
    ingest: Ingest,
  ) {
    ingest.onCommit(() => {
      for (const wake of this.waiters) wake();
    });
  }

  /**
   * Events with a sequence above `after` (of the selection, if any); when there are none, waits up
   * to `waitMs` for one. The events a selection leaves out are passed over once: `nextAfter` moves
   * past them, so a filtered feed does not read them again at each poll.
   */
  async read(after: number, limit: number, waitMs: number, closed?: AbortSignal, only?: EventSelection): Promise<ChangeLogPage> {
    const deadline = Date.now() + waitMs;
    const selective = selects(only);
    for (;;) {
      let events: LoggedEvent[];
      let nextAfter: number;
      if (selective) {
        // The newest event first: what is read up to it is all there is to read up to it.
        const ceiling = await this.newestAbove(after);
        events = ceiling === undefined ? [] : await this.store.readEvents(after, limit, { ...only, upTo: ceiling });
        nextAfter = events.length === limit ? events.at(-1)!.sequence : (ceiling ?? after);
      } else {
        events = await this.store.readEvents(after, limit);
        nextAfter = events.at(-1)?.sequence ?? after;
      }
      if (events.length > 0 || Date.now() >= deadline || closed?.aborted || this.closing) {
        return { events: events.map(toApi), nextAfter };
      }
      after = nextAfter;
      await this.nextChance(Math.min(POLL_MS, deadline - Date.now()), closed);
    }
  }

  /**
   * The newest events (of the selection, if any), at most `count`, oldest first: where a feed
   * starts showing the present. Sequences may skip (a rolled-back commit on PostgreSQL), so an
   * unfiltered page may have fewer.
   */
  async latest(count: number, only?: EventSelection): Promise<ChangeLogPage> {
    if (selects(only)) {
      const ceiling = await this.newestAbove(0);
      if (ceiling === undefined) return { events: [], nextAfter: 0 };
      const events = await this.store.readEvents(0, count, { ...only, upTo: ceiling, newestFirst: true });
      return { events: events.reverse().map(toApi), nextAfter: ceiling };
    }
    const newest = await newestEvent(this.store);
    if (!newest) return { events: [], nextAfter: 0 };
    return this.read(Math.max(0, newest.sequence - count), count, 0);
  }

  /** The newest event's sequence, when it is above `after`. */
  private async newestAbove(after: number): Promise<number | undefined> {
    return (await this.store.readEvents(after, 1, { newestFirst: true }))[0]?.sequence;
  }

  /** Ends every wait now (the server is shutting down): waiting reads answer with what there is. */
  close(): void {
    this.closing = true;
    for (const wake of this.waiters) wake();
  }

  /** Resolves at this process's next commit, after `ms`, or when the request goes away. */
  private nextChance(ms: number, closed?: AbortSignal): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.waiters.delete(done);
        closed?.removeEventListener('abort', done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.waiters.add(done);
      closed?.addEventListener('abort', done);
    });
  }
}

/** `latest`, or `after`, `limit` and `wait`, as the API takes them (strings from the query), checked. */
export function readParameters(query: { after?: string; limit?: string; wait?: string; latest?: string }): { after: number; limit: number; waitMs: number; latest?: number } {
  if (query.latest !== undefined) {
    if (query.after !== undefined || query.limit !== undefined || query.wait !== undefined) {
      throw new ValidationError('latest reads the newest events: it cannot be combined with after, limit or wait');
    }
    if (!/^\d{1,4}$/.test(query.latest) || Number(query.latest) < 1 || Number(query.latest) > MAX_EVENTS) {
      throw new ValidationError(`latest must be an integer from 1 to ${MAX_EVENTS}, got ${JSON.stringify(query.latest)}`);
    }
    return { after: 0, limit: Number(query.latest), waitMs: 0, latest: Number(query.latest) };
  }
  const after = query.after ?? '0';
  if (!/^\d{1,15}$/.test(after)) throw new ValidationError(`after must be a sequence number (a non-negative integer), got ${JSON.stringify(after)}`);
  const limit = query.limit ?? '100';
  if (!/^\d{1,4}$/.test(limit) || Number(limit) < 1 || Number(limit) > MAX_EVENTS) {
    throw new ValidationError(`limit must be an integer from 1 to ${MAX_EVENTS}, got ${JSON.stringify(limit)}`);
  }
  const wait = query.wait ?? '0';
  if (!/^\d{1,2}(\.\d{1,3})?$/.test(wait) || Number(wait) > MAX_WAIT_SECONDS) {
    throw new ValidationError(`wait must be a number of seconds from 0 to ${MAX_WAIT_SECONDS}, got ${JSON.stringify(wait)}`);
  }
  return { after: Number(after), limit: Number(limit), waitMs: Math.round(Number(wait) * 1000) };
}

/**
 * `entityType`, `excludeEntityTypes` (comma-separated), `aspect` and `actor` as the API takes them,
 * checked against the registry and spelled as stored (an entity type or aspect named in another
 * case reads the same events).
 */
export function readSelection(query: { entityType?: string; excludeEntityTypes?: string; aspect?: string; actor?: string }, registry: Registry): EventSelection {
  const only: EventSelection = {};
  const entityType = (field: string, name: string) => {
    const spec = registry.entityType(name);
    if (!spec) throw new ValidationError(`${field}: unknown entity type ${quoted(name)}`);
    return spec.name;
  };
  if (query.entityType !== undefined && query.entityType !== '') only.entityType = entityType('entityType', query.entityType);
  const excluded = (query.excludeEntityTypes ?? '').split(',').map((name) => name.trim()).filter((name) => name !== '');
  if (excluded.length > 0) only.excludeEntityTypes = [...new Set(excluded.map((name) => entityType('excludeEntityTypes', name)))];
  if (query.aspect !== undefined && query.aspect !== '') {
    const aspect = registry.entityTypes().map((e) => registry.aspectOf(e, query.aspect!)).find((a) => a !== undefined);
    if (!aspect) throw new ValidationError(`aspect: no entity type has an aspect ${quoted(query.aspect)}`);
    only.aspect = aspect.name;
  }
  if (query.actor !== undefined && query.actor !== '') {
    if (!query.actor.startsWith('urn:li:')) throw new ValidationError(`actor: expected the actor's URN (urn:li:corpuser:…), got ${quoted(query.actor)}`);
    only.actor = query.actor;
  }
  return only;
}

/** Whether a selection leaves any event out. */
function selects(only: EventSelection | undefined): boolean {
  return only !== undefined && Object.values(only).some((v) => v !== undefined && !(Array.isArray(v) && v.length === 0));
}

function toApi(e: LoggedEvent): ChangeLogEvent {
  return {
    sequence: e.sequence,
    urn: e.urn,
    entityType: e.entityType,
    aspectName: e.aspect,
    changeType: e.changeType,
    created: e.created,
    aspect: e.value ?? null,
    previousAspectValue: e.previousValue ?? null,
    systemMetadata: e.systemMetadata ?? null,
  };
}
