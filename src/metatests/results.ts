import type { LoadedTest } from './catalog.js';
import type { FailedCondition } from './engine.js';

/** One test's result on one entity, as DataHub's TestResult. */
export interface TestResult {
  test: string;
  type: 'SUCCESS' | 'FAILURE';
  testDefinitionMd5: string;
  lastComputed: { time: number; actor: string };
}

/** Results of an evaluation; failures carry the conditions that failed (in responses only). */
export interface TestResults {
  passing: TestResult[];
  failing: Array<TestResult & { explanation: FailedCondition[] }>;
}

/** A test that selected the entity, and whether the entity passed it. */
export interface EvaluatedTest {
  test: LoadedTest;
  passed: boolean;
}
