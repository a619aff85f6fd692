import pg from 'pg';
import { StaleWriteError } from '../store.js';
import { storeError } from './errors.js';

export interface PoolOptions {
  /** Query and connection-acquire timeout (ms). */
  timeoutMs?: number;
  /** Connections in the pool. */
  poolSize?: number;
}

/**
 * The connection pool as the store's parts use it: a statement's rows or row count, or a
 * transaction on one connection. Every pg failure leaves here in the store's terms (errors.ts).
 */
export class StorePool {
  readonly pool: pg.Pool;

  constructor(url: string, options: PoolOptions) {
    const timeout = options.timeoutMs ?? 10_000;
    this.pool = new pg.Pool({
      connectionString: url,
      max: options.poolSize ?? 10,
      connectionTimeoutMillis: timeout,
      query_timeout: timeout,
      statement_timeout: timeout,
    });
    // An idle connection that breaks (the server restarted) is dropped by the pool; without a
    // listener its error would crash the process.
    this.pool.on('error', () => {});
  }

  async rows<R extends pg.QueryResultRow>(text: string, values: unknown[] = []): Promise<R[]> {
    try {
      return (await this.pool.query<R>(text, values)).rows;
    } catch (error) {
      throw storeError(error);
    }
  }

  /** The number of rows a statement changed. */
  async count(text: string, values: unknown[]): Promise<number> {
    try {
      return (await this.pool.query(text, values)).rowCount ?? 0;
    } catch (error) {
      throw storeError(error);
    }
  }

  /** Runs `work` between BEGIN and COMMIT on one connection; a failure rolls back. */
  async transaction(work: (client: pg.PoolClient) => Promise<void>): Promise<void> {
    let client: pg.PoolClient;
    try {
      client = await this.pool.connect();
    } catch (error) {
      throw storeError(error);
    }
    let broken = false;
    try {
      await client.query('BEGIN');
      await work(client);
      await client.query('COMMIT');
    } catch (error) {
      await client.query('ROLLBACK').catch(() => (broken = true));
      const translated = storeError(error);
      // A connection the database became unavailable on is dropped, not given back to the pool.
      if (!(translated instanceof StaleWriteError) && translated !== error) broken = true;
      throw translated;
    } finally {
      client.release(broken);
    }
  }

  end(): Promise<void> {
    return this.pool.end();
  }
}
