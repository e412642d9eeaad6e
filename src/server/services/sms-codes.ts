import { randomBytes, randomInt, timingSafeEqual } from 'node:crypto';
import type { Db } from '../db.ts';
import { badInput, tooMany, unavailable } from '../http/errors.ts';
import type { AppDeps } from '../http/types.ts';
import { sha256 } from '../util.ts';
import { hit } from './rate-limit.ts';
import type { SmsDetails, SmsProvider, SmsPurpose } from './sms.ts';
import type { FastifyBaseLogger } from 'fastify';

/**
 * One-time SMS codes: random 6 digits, stored only as salted sha256, at most 5 wrong tries, single use.
 * A code the user asks for (reset-password) is valid 5 minutes and requests are rate-limited per phone
 * and per IP in the database; an operator's invitation (set-password) is valid INVITE_TTL_MS.
 */
const PURPOSES: SmsPurpose[] = ['reset-password', 'set-password'];
const HOUR = 3600_000;
const DAY = 24 * HOUR;
/** How long an invitation's code stays valid. */
export const INVITE_TTL_MS = 72 * HOUR;

const hashCode = (code: string, salt = randomBytes(8).toString('hex')) => `${salt}$${sha256(`${salt}:${code}`)}`;

function sameCode(code: string, stored: string): boolean {
  const [salt] = stored.split('$');
  const a = Buffer.from(hashCode(code, salt));
  const b = Buffer.from(stored);
  return a.length === b.length && timingSafeEqual(a, b);
}

const codeError = (message: string) => badInput(message, [{ field: 'code', message }]);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Stores a fresh code for a phone (any earlier unused code of it dies) and sends it; the code is not
 * kept when sending fails (the error is passed on).
 */
export async function issueCode(
  db: Db,
  sms: SmsProvider,
  phone: string,
  purpose: SmsPurpose,
  ttlMs: number,
  details: Omit<SmsDetails, 'validMinutes'> = {},
): Promise<void> {
  const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
  const id = await db.tx(async (tx) => {
    await tx.query('UPDATE sms_codes SET consumed_at = now() WHERE phone = $1 AND consumed_at IS NULL', [phone]);
    const [row] = await tx.query<{ id: number }>(
      `INSERT INTO sms_codes (phone, purpose, code_hash, expires_at) VALUES ($1, $2, $3, $4) RETURNING id`,
      [phone, purpose, hashCode(code), new Date(Date.now() + ttlMs).toISOString()],
    );
    return row.id;
  });
  try {
    await sms.send(phone, code, purpose, { ...details, validMinutes: Math.round(ttlMs / 60_000) });
  } catch (err) {
    await db.query('DELETE FROM sms_codes WHERE id = $1', [id]);
    throw err;
  }
}

/**
 * A user asks for a reset-password code. The answer comes after the same fixed time (limits.smsAnswerMs)
 * whether the phone has an account or not, and never says which: the look-up, the stored code and the
 * SMS happen in the background, and a failed SMS is logged, not answered.
 */
export async function requestCode(deps: AppDeps, phone: string, ip: string, log?: FastifyBaseLogger): Promise<void> {
  const { db, limits, sms } = deps;
  if (!sms) throw unavailable('短信服务暂不可用');
  const answerAt = Date.now() + limits.smsAnswerMs;
  if ((await hit(db, `sms-ip:${ip}`, HOUR)).count > limits.smsPerIpHour) {
    throw tooMany('获取验证码过于频繁，请 1 小时后再试');
  }
  const minute = await hit(db, `sms-phone-min:${phone}`, 60_000);
  if (minute.count > limits.smsPerPhoneMinute) {
    throw tooMany(`验证码发送过于频繁，请 ${Math.max(1, Math.ceil(minute.resetMs / 1000))} 秒后再试`);
  }
  if ((await hit(db, `sms-phone-day:${phone}`, DAY)).count > limits.smsPerPhoneDay) {
    throw tooMany('该手机号今日获取验证码次数已达上限，请明天再试');
  }
  const work = (async () => {
    const users = await db.query<{ id: number }>('SELECT id FROM users WHERE phone = $1', [phone]);
    if (users[0]) await issueCode(db, sms, phone, 'reset-password', limits.smsTtlMs);
  })().catch((err: unknown) => log?.error({ err }, 'reset-password SMS not sent'));
  deps.background.add(work);
  void work.finally(() => deps.background.delete(work));
  await sleep(Math.max(0, answerAt - Date.now()));
}

/** Checks the code and, inside one transaction that also consumes it, runs `use` for the account. */
export async function verifyCode(
  deps: AppDeps,
  phone: string,
  code: string,
  use: (tx: Db, userId: number) => Promise<void>,
): Promise<void> {
  const { db, limits } = deps;
  // The attempt is counted atomically before comparing, so parallel guesses share the 5 tries.
  const rows = await db.query<{ id: number; code_hash: string; attempts: number }>(
    `UPDATE sms_codes SET attempts = attempts + 1
      WHERE id = (SELECT id FROM sms_codes WHERE phone = $1 AND purpose = ANY($2::text[]) AND consumed_at IS NULL
                   AND expires_at > now() ORDER BY id DESC LIMIT 1)
        AND attempts < $3
      RETURNING id, code_hash, attempts`,
    [phone, PURPOSES, limits.smsAttempts],
  );
  const row = rows[0];
  if (!row) {
    const dead = await db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM sms_codes WHERE phone = $1 AND purpose = ANY($2::text[]) AND consumed_at IS NULL
          AND expires_at > now() AND attempts >= $3`,
      [phone, PURPOSES, limits.smsAttempts],
    );
    if (dead[0].n > 0) throw codeError('验证码错误次数过多，请重新获取');
    throw codeError('验证码已失效或未获取，请重新获取');
  }
  if (!sameCode(code, row.code_hash)) {
    throw codeError(row.attempts >= limits.smsAttempts ? '验证码错误次数过多，请重新获取' : '短信验证码错误');
  }
  await db.tx(async (tx) => {
    const used = await tx.query('UPDATE sms_codes SET consumed_at = now() WHERE id = $1 AND consumed_at IS NULL RETURNING id', [row.id]);
    if (!used[0]) throw codeError('验证码已失效或未获取，请重新获取');
    const users = await tx.query<{ id: number }>('SELECT id FROM users WHERE phone = $1', [phone]);
    if (!users[0]) throw codeError('验证码已失效或未获取，请重新获取');
    await use(tx, users[0].id);
  });
}
