import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { describe, it } from 'node:test';

/**
 * limitHeapGrowth sets a V8 flag once the process runs, which V8 must still honour: a child
 * process keeps 300k objects alive and allocates batches of garbage, and its heap stays under 4×
 * what a full collection leaves (about 3× with the limit, young generation included; V8's default
 * let it reach about 5×).
 */
describe('limitHeapGrowth', () => {
  it('keeps the heap near its live set while garbage is allocated', () => {
    const child = `
      import v8 from 'node:v8';
      import { runInNewContext } from 'node:vm';
      const { limitHeapGrowth } = await import(${JSON.stringify(new URL('../src/heap-growth.js', import.meta.url).href)});
      limitHeapGrowth(30);
      const live = Array.from({ length: 300_000 }, (_, i) => ({ name: 'entity ' + i, values: [i, i + 1] }));
      let batch = [], most = 0;
      for (let round = 0; round < 60; round++) {
        batch = Array.from({ length: 20_000 }, (_, i) => ({ urn: 'urn:li:dataset:' + round + '.' + i, value: { description: 'text ' + i, list: [i] } }));
        most = Math.max(most, v8.getHeapStatistics().total_heap_size);
      }
      v8.setFlagsFromString('--expose-gc');
      runInNewContext('gc')();
      console.log(JSON.stringify({ most, live: v8.getHeapStatistics().used_heap_size, kept: live.length + batch.length }));`;
    const { most, live } = JSON.parse(execFileSync(process.execPath, ['--input-type=module', '-e', child], { encoding: 'utf8' })) as { most: number; live: number };
    assert.ok(most < 4 * live, `the heap reached ${(most / 2 ** 20).toFixed(0)} MiB for ${(live / 2 ** 20).toFixed(0)} MiB alive`);
  });
});
