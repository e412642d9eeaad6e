import type { FastifyInstance } from 'fastify';
import { badInput, HttpError, ok, unauthorized } from '../http/errors.ts';
import { businessesOf, issueTokens } from '../http/auth.ts';
import { clearFailures, lockMessage, loginRefusal, oneAtATime, recordFailure } from '../services/login-limits.ts';
import { requestCode, verifyCode } from '../services/sms-codes.ts';
import { hashPasswordAsync, maskPhone, sha256, verifyPasswordAsync } from '../util.ts';
import { passwordProblem, passwordSchema, phoneSchema } from './schemas.ts';

// Verified against for unknown phones and accounts without a password, so every case takes the same time.
const DUMMY_HASH = 'scrypt$00000000000000000000000000000000$' + '0'.repeat(64);

/** 423 / 429 with the limit's message (services/login-limits.ts). */
export const refused = (r: { status: number; message: string }) => new HttpError(r.status, r.status * 100, r.message);

export default async function authRoutes(app: FastifyInstance) {
  const { db, limits } = app.deps;

  app.post<{ Body: { phone: string; password: string } }>(
    '/api/auth/login',
    {
      config: { auth: 'none' },
      schema: {
        tags: ['auth'],
        summary: '手机号 + 密码登录',
        body: {
          type: 'object',
          required: ['phone', 'password'],
          properties: { phone: phoneSchema, password: passwordSchema('密码') },
        },
      },
    },
    async (req) => {
      const { phone, password } = req.body;
      // Limits first (no password is checked while one applies); then only a wrong password counts.
      return oneAtATime(`login:${phone}`, async () => {
        const refusal = await loginRefusal(db, limits, phone, req.ip);
        if (refusal) throw refused(refusal);
        const users = await db.query<{ id: number; phone: string; password_hash: string }>(
          'SELECT id, phone, password_hash FROM users WHERE phone = $1',
          [phone],
        );
        const u = users[0];
        const stored = u?.password_hash.startsWith('scrypt$') ? u.password_hash : DUMMY_HASH;
        const good = (await verifyPasswordAsync(password, stored)) && stored !== DUMMY_HASH;
        if (!u || !good) {
          const wait = await recordFailure(db, limits, phone, req.ip);
          if (wait > 0) throw refused({ status: 423, message: lockMessage(wait) });
          throw unauthorized('手机号或密码错误');
        }
        await clearFailures(db, phone);
        const tokens = await issueTokens(db, u.id);
        return ok({ ...tokens, userTel: u.phone, businessList: await businessesOf(db, u.id) });
      });
    },
  );

  app.post<{ Body: { refreshToken?: unknown } }>(
    '/api/auth/refresh',
    { config: { auth: 'none' }, schema: { tags: ['auth'], summary: '用刷新令牌换新令牌（轮换）', body: { type: 'object' } } },
    async (req) => {
      const rt = typeof req.body.refreshToken === 'string' ? req.body.refreshToken.trim() : '';
      if (!rt) throw badInput('缺少登录凭证，请重新登录', [{ field: 'refreshToken', message: '缺少登录凭证（refreshToken）' }]);
      const result = await db.tx(async (tx) => {
        const rows = await tx.query<{ user_id: number; family: string; revoked: boolean; expired: boolean }>(
          `SELECT user_id, family, revoked_at IS NOT NULL AS revoked, expires_at <= now() AS expired
             FROM auth_tokens WHERE token_hash = $1 AND kind = 'refresh' FOR UPDATE`,
          [sha256(rt)],
        );
        const t = rows[0];
        if (!t || t.expired) throw unauthorized('登录已过期，请重新登录');
        await tx.query('UPDATE auth_tokens SET revoked_at = now() WHERE family = $1 AND revoked_at IS NULL', [t.family]);
        // A rotated refresh token presented again means it leaked: the whole session family is revoked above.
        if (t.revoked) return null;
        return issueTokens(tx, t.user_id, t.family);
      });
      if (!result) throw unauthorized('登录凭证已失效，请重新登录');
      return ok(result);
    },
  );

  app.post('/api/auth/logout', { config: { auth: 'user' }, schema: { tags: ['auth'], summary: '退出登录' } }, async (req) => {
    await db.query('UPDATE auth_tokens SET revoked_at = now() WHERE family = $1 AND revoked_at IS NULL', [req.user.family]);
    return ok({});
  });

  app.post<{ Body: { phone: string } }>(
    '/api/auth/sms-code',
    {
      config: { auth: 'none' },
      schema: {
        tags: ['auth'],
        summary: '获取重设密码的短信验证码',
        body: { type: 'object', required: ['phone'], properties: { phone: phoneSchema } },
      },
    },
    async (req) => {
      const { phone } = req.body;
      await requestCode(app.deps, phone, req.ip, req.log);
      return ok({ sentTo: maskPhone(phone), expiresIn: Math.round(limits.smsTtlMs / 1000) });
    },
  );

  app.post<{ Body: { phone: string; code: string; password: string } }>(
    '/api/auth/set-password',
    {
      config: { auth: 'none' },
      schema: {
        tags: ['auth'],
        summary: '用短信验证码重设密码（所有会话失效）',
        body: {
          type: 'object',
          required: ['phone', 'code', 'password'],
          properties: {
            phone: phoneSchema,
            code: { type: 'string', title: '短信验证码', minLength: 1, maxLength: 10 },
            password: passwordSchema('新密码', '请输入新密码'),
          },
        },
      },
    },
    async (req) => {
      const { phone, code, password } = req.body;
      const problem = passwordProblem(password);
      if (problem) throw badInput('填写内容有误，请按提示修改', [{ field: 'password', message: problem }]);
      const hash = await hashPasswordAsync(password);
      await verifyCode(app.deps, phone, code.trim(), async (tx, userId) => {
        await tx.query('UPDATE users SET password_hash = $1 WHERE id = $2', [hash, userId]);
        await tx.query('UPDATE auth_tokens SET revoked_at = now() WHERE user_id = $1 AND revoked_at IS NULL', [userId]);
      });
      await clearFailures(db, phone);
      return ok({});
    },
  );

  app.get('/api/businesses', { config: { auth: 'user' }, schema: { tags: ['auth'], summary: '当前用户的企业' } }, async (req) =>
    ok(await businessesOf(db, req.user.id)),
  );
}
