/**
 * Slows down repeated failed authentication from one address: past `max` failures within the
 * window, further failures from that address answer 429 until old ones age out. Valid tokens are
 * checked first and never counted, so good clients behind the same address are not affected.
 */
export class FailedAuthLimiter {
  private readonly failures = new Map<string, number[]>();

  constructor(
    private readonly max = 20,
    private readonly windowMs = 60_000,
  ) {}

  /** Records a failure; answers how many seconds the address must wait (0: not limited yet). */
  fail(address: string, now = Date.now()): number {
    const recent = (this.failures.get(address) ?? []).filter((t) => now - t < this.windowMs);
    recent.push(now);
    this.failures.set(address, recent);
    if (this.failures.size > 10_000) this.sweep(now);
    return recent.length > this.max ? Math.max(1, Math.ceil((recent[0] + this.windowMs - now) / 1000)) : 0;
  }

  /** Forgets addresses whose failures have all aged out, so memory stays bounded. */
  private sweep(now: number): void {
    for (const [address, times] of this.failures) {
      if (times.every((t) => now - t >= this.windowMs)) this.failures.delete(address);
    }
  }
}
