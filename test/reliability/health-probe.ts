import { Worker } from 'node:worker_threads';

export interface ProbeStats {
  n: number;
  p50: number;
  p99: number;
  max: number;
}

/**
 * /health asked every 10 ms, one request at a time, from a worker thread: the test's own work
 * (building and sending big bodies, parsing answers) must not delay the probe's clock, or the
 * figures would be the client's, not the server's.
 */
export class HealthProbe {
  private readonly worker: Worker;

  constructor(base: string) {
    this.worker = new Worker(new URL('./health-probe-worker.js', import.meta.url), { workerData: { base } });
  }

  /** Stops probing; the latencies seen, in ms. */
  async stop(): Promise<ProbeStats> {
    const times = await new Promise<number[]>((resolve, reject) => {
      this.worker.once('message', resolve);
      this.worker.once('error', reject);
      this.worker.postMessage('stop');
    });
    await this.worker.terminate();
    return stats(times);
  }
}

export function stats(times: readonly number[]): ProbeStats {
  const sorted = [...times].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
  return { n: sorted.length, p50: at(0.5), p99: at(0.99), max: sorted[sorted.length - 1] ?? 0 };
}

export const show = (s: ProbeStats) => `${s.n} probes, p50 ${s.p50.toFixed(1)} / p99 ${s.p99.toFixed(1)} / max ${s.max.toFixed(1)} ms`;
