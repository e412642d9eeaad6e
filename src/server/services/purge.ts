import type { Queryable } from '../db.ts';
import { IDEMPOTENCY_TTL_HOURS } from '../domain/idempotency.ts';

/**
 * What expires is deleted on a schedule, by whichever gateway gets there: each statement deletes at
 * most BATCH rows of one table and is safe to run on several gateways at once (a second run waits for
 * the first's row locks, then finds nothing to delete), so the tables stay as small as what is live.
 */
const BATCH = 5000;

/** [table, condition of a row that is no longer of use]. */
export const PURGES: [string, string][] = [
  // Sessions: a token past its expiry is refused anyway; a day's grace keeps rotation-reuse detection.
  ['auth_tokens', `expires_at < now() - interval '1 day'`],
  // One-time codes: dead once used or expired.
  ['sms_codes', `expires_at < now() - interval '1 day' OR consumed_at < now() - interval '1 day'`],
  // Idempotency records: a retry comes within minutes; kept IDEMPOTENCY_TTL_HOURS.
  ['idempotency_keys', `created_at < now() - make_interval(hours => ${IDEMPOTENCY_TTL_HOURS})`],
  // Rate-limit windows: the longest window is a day (SMS per phone); locks last minutes.
  ['rate_limits', `window_start < now() - interval '2 days'`],
];

/** Runs every purge once, each until nothing is left to delete; returns rows deleted per table. */
export async function purgeExpired(db: Queryable): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  for (const [table, expired] of PURGES) {
    out[table] = 0;
    for (;;) {
      const rows = await db.query<{ n: number }>(
        `WITH gone AS (DELETE FROM ${table} WHERE ctid IN (SELECT ctid FROM ${table} WHERE ${expired} LIMIT ${BATCH}) RETURNING 1)
         SELECT count(*)::int AS n FROM gone`,
      );
      out[table] += Number(rows[0].n);
      if (Number(rows[0].n) < BATCH) break;
    }
  }
  return out;
}

/** Purges now and then (every intervalMs, default 10 minutes); returns a stop function. */
export function schedulePurge(db: Queryable, onError: (err: unknown) => void, intervalMs = 10 * 60_000): () => void {
  const timer = setInterval(() => purgeExpired(db).catch(onError), intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}
