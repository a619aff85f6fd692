import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import Database from 'better-sqlite3';
import pg from 'pg';
import { migrate } from '../../src/store/sqlite/migrate.js';
import { SqlitePoints } from '../../src/store/sqlite/timeseries.js';
import { migratePostgresAt } from '../../src/store/postgres/migrate.js';
import { SESSION_SETTINGS, type StorePool } from '../../src/store/postgres/pool.js';
import { PostgresPoints } from '../../src/store/postgres/timeseries.js';
import { createTestDatabase, postgresAvailable, PG_SKIP_MESSAGE } from '../pg.js';

/**
 * The point reads walk an index in order, on both stores: the latest point of (urn, aspect) and
 * a time range never scan the table or sort what they read, whatever the table holds. Every
 * statement the points modules send is recorded and explained over 20,000 points.
 */

const URN = (i: number) => `urn:li:dataset:(urn:li:dataPlatform:hive,plan_${i},PROD)`;
const POINTS = 20_000;
const ENTITIES = 200;

/** What each module is asked: every read, a delete and a prune. */
async function exercise(points: {
  read: (urn: string, aspect: string, q: { start?: number; end?: number; before?: { timestampMillis: number; key: string }; limit: number }) => unknown;
  latest: (pairs: Array<{ urn: string; aspect: string }>) => unknown;
  scroll: (type: string, aspect: string, q: { start?: number; end?: number; after?: { timestampMillis: number; id: number }; limit: number }) => unknown;
}): Promise<void> {
  await points.read(URN(7), 'datasetProfile', { limit: 1 });
  // Ranges inside the data (timestamps 0–99, 200 entities at each): an empty range is cheap whatever the plan.
  await points.read(URN(7), 'datasetProfile', { start: 10, end: 60, limit: 10 });
  await points.read(URN(7), 'datasetProfile', { before: { timestampMillis: 50, key: '' }, limit: 10 });
  await points.latest([{ urn: URN(7), aspect: 'datasetProfile' }, { urn: URN(8), aspect: 'operation' }]);
  await points.scroll('dataset', 'datasetProfile', { limit: 10 });
  await points.scroll('dataset', 'datasetProfile', { start: 50, end: 60, after: { timestampMillis: 55, id: 1_000 }, limit: 10 });
}

describe('timeseries point plans', () => {
  it('SQLite: every statement searches an index, none scans the table or sorts', async () => {
    const db = new Database(':memory:');
    migrate(db);
    const prepared: string[] = [];
    const recording = new Proxy(db, {
      get(target, property, receiver) {
        if (property === 'prepare') return (sql: string) => (prepared.push(sql), target.prepare(sql));
        const member = Reflect.get(target, property, receiver);
        return typeof member === 'function' ? member.bind(target) : member;
      },
    });
    const points = new SqlitePoints(recording);
    db.transaction(() => {
      for (let i = 0; i < POINTS; i++) {
        points.writePoint({ urn: URN(i % ENTITIES), entityType: 'dataset', aspect: 'datasetProfile', timestampMillis: Math.floor(i / ENTITIES), key: '', value: { timestampMillis: Math.floor(i / ENTITIES) }, systemMetadata: { lastObserved: 1 }, written: { time: 1, actor: 'a' } });
      }
    })();
    await exercise({ read: (u, a, q) => points.read(u, a, q), latest: (p) => points.latest(p), scroll: (t, a, q) => points.scroll(t, a, q) });
    assert.ok(prepared.length >= 8, 'the module prepares its statements');
    for (const sql of prepared) {
      const params = Array(sql.split('?').length - 1).fill(1);
      const plan = db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...params) as Array<{ detail: string }>;
      const details = plan.map((p) => p.detail).join(' | ');
      if (sql.startsWith('INSERT')) continue;
      assert.doesNotMatch(details, /SCAN timeseries_points|TEMP B-TREE/, `${sql}\n→ ${details}`);
      assert.match(details, /USING (COVERING )?INDEX timeseries_points_|INTEGER PRIMARY KEY/, `${sql}\n→ ${details}`);
    }
    db.close();
  });

  it('PostgreSQL: every read is an index scan in order, no sequential scan, no sort', async (t) => {
    if (!(await postgresAvailable())) return t.skip(PG_SKIP_MESSAGE);
    const database = await createTestDatabase();
    await migratePostgresAt(database.url);
    const pool = new pg.Pool({ connectionString: database.url, max: 2, onConnect: async (client: pg.ClientBase) => void (await client.query(SESSION_SETTINGS)) } as pg.PoolConfig);
    pool.on('error', () => undefined);
    try {
      await pool.query(
        `INSERT INTO timeseries_points (urn, aspect, entity_type, timestamp_millis, point_key, value, system_metadata, created_on, created_by)
         SELECT 'urn:li:dataset:(urn:li:dataPlatform:hive,plan_' || (i % ${ENTITIES}) || ',PROD)', 'datasetProfile', 'dataset', i / ${ENTITIES}, '',
                '{"timestampMillis":' || (i / ${ENTITIES}) || '}', '{"lastObserved":1}', 1, 'a'
           FROM generate_series(0, ${POINTS - 1}) AS i`,
      );
      await pool.query('ANALYZE timeseries_points');
      const sent: Array<[string, unknown[]]> = [];
      const db = {
        rows: async (text: string, values: unknown[] = []) => (sent.push([text, values]), (await pool.query(text, values)).rows),
        count: async (text: string, values: unknown[]) => (sent.push([text, values]), (await pool.query(text, values)).rowCount ?? 0),
      } as unknown as StorePool;
      const points = new PostgresPoints(db);
      await exercise({ read: (u, a, q) => points.read(u, a, q), latest: (p) => points.latest(p), scroll: (t, a, q) => points.scroll(t, a, q) });
      assert.equal(sent.length, 6);
      for (const [text, values] of sent) {
        const { rows } = await pool.query(`EXPLAIN (FORMAT JSON) ${text}`, values);
        const plan = JSON.stringify(rows[0]['QUERY PLAN']);
        assert.doesNotMatch(plan, /"Seq Scan"|"Node Type":"Sort"|"Bitmap Heap Scan"/, `${text}\n→ ${plan}`);
        assert.match(plan, /"Index Scan"/, `${text}\n→ ${plan}`);
      }
    } finally {
      await pool.end();
      await database.drop();
    }
  });
});
