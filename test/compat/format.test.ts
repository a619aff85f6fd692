import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { FixtureError, parseFixture } from '../smoke/fixture.js';
import { parseLexical } from '../smoke/lexical-json.js';
import { runFixture } from '../smoke/runner.js';
import { checkOwnFixture } from './format.js';

/** The rules that keep urnbase's own compatibility files from passing without checking anything. */
const good = { request: { url: '/health', method: 'get', description: 'the server answers' }, response: { status_codes: [200], json: { status: 'ok' } } };
const refused = (steps: unknown[], message: string) =>
  assert.throws(() => checkOwnFixture(parseLexical(JSON.stringify(steps))), (error: unknown) => error instanceof FixtureError && error.message === message);

describe("urnbase's own compatibility files", () => {
  it('accept a step that names its status and asserts its whole body', () => {
    checkOwnFixture(parseLexical(JSON.stringify([good, { ...good, response: { status_codes: [204], text: '' } }])));
  });

  it('refuse a step that would check less', () => {
    refused([], 'a compatibility file is a non-empty list of steps');
    refused([{ request: good.request }], 'step 0: every step asserts its answer (response)');
    refused([{ ...good, response: { status_codes: [200, 204], json: {} } }], 'step 0: response.status_codes names exactly one status');
    refused([{ ...good, response: { json: {} } }], 'step 0: response.status_codes names exactly one status');
    refused([{ ...good, response: { status_codes: [200] } }], 'step 0: the response asserts the body, as json or as text');
    refused([{ ...good, response: { status_codes: [200], json: {}, text: '' } }], 'step 0: the response asserts the body, as json or as text');
    refused([{ ...good, skip: 'later' }], "step 0: no step of urnbase's own suite is skipped");
    refused([{ request: { wait: 1, description: 'a pause' }, response: good.response }], 'step 0: urnbase answers once committed, so its own suite never waits');
    refused([{ request: { url: '/health', method: 'get' }, response: good.response }], 'step 0: say what the step checks in request.description');
  });

  it('let exclude_regex_paths leave out only values that change from run to run', () => {
    const excluding = (pattern: string) => [{ ...good, response: { ...good.response, exclude_regex_paths: [pattern] } }];
    checkOwnFixture(parseLexical(JSON.stringify(excluding("root\\['entities'\\]\\[0\\]\\['systemMetadata'\\]\\['lastObserved'\\]"))));
    checkOwnFixture(parseLexical(JSON.stringify(excluding("root\\['scrollId'\\]"))));
    refused(excluding("root\\['entities'\\]"), `step 0: exclude_regex_paths may leave out only scrollId, time, lastObserved; not ${JSON.stringify("root\\['entities'\\]")}`);
    refused(excluding('.*'), 'step 0: exclude_regex_paths may leave out only scrollId, time, lastObserved; not ".*"');
  });

  it('compare a text body exactly: an empty one is not any one', async () => {
    const steps = parseFixture(JSON.stringify([{ ...good, response: { status_codes: [200], text: '' } }]), {}, { own: true });
    const answer = (body: string) => runFixture(steps, { transport: async () => ({ status: 200, body }) });
    assert.equal((await answer(''))[0].outcome, 'pass');
    const failed = (await answer('{}'))[0];
    assert.equal(failed.outcome, 'fail');
    assert.equal(failed.reason, 'body differs: {}, expected (empty)');
  });

  it('leave `text` unread in DataHub\'s own files, as DataHub\'s runner does', async () => {
    const steps = parseFixture(JSON.stringify([{ ...good, response: { status_codes: [200], text: 'x' } }]));
    assert.equal((await runFixture(steps, { transport: async () => ({ status: 200, body: 'y' }) }))[0].outcome, 'pass');
  });
});
