import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { datasetUrn, enc, V2 } from '../helpers.js';
import { reliabilityStores, serveFresh } from './target.js';

const ADMIN = 'urnb_reliability-regex-admin-0123456789abcdefghij';
const TEST = 'urn:li:test:reliability.backtracking';
// Each of these takes a backtracking engine exponential time on a long run of a's with no match.
const CATASTROPHIC = ['(a+)+b', '(a|a)*b', '(a|aa)+b', '^(a*)*$x'];

for (const { kind, skip } of await reliabilityStores()) {
  describe(`regular-expression safety on ${kind}`, { skip }, () => {
    const served = serveFresh(kind, ADMIN);

    it('a catastrophic-backtracking regex_match fails its test cleanly and in linear time, while the server keeps answering', async (t) => {
      const definition = { on: { types: ['dataset'] }, rules: { or: CATASTROPHIC.map((value) => ({ property: 'datasetProperties.description', operator: 'regex_match', value })) } };
      const saved = await served.client.call('POST', `${V2}/test/${enc(TEST)}/testInfo`, {
        name: 'backtracking',
        category: 'Governance',
        definition: { type: 'JSON', json: JSON.stringify(definition) },
      });
      assert.equal(saved.status, 200, JSON.stringify(saved.body));
      const urns = [1_000, 100_000, 1_000_000].map((n) => datasetUrn(`reliability.regex.${n}`));
      for (const [i, urn] of urns.entries()) {
        const description = 'a'.repeat([1_000, 100_000, 1_000_000][i]) + '!';
        assert.equal((await served.client.call('POST', `${V2}/dataset/${enc(urn)}/datasetProperties`, { description })).status, 200);
      }
      let slowestHealth = 0;
      let probing = true;
      // Health probes run alongside the evaluations: none may wait behind a stalled regex.
      const probes = (async () => {
        while (probing) {
          const began = performance.now();
          assert.equal((await served.client.call('GET', '/health')).status, 200);
          slowestHealth = Math.max(slowestHealth, performance.now() - began);
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
      })();
      const times: number[] = [];
      for (const urn of urns) {
        const began = performance.now();
        const answer = await served.client.call('POST', '/gms/test?action=evaluate', { urn, testUrns: [TEST], push: true });
        times.push(performance.now() - began);
        assert.equal(answer.status, 200, JSON.stringify(answer.body));
        assert.deepEqual([answer.body.value.passing.length, answer.body.value.failing.map((r: { test: string }) => r.test)], [0, [TEST]]);
      }
      probing = false;
      await probes;
      // A backtracking engine would not finish these in a lifetime; a linear-time one takes milliseconds.
      assert.ok(times.every((ms) => ms < 5_000), `evaluations took ${times.map((ms) => ms.toFixed(0)).join(', ')} ms`);
      assert.ok(slowestHealth < 2_000, `a health probe waited ${slowestHealth.toFixed(0)} ms`);
      const pushed = await served.client.call('GET', `${V2}/dataset/${enc(urns[2])}/testResults`);
      assert.deepEqual(pushed.body.value.failing.map((r: { test: string }) => r.test), [TEST]);
      t.diagnostic(`${kind}: evaluations over 1k / 100k / 1M characters took ${times.map((ms) => ms.toFixed(0)).join(' / ')} ms; slowest health probe meanwhile ${slowestHealth.toFixed(0)} ms`);
    });

    for (const [pattern, reason] of [
      ['(a)\\1', 'error parsing regexp: invalid escape sequence: `\\1`'],
      ['(?=a)a', 'error parsing regexp: invalid or unsupported Perl syntax: `(?=`'],
    ]) {
      it(`a pattern a linear-time engine cannot run (${pattern}) is refused when the test is saved: 400, nothing stored`, async () => {
        const urn = `urn:li:test:reliability.unsupported.${encodeURIComponent(pattern).length}`;
        const definition = { on: { types: ['dataset'] }, rules: [{ property: 'datasetProperties.description', operator: 'regex_match', value: pattern }] };
        const saved = await served.client.call('POST', `${V2}/test/${enc(urn)}/testInfo`, { name: 'unsupported', category: 'Governance', definition: { type: 'JSON', json: JSON.stringify(definition) } });
        assert.equal(saved.status, 400);
        assert.deepEqual(saved.body, { error: 'Validation Error', message: `rules[0].value: invalid regular expression ${JSON.stringify(pattern)}: ${reason}` });
        assert.equal((await served.client.call('GET', `${V2}/test/${enc(urn)}/testInfo`)).status, 404);
      });
    }
  });
}
