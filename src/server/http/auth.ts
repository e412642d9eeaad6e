import { randomUUID } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { Queryable } from '../db.ts';
import { newToken, sha256 } from '../util.ts';
import { hitCte, limitMessage, windowAt } from '../services/rate-limit.ts';
import { badInput, forbidden, tooMany, unauthorized } from './errors.ts';
import type { AuthMode, Business, User } from './types.ts';

export const ACCESS_TTL_MS = 2 * 3600 * 1000;
export const REFRESH_TTL_MS = 30 * 24 * 3600 * 1000;

/** The Business fields of a user_businesses (ub) row joined with its businesses (b) row. */
const BUSINESS_COLUMNS = `b.id AS "businessId", b.name AS "businessName", b.charge_form AS "chargeForm",
            ub.user_type AS "userType", b.service_packs AS "servicePacks",
            (b.balance_cents::float8 / 100) AS balance`;

export async function businessesOf(q: Queryable, userId: number): Promise<Business[]> {
  return q.query<Business>(
    `SELECT ${BUSINESS_COLUMNS}
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

const BEARER = /^Bearer\s+(\S+)$/i;

function bearerToken(req: FastifyRequest): string {
  const m = BEARER.exec(req.headers.authorization ?? '');
  if (!m) throw unauthorized('请先登录');
  return m[1];
}

const authModeOf = (req: FastifyRequest): AuthMode => req.routeOptions.config?.auth ?? 'business';

/**
 * The API's per-IP limit, counted by the auth plugin in the authentication statement itself (the
 * same rate_limits row hit() and the rate-limit plugin's store count).
 */
export interface ApiLimit {
  key: string;
  windowMs: number;
  max: number;
}

/** True when the auth hook counts this request against the API limit: a token sent to an authenticated route. */
export function countedByAuth(req: FastifyRequest): boolean {
  return Boolean(req.routeOptions.url) && authModeOf(req) !== 'none' && BEARER.test(req.headers.authorization ?? '');
}

/**
 * Runs an authentication SELECT ($1…$n) with the request counted in front of it (limit given): one
 * round trip. The limit is checked before the SELECT's rows are looked at, so a request over the limit
 * is a 429 whatever its token; the x-ratelimit-* headers are those of the rate-limit plugin.
 */
async function countedQuery<T extends { id: number | null }>(
  db: Queryable,
  reply: FastifyReply,
  limit: ApiLimit | undefined,
  sql: string,
  params: unknown[],
): Promise<T[]> {
  if (!limit) return db.query<T>(sql, params, { prepare: true });
  const w = windowAt(limit.windowMs);
  const n = params.length;
  const rows = await db.query<T & { __hits: number }>(
    `WITH ${hitCte(`$${n + 1}`, `$${n + 2}`)} SELECT hit.count AS "__hits", a.* FROM hit LEFT JOIN (${sql}) a ON true`,
    [...params, limit.key, w.start],
    { prepare: true },
  );
  const hits = Number(rows[0].__hits);
  const reset = Math.ceil(w.resetMs / 1000);
  reply.header('x-ratelimit-limit', limit.max);
  reply.header('x-ratelimit-remaining', Math.max(0, limit.max - hits));
  reply.header('x-ratelimit-reset', reset);
  if (hits > limit.max) {
    reply.header('retry-after', reset);
    throw tooMany(limitMessage(w.resetMs));
  }
  return rows.filter((r) => r.id !== null).map(({ __hits: _, ...r }) => r as unknown as T);
}

function requestedBusiness(req: FastifyRequest): string {
  const raw = req.headers['x-company-id'];
  return (Array.isArray(raw) ? raw[0] : raw ?? '').trim();
}

const LIVE_ACCESS_TOKEN = `t.token_hash = $1 AND t.kind = 'access' AND t.revoked_at IS NULL AND t.expires_at > now()`;

async function authenticate(db: Queryable, req: FastifyRequest, reply: FastifyReply, limit?: ApiLimit): Promise<User> {
  const rows = await countedQuery<User>(
    db,
    reply,
    limit,
    `SELECT u.id, u.phone, t.family FROM auth_tokens t JOIN users u ON u.id = t.user_id WHERE ${LIVE_ACCESS_TOKEN}`,
    [sha256(bearerToken(req))],
  );
  if (!rows[0]) throw unauthorized('登录已过期，请重新登录');
  return rows[0];
}

/**
 * The user and the business named by X-Company-Id in one round trip (every business-scoped request
 * pays for it): 401 for a missing or dead token, 403 when the user is not a member of that business.
 */
async function authenticateInBusiness(
  db: Queryable,
  req: FastifyRequest,
  reply: FastifyReply,
  limit?: ApiLimit,
): Promise<{ user: User; business: Business }> {
  const token = bearerToken(req);
  const businessId = requestedBusiness(req);
  if (!businessId) {
    await authenticate(db, req, reply, limit); // a dead token is a 401 before the missing business is a 400
    throw badInput('请先选择企业', [{ field: 'X-Company-Id', message: '请选择企业' }]);
  }
  const rows = await countedQuery<User & { [K in keyof Business]: Business[K] | null }>(
    db,
    reply,
    limit,
    `SELECT u.id, u.phone, t.family, ${BUSINESS_COLUMNS}
       FROM auth_tokens t JOIN users u ON u.id = t.user_id
       LEFT JOIN user_businesses ub ON ub.user_id = u.id AND ub.business_id = $2
       LEFT JOIN businesses b ON b.id = ub.business_id
      WHERE ${LIVE_ACCESS_TOKEN}`,
    [sha256(token), businessId],
  );
  const row = rows[0];
  if (!row) throw unauthorized('登录已过期，请重新登录');
  if (row.businessId === null) throw forbidden(`您无权访问企业 ${businessId}`);
  const { id, phone, family, ...business } = row;
  return { user: { id, phone, family }, business: business as Business };
}

/**
 * Authentication for the API scope: an onRequest hook (before the body is read) that reads
 * `config.auth` of the matched route — 'none', 'user' or 'business' (the default, so a route
 * that forgets to say is never public) — and sets request.user / request.business.
 */
export const authPlugin = fp(async (app: FastifyInstance, opts: { limitOf?: (req: FastifyRequest) => ApiLimit }) => {
  app.decorateRequest('user', null as unknown as User);
  app.decorateRequest('business', null as unknown as Business);
  app.addHook('onRequest', async (req, reply) => {
    const mode = authModeOf(req);
    if (mode === 'none' || !req.routeOptions.url) return;
    const limit = opts.limitOf?.(req);
    if (mode === 'business') ({ user: req.user, business: req.business } = await authenticateInBusiness(app.deps.db, req, reply, limit));
    else req.user = await authenticate(app.deps.db, req, reply, limit);
  });
});

export function requireAdmin(biz: Business) {
  if (biz.userType !== 'admin') throw forbidden('仅企业管理员可操作');
}
