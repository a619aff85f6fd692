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
 * Group commit: batches that arrive while the event loop is busy are written in one SQLite
 * transaction, so a commit's fixed cost is shared (see SqliteWriter.commit); every promise
 * settles after that commit, so an acknowledged write is still a committed one.
 */
export class GroupCommit {
  private pending: PendingCommit[] = [];

  constructor(
    private readonly writer: SqliteWriter,
    private readonly listener: CommitListener,
  ) {}

  commit(batch: CommitBatch): Promise<void> {
    return new Promise((resolve, reject) => {
      this.pending.push({ batch, resolve, reject });
      if (this.pending.length === 1) setImmediate(() => this.flush());
    });
  }

  private flush(): void {
    const group = this.pending;
    this.pending = [];
    const failures = this.writer.commit(group.map((p) => p.batch));
    group.forEach((pending, i) => {
      const failure = failures[i];
      if (failure instanceof StaleWriteError) this.listener.stale();
      if (failure) return pending.reject(failure);
      this.listener.committed(pending.batch);
      pending.resolve();
    });
  }
}
