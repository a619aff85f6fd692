import type { EntityView } from '../read/read.js';
import type { TestDefinition } from './definition.js';
import type { Evaluator, Verdict } from './engine.js';
import type { LoadedHops } from './hops.js';

/**
 * Every entity's verdict on every definition. Evaluation is synchronous; the pairs that met a
 * hop target not loaded yet are evaluated again once the targets they noted are loaded.
 */
export async function verdicts(
  evaluator: Evaluator,
  entities: readonly EntityView[],
  definitions: readonly TestDefinition[],
  hops: LoadedHops,
  explain: boolean,
): Promise<Verdict[][]> {
  const verdicts = entities.map(() => new Array<Verdict>(definitions.length));
  let retry: Array<[number, number]> = [];
  for (let e = 0; e < entities.length; e++) {
    for (let t = 0; t < definitions.length; t++) {
      const verdict = evaluator.evaluate(definitions[t], entities[e], hops, explain);
      if (verdict) verdicts[e][t] = verdict;
      else retry.push([e, t]);
    }
  }
  // Each round loads one more level of hops (a URN hop, or a level of a lineage step's edges), so
  // this ends within the longest path's length plus its lineage step's hops.
  while (retry.length > 0) {
    await hops.fetch();
    const pending = retry;
    retry = [];
    for (const [e, t] of pending) {
      const verdict = evaluator.evaluate(definitions[t], entities[e], hops, explain);
      if (verdict) verdicts[e][t] = verdict;
      else retry.push([e, t]);
    }
  }
  return verdicts;
}
