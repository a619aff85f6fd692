import { parentPort, workerData } from 'node:worker_threads';
import Database from 'better-sqlite3';

/**
 * Worker side of Checkpointer. A PASSIVE checkpoint copies the log back into the database file
 * without blocking anyone. The log only starts over when a checkpoint has copied all of it and
 * no reader still needs it; under constant writes that moment never comes by itself, so once the
 * log is large and all copied, the worker asks the writing connection to RESTART it, between two
 * of its commits (a RESTART from here would have to wait for the writer, holding back its next
 * commit meanwhile: a commit once failed with "database is locked" behind one).
 */
const { file, intervalMs, restartFrames } = workerData as { file: string; intervalMs: number; restartFrames: number };

const db = new Database(file);
let asked = 0;
const timer = setInterval(() => {
  try {
    const [result] = db.pragma('wal_checkpoint(PASSIVE)') as Array<{ log: number; checkpointed: number }>;
    if (result.log > restartFrames && result.checkpointed === result.log && Date.now() - asked > 1000) {
      asked = Date.now();
      parentPort?.postMessage('restart');
    }
  } catch {
    // The database was busy: the next tick tries again.
  }
}, intervalMs);
parentPort?.on('message', () => {
  clearInterval(timer);
  db.close();
  process.exit(0);
});
