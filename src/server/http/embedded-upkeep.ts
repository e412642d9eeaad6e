/**
 * The embedded database's upkeep (services/vacuum.ts): on PGlite, once the gateway has been quiet for
 * IDLE_MS, the tables autovacuum would have vacuumed or analysed are, one after another, until a
 * request arrives (PGlite runs one statement at a time: a request waits at most for the table at
 * hand, 1 s for 1M orders on the first pass, tens of milliseconds after). Nothing to do on PostgreSQL,
 * whose autovacuum does it. Per process, no shared state: an embedded database has one gateway.
 */
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Db } from '../db.ts';
import { tablesDue, upkeep } from '../services/vacuum.ts';
import { quietOf, quietTimeFromEnv } from './quiet.ts';

export const UPKEEP_IDLE_MS = 5000;
const CHECK_MS = 1000;

export interface EmbeddedUpkeepOptions {
  /** Quiet time before the upkeep (default 5 s). */
  idleMs?: number;
  checkMs?: number;
}

/** EMBEDDED_VACUUM_SECONDS: quiet seconds before the embedded database's upkeep (default 5); 0 turns it off (the test suite does). */
export function embeddedUpkeepFromEnv(env: NodeJS.ProcessEnv = process.env): EmbeddedUpkeepOptions | false {
  return quietTimeFromEnv(env, 'EMBEDDED_VACUUM_SECONDS');
}

async function embeddedUpkeep(app: FastifyInstance, opts: EmbeddedUpkeepOptions & { db: Db }): Promise<void> {
  const { db } = opts;
  if (db.driver !== 'pglite') return;
  const idleMs = opts.idleMs ?? UPKEEP_IDLE_MS;
  const quiet = quietOf(app);
  // The statistics start empty with the process: the first pass takes every table.
  let firstPass = true;
  // Work since the last pass (a request, or the start): a quiet gateway with nothing new checks nothing.
  let checkedAt = 0;
  let running: Promise<void> | undefined;
  let closing = false;
  const pass = async () => {
    const startedAt = Date.now();
    let finished = true;
    for (const t of await tablesDue(db, firstPass)) {
      if (quiet.quietMs() < idleMs || closing) {
        finished = false;
        break;
      }
      const t0 = performance.now();
      await upkeep(db, t);
      app.log.debug({ ...t, ms: Math.round(performance.now() - t0) }, 'idle: embedded database upkeep');
    }
    if (finished) {
      firstPass = false;
      checkedAt = startedAt;
    }
  };
  const timer = setInterval(() => {
    if (running || quiet.quietMs() < idleMs || (!firstPass && quiet.lastActive() <= checkedAt)) return;
    running = pass()
      .catch((err: unknown) => app.log.warn({ err }, 'embedded database upkeep failed'))
      .finally(() => (running = undefined));
  }, opts.checkMs ?? CHECK_MS);
  timer.unref();
  app.addHook('onClose', async () => {
    closing = true;
    clearInterval(timer);
    await running;
  });
}

export default fp(embeddedUpkeep, { name: 'embedded-upkeep' });
