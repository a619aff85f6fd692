import { randomBytes } from 'node:crypto';
import pg from 'pg';

/**
 * The one PostgreSQL fixture of the tests: every test that needs PostgreSQL creates a database of
 * its own here and drops it after. URNBASE_TEST_POSTGRES_URL names the server, as the URL of a
 * database to connect to while creating and dropping the others (CI: trust auth on 127.0.0.1:5432).
 * (URNBASE_TEST_POSTGRES=1 is another matter: it runs the whole suite on PostgreSQL, see helpers.ts.)
 */
export const PG_ADMIN_URL = process.env.URNBASE_TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

let answered: Promise<boolean> | undefined;

/** Whether a PostgreSQL server answers (asked once per process). */
export function postgresAvailable(): Promise<boolean> {
  answered ??= (async () => {
    // Generous: on a busy CI machine a connection took longer than 3 s, and the tests that need
    // PostgreSQL were skipped as if there were none.
    const client = new pg.Client({ connectionString: PG_ADMIN_URL, connectionTimeoutMillis: 15_000 });
    client.on('error', () => {});
    try {
      await client.connect();
      await client.query('SELECT 1');
      return true;
    } catch {
      return false;
    } finally {
      await client.end().catch(() => {});
    }
  })();
  return answered;
}

export const PG_SKIP_MESSAGE = `PostgreSQL not reachable at ${new URL(PG_ADMIN_URL).host}: skipping the PostgreSQL tests`;

export interface TestDatabase {
  url: string;
  drop(): Promise<void>;
}

async function admin<T>(work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: PG_ADMIN_URL, connectionTimeoutMillis: 5000 });
  client.on('error', () => {});
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** Databases of this process not dropped yet: a failed test may never reach its drop(). */
const undropped = new Set<string>();
let sweeping = false;
process.on('beforeExit', () => {
  if (sweeping || undropped.size === 0) return;
  sweeping = true;
  void Promise.all([...undropped].map((name) => dropDatabase(name).catch(() => {})));
});

function dropDatabase(name: string): Promise<void> {
  // FORCE: a pool not yet closed (a failed test) must not keep the database alive.
  return admin((c) => c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)).then(() => void undropped.delete(name));
}

/** A uniquely named, empty database, so runs never see each other's data; drop() removes it. */
export async function createTestDatabase(): Promise<TestDatabase> {
  const name = `urnbase_test_${process.pid}_${randomBytes(4).toString('hex')}`;
  await admin((c) => c.query(`CREATE DATABASE ${name}`));
  undropped.add(name);
  const url = new URL(PG_ADMIN_URL);
  url.pathname = `/${name}`;
  return { url: url.toString(), drop: () => dropDatabase(name) };
}
