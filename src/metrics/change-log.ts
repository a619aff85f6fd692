import type { LoggedEvent, Store } from '../store/store.js';

/**
 * The newest change-log event, through the store-neutral readEvents(after, limit): a read of one
 * event after N tells whether anything is newer than N, so galloping up from the last known
 * sequence and then halving finds the newest in a few small reads, however long the log.
 */
export async function newestEvent(store: Store, known = 0): Promise<LoggedEvent | undefined> {
  const after = async (n: number) => (await store.readEvents(n, 1))[0];
  let found = await after(known);
  if (!found) {
    // Nothing newer than `known`: it is the newest (when it still exists), or the log is empty.
    return known > 0 ? (await after(known - 1)) ?? undefined : undefined;
  }
  let low = found.sequence;
  let step = 1;
  let high = low + step;
  for (;;) {
    const next = await after(high - 1);
    if (!next) break;
    low = next.sequence;
    found = next;
    step *= 2;
    high = low + step;
  }
  // Invariant: an event with sequence `low` exists (found); none reaches `high`.
  while (high - low > 1) {
    const middle = Math.floor((low + high) / 2);
    const next = await after(middle - 1);
    if (next && next.sequence < high) {
      low = next.sequence;
      found = next;
    } else {
      high = middle;
    }
  }
  return found;
}
