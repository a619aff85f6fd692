import { parentPort, workerData } from 'node:worker_threads';
import { buildCore } from '../core.js';
import { Registry } from '../registry/registry.js';
import { openStoreAt } from '../store/open.js';
import { report, type PoolMessage, type RunPlan, type WorkerMessage } from './run-pool.js';

/**
 * Worker side of RunPool: opens the store (without a checkpointer of its own: the calling
 * thread's keeps the log short) and evaluates the pages it is sent, pushing results when asked.
 */
const port = parentPort!;
const plan = workerData as RunPlan;
const store = await openStoreAt(plan.location, { dbPoolSize: 2 });
const { tests } = buildCore(store, Registry.load());

port.on('message', async (message: PoolMessage) => {
  if (message.kind === 'close') {
    await store.close();
    return port.close();
  }
  let reply: WorkerMessage;
  try {
    reply = { id: message.id, counts: await tests.runPage(message.page, plan.tests, { push: plan.push, actor: plan.actor }) };
  } catch (error) {
    reply = { id: message.id, error: report(error) };
  }
  port.postMessage(reply);
});
