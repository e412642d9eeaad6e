/**
 * Gives memory back once the gateway goes quiet. Under load V8 promotes short-lived request garbage to
 * the old generation, and nothing collects it until the heap grows further: measured on the bench's
 * gateway, 20 s of 10 users listing orders left the heap 48 MiB fuller (RSS +65 MiB) for as long as
 * we watched (60 s), all of it garbage (one full collection brought RSS back below its start). A
 * process behind a container's memory limit, or one of several on a machine, should not keep that.
 *
 * So: when no request has been in flight for IDLE_MS and the heap's use or the process's RSS has grown
 * by GROWTH_BYTES since the last collection, a full collection runs (twice; tens of milliseconds on such a heap, while nothing waits).
 * Per process, no shared state: every gateway process does this for itself.
 */
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { quietOf, quietTimeFromEnv } from './quiet.ts';

const IDLE_MS = 5000;
const GROWTH_BYTES = 24 * 1024 * 1024;
const CHECK_MS = 1000;

let collect: (() => void) | null | undefined;

/** V8's full collection, exposed once per process (the `--expose-gc` function of a fresh context). */
export function fullGc(): (() => void) | null {
  if (collect !== undefined) return collect;
  try {
    const existing = (globalThis as { gc?: () => void }).gc;
    if (typeof existing === 'function') collect = existing;
    else {
      setFlagsFromString('--expose-gc');
      collect = runInNewContext('gc') as () => void;
    }
  } catch {
    collect = null;
  }
  return collect;
}

export interface IdleGcOptions {
  /** Quiet time before a collection (default 5 s). */
  idleMs?: number;
  /** Growth of the heap's use or of the RSS since the last collection that makes one worth it (default 24 MiB). */
  growthBytes?: number;
  checkMs?: number;
  /** The collection (default V8's full collection; tests count calls). */
  collect?: () => void;
}

/** IDLE_GC_SECONDS: quiet seconds before a collection (default 5); 0 turns it off (the test suite does). */
export function idleGcFromEnv(env: NodeJS.ProcessEnv = process.env): IdleGcOptions | false {
  return quietTimeFromEnv(env, 'IDLE_GC_SECONDS');
}

async function idleGc(app: FastifyInstance, opts: IdleGcOptions): Promise<void> {
  const gc = opts.collect ?? fullGc();
  if (!gc) return;
  const idleMs = opts.idleMs ?? IDLE_MS;
  const growth = opts.growthBytes ?? GROWTH_BYTES;
  const quiet = quietOf(app);
  // What the heap used and the process held after the last collection (or at start).
  let after = process.memoryUsage();
  const timer = setInterval(() => {
    if (quiet.quietMs() < idleMs) return;
    // The heap's garbage, or its pages held after a busy time (heapTotal, counted in the RSS), may have grown.
    const before = process.memoryUsage();
    if (before.heapUsed - after.heapUsed < growth && before.rss - after.rss < growth) return;
    const t0 = performance.now();
    // Twice: the second collection finds the heap's pages the first one emptied and gives them back.
    gc();
    gc();
    // Taken after the collection: memory it could not give back (the RSS stays high) starts no next one.
    after = process.memoryUsage();
    app.log.debug({ heapBefore: before.heapUsed, heapAfter: after.heapUsed, rssBefore: before.rss, rssAfter: after.rss, ms: Math.round(performance.now() - t0) }, 'idle: full garbage collection');
  }, opts.checkMs ?? CHECK_MS);
  timer.unref();
  app.addHook('onClose', async () => clearInterval(timer));
}

export default fp(idleGc, { name: 'idle-gc' });
