import type { IncomingMessage, ServerResponse } from 'node:http';
import { createReadStream, promises as fsp } from 'node:fs';
import { extname, join, resolve, sep } from 'node:path';
import { randomInt, randomUUID } from 'node:crypto';
import type { Db, Queryable } from './db.ts';
import { getResource, listResource, QueryError, RESOURCES } from './resources.ts';
import { PLANS } from './seed.ts';
import {
  PHONE_RE,
  hashPassword,
  isValidDate,
  isValidIdCard,
  maskPhone,
  newToken,
  sha256,
  verifyPassword,
} from './util.ts';

export const BODY_LIMIT = 1024 * 1024;
export const ACCESS_TTL_MS = 2 * 3600 * 1000;
export const REFRESH_TTL_MS = 30 * 24 * 3600 * 1000;
export const DEMO_SMS_CODE = '123456';

export interface FieldError {
  field: string;
  message: string;
}

export class HttpError extends Error {
  constructor(
    public status: number,
    public code: number,
    message: string,
    public errors?: FieldError[],
  ) {
    super(message);
  }
}

/** Chinese names of list resources, used in "not found" messages. */
const RESOURCE_LABELS: Record<string, string> = {
  'insured-persons': '参保人员',
  'insure-records': '投保记录',
  'insure-batches': '投保批次',
  orders: '订单',
  invoices: '发票',
  'invoice-refunds': '退票申请',
  claims: '理赔案件',
  'bank-accounts': '银行账户',
};

const badInput = (message: string, errors?: FieldError[]) => new HttpError(400, 40000, message, errors);
const unauthorized = (message: string) => new HttpError(401, 40100, message);
const forbidden = (message: string) => new HttpError(403, 40300, message);
const notFound = (message: string) => new HttpError(404, 40400, message);

export interface AppOptions {
  db: Db;
  /** Directory with the built UI (index.html + assets/). */
  staticDir?: string;
  /** URL prefix the console is served under; normalised to start and end with '/'. */
  basePath?: string;
  /** Logger for unexpected errors (defaults to console.error). */
  logError?: (err: unknown) => void;
}

export type RequestHandler = (req: IncomingMessage, res: ServerResponse) => void;

interface User {
  id: number;
  phone: string;
  family: string;
}

interface Business {
  businessId: string;
  businessName: string;
  chargeForm: 'prepaid' | 'postpaid';
  userType: 'admin' | 'operator';
  servicePacks: string[];
  balance: number;
}

interface Ctx {
  req: IncomingMessage;
  query: URLSearchParams;
  params: Record<string, string>;
  body: Record<string, unknown>;
  user: User;
  biz: Business;
}

type Auth = 'none' | 'user' | 'business';
type Handler = (ctx: Ctx) => Promise<unknown>;
interface Route {
  method: string;
  re: RegExp;
  keys: string[];
  auth: Auth;
  handler: Handler;
}

export function normalizeBasePath(p?: string): string {
  let b = (p ?? '/').trim() || '/';
  if (!b.startsWith('/')) b = `/${b}`;
  if (!b.endsWith('/')) b = `${b}/`;
  return b.replace(/\/{2,}/g, '/');
}

// ---------------------------------------------------------------- validation helpers

class Check {
  errors: FieldError[] = [];
  constructor(private body: Record<string, unknown>) {}
  add(field: string, message: string) {
    this.errors.push({ field, message });
  }
  str(
    field: string,
    opts: { min?: number; max?: number; required?: boolean; label?: string; pick?: boolean } = {},
  ): string {
    const { min = 1, max = 200, required = true, label = field, pick = false } = opts;
    const v = this.body[field];
    if (v === undefined || v === null || (typeof v === 'string' && v.trim() === '')) {
      if (required) this.add(field, `${pick ? '请选择' : '请填写'}${label}`);
      return '';
    }
    if (typeof v !== 'string') {
      this.add(field, `${label}格式不正确`);
      return '';
    }
    const s = v.trim();
    if (s.length < min || s.length > max) {
      this.add(field, min <= 1 ? `${label}不能超过 ${max} 个字符` : `${label}长度应为 ${min}–${max} 个字符`);
    }
    return s;
  }
  date(field: string, label = field): string {
    const s = this.str(field, { max: 10, label });
    if (s && !isValidDate(s)) this.add(field, `${label}格式不正确，应为 2024-01-31 这样的日期`);
    return s;
  }
  money(field: string, label = field, maxYuan = 10_000_000): number {
    const v = this.body[field];
    let n = NaN;
    if (typeof v === 'number') n = v;
    else if (typeof v === 'string' && /^\d+(\.\d{1,2})?$/.test(v.trim())) n = Number(v);
    if (v === undefined || v === null || v === '') {
      this.add(field, `请填写${label}`);
      return 0;
    }
    if (!Number.isFinite(n) || n <= 0 || n > maxYuan) {
      this.add(field, `${label}应大于 0 且不超过 ${yuanText(maxYuan)}元`);
      return 0;
    }
    const cents = Math.round(n * 100);
    if (Math.abs(cents - n * 100) > 1e-6) {
      this.add(field, `${label}最多保留 2 位小数`);
      return 0;
    }
    return cents;
  }
  done(message = '填写内容有误，请按提示修改') {
    if (this.errors.length) throw badInput(message, this.errors);
  }
}

/** 10000000 → '1000 万'; amounts below 10 000 stay as digits. */
function yuanText(yuan: number): string {
  return yuan >= 10_000 && yuan % 10_000 === 0 ? `${yuan / 10_000} 万` : `${yuan} `;
}

function passwordProblem(pw: string): string | null {
  if (pw.length < 8) return '密码至少 8 位';
  if (pw.length > 64) return '密码不能超过 64 位';
  if (!/[A-Za-z]/.test(pw) || !/\d/.test(pw)) return '密码需同时包含字母和数字';
  return null;
}

function phoneCheck(c: Check, body: Record<string, unknown>): string {
  const phone = c.str('phone', { max: 20, label: '手机号' });
  if (phone && !PHONE_RE.test(phone)) c.add('phone', '请输入正确的 11 位手机号');
  void body;
  return phone;
}

function today(): string {
  return new Date().toISOString().slice(0, 10);
}

function addDays(d: string, n: number): string {
  const t = new Date(`${d}T00:00:00Z`).getTime() + n * 86400000;
  return new Date(t).toISOString().slice(0, 10);
}

function serialNo(prefix: string): string {
  const d = new Date().toISOString().replace(/\D/g, '').slice(0, 14);
  return `${prefix}${d}${String(randomInt(0, 1_000_000)).padStart(6, '0')}`;
}

interface RosterRow {
  name: string;
  idCard: string;
  phone: string;
  jobType: string;
}

function checkRows(c: Check, raw: unknown): RosterRow[] {
  if (!Array.isArray(raw) || raw.length === 0) {
    c.add('rows', '请至少添加 1 名人员');
    return [];
  }
  if (raw.length > 5000) {
    c.add('rows', '每批最多 5000 人');
    return [];
  }
  const seen = new Map<string, number>();
  return raw.map((r, i) => {
    const at = `rows[${i}]`;
    const rowNo = `第 ${i + 1} 行`;
    if (!r || typeof r !== 'object' || Array.isArray(r)) {
      c.add(at, `${rowNo}：数据格式不正确（应包含姓名、身份证号、手机号、工种）`);
      return { name: '', idCard: '', phone: '', jobType: '' };
    }
    const o = r as Record<string, unknown>;
    const s = (k: string) => (typeof o[k] === 'string' ? (o[k] as string).trim() : o[k] == null ? '' : null);
    const name = s('name');
    const idCard = s('idCard');
    const phone = s('phone');
    const jobType = s('jobType');
    if (!name) c.add(`${at}.name`, `${rowNo}：请填写姓名`);
    else if (name.length < 2 || name.length > 30) c.add(`${at}.name`, `${rowNo}：姓名长度应为 2–30 个字符`);
    if (!idCard) c.add(`${at}.idCard`, `${rowNo}：请填写身份证号`);
    else if (!isValidIdCard(idCard)) {
      c.add(`${at}.idCard`, `${rowNo}：身份证号不正确`);
    } else {
      const key = idCard.toUpperCase();
      if (seen.has(key)) c.add(`${at}.idCard`, `${rowNo}：身份证号与第 ${seen.get(key)! + 1} 行重复`);
      else seen.set(key, i);
    }
    if (phone === null || (phone && !PHONE_RE.test(phone))) {
      c.add(`${at}.phone`, `${rowNo}：请输入正确的 11 位手机号`);
    }
    if (jobType === null || (jobType && jobType.length > 30)) c.add(`${at}.jobType`, `${rowNo}：工种不能超过 30 个字符`);
    return { name: name ?? '', idCard: (idCard ?? '').toUpperCase(), phone: phone ?? '', jobType: jobType ?? '' };
  });
}

// ---------------------------------------------------------------- app

export function createApp(opts: AppOptions): RequestHandler {
  const { db } = opts;
  const basePath = normalizeBasePath(opts.basePath);
  const staticRoot = opts.staticDir ? resolve(opts.staticDir) : undefined;
  const logError = opts.logError ?? ((err: unknown) => console.error('[gateway]', err));
  const routes: Route[] = [];

  const route = (method: string, path: string, auth: Auth, handler: Handler) => {
    const keys: string[] = [];
    const re = new RegExp(
      `^${path.replace(/:(\w+)/g, (_, k: string) => {
        keys.push(k);
        return '([^/]+)';
      })}/?$`,
    );
    routes.push({ method, re, keys, auth, handler });
  };

  // ------------------------------------------------------------ auth helpers

  async function businessesOf(q: Queryable, userId: number): Promise<Business[]> {
    return q.query<Business>(
      `SELECT b.id AS "businessId", b.name AS "businessName", b.charge_form AS "chargeForm",
              ub.user_type AS "userType", b.service_packs AS "servicePacks",
              (b.balance_cents::float8 / 100) AS balance
         FROM user_businesses ub JOIN businesses b ON b.id = ub.business_id
        WHERE ub.user_id = $1 ORDER BY b.id`,
      [userId],
    );
  }

  async function issueTokens(q: Queryable, userId: number, family: string) {
    const token = newToken();
    const refreshToken = newToken();
    const now = Date.now();
    await q.query(
      `INSERT INTO auth_tokens (token_hash, user_id, family, kind, expires_at) VALUES ($1,$2,$3,'access',$4), ($5,$2,$3,'refresh',$6)`,
      [sha256(token), userId, family, new Date(now + ACCESS_TTL_MS).toISOString(), sha256(refreshToken), new Date(now + REFRESH_TTL_MS).toISOString()],
    );
    return { token, refreshToken };
  }

  async function authenticate(req: IncomingMessage): Promise<User> {
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

  async function scope(req: IncomingMessage, user: User): Promise<Business> {
    const raw = req.headers['x-company-id'];
    const id = (Array.isArray(raw) ? raw[0] : raw ?? '').trim();
    if (!id) throw badInput('请先选择企业', [{ field: 'X-Company-Id', message: '请选择企业' }]);
    const biz = (await businessesOf(db, user.id)).find((b) => b.businessId === id);
    if (!biz) throw forbidden(`您无权访问企业 ${id}`);
    return biz;
  }

  // ------------------------------------------------------------ auth routes

  route('POST', '/api/auth/login', 'none', async ({ body }) => {
    const c = new Check(body);
    const phone = phoneCheck(c, body);
    const password = typeof body.password === 'string' ? body.password : '';
    if (!password) c.add('password', '请输入密码');
    c.done();
    const users = await db.query<{ id: number; phone: string; password_hash: string }>(
      'SELECT id, phone, password_hash FROM users WHERE phone = $1',
      [phone],
    );
    const u = users[0];
    if (!u || !verifyPassword(password, u.password_hash)) throw unauthorized('手机号或密码错误');
    const tokens = await issueTokens(db, u.id, randomUUID());
    return { ...tokens, userTel: u.phone, businessList: await businessesOf(db, u.id) };
  });

  route('POST', '/api/auth/refresh', 'none', async ({ body }) => {
    const rt = typeof body.refreshToken === 'string' ? body.refreshToken.trim() : '';
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
    return result;
  });

  route('POST', '/api/auth/logout', 'user', async ({ user }) => {
    await db.query('UPDATE auth_tokens SET revoked_at = now() WHERE family = $1 AND revoked_at IS NULL', [user.family]);
    return {};
  });

  route('POST', '/api/auth/sms-code', 'none', async ({ body }) => {
    const c = new Check(body);
    const phone = phoneCheck(c, body);
    c.done();
    return { sentTo: maskPhone(phone) };
  });

  route('POST', '/api/auth/set-password', 'none', async ({ body }) => {
    const c = new Check(body);
    const phone = phoneCheck(c, body);
    const code = c.str('code', { max: 10, label: '短信验证码' });
    if (code && code !== DEMO_SMS_CODE) c.add('code', '短信验证码错误');
    const password = typeof body.password === 'string' ? body.password : '';
    const problem = password ? passwordProblem(password) : '请输入新密码';
    if (problem) c.add('password', problem);
    c.done();
    await db.tx(async (tx) => {
      const users = await tx.query<{ id: number }>('SELECT id FROM users WHERE phone = $1', [phone]);
      if (!users[0]) {
        throw badInput('该手机号未注册账号', [{ field: 'phone', message: '该手机号未注册账号' }]);
      }
      await tx.query('UPDATE users SET password_hash = $1 WHERE id = $2', [hashPassword(password), users[0].id]);
      await tx.query('UPDATE auth_tokens SET revoked_at = now() WHERE user_id = $1 AND revoked_at IS NULL', [users[0].id]);
    });
    return {};
  });

  route('POST', '/api/settings/password', 'user', async ({ body, user }) => {
    const c = new Check(body);
    const oldPassword = typeof body.oldPassword === 'string' ? body.oldPassword : '';
    const newPassword = typeof body.newPassword === 'string' ? body.newPassword : '';
    if (!oldPassword) c.add('oldPassword', '请输入原密码');
    const problem = newPassword ? passwordProblem(newPassword) : '请输入新密码';
    if (problem) c.add('newPassword', problem);
    c.done();
    const rows = await db.query<{ password_hash: string }>('SELECT password_hash FROM users WHERE id = $1', [user.id]);
    if (!rows[0] || !verifyPassword(oldPassword, rows[0].password_hash)) {
      throw badInput('原密码错误', [{ field: 'oldPassword', message: '原密码错误' }]);
    }
    await db.query('UPDATE users SET password_hash = $1 WHERE id = $2', [hashPassword(newPassword), user.id]);
    return {};
  });

  route('GET', '/api/businesses', 'user', async ({ user }) => businessesOf(db, user.id));

  // ------------------------------------------------------------ overview

  route('GET', '/api/overview', 'business', async ({ biz }) => {
    const id = biz.businessId;
    const monthStart = `${today().slice(0, 7)}-01`;
    const [row] = await db.query<Record<string, number>>(
      `SELECT
         (SELECT count(*)::int FROM insured_persons WHERE business_id = $1 AND status = 'insured') AS "insuredCount",
         (SELECT count(*)::int FROM insured_persons WHERE business_id = $1 AND status = 'pending') AS "pendingCount",
         (SELECT coalesce(sum(premium_cents), 0)::float8 / 100 FROM insure_records
            WHERE business_id = $1 AND status <> 'cancelled' AND created_at >= ($2::date)::timestamp AT TIME ZONE 'UTC') AS "monthPremium",
         (SELECT count(*)::int FROM orders WHERE business_id = $1 AND pay_status = 'unpaid') AS "unpaidOrders",
         (SELECT count(*)::int FROM claims WHERE business_id = $1 AND status IN ('reported','reviewing')) AS "openClaims",
         (SELECT balance_cents::float8 / 100 FROM businesses WHERE id = $1) AS balance`,
      [id, monthStart],
    );
    return row;
  });

  // ------------------------------------------------------------ insure writes

  async function createBatch(
    biz: Business,
    source: 'roster' | 'attendance',
    planName: string,
    fileName: string,
    rows: RosterRow[],
    start: string,
    end: string,
    premiumCents: number,
  ) {
    const batchId = await db.tx(async (tx) => {
      const batchNo = serialNo('PB');
      const [batch] = await tx.query<{ id: number }>(
        `INSERT INTO insure_batches (business_id, batch_no, source, file_name, total, succeeded, failed, status)
         VALUES ($1,$2,$3,$4,$5,$5,0,'done') RETURNING id`,
        [biz.businessId, batchNo, source, fileName, rows.length],
      );
      const future = start > today();
      for (const r of rows) {
        await tx.query(
          `INSERT INTO insured_persons (business_id, name, id_card, phone, job_type, plan_name, status, start_date, end_date)
           VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9)
           ON CONFLICT (business_id, id_card) DO UPDATE SET name = EXCLUDED.name, phone = EXCLUDED.phone,
             job_type = EXCLUDED.job_type, plan_name = EXCLUDED.plan_name, status = EXCLUDED.status,
             start_date = EXCLUDED.start_date, end_date = EXCLUDED.end_date`,
          [biz.businessId, r.name, r.idCard, r.phone, r.jobType, planName, future ? 'pending' : 'insured', start, end],
        );
        await tx.query(
          `INSERT INTO insure_records (business_id, batch_id, batch_no, person_name, id_card, plan_name, premium_cents, status, effective_date, expiry_date)
           VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10)`,
          [biz.businessId, batch.id, batchNo, r.name, r.idCard, planName, premiumCents, future ? 'pending' : 'effective', start, end],
        );
      }
      const amount = premiumCents * rows.length;
      let paid = false;
      if (biz.chargeForm === 'prepaid') {
        const upd = await tx.query(
          'UPDATE businesses SET balance_cents = balance_cents - $2 WHERE id = $1 AND balance_cents >= $2 RETURNING id',
          [biz.businessId, amount],
        );
        paid = upd.length > 0;
      }
      await tx.query(
        `INSERT INTO orders (business_id, order_no, product_name, person_count, amount_cents, pay_status, order_status, paid_at)
         VALUES ($1,$2,$3,$4,$5,$6,$7,$8)`,
        [biz.businessId, serialNo('OD'), planName, rows.length, amount, paid ? 'paid' : 'unpaid', paid ? 'completed' : 'pending_payment', paid ? new Date().toISOString() : null],
      );
      return batch.id;
    });
    return getResource(db, RESOURCES['insure-batches'], biz.businessId, batchId);
  }

  // Insurance plans on sale: roster cover is priced per month, attendance cover per day.
  route('GET', '/api/plans', 'user', async ({ query }) => {
    const u = query.get('unit');
    const unit = u === 'month' || u === 'day' ? u : undefined;
    return Object.entries(PLANS)
      .filter(([, p]) => !unit || p.unit === unit)
      .map(([name, p]) => ({
        value: name,
        label: `${name} · ¥${(p.cents / 100).toFixed(2)}/${p.unit === 'month' ? '人·月' : '人·天'}`,
        unit: p.unit,
        price: p.cents / 100,
      }));
  });

  /**
   * The common part of a roster or attendance write: a plan on sale for that pricing unit, a date, an
   * optional file name and the rows. Refuses the whole batch (nothing stored) if anything is wrong.
   */
  function checkBatchInput(body: Record<string, unknown>, unit: 'month' | 'day', dateField: string, dateLabel: string) {
    const c = new Check(body);
    const planName = c.str('planName', { max: 100, label: '保险方案', pick: true });
    const plan = PLANS[planName];
    if (planName && (!plan || plan.unit !== unit)) {
      c.add('planName', unit === 'month' ? '请选择按月计费的保险方案' : '请选择按天计费的保险方案');
    }
    const date = c.date(dateField, dateLabel);
    const fileName = c.str('fileName', { max: 200, required: false, label: '文件名' });
    const rows = checkRows(c, body.rows);
    c.done(c.errors.some((e) => e.field.startsWith('rows[')) ? '名单中有数据不正确，本批次未提交，请修改后重新提交' : undefined);
    return { planName, plan, date, fileName, rows };
  }

  route('POST', '/api/insure/roster', 'business', async ({ body, biz }) => {
    const { planName, plan, date, fileName, rows } = checkBatchInput(body, 'month', 'startDate', '起保日期');
    // Roster cover runs one year; premium is the monthly price times 12.
    return createBatch(biz, 'roster', planName, fileName, rows, date, addDays(date, 364), plan.cents * 12);
  });

  route('POST', '/api/insure/attendance', 'business', async ({ body, biz }) => {
    if (!biz.servicePacks.includes('attendance')) {
      throw forbidden('当前企业未开通考勤服务包');
    }
    const { planName, plan, date, fileName, rows } = checkBatchInput(body, 'day', 'workDate', '出勤日期');
    return createBatch(biz, 'attendance', planName, fileName, rows, date, date, plan.cents);
  });

  // ------------------------------------------------------------ finance / claims writes

  route('POST', '/api/invoices', 'business', async ({ body, biz }) => {
    const c = new Check(body);
    const title = c.str('title', { min: 2, max: 100, label: '发票抬头' });
    const taxNo = c.str('taxNo', { max: 20, label: '税号' }).toUpperCase();
    if (taxNo && !/^[0-9A-Z]{15,20}$/.test(taxNo)) c.add('taxNo', '税号应为 15–20 位字母或数字');
    const type = c.str('type', { max: 10, label: '发票类型', pick: true });
    if (type && type !== 'normal' && type !== 'special') c.add('type', '发票类型只能是普通发票或专用发票');
    const email = c.str('email', { max: 100, label: '接收邮箱' });
    if (email && !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email)) c.add('email', '请输入正确的邮箱地址');
    const orderNos = body.orderNos;
    if (!Array.isArray(orderNos) || orderNos.length === 0 || orderNos.some((o) => typeof o !== 'string' || !o.trim())) {
      c.add('orderNos', '请至少选择 1 个订单');
    } else if (orderNos.length > 100) c.add('orderNos', '每张发票最多关联 100 个订单');
    c.done();
    const nos = [...new Set((orderNos as string[]).map((o) => o.trim()))];
    const id = await db.tx(async (tx) => {
      const found = await tx.query<{ order_no: string; pay_status: string; amount_cents: number }>(
        'SELECT order_no, pay_status, amount_cents::float8 AS amount_cents FROM orders WHERE business_id = $1 AND order_no = ANY($2::text[])',
        [biz.businessId, nos],
      );
      const used = await tx.query<{ no: string }>(
        `SELECT DISTINCT unnest(order_nos) AS no FROM invoices WHERE business_id = $1 AND status IN ('applying','issued')`,
        [biz.businessId],
      );
      const usedSet = new Set(used.map((u) => u.no));
      const errs: FieldError[] = [];
      for (const no of nos) {
        const o = found.find((f) => f.order_no === no);
        if (!o) errs.push({ field: 'orderNos', message: `订单 ${no} 不存在` });
        else if (o.pay_status !== 'paid') errs.push({ field: 'orderNos', message: `订单 ${no} 未支付，不能开票` });
        else if (usedSet.has(no)) errs.push({ field: 'orderNos', message: `订单 ${no} 已开票或正在开票` });
      }
      if (errs.length) throw badInput('部分订单无法开票', errs);
      const amount = found.reduce((s, o) => s + Number(o.amount_cents), 0);
      const [row] = await tx.query<{ id: number }>(
        `INSERT INTO invoices (business_id, invoice_no, title, tax_no, amount_cents, type, status, email, order_nos)
         VALUES ($1,$2,$3,$4,$5,$6,'applying',$7,$8::text[]) RETURNING id`,
        [biz.businessId, serialNo('FP'), title, taxNo, amount, type, email, nos],
      );
      return row.id;
    });
    return getResource(db, RESOURCES.invoices, biz.businessId, id);
  });

  route('POST', '/api/invoice-refunds', 'business', async ({ body, biz }) => {
    const c = new Check(body);
    const invoiceNo = c.str('invoiceNo', { max: 40, label: '发票号' });
    const cents = c.money('amount', '退款金额');
    const reason = c.str('reason', { min: 2, max: 200, label: '退款原因' });
    c.done();
    const id = await db.tx(async (tx) => {
      const inv = await tx.query<{ amount_cents: number; status: string }>(
        'SELECT amount_cents::float8 AS amount_cents, status FROM invoices WHERE business_id = $1 AND invoice_no = $2',
        [biz.businessId, invoiceNo],
      );
      if (!inv[0]) throw badInput('发票不存在', [{ field: 'invoiceNo', message: `发票 ${invoiceNo} 不存在` }]);
      if (inv[0].status !== 'issued') {
        throw badInput('仅已开具的发票可申请退款', [{ field: 'invoiceNo', message: '仅已开具的发票可申请退款' }]);
      }
      const [{ s }] = await tx.query<{ s: number }>(
        `SELECT coalesce(sum(amount_cents), 0)::float8 AS s FROM invoice_refunds
          WHERE business_id = $1 AND invoice_no = $2 AND status <> 'rejected'`,
        [biz.businessId, invoiceNo],
      );
      const left = Number(inv[0].amount_cents) - Number(s);
      if (cents > left) {
        throw badInput('退款金额超过可退金额', [
          { field: 'amount', message: `该发票最多可退 ${(left / 100).toFixed(2)} 元` },
        ]);
      }
      const [row] = await tx.query<{ id: number }>(
        `INSERT INTO invoice_refunds (business_id, refund_no, invoice_no, amount_cents, reason, status)
         VALUES ($1,$2,$3,$4,$5,'applying') RETURNING id`,
        [biz.businessId, serialNo('TP'), invoiceNo, cents, reason],
      );
      return row.id;
    });
    return getResource(db, RESOURCES['invoice-refunds'], biz.businessId, id);
  });

  route('POST', '/api/claims', 'business', async ({ body, biz }) => {
    const c = new Check(body);
    const personName = c.str('personName', { min: 2, max: 30, label: '出险人' });
    const idCard = c.str('idCard', { max: 18, label: '身份证号' }).toUpperCase();
    if (idCard && !isValidIdCard(idCard)) c.add('idCard', '身份证号不正确');
    const accidentDate = c.date('accidentDate', '出险日期');
    if (accidentDate && isValidDate(accidentDate) && accidentDate > today()) c.add('accidentDate', '出险日期不能晚于今天');
    const accidentType = c.str('accidentType', { max: 30, label: '事故类型', pick: true });
    const description = c.str('description', { max: 1000, label: '事故经过' });
    const cents = c.money('amount', '预估金额');
    c.done();
    const [row] = await db.query<{ id: number }>(
      `INSERT INTO claims (business_id, claim_no, person_name, id_card, accident_date, accident_type, description, amount_cents, status)
       VALUES ($1,$2,$3,$4,$5,$6,$7,$8,'reported') RETURNING id`,
      [biz.businessId, serialNo('LP'), personName, idCard, accidentDate, accidentType, description, cents],
    );
    return getResource(db, RESOURCES.claims, biz.businessId, row.id);
  });

  const requireAdmin = (biz: Business) => {
    if (biz.userType !== 'admin') throw forbidden('仅企业管理员可操作');
  };

  route('POST', '/api/bank-accounts', 'business', async ({ body, biz }) => {
    requireAdmin(biz);
    const c = new Check(body);
    const accountName = c.str('accountName', { min: 2, max: 100, label: '账户名称' });
    const bankName = c.str('bankName', { min: 2, max: 50, label: '开户银行' });
    const accountNo = c.str('accountNo', { max: 40, label: '银行账号' }).replace(/[\s-]/g, '');
    if (accountNo && !/^\d{8,30}$/.test(accountNo)) c.add('accountNo', '银行账号应为 8–30 位数字');
    const branch = c.str('branch', { max: 100, required: false, label: '开户支行' });
    const isDefault = body.isDefault ?? false;
    if (typeof isDefault !== 'boolean') c.add('isDefault', '“设为默认账户”的取值无效');
    c.done();
    const id = await db.tx(async (tx) => {
      const [{ n }] = await tx.query<{ n: number }>('SELECT count(*)::int AS n FROM bank_accounts WHERE business_id = $1', [biz.businessId]);
      const makeDefault = isDefault === true || n === 0;
      if (makeDefault) await tx.query('UPDATE bank_accounts SET is_default = false WHERE business_id = $1', [biz.businessId]);
      const [row] = await tx.query<{ id: number }>(
        `INSERT INTO bank_accounts (business_id, account_name, bank_name, account_no, branch, is_default)
         VALUES ($1,$2,$3,$4,$5,$6) RETURNING id`,
        [biz.businessId, accountName, bankName, accountNo, branch, makeDefault],
      );
      return row.id;
    });
    return getResource(db, RESOURCES['bank-accounts'], biz.businessId, id);
  });

  route('DELETE', '/api/bank-accounts/:id', 'business', async ({ params, biz }) => {
    requireAdmin(biz);
    const id = Number(params.id);
    if (!Number.isInteger(id) || id < 1) throw notFound('银行账户不存在');
    await db.tx(async (tx) => {
      const del = await tx.query<{ is_default: boolean }>(
        'DELETE FROM bank_accounts WHERE business_id = $1 AND id = $2 RETURNING is_default',
        [biz.businessId, id],
      );
      if (!del[0]) throw notFound('银行账户不存在');
      if (del[0].is_default) {
        await tx.query(
          `UPDATE bank_accounts SET is_default = true WHERE id = (
             SELECT id FROM bank_accounts WHERE business_id = $1 ORDER BY created_at, id LIMIT 1)`,
          [biz.businessId],
        );
      }
    });
    return {};
  });

  // ------------------------------------------------------------ generic lists and details

  for (const [name, r] of Object.entries(RESOURCES)) {
    route('GET', `/api/${name}`, 'business', async ({ query, biz }) => {
      try {
        return await listResource(db, r, biz.businessId, query);
      } catch (err) {
        if (err instanceof QueryError) throw badInput(err.message, [{ field: err.field, message: err.message }]);
        throw err;
      }
    });
    route('GET', `/api/${name}/:id`, 'business', async ({ params, biz }) => {
      const id = Number(params.id);
      const row = Number.isInteger(id) && id >= 1 && id <= 2147483647 ? await getResource(db, r, biz.businessId, id) : null;
      if (!row) throw notFound(`当前企业下不存在该${RESOURCE_LABELS[name] ?? '记录'}（ID：${params.id}）`);
      return row;
    });
  }

  // ------------------------------------------------------------ http plumbing

  function sendJson(res: ServerResponse, status: number, body: unknown, extra: Record<string, string> = {}) {
    const data = JSON.stringify(body);
    res.writeHead(status, {
      'Content-Type': 'application/json; charset=utf-8',
      'Content-Length': Buffer.byteLength(data),
      'Cache-Control': 'no-store',
      'X-Content-Type-Options': 'nosniff',
      ...extra,
    });
    res.end(data);
  }

  function readBody(req: IncomingMessage): Promise<Record<string, unknown>> {
    return new Promise((resolveBody, reject) => {
      const declared = Number(req.headers['content-length'] ?? 0);
      if (declared > BODY_LIMIT) {
        req.resume();
        reject(new HttpError(413, 41300, '请求内容过大（上限 1 MB）'));
        return;
      }
      const chunks: Buffer[] = [];
      let size = 0;
      let failed = false;
      req.on('data', (chunk: Buffer) => {
        if (failed) return;
        size += chunk.length;
        if (size > BODY_LIMIT) {
          failed = true;
          chunks.length = 0;
          reject(new HttpError(413, 41300, '请求内容过大（上限 1 MB）'));
          return;
        }
        chunks.push(chunk);
      });
      req.on('error', (e) => {
        if (!failed) reject(e);
      });
      req.on('end', () => {
        if (failed) return;
        const text = Buffer.concat(chunks).toString('utf8');
        if (!text.trim()) return resolveBody({});
        let parsed: unknown;
        try {
          parsed = JSON.parse(text);
        } catch {
          return reject(badInput('请求体不是有效的 JSON'));
        }
        if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) {
          return reject(badInput('请求体必须是 JSON 对象'));
        }
        resolveBody(parsed as Record<string, unknown>);
      });
    });
  }

  async function handleApi(req: IncomingMessage, res: ServerResponse, path: string, query: URLSearchParams) {
    const method = req.method ?? 'GET';
    const matches = routes.filter((r) => r.re.test(path));
    if (matches.length === 0) throw notFound(`接口不存在：${method} ${path}`);
    const r = matches.find((m) => m.method === method || (method === 'HEAD' && m.method === 'GET'));
    if (!r) {
      throw new HttpError(405, 40500, `接口 ${path} 不支持 ${method} 请求`);
    }
    const m = r.re.exec(path)!;
    const params: Record<string, string> = {};
    r.keys.forEach((k, i) => {
      params[k] = decodeURIComponent(m[i + 1]);
    });
    const body = method === 'POST' || method === 'PUT' || method === 'PATCH' ? await readBody(req) : {};
    const ctx = { req, query, params, body } as Ctx;
    if (r.auth !== 'none') ctx.user = await authenticate(req);
    if (r.auth === 'business') ctx.biz = await scope(req, ctx.user);
    const data = await r.handler(ctx);
    sendJson(res, 200, { code: 0, data: data ?? {}, message: 'ok' });
  }

  // ------------------------------------------------------------ static files

  const TYPES: Record<string, string> = {
    '.html': 'text/html; charset=utf-8',
    '.js': 'text/javascript; charset=utf-8',
    '.mjs': 'text/javascript; charset=utf-8',
    '.css': 'text/css; charset=utf-8',
    '.json': 'application/json; charset=utf-8',
    '.map': 'application/json; charset=utf-8',
    '.svg': 'image/svg+xml',
    '.png': 'image/png',
    '.jpg': 'image/jpeg',
    '.jpeg': 'image/jpeg',
    '.gif': 'image/gif',
    '.webp': 'image/webp',
    '.ico': 'image/x-icon',
    '.woff': 'font/woff',
    '.woff2': 'font/woff2',
    '.ttf': 'font/ttf',
    '.txt': 'text/plain; charset=utf-8',
    '.wasm': 'application/wasm',
    '.webmanifest': 'application/manifest+json',
  };

  async function serveIndex(req: IncomingMessage, res: ServerResponse) {
    let html: string;
    try {
      html = await fsp.readFile(join(staticRoot!, 'index.html'), 'utf8');
    } catch {
      sendJson(res, 404, { code: 40400, message: '控制台页面尚未构建（缺少 index.html）' });
      return;
    }
    const cfg = JSON.stringify({ basePath }).replace(/</g, '\\u003c');
    html = html.split('"./assets/').join(`"${basePath}assets/`);
    const tag = `<script>window.__APP_CONFIG__=${cfg}</script>`;
    html = html.includes('</head>') ? html.replace('</head>', `${tag}</head>`) : tag + html;
    res.writeHead(200, {
      'Content-Type': 'text/html; charset=utf-8',
      'Content-Length': Buffer.byteLength(html),
      'Cache-Control': 'no-cache',
      'X-Content-Type-Options': 'nosniff',
    });
    res.end(req.method === 'HEAD' ? undefined : html);
  }

  async function handleStatic(req: IncomingMessage, res: ServerResponse, pathname: string) {
    const method = req.method ?? 'GET';
    if (!staticRoot) throw notFound(`资源不存在：${pathname}`);
    if (method !== 'GET' && method !== 'HEAD') throw new HttpError(405, 40500, `不支持 ${method} 请求`);
    if (!pathname.startsWith(basePath)) {
      if (`${pathname}/` === basePath || pathname === '/') {
        res.writeHead(302, { Location: basePath });
        res.end();
        return;
      }
      throw notFound(`资源不存在：${pathname}（控制台地址为 ${basePath}）`);
    }
    let rel: string;
    try {
      rel = decodeURIComponent(pathname.slice(basePath.length));
    } catch {
      throw badInput('请求地址格式不正确');
    }
    if (rel === '' || rel === 'index.html' || rel.includes('\0')) return serveIndex(req, res);
    const file = resolve(staticRoot, rel);
    if (file !== staticRoot && !file.startsWith(staticRoot + sep)) throw notFound('资源不存在');
    const stat = await fsp.stat(file).catch(() => null);
    if (stat && stat.isFile()) {
      const isAsset = rel.startsWith('assets/');
      res.writeHead(200, {
        'Content-Type': TYPES[extname(file).toLowerCase()] ?? 'application/octet-stream',
        'Content-Length': stat.size,
        'Cache-Control': isAsset ? 'public, max-age=31536000, immutable' : 'no-cache',
        'X-Content-Type-Options': 'nosniff',
      });
      if (method === 'HEAD') {
        res.end();
        return;
      }
      createReadStream(file).pipe(res);
      return;
    }
    // Missing hashed assets should not turn into HTML.
    if (rel.startsWith('assets/')) throw notFound(`资源不存在：${pathname}`);
    return serveIndex(req, res);
  }

  return (req, res) => {
    let url: URL;
    try {
      url = new URL(req.url ?? '/', 'http://localhost');
    } catch {
      sendJson(res, 400, { code: 40000, message: '请求地址格式不正确' });
      return;
    }
    let pathname = url.pathname;
    const baseApi = `${basePath}api`;
    if (basePath !== '/' && (pathname === baseApi || pathname.startsWith(`${baseApi}/`))) {
      pathname = pathname.slice(basePath.length - 1);
    }
    const isApi = pathname === '/api' || pathname.startsWith('/api/');
    const work = isApi ? handleApi(req, res, pathname, url.searchParams) : handleStatic(req, res, pathname);
    work.catch((err: unknown) => {
      if (res.headersSent) {
        res.destroy();
        return;
      }
      if (err instanceof HttpError) {
        const body: Record<string, unknown> = { code: err.code, message: err.message };
        if (err.errors) body.errors = err.errors;
        sendJson(res, err.status, body, err.status === 413 ? { Connection: 'close' } : {});
        return;
      }
      logError(err);
      sendJson(res, 500, { code: 50000, message: '服务器内部错误，请稍后重试' });
    });
  };
}
