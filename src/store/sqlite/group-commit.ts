import { StaleWriteError, type CommitBatch } from '../store.js';
import type { SqliteWriter } from './writer.js';

interface PendingCommit {
  batch: CommitBatch;
  resolve: () => void;
  reject: (error: unknown) => void;
}

/** What the store does as each batch of a group settles. */
export interface CommitListener {
  /** The batch is committed (before its promise resolves). */
  committed(batch: CommitBatch): void;
  /** A batch lost its compare-and-set: someone else wrote. */
  stale(): void;
}

/**
 * Rows, index entries and events a group may have to be written in one go: about 10–20 ms of
 * statements. A larger group is written in slices that share the event loop (commitSliced), so
 * a batch of 5,000 new datasets no longer holds every other request for 0.7 s.
 */
const WHOLE_UNITS = 2000;

/**
 * Group commit: batches that arrive while the event loop is busy are written in one SQLite
 * transaction, so a commit's fixed cost is shared (see SqliteWriter.commit); every promise
 * settles after that commit, so an acknowledged write is still a committed one. Groups are
 * written one at a time, in order.
 */
export class GroupCommit {
  private pending: PendingCommit[] = [];
  private scheduled = false;
  /** A sliced commit under way: until it settles, the connection is in its transaction. */
  private sliced?: Promise<void>;

  constructor(
    private readonly writer: SqliteWriter,
    private readonly listener: CommitListener,
  ) {}

  /** While a sliced commit is under way, a promise of its end: the store's other work waits for it. */
  get busy(): Promise<void> | undefined {
    return this.sliced;
  }

  commit(batch: CommitBatch): Promise<void> {
    return new Promise((resolve, reject) => {
      this.pending.push({ batch, resolve, reject });
      this.schedule();
    });
  }

  private schedule(): void {
    if (this.scheduled || this.sliced || this.pending.length === 0) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      this.flush();
    });
  }

  private flush(): void {
    const group = this.pending;
    this.pending = [];
    if (units(group) <= WHOLE_UNITS) {
      this.settle(group, this.writer.commit(group.map((p) => p.batch)));
      this.schedule();
      return;
    }
    this.sliced = this.writer.commitSliced(group.map((p) => p.batch)).then(
      (failures) => this.settle(group, failures),
      (error: unknown) => this.settle(group, group.map(() => (error instanceof Error ? error : new Error(String(error))))),
    );
    void this.sliced.finally(() => {
      this.sliced = undefined;
      this.schedule();
    });
  }

  private settle(group: readonly PendingCommit[], failures: ReadonlyArray<Error | undefined>): void {
    group.forEach((pending, i) => {
      const failure = failures[i];
      if (failure instanceof StaleWriteError) this.listener.stale();
      if (failure) return pending.reject(failure);
      this.listener.committed(pending.batch);
      pending.resolve();
    });
  }
}

/** How much a group writes: its rows, events and index values. */
function units(group: readonly PendingCommit[]): number {
  let n = 0;
  for (const { batch } of group) {
    n += batch.writes.length + batch.events.length + (batch.points?.length ?? 0);
    for (const entry of batch.index ?? []) n += 1 + entry.addTerms.length + entry.removeTerms.length + entry.addNumbers.length + entry.removeNumbers.length;
  }
  return n;
}
