import { randomBytes, randomInt, timingSafeEqual } from 'node:crypto';
import type { Db } from '../db.ts';
import { badInput, tooMany, unavailable } from '../http/errors.ts';
import type { AppDeps } from '../http/types.ts';
import { sha256 } from '../util.ts';
import { hit } from './rate-limit.ts';
import type { SmsPurpose } from './sms.ts';

/**
 * One-time SMS codes: random 6 digits, stored only as salted sha256, valid 5 minutes, at most
 * 5 wrong tries, single use; requests are rate-limited per phone and per IP in the database.
 */
const PURPOSE: SmsPurpose = 'reset-password';
const HOUR = 3600_000;
const DAY = 24 * HOUR;

const hashCode = (code: string, salt = randomBytes(8).toString('hex')) => `${salt}$${sha256(`${salt}:${code}`)}`;

function sameCode(code: string, stored: string): boolean {
  const [salt] = stored.split('$');
  const a = Buffer.from(hashCode(code, salt));
  const b = Buffer.from(stored);
  return a.length === b.length && timingSafeEqual(a, b);
}

const codeError = (message: string) => badInput(message, [{ field: 'code', message }]);

export async function requestCode(deps: AppDeps, phone: string, ip: string): Promise<void> {
  const { db, limits, sms } = deps;
  if (!sms) throw unavailable('短信服务暂不可用');
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
  // Unknown phones get the same answer but no SMS: the endpoint does not reveal who has an account.
  const users = await db.query<{ id: number }>('SELECT id FROM users WHERE phone = $1', [phone]);
  if (!users[0]) return;
  const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
  const id = await db.tx(async (tx) => {
    // A new code replaces any earlier one.
    await tx.query('UPDATE sms_codes SET consumed_at = now() WHERE phone = $1 AND purpose = $2 AND consumed_at IS NULL', [phone, PURPOSE]);
    const [row] = await tx.query<{ id: number }>(
      `INSERT INTO sms_codes (phone, purpose, code_hash, expires_at) VALUES ($1, $2, $3, $4) RETURNING id`,
      [phone, PURPOSE, hashCode(code), new Date(Date.now() + limits.smsTtlMs).toISOString()],
    );
    return row.id;
  });
  try {
    await sms.send(phone, code, PURPOSE);
  } catch {
    await db.query('DELETE FROM sms_codes WHERE id = $1', [id]);
    throw unavailable('短信服务暂不可用');
  }
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
      WHERE id = (SELECT id FROM sms_codes WHERE phone = $1 AND purpose = $2 AND consumed_at IS NULL
                   AND expires_at > now() ORDER BY id DESC LIMIT 1)
        AND attempts < $3
      RETURNING id, code_hash, attempts`,
    [phone, PURPOSE, limits.smsAttempts],
  );
  const row = rows[0];
  if (!row) {
    const dead = await db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM sms_codes WHERE phone = $1 AND purpose = $2 AND consumed_at IS NULL
          AND expires_at > now() AND attempts >= $3`,
      [phone, PURPOSE, limits.smsAttempts],
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
