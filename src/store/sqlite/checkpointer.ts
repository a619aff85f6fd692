import { Worker } from 'node:worker_threads';

/**
 * Runs SQLite WAL checkpoints on a worker thread with its own connection, so that copying pages
 * back into the database file (and the fsync that follows) never stalls the event loop serving
 * requests. The main connection turns its own auto-checkpoint off.
 */
export class Checkpointer {
  private readonly worker: Worker;
  private readonly exited: Promise<void>;

  /**
   * `restart` runs on the writing connection when the worker finds the log past `restartBytes`
   * and all copied back.
   */
  constructor(file: string, restart: () => void, restartBytes: number, intervalMs = 100) {
    const restartFrames = Math.ceil(restartBytes / 4096); // frames of SQLite's default 4 KiB pages
    this.worker = new Worker(new URL('./checkpoint-worker.js', import.meta.url), { workerData: { file, intervalMs, restartFrames } });
    this.worker.on('message', restart);
    this.exited = new Promise((resolve) => this.worker.once('exit', () => resolve()));
    this.worker.unref();
  }

  async stop(): Promise<void> {
    this.worker.ref(); // keep the process alive until the worker has closed its connection
    this.worker.postMessage('stop');
    await this.exited;
  }
}
