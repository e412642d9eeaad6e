import type { Queryable } from '../db.ts';

/**
 * Fixed-window counters kept in the database (table rate_limits), so several gateway processes
 * behind a load balancer share them. No state lives in the process.
 */
export async function hit(db: Queryable, key: string, windowMs: number): Promise<{ count: number; resetMs: number }> {
  const w = windowAt(windowMs);
  const rows = await db.query<{ count: number }>(`WITH ${hitCte('$1', '$2')} SELECT count FROM hit`, [key, w.start], { prepare: true });
  return { count: Number(rows[0].count), resetMs: w.resetMs };
}

/** The fixed window `now` falls in: its start (ISO) and the milliseconds until it ends. */
export function windowAt(windowMs: number, now = Date.now()): { start: string; resetMs: number } {
  const start = Math.floor(now / windowMs) * windowMs;
  return { start: new Date(start).toISOString(), resetMs: start + windowMs - now };
}

/**
 * `hit AS (…)`: the CTE that counts one request under key `k` in the window starting `w` (SQL
 * parameters) and returns the new count. hit() runs it alone; the API's authentication statement
 * runs it in front of the token lookup, so a signed-in request is counted in the same round trip.
 */
export function hitCte(k: string, w: string): string {
  return `hit AS (INSERT INTO rate_limits (key, window_start, count) VALUES (${k}, ${w}, 1)
     ON CONFLICT (key, window_start) DO UPDATE SET count = rate_limits.count + 1 RETURNING count)`;
}

/** The 429 message of the API limit, with the seconds until the window ends. */
export function limitMessage(ttlMs: number): string {
  return `请求过于频繁，请 ${Math.max(1, Math.ceil(ttlMs / 1000))} 秒后再试`;
}

/** Counts in the current and the previous window (a sliding approximation of "the last windowMs"). */
export async function recent(db: Queryable, key: string, windowMs: number): Promise<number> {
  const start = Math.floor(Date.now() / windowMs) * windowMs - windowMs;
  const rows = await db.query<{ n: number }>(
    'SELECT coalesce(sum(count), 0)::int AS n FROM rate_limits WHERE key = $1 AND window_start >= $2',
    [key, new Date(start).toISOString()],
  );
  return Number(rows[0].n);
}

type IncrCallback = (err: Error | null, res?: { current: number; ttl: number }) => void;

/** A @fastify/rate-limit store backed by the same table. */
export function dbRateLimitStore(db: Queryable, prefix = 'api') {
  return class DbStore {
    constructor(_opts?: unknown) {}
    incr(key: string, cb: IncrCallback, timeWindow: number) {
      hit(db, `${prefix}:${key}`, timeWindow).then(
        (r) => cb(null, { current: r.count, ttl: r.resetMs }),
        (err: Error) => cb(err),
      );
    }
    read(key: string, cb: IncrCallback, timeWindow: number) {
      const w = windowAt(timeWindow);
      db.query<{ count: number }>('SELECT count FROM rate_limits WHERE key = $1 AND window_start = $2', [`${prefix}:${key}`, w.start]).then(
        (rows) => cb(null, { current: Number(rows[0]?.count ?? 0), ttl: w.resetMs }),
        (err: Error) => cb(err),
      );
    }
    child() {
      return new DbStore();
    }
  };
}
