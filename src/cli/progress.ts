/** Progress and counts for long CLI runs. */

const WIDTH = 20;

/** 12345 → "12,345": counts are read by people. */
export function count(n: number): string {
  return n.toLocaleString('en-US');
}

/** Entities per second; a run too fast to time still gets a finite rate. */
export function rate(done: number, elapsedMs: number): number {
  return Math.round(done / Math.max(elapsedMs / 1000, 0.001));
}

/** `[#########...........] 45% 4,500/10,000 entities, 2,310/s` (no carriage return). */
export function progressLine(done: number, total: number, elapsedMs: number, unit = 'entities'): string {
  const fraction = total > 0 ? Math.min(done / total, 1) : 1;
  const filled = Math.round(fraction * WIDTH);
  const bar = '#'.repeat(filled) + '.'.repeat(WIDTH - filled);
  return `[${bar}] ${Math.floor(fraction * 100)}% ${count(done)}/${count(total)} ${unit}, ${count(rate(done, elapsedMs))}/s`;
}

/** Redraws one line in place on a terminal; clear() leaves the line empty for what follows. */
export class ProgressBar {
  private readonly start = Date.now();

  constructor(
    private readonly write: (text: string) => void,
    private readonly total: number,
    private readonly unit = 'entities',
  ) {}

  update(done: number): void {
    this.write(`\r${progressLine(done, this.total, Date.now() - this.start, this.unit)}`);
  }

  clear(): void {
    this.write('\r\x1b[K');
  }
}
