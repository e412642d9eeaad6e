/**
 * Takeover of confirmation jobs whose gateway died (any gateway does it, every few seconds): a job in
 * `confirming` whose heartbeat is older than STALE_CONFIRM_SECONDS is claimed with a new token in one
 * atomic UPDATE (so exactly one gateway wins it) and runs again from the input stored when it was
 * accepted. The dead job's transaction rolled back with its connection, so running it again loses and
 * doubles nothing; its token no longer matches, so it can never commit late. After MAX_CONFIRM_ATTEMPTS
 * takeovers the upload goes back to `ready` with CONFIRM_INTERRUPTED (loadUpload) for the user to decide.
 */
import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../db.ts';
import { businessesOf } from '../http/auth.ts';
import { insure, prepare, type ConfirmBody } from './insure-upload-confirm.ts';
import type { EntityRegistry } from '../../shared/entity/registry.ts';
import { runningHere, startConfirmJob } from './insure-upload-confirm-job.ts';
import { MAX_CONFIRM_ATTEMPTS, STALE_CONFIRM_SECONDS } from './insure-upload-store.ts';

interface Claimed {
  id: number;
  business_id: string;
  user_id: number;
  confirm_input: ConfirmBody;
}

/** Claims one stale job not running in this process, or null. */
async function claim(db: Db, token: string): Promise<Claimed | null> {
  const mine = [...runningHere];
  const rows = await db.query<Claimed>(
    `UPDATE insure_uploads SET confirm_token = $1, confirm_attempts = confirm_attempts + 1, confirm_done = 0, updated_at = now()
      WHERE id = (SELECT id FROM insure_uploads
                   WHERE status = 'confirming' AND confirm_input IS NOT NULL AND confirm_attempts < $2
                     AND updated_at < now() - make_interval(secs => $3) AND NOT (id = ANY($4::int[]))
                   ORDER BY updated_at LIMIT 1 FOR UPDATE SKIP LOCKED)
        AND status = 'confirming'
      RETURNING id, business_id, user_id, confirm_input`,
    [token, MAX_CONFIRM_ATTEMPTS, STALE_CONFIRM_SECONDS, mine],
  );
  return rows[0] ?? null;
}

/** Claims and starts every stale job it finds; resolves once they are started (not finished). */
export async function resumeStaleConfirmations(db: Db, registry: EntityRegistry, log: FastifyBaseLogger, jobs: Set<Promise<void>>): Promise<number> {
  let started = 0;
  for (;;) {
    const token = randomUUID();
    const c = await claim(db, token);
    if (!c) return started;
    started++;
    const biz = (await businessesOf(db, c.user_id)).find((b) => b.businessId === c.business_id);
    log.warn({ upload: c.id, business: c.business_id }, 'taking over a confirmation whose gateway stopped');
    const done = startConfirmJob(
      { db, log },
      {
        uploadId: c.id,
        token,
        run: async (tx, onProgress) => {
          if (!biz) throw new Error(`upload ${c.id}: its uploader no longer belongs to business ${c.business_id}`);
          const p = await prepare(tx, registry, biz, c.confirm_input, { uploadId: c.id });
          return insure(tx, registry, biz, p, { token, onProgress });
        },
      },
    );
    jobs.add(done);
    void done.finally(() => jobs.delete(done));
  }
}

/** Looks for stale jobs every half stale period; returns the stop function. */
export function scheduleTakeover(db: Db, registry: EntityRegistry, log: FastifyBaseLogger, jobs: Set<Promise<void>>): () => void {
  let busy = false;
  const timer = setInterval(() => {
    if (busy) return;
    busy = true;
    resumeStaleConfirmations(db, registry, log, jobs)
      .catch((err: unknown) => log.warn({ err }, 'confirmation takeover failed'))
      .finally(() => (busy = false));
  }, Math.max(1000, (STALE_CONFIRM_SECONDS * 1000) / 2));
  timer.unref();
  return () => clearInterval(timer);
}
