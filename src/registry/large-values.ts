import { Worker } from 'node:worker_threads';
import { ValidationError } from '../errors.js';

/** JSON characters past which a value is checked against its schema on the validation thread. */
export const LARGE_VALUE_CHARS = 256 * 1024;

interface Pending {
  resolve: () => void;
  reject: (error: Error) => void;
}

/**
 * Checks large aspect values (LARGE_VALUE_CHARS and more) against their JSON Schemas on a worker
 * thread of its own, started on first use. Validation is one synchronous call that cannot yield:
 * 200,000 tags, each URN parsed, held the event loop 300–500 ms. The value goes over as the JSON
 * text the write path has made anyway (a copy of a string, not a clone of an object graph); the
 * answer is the same ValidationError the main thread would have thrown.
 */
export class LargeValueValidator {
  private worker?: Worker;
  private readonly pending = new Map<number, Pending>();
  private next = 0;

  constructor(private readonly dataDir: string) {}

  validate(entity: string, aspect: string, json: string): Promise<void> {
    const worker = (this.worker ??= this.start());
    const id = this.next++;
    return new Promise<void>((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      worker.ref();
      worker.postMessage({ id, entity, aspect, json });
    });
  }

  private start(): Worker {
    const worker = new Worker(new URL('./validation-worker.js', import.meta.url), { workerData: { dataDir: this.dataDir } });
    worker.on('message', ({ id, error }: { id: number; error?: string }) => {
      const pending = this.pending.get(id);
      this.pending.delete(id);
      // An idle validation thread does not keep the process alive.
      if (this.pending.size === 0) worker.unref();
      if (error === undefined) pending?.resolve();
      else pending?.reject(new ValidationError(error));
    });
    worker.on('error', (error) => {
      for (const pending of this.pending.values()) pending.reject(error);
      this.pending.clear();
      this.worker = undefined;
    });
    worker.unref();
    return worker;
  }
}
