import pg from 'pg';
import { StaleWriteError } from '../store.js';
import { StoreUnavailableError } from '../../errors.js';
import { storeError } from './errors.js';
import { prepared } from './prepared.js';

export interface PoolOptions {
  /** Query and connection-acquire timeout (ms). */
  timeoutMs?: number;
  /** Connections in the pool. */
  poolSize?: number;
}

/**
 * Each connection's settings, made before its first use (not as startup options, which poolers
 * such as PgBouncer refuse):
 * - custom plans: the best plan for `= ANY($1)` and unnest($1) depends on the arrays' lengths,
 *   which a generic plan cannot know (on small tables it chose sequential scans and hash joins).
 *   Statements are still prepared (prepared.ts): parsing and analysis are not repeated;
 * - no parallel workers: a catalog answers many small queries at once, and a plan costed as
 *   shared by workers reads a table whole where the index has the rows (search_numbers of one
 *   field, 600k rows read in three processes for 145k an index-only scan reads alone);
 * - random reads costed as sequential ones nearly are on SSDs or a cached database (1.1, the
 *   usual setting there; PostgreSQL's default 4 is for spinning disks): the narrow index tables
 *   are read through their indexes, not whole.
 */
export const SESSION_SETTINGS = 'SET plan_cache_mode = force_custom_plan; SET max_parallel_workers_per_gather = 0; SET random_page_cost = 1.1';

/**
 * The connection pool as the store's parts use it: a statement's rows or row count, or a
 * transaction on one connection. Every pg failure leaves here in the store's terms (errors.ts).
 */
export class StorePool {
  readonly pool: pg.Pool;
  /** Errors thrown by a COMMIT (its outcome unknown). */
  private readonly commitFailures = new WeakSet<object>();

  constructor(url: string, options: PoolOptions) {
    const timeout = options.timeoutMs ?? 10_000;
    this.pool = new pg.Pool({
      connectionString: url,
      max: options.poolSize ?? 10,
      connectionTimeoutMillis: timeout,
      query_timeout: timeout,
      statement_timeout: timeout,
      onConnect: async (client: pg.ClientBase) => void (await client.query(SESSION_SETTINGS)),
    });
    // An idle connection that breaks (the server restarted) is dropped by the pool; without a
    // listener its error would crash the process.
    this.pool.on('error', () => {});
  }

  async rows<R extends pg.QueryResultRow>(text: string, values: unknown[] = []): Promise<R[]> {
    try {
      return (await this.pool.query<R>(prepared(text, values))).rows;
    } catch (error) {
      throw storeError(error);
    }
  }

  /** The number of rows a statement changed. */
  async count(text: string, values: unknown[]): Promise<number> {
    try {
      return (await this.pool.query(prepared(text, values))).rowCount ?? 0;
    } catch (error) {
      throw storeError(error);
    }
  }

  /** Runs `work` between BEGIN and COMMIT on one connection; a failure rolls back. */
  async transaction<T>(work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
    let client: pg.PoolClient;
    try {
      client = await this.pool.connect();
    } catch (error) {
      throw storeError(error);
    }
    let broken = false;
    let committing = false;
    try {
      await client.query('BEGIN');
      const result = await work(client);
      committing = true;
      await client.query('COMMIT');
      return result;
    } catch (error) {
      await client.query('ROLLBACK').catch(() => (broken = true));
      const translated = storeError(error);
      // A connection the database became unavailable on is dropped, not given back to the pool.
      if (!(translated instanceof StaleWriteError) && translated !== error) broken = true;
      if (committing) this.commitFailures.add(translated as object);
      throw translated;
    } finally {
      client.release(broken);
    }
  }

  /**
   * Whether a transaction's failure left the database as it was, so its work may be tried again:
   * false when the database was unavailable or COMMIT itself failed (it may have committed).
   */
  rolledBack(error: unknown): boolean {
    return !(error instanceof StoreUnavailableError) && !(typeof error === 'object' && error !== null && this.commitFailures.has(error));
  }

  end(): Promise<void> {
    return this.pool.end();
  }
}

/** How long the server may take to handle a cancel request before its connection is given up. */
const CANCEL_WAIT_MS = 2000;

/**
 * A statement run for a client who may go away (a search): when `signal` fires, or our side's
 * query timeout passes first, the query is cancelled in the database too (PostgreSQL's cancel
 * request, on a connection of its own). Without it a query went on running for nobody until the
 * server's own timeout, or past it: 5,000-criteria searches kept their backends busy some 150 s
 * after the client had its 503. A statement still waiting for a pooled connection when its client
 * goes is not sent at all.
 *
 * A connection whose query the client's leaving cancelled goes back to the pool once both the
 * query has ended (with 57014, or its rows if it finished first) and the server has handled the
 * cancel request (it then closes that request's connection): a backend signalled after that is
 * idle, and PostgreSQL ignores a cancel that arrives while it waits for a command, so it cannot
 * hit the next statement. Dropping the connection instead cost a new one (connect, settings) per
 * abandoned keystroke of an as-you-type search. After a timeout, or a cancel request that did not
 * complete, the connection is dropped: its state is not known.
 */
export async function cancellableRows<T extends pg.QueryResultRow>(pool: pg.Pool, text: string, values: unknown[], signal: AbortSignal): Promise<T[]> {
  signal.throwIfAborted();
  let client: pg.PoolClient;
  try {
    client = await pool.connect();
  } catch (error) {
    throw storeError(error);
  }
  if (signal.aborted) {
    client.release();
    throw signal.reason;
  }
  let cancelled: Promise<boolean> | undefined;
  const cancel = () => void (cancelled ??= cancelQuery(client));
  signal.addEventListener('abort', cancel, { once: true });
  let healthy = true;
  try {
    return (await client.query<T>(text, values)).rows;
  } catch (error) {
    if (signal.aborted) throw signal.reason;
    if (/query read timeout/i.test((error as Error).message)) {
      cancel();
      healthy = false;
    }
    throw storeError(error);
  } finally {
    signal.removeEventListener('abort', cancel);
    if (cancelled && !(await cancelled)) healthy = false;
    client.release(!healthy);
  }
}

/**
 * Asks the server to cancel the client's running statement; true once it has handled the request
 * (or there was nothing to cancel), false if it could not be asked in time.
 */
function cancelQuery(client: pg.PoolClient): Promise<boolean> {
  const busy = client as unknown as { activeQuery: unknown; host: string; port: number };
  if (!busy.activeQuery) return Promise.resolve(true);
  const canceller = new pg.Client({ host: busy.host, port: busy.port }) as unknown as {
    cancel(client: unknown, query: unknown): void;
    on(event: 'error', listener: () => void): void;
    connection: { on(event: 'error', listener: () => void): void; once(event: 'end', listener: () => void): void; end(): void };
  };
  return new Promise<boolean>((resolve) => {
    const timer = setTimeout(() => {
      canceller.connection.end();
      resolve(false);
    }, CANCEL_WAIT_MS);
    const settle = (handled: boolean) => {
      clearTimeout(timer);
      resolve(handled);
    };
    canceller.on('error', () => {});
    canceller.connection.on('error', () => settle(false));
    // The server closes a cancel request's connection once it has signalled the backend.
    canceller.connection.once('end', () => settle(true));
    canceller.cancel(client, busy.activeQuery);
  });
}
