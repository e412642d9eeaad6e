/**
 * Sign-in limits that stop password guessing, not users (sign-in and the password change share them):
 *
 * - only wrong passwords count, after the password was checked: right ones, however many at once, never
 *   lock anything, and a success clears the account's failures;
 * - per account and source address: after `loginFailures` wrong passwords from one address the account
 *   waits there 30 s, then twice as long after each further failure, at most `lockMs` (15 min); the
 *   same user from elsewhere is not affected, so nobody locks an account from their own address;
 * - per account from every address: the same backoff after `accountFailures` (a guesser with many addresses);
 * - per source address: at most `loginFailuresPerIp` wrong passwords for any accounts in 15 minutes
 *   (credential stuffing), and at most `loginPerIp` attempts in all (a flood);
 * - unlock: a password set with an SMS code, or the operator (`npm run admin -- unlock`, POST /api/operator/unlock).
 *
 * Counters live in the database (rate_limits), shared by every gateway. Attempts on one account are
 * taken one at a time within a gateway process, so a burst of parallel guesses sees each failure before
 * the next password is checked (with N gateways at most N guesses are checked at once).
 */
import type { Queryable } from '../db.ts';
import type { Limits } from '../http/types.ts';
import { hit, recent } from './rate-limit.ts';

const DAY = 86400_000;
const FIFTEEN_MIN = 15 * 60_000;
/** The first wait once an account reached its failure threshold. */
export const BACKOFF_BASE_MS = 30_000;

const failKey = (phone: string, ip?: string) => (ip === undefined ? `login-fail:${phone}` : `login-fail:${phone}@${ip}`);
const untilKey = (phone: string, ip?: string) => (ip === undefined ? `login-until:${phone}` : `login-until:${phone}@${ip}`);

/** The wait after `failures` wrong passwords where `threshold` start the backoff (0 below it). */
export function backoffMs(failures: number, threshold: number, maxMs: number): number {
  if (failures < threshold) return 0;
  return Math.min(maxMs, BACKOFF_BASE_MS * 2 ** Math.min(20, failures - threshold));
}

/** "30 秒" / "4 分钟". */
export function waitText(ms: number): string {
  return ms < 60_000 ? `${Math.max(1, Math.ceil(ms / 1000))} 秒` : `${Math.ceil(ms / 60_000)} 分钟`;
}

export type Refusal = { status: 423 | 429; message: string; waitMs: number };

/** The moment until which an until-key blocks, as ms from now (0 when not blocked). */
async function blockedFor(db: Queryable, key: string): Promise<number> {
  const rows = await db.query<{ t: string | Date | null }>('SELECT max(window_start) AS t FROM rate_limits WHERE key = $1', [key]);
  const t = rows[0]?.t;
  return t ? Math.max(0, new Date(t).getTime() - Date.now()) : 0;
}

/** Checked before a password is: a refusal when the source floods or the account waits out a backoff. */
export async function loginRefusal(db: Queryable, limits: Limits, phone: string, ip: string): Promise<Refusal | null> {
  if ((await hit(db, `login-ip:${ip}`, FIFTEEN_MIN)).count > limits.loginPerIp) {
    return { status: 429, message: '登录尝试过于频繁，请 15 分钟后再试', waitMs: FIFTEEN_MIN };
  }
  if ((await recent(db, `login-fail-ip:${ip}`, FIFTEEN_MIN)) >= limits.loginFailuresPerIp) {
    return { status: 429, message: '密码错误次数过多，请 15 分钟后再试', waitMs: FIFTEEN_MIN };
  }
  const wait = Math.max(await blockedFor(db, untilKey(phone, ip)), await blockedFor(db, untilKey(phone)));
  return wait > 0 ? { status: 423, message: lockMessage(wait), waitMs: wait } : null;
}

export const lockMessage = (ms: number) => `密码错误次数过多，请 ${waitText(ms)}后再试，或通过「忘记密码」用短信验证码重设密码`;

/** Counts a wrong password; returns the wait it imposes from now on (0: none yet). */
export async function recordFailure(db: Queryable, limits: Limits, phone: string, ip: string): Promise<number> {
  await hit(db, `login-fail-ip:${ip}`, FIFTEEN_MIN);
  await hit(db, failKey(phone, ip), DAY);
  await hit(db, failKey(phone), DAY);
  const pair = backoffMs(await recent(db, failKey(phone, ip), DAY), limits.loginFailures, limits.lockMs);
  const account = backoffMs(await recent(db, failKey(phone), DAY), limits.accountFailures, limits.lockMs);
  for (const [key, ms] of [
    [untilKey(phone, ip), pair],
    [untilKey(phone), account],
  ] as const) {
    if (ms > 0) {
      await db.query(`INSERT INTO rate_limits (key, window_start, count) VALUES ($1, $2, 1) ON CONFLICT (key, window_start) DO NOTHING`, [
        key,
        new Date(Date.now() + ms).toISOString(),
      ]);
    }
  }
  return Math.max(pair, account);
}

/** A right password: the account's failures and waits are forgotten (from every address). */
export async function clearFailures(db: Queryable, phone: string): Promise<void> {
  await db.query(`DELETE FROM rate_limits WHERE key IN ($1, $2) OR key LIKE $3 OR key LIKE $4`, [
    failKey(phone),
    untilKey(phone),
    `${failKey(phone, '')}%`,
    `${untilKey(phone, '')}%`,
  ]);
}

const queues = new Map<string, Promise<unknown>>();

/** Runs fn after every earlier call with the same key in this process has finished. */
export function oneAtATime<T>(key: string, fn: () => Promise<T>): Promise<T> {
  const before = queues.get(key) ?? Promise.resolve();
  const run = before.then(fn, fn);
  const tail = run.catch(() => undefined);
  queues.set(key, tail);
  void tail.then(() => {
    if (queues.get(key) === tail) queues.delete(key);
  });
  return run;
}
