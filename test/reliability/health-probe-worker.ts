import { parentPort, workerData } from 'node:worker_threads';

/** The probe's thread (health-probe.ts): asks /health until told to stop, then posts the latencies. */
const { base } = workerData as { base: string };
const times: number[] = [];
let running = true;
parentPort!.once('message', () => (running = false));
while (running) {
  const began = performance.now();
  const res = await fetch(`${base}/health`);
  await res.text();
  if (res.status !== 200) throw new Error(`/health answered ${res.status}`);
  times.push(performance.now() - began);
  await new Promise((r) => setTimeout(r, 10));
}
parentPort!.postMessage(times);
