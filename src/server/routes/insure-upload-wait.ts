/**
 * Waiting for an upload to change (GET /api/insure-uploads/:id?waitMs=N): the status request of a parse
 * or confirmation under way is held until the upload's view changes (progress, phase, outcome) or N ms
 * pass, so the page learns of each step at once instead of at its next poll. The process that writes an
 * upload's progress wakes its own waiters at once (notifyUpload); a waiter in another process reads the
 * row again every RECHECK_MS. Nothing but the wake-ups is held in memory: any process answers any wait.
 */
import { EventEmitter } from 'node:events';

const RECHECK_MS = 100;
/** The longest wait a request may ask for. */
export const MAX_WAIT_MS = 5000;

const changes = new EventEmitter();
changes.setMaxListeners(0);

/** This process wrote to the upload: its waiters here look again now. */
export function notifyUpload(id: number): void {
  changes.emit(String(id));
}

/** Resolves when the upload is notified or RECHECK_MS pass, whichever comes first. */
function nextLook(id: number): Promise<void> {
  return new Promise((resolve) => {
    const key = String(id);
    const done = () => {
      clearTimeout(timer);
      changes.off(key, done);
      resolve();
    };
    const timer = setTimeout(done, RECHECK_MS);
    changes.on(key, done);
  });
}

/**
 * Reads the upload again (`read`) until its view (`view`) differs from `first`'s, `waitMs` pass or the
 * request goes away (`gone`); answers the last view read.
 */
export async function waitForChange<R, V>(
  id: number,
  first: R,
  opts: { waitMs: number; read: () => Promise<R>; view: (r: R) => V; gone: () => boolean },
): Promise<V> {
  const before = JSON.stringify(opts.view(first));
  const until = Date.now() + Math.min(opts.waitMs, MAX_WAIT_MS);
  let last = opts.view(first);
  while (Date.now() < until && !opts.gone()) {
    await nextLook(id);
    last = opts.view(await opts.read());
    if (JSON.stringify(last) !== before) break;
  }
  return last;
}
