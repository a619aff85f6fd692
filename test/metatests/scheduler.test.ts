import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { TestScheduler } from '../../src/metatests/scheduler.js';
import { datasetUrn, testApp } from '../helpers.js';
import { aspect, brief, defineTest, write } from './fixtures.js';

const TAGGING = {
  on: { types: ['dataset'] },
  rules: [{ property: 'datasetProperties.description', operator: 'exists' }],
  actions: { passing: [{ type: 'ADD_TAGS', params: { values: ['urn:li:tag:Documented'] } }] },
};

describe('tests run off the request path', () => {
  it('re-evaluates an entity shortly after it changes, pushing results and running actions', async () => {
    const t = await testApp({ testsInterval: 0, testsOnChange: true });
    const test = await defineTest(t, 'documented', TAGGING);
    await t.services.scheduler.idle(); // the new test's own scope run
    const urn = datasetUrn('sched.change');
    let evaluations = 0;
    const evaluate = t.services.tests.evaluate.bind(t.services.tests);
    t.services.tests.evaluate = (urns, options) => {
      evaluations++;
      return evaluate(urns, options);
    };
    await write(t, 'dataset', urn, 'datasetProperties', { description: 'described' });
    await t.services.scheduler.idle();
    assert.deepEqual(brief(await aspect(t, 'dataset', urn, 'testResults')), { passing: [test], failing: [] });
    assert.deepEqual(await aspect(t, 'dataset', urn, 'globalTags'), { tags: [{ tag: 'urn:li:tag:Documented' }] });
    await t.services.scheduler.idle();
    assert.equal(evaluations, 1, "the tests' own writes do not trigger another evaluation");
    await t.app.close();
  });

  it('coalesces several changes of one entity into one evaluation', async (ctx) => {
    // A scheduler of its own with a long window: the app's 50 ms one may close between two writes
    // on a loaded machine, and the three changes would then be two evaluations, rightly.
    const t = await testApp({ testsInterval: 0, testsOnChange: false });
    ctx.after(() => t.app.close());
    const scheduler = new TestScheduler(t.services.tests, t.services.registry, { intervalMs: 0, onChange: true, debounceMs: 1_000 }, { info() {}, error() {} });
    scheduler.start(t.services.ingest);
    ctx.after(() => scheduler.close());
    await defineTest(t, 'documented', TAGGING);
    await scheduler.idle();
    const urn = datasetUrn('sched.coalesce');
    const seen: string[][] = [];
    const evaluate = t.services.tests.evaluate.bind(t.services.tests);
    t.services.tests.evaluate = (urns, options) => {
      seen.push([...urns]);
      return evaluate(urns, options);
    };
    await write(t, 'dataset', urn, 'datasetProperties', { description: 'one' });
    await write(t, 'dataset', urn, 'datasetProperties', { description: 'two' });
    await write(t, 'dataset', urn, 'status', { removed: false });
    await scheduler.idle();
    assert.deepEqual(seen, [[urn]]);
  });

  it('re-evaluates the scope of a new or changed test', async () => {
    const t = await testApp({ testsInterval: 0, testsOnChange: true });
    const urns = [datasetUrn('sched.scope.a'), datasetUrn('sched.scope.b')];
    await write(t, 'dataset', urns[0], 'datasetProperties', { description: 'yes' });
    await write(t, 'dataset', urns[1], 'datasetProperties', { name: 'no description' });
    await t.services.scheduler.idle();
    const test = await defineTest(t, 'documented', TAGGING);
    await t.services.scheduler.idle();
    assert.deepEqual(brief(await aspect(t, 'dataset', urns[0], 'testResults')), { passing: [test], failing: [] });
    assert.deepEqual(brief(await aspect(t, 'dataset', urns[1], 'testResults')), { passing: [], failing: [test] });
    await t.app.close();
  });

  it('does nothing on change with --tests-on-change false', async () => {
    const t = await testApp({ testsInterval: 0, testsOnChange: false });
    await defineTest(t, 'documented', TAGGING);
    const urn = datasetUrn('sched.off');
    await write(t, 'dataset', urn, 'datasetProperties', { description: 'described' });
    await t.services.scheduler.idle();
    assert.equal(await aspect(t, 'dataset', urn, 'testResults'), undefined);
    await t.app.close();
  });

  it('runs ACTIVE DAILY tests over the catalog on the interval', async () => {
    const t = await testApp({ testsInterval: 50, testsOnChange: false });
    const test = await defineTest(t, 'documented', TAGGING);
    await defineTest(t, 'ondemand', { on: { types: ['dataset'] }, rules: [] }, { schedule: 'NONE' });
    const urn = datasetUrn('sched.interval');
    await write(t, 'dataset', urn, 'datasetProperties', { description: 'described' });
    for (let i = 0; i < 50 && !(await aspect(t, 'dataset', urn, 'testResults')); i++) await new Promise((r) => setTimeout(r, 20));
    await t.services.scheduler.idle();
    assert.deepEqual(brief(await aspect(t, 'dataset', urn, 'testResults')), { passing: [test], failing: [] });
    await t.app.close();
  });
});
