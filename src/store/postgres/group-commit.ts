import type { CommitBatch } from '../store.js';
import type { StorePool } from './pool.js';
import { writeGroup } from './writer.js';

interface PendingCommit {
  batch: CommitBatch;
  /** The entities the batch writes or indexes. */
  urns: Set<string>;
  resolve: () => void;
  reject: (error: unknown) => void;
}

/** Transactions of groups in flight at once: one writes its rows while the other waits for its commit's WAL flush. */
const IN_FLIGHT = 2;
/** The most batches in one group (bounds a transaction's statements' size). */
const MAX_GROUP = 256;

/**
 * Group commit on PostgreSQL: batches that arrive while earlier groups are being written go
 * into one transaction (writer.ts writes it in a fixed number of statements). Each commit waits
 * for its WAL flush, which bounds one transaction per request to about 2,000 writes/s here
 * whatever it holds; a group shares that wait. Every promise settles after its group's COMMIT,
 * so an acknowledged write is still a committed one.
 *
 * A group holds no two batches of the same entity (a later one waits for the next group), so each
 * row is written once per statement and a batch's compare-and-set is independent of the others'.
 * If the group's transaction fails before COMMIT (a deadlock, an aspect inserted concurrently,
 * any error), it is rolled back and each batch is retried in a transaction of its own, so the
 * failure reaches only the batch that caused it.
 */
export class PostgresGroupCommit {
  private pending: PendingCommit[] = [];
  private inFlight = 0;
  private scheduled = false;

  constructor(private readonly db: StorePool) {}

  commit(batch: CommitBatch): Promise<void> {
    return new Promise((resolve, reject) => {
      const urns = new Set([...batch.writes.map((w) => w.urn), ...(batch.index ?? []).map((w) => w.urn), ...(batch.points ?? []).map((p) => p.urn), ...(batch.pointRemovals ?? []).map((r) => r.urn)]);
      this.pending.push({ batch, urns, resolve, reject });
      // At the end of the turn: the batches of every request that arrived with this one join it.
      if (!this.scheduled) {
        this.scheduled = true;
        setImmediate(() => {
          this.scheduled = false;
          this.next();
        });
      }
    });
  }

  private next(): void {
    while (this.inFlight < IN_FLIGHT && this.pending.length > 0) {
      const group = this.take();
      this.inFlight++;
      void this.write(group).finally(() => {
        this.inFlight--;
        this.next();
      });
    }
  }

  /** The oldest pending batches that share no entity, up to MAX_GROUP; the others stay, in order. */
  private take(): PendingCommit[] {
    const group: PendingCommit[] = [];
    const rest: PendingCommit[] = [];
    const claimed = new Set<string>();
    for (const pending of this.pending) {
      if (group.length < MAX_GROUP && ![...pending.urns].some((urn) => claimed.has(urn))) {
        group.push(pending);
        for (const urn of pending.urns) claimed.add(urn);
      } else {
        rest.push(pending);
        // A later batch of the same entity must not overtake this one.
        for (const urn of pending.urns) claimed.add(urn);
      }
    }
    this.pending = rest;
    return group;
  }

  private async write(group: PendingCommit[]): Promise<void> {
    let outcomes;
    try {
      outcomes = await this.db.transaction((client) => writeGroup(client, group.map((p) => p.batch)));
    } catch (error) {
      if (group.length === 1 || !this.db.rolledBack(error)) return group.forEach((p) => p.reject(error));
      for (const pending of group) await this.alone(pending);
      return;
    }
    group.forEach((pending, i) => (outcomes[i] ? pending.reject(outcomes[i]) : pending.resolve()));
  }

  private async alone(pending: PendingCommit): Promise<void> {
    try {
      const [outcome] = await this.db.transaction((client) => writeGroup(client, [pending.batch]));
      if (outcome) pending.reject(outcome);
      else pending.resolve();
    } catch (error) {
      pending.reject(error);
    }
  }
}
