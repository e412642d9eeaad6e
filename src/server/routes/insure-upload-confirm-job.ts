/**
 * The background part of confirming an upload: the request that confirmed it has validated the rows,
 * marked the upload `confirming` with a fresh job token and answered 202. This runs the insuring
 * transaction in the same gateway process; everything the browser sees lives in insure_uploads, so
 * any gateway process answers its status poll:
 *
 * - progress (persons insured so far, `confirm_done`) and a heartbeat (`updated_at`) are written
 *   OUTSIDE the transaction, on the pool, never awaited by it (on PGlite, which runs one statement at
 *   a time, they simply wait for the transaction to end);
 * - success: the transaction itself marks the upload `confirmed` (guarded by the token, see
 *   insure-upload-confirm.ts), so the insure and the status commit together;
 * - failure: the transaction rolled back (nothing insured, nothing charged) and the upload goes back
 *   to `ready` with the Chinese message, so the user can confirm again;
 * - a dead process stops the heartbeat: after STALE_CONFIRM_SECONDS another gateway takes the job over
 *   with a new token and runs it again from its stored input (insure-upload-confirm-resume.ts); as the
 *   dead job's transaction rolled back with its connection, nothing is lost or doubled.
 *
 * Every write is guarded by the job's token, so a job that was taken over or given back cannot finish later.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../db.ts';
import { isDomainError } from '../domain/errors.ts';
import { HttpError } from '../http/errors.ts';
import { STALE_CONFIRM_SECONDS } from './insure-upload-store.ts';
import { notifyUpload } from './insure-upload-wait.ts';

/** Heartbeat period; far below STALE_CONFIRM_SECONDS (insure-upload-store.ts). */
const HEARTBEAT_MS = Math.min(5000, (STALE_CONFIRM_SECONDS * 1000) / 4);

/** Uploads whose confirmation job runs in this process (the takeover never takes its own process's jobs). */
export const runningHere = new Set<number>();
const GUARD = `WHERE id = $1 AND status = 'confirming' AND confirm_token = $2`;

export interface ConfirmJob {
  uploadId: number;
  token: string;
  /** The insuring transaction; reports persons insured so far through onProgress. */
  run(tx: Db, onProgress: (done: number) => void): Promise<unknown>;
}

export interface ConfirmJobDeps {
  db: Db;
  log: FastifyBaseLogger;
}

/** The message a failed confirmation leaves on the upload (what the synchronous call would have answered). */
export function failureMessage(err: unknown): string | null {
  if (err instanceof HttpError || isDomainError(err)) return err.message;
  return null;
}

/** Starts the confirmation job; resolves when its outcome is stored (never rejects). */
export function startConfirmJob(deps: ConfirmJobDeps, job: ConfirmJob): Promise<void> {
  const { db, log } = deps;
  const ids = [job.uploadId, job.token];
  // Progress writes run one after another, so a late write never moves the counter back.
  let chain: Promise<unknown> = Promise.resolve();
  const write = (sql: string, params: unknown[]) => {
    chain = chain
      .then(() => db.query(sql, params))
      .then(() => notifyUpload(job.uploadId))
      .catch((err: unknown) => log.warn({ err, upload: job.uploadId }, 'confirmation progress not stored'));
  };
  const beat = setInterval(() => write(`UPDATE insure_uploads SET updated_at = now() ${GUARD}`, ids), HEARTBEAT_MS);
  beat.unref();
  const progress = (done: number) => write(`UPDATE insure_uploads SET confirm_done = GREATEST(confirm_done, $3), updated_at = now() ${GUARD}`, [...ids, done]);

  runningHere.add(job.uploadId);
  return (async () => {
    try {
      await db.tx((tx) => job.run(tx, progress));
    } catch (err) {
      const known = failureMessage(err);
      if (!known) log.error({ err, upload: job.uploadId }, 'roster confirmation failed');
      clearInterval(beat);
      await chain;
      await db
        .query(`UPDATE insure_uploads SET status = 'ready', error = $3, confirm_token = NULL, confirm_done = 0, updated_at = now() ${GUARD}`, [
          ...ids,
          known ?? '投保失败，未投保任何人员，请稍后重新确认',
        ])
        .catch((e: unknown) => log.error({ err: e, upload: job.uploadId }, 'confirmation failure not stored'));
    } finally {
      clearInterval(beat);
      await chain;
      runningHere.delete(job.uploadId);
      notifyUpload(job.uploadId); // its outcome is stored: a status request waiting here answers now
    }
  })();
}
