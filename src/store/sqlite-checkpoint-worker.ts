import { parentPort, workerData } from 'node:worker_threads';
import Database from 'better-sqlite3';

/**
 * Worker side of Checkpointer. A PASSIVE checkpoint copies the log back without blocking the
 * writer. Under constant writes the log is never fully copied at a quiet moment (when SQLite would
 * start it over), so past a size a RESTART waits for a gap between commits and starts it over; by
 * then most pages are copied, so the writer waits at most a moment.
 */
const { file, intervalMs } = workerData as { file: string; intervalMs: number };
const RESTART_FRAMES = 16384; // ~64 MiB of 4 KiB pages

const db = new Database(file);
// A RESTART holds back writers while it waits for readers: it gives up soon, so a write never
// waits long on it (the main connection's own busy timeout is 5 s); the next tick tries again.
db.pragma('busy_timeout = 50');
const timer = setInterval(() => {
  try {
    const [result] = db.pragma('wal_checkpoint(PASSIVE)') as Array<{ log: number }>;
    if (result.log > RESTART_FRAMES) db.pragma('wal_checkpoint(RESTART)');
  } catch {
    // The database was busy: the next tick tries again.
  }
}, intervalMs);
parentPort?.on('message', () => {
  clearInterval(timer);
  db.close();
  process.exit(0);
});
