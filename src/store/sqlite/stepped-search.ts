import Database from 'better-sqlite3';
import { StoreUnavailableError } from '../../errors.js';
import { Pacer } from '../../pace.js';
import type { SearchQuery, SearchResult } from '../search-types.js';
import { SqliteSearch } from './search.js';

/**
 * Searches that stop when their client has gone (api/client-gone.ts), on a read connection of
 * their own.
 *
 * better-sqlite3 runs a statement synchronously on the event loop's thread and offers neither
 * sqlite3_interrupt nor a progress handler: while a statement runs, no 'close' event can be seen
 * and nothing can stop it. So a search is run as steps (a statement begun, a row read: one
 * sqlite3_step each) and, once it has run a slice (pace.ts, 10 ms), it pauses for a turn of the
 * event loop, in which other requests are answered and a client's close is seen; when the signal
 * has fired, no further step is taken: the statement's iterator is closed (which resets it) and
 * the read transaction ends. An as-you-type search abandoned for the next keystroke is left
 * within a slice, instead of running to its end ahead of the one the user waits for.
 *
 * The pause needs a connection that is the search's alone: on the store's connection an open
 * iterator refuses every other statement (commits, reads) and a commit made meanwhile would join
 * the search's read transaction. Here one read transaction still holds the search's statements to
 * one snapshot (its total and its page agree), whatever is committed while it pauses. Searches
 * take turns on the connection (one thread runs them all anyway); one whose client left while it
 * waited is not begun. A worker thread was not chosen: a statement cannot be interrupted there
 * either (the same missing interrupt), and every search would pay two hand-offs for it, which on
 * two cores cost more than they save (see DESIGN.md on SQLite's commits).
 *
 * An aggregate (a count) is one step however long it takes: it is not left midway. Counts are
 * read from the per-value counts where the index has them, so the long steps are few.
 */
export class SteppedSearch {
  private readonly db: Database.Database;
  private readonly searcher: SqliteSearch;
  private queue: Promise<unknown> = Promise.resolve();
  /** A search holds a read transaction (paused or not). */
  private open = false;
  /** The store is closing: searches stop at their next pause, and none begins. */
  private closing = false;
  /** Searches stopped because their client had gone, begun or still waiting their turn. */
  cancelled = 0;
  /** Tests only: runs before each step (a test makes steps slow, to have a search still running when its client goes). */
  beforeStep?: () => void;

  constructor(file: string) {
    this.db = new Database(file, { readonly: true, fileMustExist: true });
    this.db.pragma('busy_timeout = 5000');
    // The index's pages that searches read (64 MiB, used as filled only; the store's connection has its own).
    this.db.pragma('cache_size = -65536');
    this.searcher = new SqliteSearch(this.db, undefined, undefined, true);
  }

  /** Whether a search's read transaction is open: the write-ahead log cannot start over meanwhile. */
  get reading(): boolean {
    return this.open;
  }

  search(query: SearchQuery): Promise<SearchResult> {
    const turn = this.queue.then(() => this.answer(query));
    this.queue = turn.catch(() => {});
    return turn;
  }

  private async answer(query: SearchQuery): Promise<SearchResult> {
    const signal = query.signal;
    this.stopIfGone(signal);
    const pacer = new Pacer();
    const steps = this.searcher.steps(query);
    this.db.exec('BEGIN');
    this.open = true;
    try {
      for (;;) {
        this.beforeStep?.();
        const step = steps.next();
        if (step.done) return step.value;
        if (pacer.due()) {
          await pacer.pace();
          this.stopIfGone(signal);
        }
      }
    } finally {
      // Closes the statement being read, if any, before the transaction ends.
      steps.return(undefined as never);
      this.db.exec('COMMIT');
      this.open = false;
    }
  }

  private stopIfGone(signal: AbortSignal | undefined): void {
    if (this.closing) throw new StoreUnavailableError('The store is closing');
    if (!signal?.aborted) return;
    this.cancelled++;
    throw signal.reason;
  }

  /** Closes the connection once the search under way, if any, has stopped (at its next pause). */
  async close(): Promise<void> {
    this.closing = true;
    await this.queue;
    this.db.close();
  }
}
