import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { FailedAuthLimiter } from '../../src/auth/limiter.js';

describe('the failed-auth limiter', () => {
  it('limits an address past `max` failures within the window, for as long as the oldest of them counts', () => {
    const limiter = new FailedAuthLimiter(3, 60_000);
    const t0 = 1_000_000;
    for (let i = 0; i < 3; i++) assert.equal(limiter.fail('10.0.0.1', t0 + i * 1000), 0);
    // The fourth failure within the minute: wait until the first one is a minute old (57 s from t0 + 3 s).
    assert.equal(limiter.fail('10.0.0.1', t0 + 3000), 57);
    assert.equal(limiter.blocked('10.0.0.1', t0 + 3000), 57);
    assert.equal(limiter.blocked('10.0.0.2', t0 + 3000), 0, 'another address is not limited');
    // blocked() only asks: it records nothing.
    assert.equal(limiter.blocked('10.0.0.1', t0 + 59_000), 1);
    // Once the second failure is a minute old, only three remain within the window.
    assert.equal(limiter.blocked('10.0.0.1', t0 + 61_000), 0);
  });

  it('forgets addresses whose failures are all past the window', () => {
    const limiter = new FailedAuthLimiter(2, 1000);
    for (let i = 0; i < 5; i++) limiter.fail(`10.1.0.${i}`, 0);
    assert.equal(limiter.remembered, 5);
    limiter.fail('10.1.1.1', 5000);
    assert.equal(limiter.remembered, 1);
  });

  it('remembers at most `capacity` addresses, forgetting the longest idle first', () => {
    const limiter = new FailedAuthLimiter(2, 60_000, 100);
    for (let i = 0; i < 1000; i++) limiter.fail(`10.2.${i >> 8}.${i & 255}`, i);
    assert.equal(limiter.remembered, 100);
    assert.equal(limiter.blocked('10.2.3.231', 1000), 0);
    limiter.fail('10.2.3.231', 1000);
    limiter.fail('10.2.3.231', 1000);
    assert.ok(limiter.blocked('10.2.3.231', 1000) > 0);
  });

  it('costs the same per failure after 100,000 failures from one address as after none (O(1))', () => {
    const limiter = new FailedAuthLimiter(20, 60_000);
    const timeOf = (from: number) => {
      const began = performance.now();
      for (let i = 0; i < 20_000; i++) limiter.fail('10.3.0.1', from + i);
      return performance.now() - began;
    };
    const first = timeOf(0);
    timeOf(20_000);
    timeOf(40_000);
    timeOf(60_000);
    timeOf(80_000);
    const later = timeOf(100_000);
    // The list-filtering limiter took 0.7 ms a failure at 25k failures: 14 s for these 20,000.
    assert.ok(later < Math.max(5 * first, 50), `20,000 failures took ${first.toFixed(1)} ms at first, ${later.toFixed(1)} ms after 100,000`);
  });
});
