import type pg from 'pg';
import { prepared } from './prepared.js';

/**
 * A one-row join that takes the transaction's serial lock: every writer takes it, within its
 * write statement, before it appends events (writer.ts: sequences then become visible in commit
 * order) or moves a count (search-index.ts), and holds it to COMMIT. A join needs its row before
 * it yields any, so the lock is held before the part's first row is written; and as only holders
 * touch count rows, no writer waits for a count row while holding something another waits for.
 */
export const SERIAL_LOCK = '(SELECT pg_advisory_xact_lock(7202612)) AS serial';

/**
 * One statement made of data-modifying CTEs, so that a group's writes to several tables cost one
 * round trip (on this kind of machine a round trip to PostgreSQL costs more than the work it
 * carries). Parameters are numbered as they are added. Every part runs on the statement's one
 * snapshot and none sees another's changes, so no two parts may change the same row: the callers
 * net their writes first (a row is written once) and read before they write.
 */
export class WriteStatement {
  private readonly parts: string[] = [];
  private readonly counted: string[] = [];
  private readonly values: unknown[] = [];

  /** A parameter's placeholder, cast to `type`. */
  param(value: unknown, type: string): string {
    this.values.push(value);
    return `$${this.values.length}::${type}`;
  }

  /**
   * An array of JSON texts (null for SQL NULL) as a text[] expression, sent as ONE json parameter:
   * `[t1,t2,…]`, the texts joined as they are. As a text[] parameter each text was escaped into
   * an array literal (a backslash before every quote) by the driver, 6% of urnbase's CPU in an
   * ingestion run, and the texts grew by their quotes. PostgreSQL's json keeps each element's
   * text as written, so `e::text` gives back exactly the text sent.
   */
  jsonTexts(texts: ReadonlyArray<string | null>): string {
    const placeholder = this.param(`[${texts.map((t) => t ?? 'null').join(',')}]`, 'json');
    return `ARRAY(SELECT CASE WHEN json_typeof(e) = 'null' THEN NULL ELSE e::text END FROM json_array_elements(${placeholder}) WITH ORDINALITY AS j(e, i) ORDER BY i)`;
  }

  /** A part, named so that later parts can read it (its RETURNING rows, or its SELECT's). */
  add(name: string, sql: string): void {
    this.parts.push(`${name} AS (${sql})`);
  }

  /** A part whose number of rows (RETURNING 1) `run` returns under its name. */
  addCounted(name: string, sql: string): void {
    this.add(name, sql);
    this.counted.push(name);
  }

  /** Runs the parts (nothing when there are none); the counted parts' row counts by name. */
  async run(client: pg.ClientBase): Promise<Record<string, number>> {
    if (this.parts.length === 0) return {};
    const counts = this.counted.map((name) => `(SELECT count(*) FROM ${name})::int AS ${name}`);
    const { rows } = await client.query<Record<string, number>>(
      prepared(`WITH ${this.parts.join(',\n')} SELECT ${counts.length > 0 ? counts.join(', ') : '1 AS done'}`, this.values),
    );
    return rows[0];
  }
}
