/**
 * The SQLite baseline of a write: the least work a tags write needs under urnbase's rules, on
 * better-sqlite3 alone, as the bare route is the HTTP baseline. Each write updates the latest row
 * in place, appends the old value to history and an event to the log, swaps one keyword row and
 * rewrites the entity's full-text document (FTS5 'delete' with the old text, then insert); 16
 * writes share a WAL commit (synchronous NORMAL), as with urnbase's 16 connections. Compare with
 * `write-path.js`, whose "SQLite transaction" is urnbase's own.
 *
 * It also shows why the writer never copies a row with INSERT … SELECT (writer.ts): such a
 * statement into a table with NOT NULL columns runs in a savepoint, and FTS5 writes its pending
 * terms out at every savepoint.
 *
 * usage: node dist/bench/sqlite-floor.js [--rounds <n>]
 */
import { parseArgs } from 'node:util';
import Database from 'better-sqlite3';
import { fmt, makeTempDir, median, removeTempDir } from './harness.js';

const { values: flags } = parseArgs({ options: { rounds: { type: 'string', default: '3' } } });
const ROUNDS = Number(flags.rounds);
if (!Number.isInteger(ROUNDS) || ROUNDS < 1) throw new Error('--rounds expects a positive integer');
const DATASETS = 1000;
const GROUP = 16;
const GROUPS = 3000;

const urn = (i: number) => `urn:li:dataset:(urn:li:dataPlatform:hive,db.t${i},PROD)`;
const tags = (n: number) => JSON.stringify({ tags: [{ tag: 'urn:li:tag:pii' }, { tag: 'urn:li:tag:tier1' }, { tag: `urn:li:tag:t${n}` }] });
const words = (n: number) => `pii\ntier1\nt${n}`;
const cpu = () => {
  const { user, system } = process.cpuUsage();
  return user + system;
};

/** CPU µs per write of the least transaction, with or without the full-text rewrite (median of the rounds). */
function leastWrite(dir: string, fullText: boolean): number {
  const db = new Database(`${dir}/floor-${fullText}.db`);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.exec(`CREATE TABLE aspects (id INTEGER PRIMARY KEY, urn TEXT NOT NULL, aspect TEXT NOT NULL, metadata TEXT NOT NULL, version INTEGER NOT NULL, history_id INTEGER);
    CREATE UNIQUE INDEX aspects_key ON aspects (urn, aspect);
    CREATE TABLE history (id INTEGER PRIMARY KEY, previous_id INTEGER, urn TEXT NOT NULL, aspect TEXT NOT NULL, metadata TEXT NOT NULL, version INTEGER NOT NULL);
    CREATE TABLE log (sequence INTEGER PRIMARY KEY AUTOINCREMENT, aspect_id INTEGER NOT NULL, version INTEGER NOT NULL);
    CREATE TABLE terms (field INTEGER, value TEXT, urn TEXT, PRIMARY KEY (field, value, urn)) WITHOUT ROWID;
    CREATE VIRTUAL TABLE text USING fts5(keywords, content = '');`);
  const s = {
    insert: db.prepare('INSERT INTO aspects (urn, aspect, metadata, version) VALUES (?, ?, ?, 1)'),
    current: db.prepare<[string], { id: number; version: number; history_id: number | null; metadata: string }>(
      `SELECT id, version, history_id, metadata FROM aspects WHERE urn = ? AND aspect = 'globalTags'`,
    ),
    archive: db.prepare(`INSERT INTO history (previous_id, urn, aspect, metadata, version) VALUES (?, ?, 'globalTags', ?, ?)`),
    update: db.prepare('UPDATE aspects SET metadata = ?, version = ?, history_id = ? WHERE id = ?'),
    log: db.prepare('INSERT INTO log (aspect_id, version) VALUES (?, ?)'),
    termDelete: db.prepare('DELETE FROM terms WHERE field = 1 AND value = ? AND urn = ?'),
    termInsert: db.prepare('INSERT OR IGNORE INTO terms (field, value, urn) VALUES (1, ?, ?)'),
    textDelete: db.prepare(`INSERT INTO text (text, rowid, keywords) VALUES ('delete', ?, ?)`),
    textInsert: db.prepare('INSERT INTO text (rowid, keywords) VALUES (?, ?)'),
  };
  const last = new Map<number, number>();
  db.transaction(() => {
    for (let i = 0; i < DATASETS; i++) {
      const id = Number(s.insert.run(urn(i), 'globalTags', tags(i)).lastInsertRowid);
      s.termInsert.run(`urn:li:tag:t${i}`, urn(i));
      if (fullText) s.textInsert.run(id, words(i));
      last.set(i, i);
    }
  })();
  let n = 1_000_000;
  const group = db.transaction((k: number) => {
    for (let j = 0; j < GROUP; j++) {
      const i = (k * GROUP + j) % DATASETS;
      const old = last.get(i)!;
      n++;
      const c = s.current.get(urn(i))!;
      const archived = Number(s.archive.run(c.history_id, urn(i), c.metadata, c.version).lastInsertRowid);
      s.update.run(tags(n), c.version + 1, archived, c.id);
      s.log.run(c.id, c.version + 1);
      s.termDelete.run(`urn:li:tag:t${old}`, urn(i));
      s.termInsert.run(`urn:li:tag:t${n}`, urn(i));
      if (fullText) {
        s.textDelete.run(c.id, words(old));
        s.textInsert.run(c.id, words(n));
      }
      last.set(i, n);
    }
  });
  const perWrite: number[] = [];
  for (let round = 0; round <= ROUNDS; round++) {
    const start = cpu();
    for (let k = 0; k < GROUPS; k++) group(k);
    if (round > 0) perWrite.push((cpu() - start) / (GROUPS * GROUP));
  }
  db.close();
  return median(perWrite);
}

/** µs per copy of a row into a table with a NOT NULL column, by INSERT … SELECT or by a read and an insert, with full-text changes pending or not. */
function copyCost(dir: string): Record<string, number> {
  const db = new Database(`${dir}/copy.db`);
  db.pragma('journal_mode = WAL');
  db.exec(`CREATE TABLE a (id INTEGER PRIMARY KEY, v TEXT NOT NULL); CREATE TABLE h (id INTEGER PRIMARY KEY, v TEXT NOT NULL);
    CREATE VIRTUAL TABLE t USING fts5(k, content = '');`);
  const add = db.prepare('INSERT INTO a (v) VALUES (?)');
  for (let i = 0; i < DATASETS; i++) add.run(`value ${i}`);
  const select = db.prepare('INSERT INTO h (v) SELECT v FROM a WHERE id = ?');
  const read = db.prepare<[number], string>('SELECT v FROM a WHERE id = ?').pluck();
  const insert = db.prepare('INSERT INTO h (v) VALUES (?)');
  const text = db.prepare('INSERT INTO t (rowid, k) VALUES (?, ?)');
  let rowid = 1;
  const result: Record<string, number> = {};
  for (const [how, copy] of [
    ['INSERT … SELECT', (id: number) => select.run(id)],
    ['read, then INSERT', (id: number) => insert.run(read.get(id))],
  ] as const) {
    for (const pending of [false, true]) {
      let ns = 0n;
      const group = db.transaction((k: number) => {
        for (let j = 0; j < GROUP; j++) {
          if (pending) text.run(rowid++, `word${rowid} other${j}`);
          const t = process.hrtime.bigint();
          copy(1 + ((k * GROUP + j) % DATASETS));
          ns += process.hrtime.bigint() - t;
        }
      });
      for (let k = 0; k < GROUPS; k++) group(k);
      result[`${how}, ${pending ? 'full-text changes pending' : 'no full-text change pending'}`] = Number(ns) / 1000 / (GROUPS * GROUP);
    }
  }
  db.close();
  return result;
}

const dir = await makeTempDir('urnbase-sqlite-floor-');
try {
  console.log(`the least SQLite transaction of a tags write, ${GROUP} writes a commit, ${fmt(GROUPS * GROUP)} writes a round, median of ${ROUNDS} rounds (CPU):`);
  console.log(`  with the full-text rewrite:    ${fmt(leastWrite(dir, true), 1)} µs a write`);
  console.log(`  without it:                    ${fmt(leastWrite(dir, false), 1)} µs a write`);
  console.log('copying a row to history inside a transaction:');
  for (const [what, us] of Object.entries(copyCost(dir))) console.log(`  ${what.padEnd(58)} ${fmt(us, 2)} µs`);
} finally {
  await removeTempDir(dir);
}
