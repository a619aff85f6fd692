import { getHeapStatistics, setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/**
 * Once requests stop for `idleMs`, runs one full garbage collection and reports the heap still in
 * use: the live set, whose growth from one quiet spell to the next is a leak. V8 keeps the heap
 * it grew under load, garbage included, until allocation resumes; the collection frees the
 * garbage (the pages V8 keeps mapped). One collection per quiet spell, when nobody waits on it.
 */
export function collectWhenIdle(activity: { readonly requests: number }, onCollected: (liveBytes: number) => void, idleMs: number): NodeJS.Timeout {
  const collect = fullCollection();
  // Requests are counted by the caller (a number to add to, cheaper than a listener per request)
  // and looked at every quarter of idleMs: quiet means no new request over the last four looks.
  let seen = activity.requests;
  let lastRequest = Date.now();
  let busySinceCollection = true;
  return setInterval(() => {
    const now = Date.now();
    if (activity.requests !== seen) {
      seen = activity.requests;
      lastRequest = now;
      busySinceCollection = true;
      return;
    }
    if (!busySinceCollection || now - lastRequest < idleMs) return;
    busySinceCollection = false;
    collect();
    onCollected(getHeapStatistics().used_heap_size);
  }, idleMs / 4).unref();
}

/** V8's full collection, which Node hands out only behind `--expose-gc`: turned on here, for this. */
function fullCollection(): () => void {
  const exposed = (globalThis as { gc?: () => void }).gc;
  if (exposed) return exposed;
  setFlagsFromString('--expose-gc');
  return runInNewContext('gc') as () => void;
}
