import { parentPort, workerData } from 'node:worker_threads';
import { ValidationError } from '../errors.js';
import { Registry } from './registry.js';

/** The validation thread (large-values.ts): the registry's schemas, checked off the event loop. */
const registry = Registry.load(workerData.dataDir as string);
parentPort!.on('message', ({ id, entity, aspect, json }: { id: number; entity: string; aspect: string; json: string }) => {
  try {
    const type = registry.entityType(entity);
    const spec = type && registry.aspectOf(type, aspect);
    if (!spec) throw new ValidationError(`Unknown aspect ${aspect} for entity type ${entity}`);
    registry.validate(spec, JSON.parse(json));
    parentPort!.postMessage({ id });
  } catch (error) {
    parentPort!.postMessage({ id, error: (error as Error).message });
  }
});
