/**
 * The baselines: a bare Fastify 5 server doing the HTTP and JSON work of an aspect read and an
 * aspect upsert, and nothing else; and, when given a database file, the durable upsert: the least
 * a versioned write needs, committed to SQLite before the answer.
 * Usage: node dist/bench/bare-server.js <port> [<sqlite file>]
 */
import Database from 'better-sqlite3';
import Fastify from 'fastify';

const port = Number(process.argv[2]);
const file = process.argv[3];

const app = Fastify({
  logger: false,
  exposeHeadRoutes: false,
  // Same router settings as urnbase: the benchmark sends percent-encoded URNs as the id.
  routerOptions: { maxParamLength: 8192 },
});

// Shaped and sized like urnbase's GET …/{urn}/globalTags response for a seeded dataset.
const stored = { value: { tags: [{ tag: 'urn:li:tag:pii' }, { tag: 'urn:li:tag:tier1' }, { tag: 'urn:li:tag:t0' }] } };

app.get<{ Params: { id: string } }>('/bare/:id', async () => stored);

// Shaped like urnbase's upsert response: {urn, aspects: {globalTags: {value}}}.
const answer = (id: string, body: unknown) => ({ urn: id, aspects: { globalTags: { value: body } } });
app.post<{ Params: { id: string }; Body: unknown }>('/bare/:id', async (req) => answer(req.params.id, req.body));

if (file) {
  const durable = durableWrites(file);
  app.post<{ Params: { id: string }; Body: unknown }>('/durable/:id', async (req) => {
    await durable(req.params.id, JSON.stringify(req.body));
    return answer(req.params.id, req.body);
  });
}

/**
 * The durable baseline of issue 39: each POST replaces the latest row, moves the old one to
 * history and appends a change-log row, committed (WAL, synchronous=NORMAL) before the answer;
 * the writes of one event-loop turn share a transaction, as urnbase's group commit does. No
 * validation, no search index, no graph: what any versioned store must do, and no more.
 */
function durableWrites(path: string): (urn: string, value: string) => Promise<void> {
  const db = new Database(path);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.exec(`CREATE TABLE IF NOT EXISTS aspects (id INTEGER PRIMARY KEY, urn TEXT NOT NULL, aspect TEXT NOT NULL, metadata TEXT NOT NULL,
             version INTEGER NOT NULL, created_on INTEGER NOT NULL, UNIQUE (urn, aspect));
           CREATE TABLE IF NOT EXISTS history (id INTEGER PRIMARY KEY, urn TEXT NOT NULL, aspect TEXT NOT NULL, metadata TEXT NOT NULL,
             version INTEGER NOT NULL, created_on INTEGER NOT NULL);
           CREATE TABLE IF NOT EXISTS change_log (sequence INTEGER PRIMARY KEY AUTOINCREMENT, urn TEXT NOT NULL, aspect TEXT NOT NULL,
             value TEXT NOT NULL, created_on INTEGER NOT NULL);`);
  const current = db.prepare<[string], { id: number; metadata: string; version: number; created_on: number }>(
    `SELECT id, metadata, version, created_on FROM aspects WHERE urn = ? AND aspect = 'globalTags'`,
  );
  const archive = db.prepare(`INSERT INTO history (urn, aspect, metadata, version, created_on) VALUES (?, 'globalTags', ?, ?, ?)`);
  const update = db.prepare('UPDATE aspects SET metadata = ?, version = ?, created_on = ? WHERE id = ?');
  const insert = db.prepare(`INSERT INTO aspects (urn, aspect, metadata, version, created_on) VALUES (?, 'globalTags', ?, 1, ?)`);
  const log = db.prepare(`INSERT INTO change_log (urn, aspect, value, created_on) VALUES (?, 'globalTags', ?, ?)`);
  const commit = db.transaction((writes: ReadonlyArray<{ urn: string; value: string }>) => {
    const now = Date.now();
    for (const { urn, value } of writes) {
      const row = current.get(urn);
      if (row) {
        archive.run(urn, row.metadata, row.version, row.created_on);
        update.run(value, row.version + 1, now, row.id);
      } else insert.run(urn, value, now);
      log.run(urn, value, now);
    }
  });
  let pending: Array<{ urn: string; value: string; done: () => void; failed: (error: unknown) => void }> = [];
  return (urn, value) =>
    new Promise((done, failed) => {
      if (pending.length === 0) {
        setImmediate(() => {
          const group = pending;
          pending = [];
          try {
            commit(group);
            for (const w of group) w.done();
          } catch (error) {
            for (const w of group) w.failed(error);
          }
        });
      }
      pending.push({ urn, value, done, failed });
    });
}

for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.once(signal, () => void app.close().then(() => process.exit(0)));
}
await app.listen({ port, host: '127.0.0.1' });
