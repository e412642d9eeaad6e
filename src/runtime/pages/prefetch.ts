import { useEffect } from 'react';

/** What the page may load ahead: a lazy page's preload (lazy.ts), which loads its chunk once. */
type Preload = () => Promise<void>;

/** After the page's own data, how long to leave the network and main thread to it before loading ahead. */
const AFTER_SHOWN_MS = 1500;

/** The performance mark set when a page starts loading other pages' code ahead. */
export const PREFETCH_MARK = 'prefetch:start';

/** Time an idle period must still have to start the next page's code in it. */
const IDLE_SLICE_MS = 10;

/**
 * Runs `preloads` once the page has had `afterMs` (AFTER_SHOWN_MS unless told) to itself and the browser
 * is idle; skipped when the user asked to save data (Data Saver). Returns a cancel function.
 */
export function prefetchWhenIdle(preloads: readonly Preload[], afterMs = AFTER_SHOWN_MS): () => void {
  const saveData = (navigator as Navigator & { connection?: { saveData?: boolean } }).connection?.saveData;
  if (saveData || preloads.length === 0) return () => undefined;
  let idle: number | undefined;
  const timer = window.setTimeout(() => {
    // Scripts fetched from here on are other pages' code loaded ahead, not this page's (bench/bundle.ts).
    performance.mark(PREFETCH_MARK);
    if (typeof window.requestIdleCallback !== 'function') {
      for (const preload of preloads) void preload();
      return;
    }
    // One page's code per idle period while the browser has time left in it: starting a page's imports
    // (with its chunks' preload links) is a few milliseconds each, tens for a list's links all at once.
    const queue = [...preloads];
    const run = (deadline: IdleDeadline) => {
      do void queue.shift()!();
      while (queue.length > 0 && deadline.timeRemaining() > IDLE_SLICE_MS);
      if (queue.length > 0) idle = window.requestIdleCallback(run, { timeout: 5000 });
    };
    idle = window.requestIdleCallback(run, { timeout: 5000 });
  }, afterMs);
  return () => {
    window.clearTimeout(timer);
    if (idle !== undefined) window.cancelIdleCallback(idle);
  };
}

/**
 * Loads the code of the pages a user most likely opens next once the current one has been shown and the
 * browser is idle: from the workbench, where sign-in lands, a click on any number opens a list, whose
 * code then no longer loads after the click. `ready` is false until the page shows its data, so loading
 * ahead never competes with it.
 */
export function usePrefetchWhenIdle(ready: boolean, preloads: readonly Preload[], afterMs = AFTER_SHOWN_MS): void {
  useEffect(() => {
    if (!ready) return undefined;
    return prefetchWhenIdle(preloads, afterMs);
    // The preloads are those of the render that made the page ready: the effect runs once it is.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [ready]);
}
