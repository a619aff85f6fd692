import { newestEvent } from '../metrics/change-log.js';
import type { LoggedEvent, Store } from '../store/store.js';

const PAGE = 1000;

/**
 * Tails the change log for changes made by other processes on the same store (replicas), so that
 * what this process caches follows them: every `intervalMs` it reads the events after the last one
 * it saw and hands them on. Its own commits come round too; the caches it feeds only drop entries,
 * so hearing of a change twice costs a reload, never a wrong answer.
 */
export class ChangeFollower {
  private last = 0;
  private timer?: NodeJS.Timeout;
  private polling = false;

  constructor(
    private readonly store: Store,
    private readonly onEvents: (events: readonly LoggedEvent[]) => void,
    private readonly intervalMs = 400,
  ) {}

  /** Starts after the newest event: what happened before this process started is not news. */
  async start(): Promise<void> {
    this.last = (await newestEvent(this.store))?.sequence ?? 0;
    this.timer = setInterval(() => void this.poll(), this.intervalMs);
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
  }

  /** Reads everything newer than the last event seen (one poll at a time; a failed one is retried next time). */
  async poll(): Promise<void> {
    if (this.polling) return;
    this.polling = true;
    try {
      for (;;) {
        const events = await this.store.readEvents(this.last, PAGE);
        if (events.length === 0) return;
        this.onEvents(events);
        this.last = events[events.length - 1].sequence;
        if (events.length < PAGE) return;
      }
    } catch {
      // The store is unreachable for now: the next poll tries again from the same place.
    } finally {
      this.polling = false;
    }
  }
}
