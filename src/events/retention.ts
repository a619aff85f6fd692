import type { Store } from '../store/store.js';

/** Where pruning reports (app.ts passes Fastify's logger). */
export interface RetentionLog {
  info(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

const HOUR = 3_600_000;

/**
 * Drops change-log events older than the retention: at start, then hourly. 0 keeps everything.
 * The timer does not keep the process alive.
 */
export class ChangeLogRetention {
  private timer?: NodeJS.Timeout;

  constructor(
    private readonly store: Store,
    private readonly retentionMs: number,
    private readonly log?: RetentionLog,
  ) {}

  async start(): Promise<void> {
    if (this.retentionMs <= 0) return;
    await this.prune();
    this.timer = setInterval(() => void this.prune(), HOUR);
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
  }

  /** Prunes once; returns how many events went. */
  async prune(now = Date.now()): Promise<number> {
    try {
      const pruned = await this.store.pruneEvents(now - this.retentionMs);
      if (pruned > 0) this.log?.info({ pruned }, 'change log: dropped events past retention');
      return pruned;
    } catch (error) {
      this.log?.error({ err: error }, 'change log: pruning failed');
      return 0;
    }
  }
}
