import { randomUUID } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { Queryable } from '../db.ts';
import { newToken, sha256 } from '../util.ts';
import { badInput, forbidden, unauthorized } from './errors.ts';
import type { AuthMode, Business, User } from './types.ts';

export const ACCESS_TTL_MS = 2 * 3600 * 1000;
export const REFRESH_TTL_MS = 30 * 24 * 3600 * 1000;

export async function businessesOf(q: Queryable, userId: number): Promise<Business[]> {
  return q.query<Business>(
    `SELECT b.id AS "businessId", b.name AS "businessName", b.charge_form AS "chargeForm",
            ub.user_type AS "userType", b.service_packs AS "servicePacks",
            (b.balance_cents::float8 / 100) AS balance
       FROM user_businesses ub JOIN businesses b ON b.id = ub.business_id
      WHERE ub.user_id = $1 ORDER BY b.id`,
    [userId],
  );
}

/** A new access + refresh token pair in a session family (a new family per sign-in). */
export async function issueTokens(q: Queryable, userId: number, family: string = randomUUID()) {
  const token = newToken();
  const refreshToken = newToken();
  const now = Date.now();
  await q.query(
    `INSERT INTO auth_tokens (token_hash, user_id, family, kind, expires_at) VALUES ($1,$2,$3,'access',$4), ($5,$2,$3,'refresh',$6)`,
    [sha256(token), userId, family, new Date(now + ACCESS_TTL_MS).toISOString(), sha256(refreshToken), new Date(now + REFRESH_TTL_MS).toISOString()],
  );
  return { token, refreshToken };
}

async function authenticate(db: Queryable, req: FastifyRequest): Promise<User> {
  const h = req.headers.authorization ?? '';
  const m = /^Bearer\s+(\S+)$/i.exec(h);
  if (!m) throw unauthorized('请先登录');
  const rows = await db.query<User>(
    `SELECT u.id, u.phone, t.family FROM auth_tokens t JOIN users u ON u.id = t.user_id
      WHERE t.token_hash = $1 AND t.kind = 'access' AND t.revoked_at IS NULL AND t.expires_at > now()`,
    [sha256(m[1])],
  );
  if (!rows[0]) throw unauthorized('登录已过期，请重新登录');
  return rows[0];
}

async function scope(db: Queryable, req: FastifyRequest, user: User): Promise<Business> {
  const raw = req.headers['x-company-id'];
  const id = (Array.isArray(raw) ? raw[0] : raw ?? '').trim();
  if (!id) throw badInput('请先选择企业', [{ field: 'X-Company-Id', message: '请选择企业' }]);
  const biz = (await businessesOf(db, user.id)).find((b) => b.businessId === id);
  if (!biz) throw forbidden(`您无权访问企业 ${id}`);
  return biz;
}

/**
 * Authentication for the API scope: an onRequest hook (before the body is read) that reads
 * `config.auth` of the matched route — 'none', 'user' or 'business' (the default, so a route
 * that forgets to say is never public) — and sets request.user / request.business.
 */
export const authPlugin = fp(async (app: FastifyInstance) => {
  app.decorateRequest('user', null as unknown as User);
  app.decorateRequest('business', null as unknown as Business);
  app.addHook('onRequest', async (req) => {
    const mode: AuthMode = req.routeOptions.config?.auth ?? 'business';
    if (mode === 'none' || !req.routeOptions.url) return;
    req.user = await authenticate(app.deps.db, req);
    if (mode === 'business') req.business = await scope(app.deps.db, req, req.user);
  });
});

export function requireAdmin(biz: Business) {
  if (biz.userType !== 'admin') throw forbidden('仅企业管理员可操作');
}
