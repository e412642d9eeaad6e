/**
 * The operator API (onboarding, src/server/onboarding.ts): create a business, add a user with a role,
 * send a set-password code, unlock an account. Protected by its own credential, OPERATOR_TOKEN, sent
 * as `Authorization: Bearer <token>` — never a user's session; without OPERATOR_TOKEN every route
 * answers 404, as if it did not exist. Failed credentials count against the per-address sign-in limit.
 */
import { timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { notFound, ok, tooMany, unauthorized } from '../http/errors.ts';
import { addUser, createBusiness, inviteUser, knownServicePacks, unlockUser } from '../onboarding.ts';
import { hit } from '../services/rate-limit.ts';
import { sha256 } from '../util.ts';

const FIFTEEN_MIN = 15 * 60_000;
const str = { type: ['string', 'null'] } as const;

export interface OperatorRoutesOptions {
  /** sha256 (hex) of OPERATOR_TOKEN; undefined turns the operator API off. */
  tokenHash?: string;
}

export default async function operatorRoutes(app: FastifyInstance, opts: OperatorRoutesOptions) {
  const { db, limits } = app.deps;
  const expected = opts.tokenHash ? Buffer.from(opts.tokenHash, 'hex') : null;

  async function operatorOnly(req: FastifyRequest) {
    if (!expected) throw notFound(`接口不存在：${req.method} ${req.url.split('?')[0]}`);
    const m = /^Bearer\s+(\S+)$/i.exec(req.headers.authorization ?? '');
    const given = m ? Buffer.from(sha256(m[1]), 'hex') : Buffer.alloc(expected.length);
    if (m && timingSafeEqual(given, expected)) return;
    if ((await hit(db, `operator-fail:${req.ip}`, FIFTEEN_MIN)).count > limits.loginPerIp) throw tooMany('尝试过于频繁，请 15 分钟后再试');
    throw unauthorized('运营凭证无效');
  }
  const config = { auth: 'none' as const };
  const tags = ['operator'];
  // Bearer like a session, but the credential is OPERATOR_TOKEN.
  const security = [{ bearer: [] }];

  app.post<{ Body: Record<string, unknown> }>(
    '/api/operator/businesses',
    {
      config,
      preHandler: operatorOnly,
      schema: {
        tags,
        security,
        summary: '创建企业（运营）',
        body: {
          type: 'object',
          properties: {
            name: { ...str, title: '企业名称' },
            chargeForm: { ...str, title: '收费方式', description: 'prepaid | postpaid' },
            servicePacks: { type: ['array', 'string', 'null'], items: { type: 'string' }, title: '服务包', description: `可选：${knownServicePacks().join('、')}` },
            taxNo: { ...str, title: '税号' },
          },
        },
      },
    },
    async (req) => ok(await createBusiness(db, req.body)),
  );

  app.post<{ Body: Record<string, unknown> }>(
    '/api/operator/users',
    {
      config,
      preHandler: operatorOnly,
      schema: {
        tags,
        security,
        summary: '把手机号加入企业并指定角色（无账号时创建）（运营）',
        body: {
          type: 'object',
          properties: {
            phone: { ...str, title: '手机号' },
            businessId: { ...str, title: '企业编号' },
            role: { ...str, title: '角色', description: 'admin | operator' },
          },
        },
      },
    },
    async (req) => ok(await addUser(db, req.body)),
  );

  app.post<{ Body: Record<string, unknown> }>(
    '/api/operator/invitations',
    {
      config,
      preHandler: operatorOnly,
      schema: {
        tags,
        security,
        summary: '给用户发送设置密码的短信验证码（运营）',
        body: {
          type: 'object',
          properties: { phone: { ...str, title: '手机号' }, consoleUrl: { ...str, title: '控制台地址（写进短信）' } },
        },
      },
    },
    async (req) => {
      const consoleUrl = typeof req.body.consoleUrl === 'string' && /^https?:\/\//.test(req.body.consoleUrl) ? req.body.consoleUrl : process.env.PUBLIC_URL;
      return ok(await inviteUser(db, app.deps.sms, { phone: req.body.phone, consoleUrl }));
    },
  );

  app.post<{ Body: Record<string, unknown> }>(
    '/api/operator/unlock',
    {
      config,
      preHandler: operatorOnly,
      schema: { tags, security, summary: '解除账号的登录锁定（运营）', body: { type: 'object', properties: { phone: { ...str, title: '手机号' } } } },
    },
    async (req) => ok(await unlockUser(db, req.body)),
  );
}
