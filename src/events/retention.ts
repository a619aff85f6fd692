import type { Store } from '../store/store.js';

/** Where pruning reports (app.ts passes Fastify's logger). */
export interface RetentionLog {
  info(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

const HOUR = 3_600_000;

/**
 * A retention: prunes what is older than `retentionMs` at start, then hourly; 0 keeps everything.
 * The timer does not keep the process alive.
 */
export abstract class HourlyRetention {
  private timer?: NodeJS.Timeout;

  constructor(protected readonly retentionMs: number) {}

  async start(): Promise<void> {
    if (this.retentionMs <= 0) return;
    await this.prune();
    this.timer = setInterval(() => void this.prune(), HOUR);
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
  }

  /** Prunes once; returns how many records went (never throws: a failure is logged). */
  abstract prune(now?: number): Promise<number>;
}

/** Drops change-log events older than the retention (`--events-retention`). */
export class ChangeLogRetention extends HourlyRetention {
  constructor(
    private readonly store: Store,
    retentionMs: number,
    private readonly log?: RetentionLog,
  ) {
    super(retentionMs);
  }

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
