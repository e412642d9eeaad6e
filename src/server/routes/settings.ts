import type { FastifyInstance } from 'fastify';
import { badInput, ok } from '../http/errors.ts';
import { clearFailures, lockMessage, loginRefusal, oneAtATime, recordFailure } from '../services/login-limits.ts';
import { refused } from './auth.ts';
import { hashPasswordAsync, verifyPasswordAsync } from '../util.ts';
import { passwordProblem, passwordSchema } from './schemas.ts';
import { sameValueMessage } from '../../shared/entity/messages.ts';

export default async function settingsRoutes(app: FastifyInstance) {
  const { db, limits } = app.deps;

  app.post<{ Body: { oldPassword: string; newPassword: string } }>(
    '/api/settings/password',
    {
      config: { auth: 'user' },
      schema: {
        tags: ['settings'],
        summary: '修改密码（其他会话全部失效，当前会话保留）',
        body: {
          type: 'object',
          required: ['oldPassword', 'newPassword'],
          properties: {
            oldPassword: passwordSchema('原密码', '请输入原密码'),
            newPassword: passwordSchema('新密码', '请输入新密码'),
          },
        },
      },
    },
    async (req) => {
      const { oldPassword, newPassword } = req.body;
      const problem = passwordProblem(newPassword) ?? (newPassword === oldPassword ? sameValueMessage('新密码', '原密码') : null);
      if (problem) throw badInput('填写内容有误，请按提示修改', [{ field: 'newPassword', message: problem }]);
      // The current password can be guessed here too: the sign-in limits apply (services/login-limits.ts).
      await oneAtATime(`login:${req.user.phone}`, async () => {
        const refusal = await loginRefusal(db, limits, req.user.phone, req.ip);
        if (refusal) throw refused(refusal);
        const rows = await db.query<{ password_hash: string }>('SELECT password_hash FROM users WHERE id = $1', [req.user.id]);
        if (!rows[0] || !(await verifyPasswordAsync(oldPassword, rows[0].password_hash))) {
          const wait = await recordFailure(db, limits, req.user.phone, req.ip);
          if (wait > 0) throw refused({ status: 423, message: lockMessage(wait) });
          throw badInput('原密码错误', [{ field: 'oldPassword', message: '原密码错误' }]);
        }
        await clearFailures(db, req.user.phone);
      });
      const hash = await hashPasswordAsync(newPassword);
      await db.tx(async (tx) => {
        await tx.query('UPDATE users SET password_hash = $1 WHERE id = $2', [hash, req.user.id]);
        // Every other session ends; the session that changed the password stays signed in.
        await tx.query('UPDATE auth_tokens SET revoked_at = now() WHERE user_id = $1 AND family <> $2 AND revoked_at IS NULL', [
          req.user.id,
          req.user.family,
        ]);
      });
      return ok({});
    },
  );
}
