import type { IncomingMessage, ServerResponse } from 'node:http';
import { createReadStream, promises as fsp } from 'node:fs';
import { extname, join, resolve, sep } from 'node:path';
import { randomInt, randomUUID } from 'node:crypto';
import type { Db, Queryable } from './db.ts';
import { getResource, listResource, QueryError, RESOURCES } from './resources.ts';
import { DEFAULT_PREMIUM_CENTS, PLANS } from './seed.ts';
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
  str(field: string, opts: { min?: number; max?: number; required?: boolean; label?: string } = {}): string {
    const { min = 1, max = 200, required = true, label = field } = opts;
    const v = this.body[field];
    if (v === undefined || v === null || (typeof v === 'string' && v.trim() === '')) {
      if (required) this.add(field, `${label} is required`);
      return '';
    }
    if (typeof v !== 'string') {
      this.add(field, `${label} must be text`);
      return '';
    }
    const s = v.trim();
    if (s.length < min || s.length > max) this.add(field, `${label} must be ${min}–${max} characters`);
    return s;
  }
  date(field: string, label = field): string {
    const s = this.str(field, { max: 10, label });
    if (s && !isValidDate(s)) this.add(field, `${label} must be a date like 2024-01-31`);
    return s;
  }
  money(field: string, label = field, maxYuan = 10_000_000): number {
    const v = this.body[field];
    let n = NaN;
    if (typeof v === 'number') n = v;
    else if (typeof v === 'string' && /^\d+(\.\d{1,2})?$/.test(v.trim())) n = Number(v);
    if (v === undefined || v === null || v === '') {
      this.add(field, `${label} is required`);
      return 0;
    }
    if (!Number.isFinite(n) || n <= 0 || n > maxYuan) {
      this.add(field, `${label} must be a positive amount up to ${maxYuan} yuan`);
      return 0;
    }
    const cents = Math.round(n * 100);
    if (Math.abs(cents - n * 100) > 1e-6) {
      this.add(field, `${label} can have at most 2 decimal places`);
      return 0;
    }
    return cents;
  }
  done(message = 'Please correct the highlighted fields') {
    if (this.errors.length) throw badInput(message, this.errors);
  }
}

function passwordProblem(pw: string): string | null {
  if (pw.length < 8) return 'Password must be at least 8 characters';
  if (pw.length > 64) return 'Password must be at most 64 characters';
  if (!/[A-Za-z]/.test(pw) || !/\d/.test(pw)) return 'Password must contain both letters and digits';
  return null;
}

function phoneCheck(c: Check, body: Record<string, unknown>): string {
  const phone = c.str('phone', { max: 20, label: 'Phone number' });
  if (phone && !PHONE_RE.test(phone)) c.add('phone', 'Enter a valid 11-digit mainland mobile number');
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
    c.add('rows', 'Add at least one person');
    return [];
  }
  if (raw.length > 5000) {
    c.add('rows', 'At most 5000 people per batch');
    return [];
  }
  const seen = new Map<string, number>();
  return raw.map((r, i) => {
    const at = `rows[${i}]`;
    const rowNo = `Row ${i + 1}`;
    if (!r || typeof r !== 'object' || Array.isArray(r)) {
      c.add(at, `${rowNo}: must be an object with name, idCard, phone, jobType`);
      return { name: '', idCard: '', phone: '', jobType: '' };
    }
    const o = r as Record<string, unknown>;
    const s = (k: string) => (typeof o[k] === 'string' ? (o[k] as string).trim() : o[k] == null ? '' : null);
    const name = s('name');
    const idCard = s('idCard');
    const phone = s('phone');
    const jobType = s('jobType');
    if (!name) c.add(`${at}.name`, `${rowNo}: name is required`);
    else if (name.length < 2 || name.length > 30) c.add(`${at}.name`, `${rowNo}: name must be 2–30 characters`);
    if (!idCard) c.add(`${at}.idCard`, `${rowNo}: ID card number is required`);
    else if (!isValidIdCard(idCard)) {
      c.add(`${at}.idCard`, `${rowNo}: ID card number ${idCard} is not a valid 18-digit mainland ID`);
    } else {
      const key = idCard.toUpperCase();
      if (seen.has(key)) c.add(`${at}.idCard`, `${rowNo}: duplicates row ${seen.get(key)! + 1}`);
      else seen.set(key, i);
    }
    if (phone === null || (phone && !PHONE_RE.test(phone))) {
      c.add(`${at}.phone`, `${rowNo}: phone must be an 11-digit mainland mobile number`);
    }
    if (jobType === null || (jobType && jobType.length > 30)) c.add(`${at}.jobType`, `${rowNo}: job type must be at most 30 characters`);
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
    if (!m) throw unauthorized('Please sign in to continue');
    const rows = await db.query<User>(
      `SELECT u.id, u.phone, t.family FROM auth_tokens t JOIN users u ON u.id = t.user_id
        WHERE t.token_hash = $1 AND t.kind = 'access' AND t.revoked_at IS NULL AND t.expires_at > now()`,
      [sha256(m[1])],
    );
    if (!rows[0]) throw unauthorized('Your session has expired; please sign in again');
    return rows[0];
  }

  async function scope(req: IncomingMessage, user: User): Promise<Business> {
    const raw = req.headers['x-company-id'];
    const id = (Array.isArray(raw) ? raw[0] : raw ?? '').trim();
    if (!id) throw badInput('Select a business first (X-Company-Id header is missing)', [{ field: 'X-Company-Id', message: 'required' }]);
    const biz = (await businessesOf(db, user.id)).find((b) => b.businessId === id);
    if (!biz) throw forbidden(`You do not have access to business ${id}`);
    return biz;
  }

  // ------------------------------------------------------------ auth routes

  route('POST', '/api/auth/login', 'none', async ({ body }) => {
    const c = new Check(body);
    const phone = phoneCheck(c, body);
    const password = typeof body.password === 'string' ? body.password : '';
    if (!password) c.add('password', 'Password is required');
    c.done();
    const users = await db.query<{ id: number; phone: string; password_hash: string }>(
      'SELECT id, phone, password_hash FROM users WHERE phone = $1',
      [phone],
    );
    const u = users[0];
    if (!u || !verifyPassword(password, u.password_hash)) throw unauthorized('Incorrect phone number or password');
    const tokens = await issueTokens(db, u.id, randomUUID());
    return { ...tokens, userTel: u.phone, businessList: await businessesOf(db, u.id) };
  });

  route('POST', '/api/auth/refresh', 'none', async ({ body }) => {
    const rt = typeof body.refreshToken === 'string' ? body.refreshToken.trim() : '';
    if (!rt) throw badInput('refreshToken is required', [{ field: 'refreshToken', message: 'refreshToken is required' }]);
    const result = await db.tx(async (tx) => {
      const rows = await tx.query<{ user_id: number; family: string; revoked: boolean; expired: boolean }>(
        `SELECT user_id, family, revoked_at IS NOT NULL AS revoked, expires_at <= now() AS expired
           FROM auth_tokens WHERE token_hash = $1 AND kind = 'refresh' FOR UPDATE`,
        [sha256(rt)],
      );
      const t = rows[0];
      if (!t || t.expired) throw unauthorized('Your session has expired; please sign in again');
      await tx.query('UPDATE auth_tokens SET revoked_at = now() WHERE family = $1 AND revoked_at IS NULL', [t.family]);
      // A rotated refresh token presented again means it leaked: the whole session family is revoked above.
      if (t.revoked) return null;
      return issueTokens(tx, t.user_id, t.family);
    });
    if (!result) throw unauthorized('This refresh token was already used; please sign in again');
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
    const code = c.str('code', { max: 10, label: 'Verification code' });
    if (code && code !== DEMO_SMS_CODE) c.add('code', 'Verification code is incorrect');
    const password = typeof body.password === 'string' ? body.password : '';
    const problem = password ? passwordProblem(password) : 'Password is required';
    if (problem) c.add('password', problem);
    c.done();
    await db.tx(async (tx) => {
      const users = await tx.query<{ id: number }>('SELECT id FROM users WHERE phone = $1', [phone]);
      if (!users[0]) {
        throw badInput('No account is registered with this phone number', [
          { field: 'phone', message: 'No account is registered with this phone number' },
        ]);
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
    if (!oldPassword) c.add('oldPassword', 'Current password is required');
    const problem = newPassword ? passwordProblem(newPassword) : 'New password is required';
    if (problem) c.add('newPassword', problem);
    c.done();
    const rows = await db.query<{ password_hash: string }>('SELECT password_hash FROM users WHERE id = $1', [user.id]);
    if (!rows[0] || !verifyPassword(oldPassword, rows[0].password_hash)) {
      throw badInput('Current password is incorrect', [{ field: 'oldPassword', message: 'Current password is incorrect' }]);
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

  route('POST', '/api/insure/roster', 'business', async ({ body, biz }) => {
    const c = new Check(body);
    const planName = c.str('planName', { max: 100, label: 'Plan' });
    const startDate = c.date('startDate', 'Start date');
    const fileName = c.str('fileName', { max: 200, required: false, label: 'File name' });
    const rows = checkRows(c, body.rows);
    c.done(c.errors.some((e) => e.field.startsWith('rows[')) ? 'Some rows are invalid; nothing was submitted' : undefined);
    const plan = PLANS[planName];
    // Roster cover runs one year; premium is the monthly price times 12.
    const monthly = plan && plan.unit === 'month' ? plan.cents : plan ? plan.cents * 30 : DEFAULT_PREMIUM_CENTS;
    return createBatch(biz, 'roster', planName, fileName, rows, startDate, addDays(startDate, 364), monthly * 12);
  });

  route('POST', '/api/insure/attendance', 'business', async ({ body, biz }) => {
    if (!biz.servicePacks.includes('attendance')) {
      throw forbidden('Attendance insurance needs the "attendance" service pack, which this business has not enabled');
    }
    const c = new Check(body);
    const planName = c.str('planName', { max: 100, label: 'Plan' });
    const workDate = c.date('workDate', 'Work date');
    const fileName = c.str('fileName', { max: 200, required: false, label: 'File name' });
    const rows = checkRows(c, body.rows);
    c.done(c.errors.some((e) => e.field.startsWith('rows[')) ? 'Some rows are invalid; nothing was submitted' : undefined);
    const plan = PLANS[planName];
    const cents = plan && plan.unit === 'day' ? plan.cents : PLANS['灵活用工日单险（按天）'].cents;
    return createBatch(biz, 'attendance', planName, fileName, rows, workDate, workDate, cents);
  });

  // ------------------------------------------------------------ finance / claims writes

  route('POST', '/api/invoices', 'business', async ({ body, biz }) => {
    const c = new Check(body);
    const title = c.str('title', { min: 2, max: 100, label: 'Invoice title' });
    const taxNo = c.str('taxNo', { max: 20, label: 'Tax number' }).toUpperCase();
    if (taxNo && !/^[0-9A-Z]{15,20}$/.test(taxNo)) c.add('taxNo', 'Tax number must be 15–20 letters or digits');
    const type = c.str('type', { max: 10, label: 'Invoice type' });
    if (type && type !== 'normal' && type !== 'special') c.add('type', 'Invoice type must be normal or special');
    const email = c.str('email', { max: 100, label: 'Email' });
    if (email && !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email)) c.add('email', 'Enter a valid email address');
    const orderNos = body.orderNos;
    if (!Array.isArray(orderNos) || orderNos.length === 0 || orderNos.some((o) => typeof o !== 'string' || !o.trim())) {
      c.add('orderNos', 'Select at least one order');
    } else if (orderNos.length > 100) c.add('orderNos', 'At most 100 orders per invoice');
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
        if (!o) errs.push({ field: 'orderNos', message: `Order ${no} was not found` });
        else if (o.pay_status !== 'paid') errs.push({ field: 'orderNos', message: `Order ${no} is not paid` });
        else if (usedSet.has(no)) errs.push({ field: 'orderNos', message: `Order ${no} is already invoiced` });
      }
      if (errs.length) throw badInput('Some orders cannot be invoiced', errs);
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
    const invoiceNo = c.str('invoiceNo', { max: 40, label: 'Invoice number' });
    const cents = c.money('amount', 'Amount');
    const reason = c.str('reason', { min: 2, max: 200, label: 'Reason' });
    c.done();
    const id = await db.tx(async (tx) => {
      const inv = await tx.query<{ amount_cents: number; status: string }>(
        'SELECT amount_cents::float8 AS amount_cents, status FROM invoices WHERE business_id = $1 AND invoice_no = $2',
        [biz.businessId, invoiceNo],
      );
      if (!inv[0]) throw badInput('Invoice not found', [{ field: 'invoiceNo', message: `Invoice ${invoiceNo} was not found` }]);
      if (inv[0].status !== 'issued') {
        throw badInput('Only issued invoices can be refunded', [{ field: 'invoiceNo', message: 'Only issued invoices can be refunded' }]);
      }
      const [{ s }] = await tx.query<{ s: number }>(
        `SELECT coalesce(sum(amount_cents), 0)::float8 AS s FROM invoice_refunds
          WHERE business_id = $1 AND invoice_no = $2 AND status <> 'rejected'`,
        [biz.businessId, invoiceNo],
      );
      const left = Number(inv[0].amount_cents) - Number(s);
      if (cents > left) {
        throw badInput('Amount exceeds the refundable balance', [
          { field: 'amount', message: `At most ${(left / 100).toFixed(2)} yuan can be refunded on this invoice` },
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
    const personName = c.str('personName', { min: 2, max: 30, label: 'Name' });
    const idCard = c.str('idCard', { max: 18, label: 'ID card number' }).toUpperCase();
    if (idCard && !isValidIdCard(idCard)) c.add('idCard', 'ID card number is not a valid 18-digit mainland ID');
    const accidentDate = c.date('accidentDate', 'Accident date');
    if (accidentDate && isValidDate(accidentDate) && accidentDate > today()) c.add('accidentDate', 'Accident date cannot be in the future');
    const accidentType = c.str('accidentType', { max: 30, label: 'Accident type' });
    const description = c.str('description', { max: 1000, label: 'Description' });
    const cents = c.money('amount', 'Claim amount');
    c.done();
    const [row] = await db.query<{ id: number }>(
      `INSERT INTO claims (business_id, claim_no, person_name, id_card, accident_date, accident_type, description, amount_cents, status)
       VALUES ($1,$2,$3,$4,$5,$6,$7,$8,'reported') RETURNING id`,
      [biz.businessId, serialNo('LP'), personName, idCard, accidentDate, accidentType, description, cents],
    );
    return getResource(db, RESOURCES.claims, biz.businessId, row.id);
  });

  const requireAdmin = (biz: Business) => {
    if (biz.userType !== 'admin') throw forbidden('Only business administrators can manage bank accounts');
  };

  route('POST', '/api/bank-accounts', 'business', async ({ body, biz }) => {
    requireAdmin(biz);
    const c = new Check(body);
    const accountName = c.str('accountName', { min: 2, max: 100, label: 'Account name' });
    const bankName = c.str('bankName', { min: 2, max: 50, label: 'Bank' });
    const accountNo = c.str('accountNo', { max: 40, label: 'Account number' }).replace(/[\s-]/g, '');
    if (accountNo && !/^\d{8,30}$/.test(accountNo)) c.add('accountNo', 'Account number must be 8–30 digits');
    const branch = c.str('branch', { max: 100, required: false, label: 'Branch' });
    const isDefault = body.isDefault ?? false;
    if (typeof isDefault !== 'boolean') c.add('isDefault', 'isDefault must be true or false');
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
    if (!Number.isInteger(id) || id < 1) throw notFound('Bank account not found');
    await db.tx(async (tx) => {
      const del = await tx.query<{ is_default: boolean }>(
        'DELETE FROM bank_accounts WHERE business_id = $1 AND id = $2 RETURNING is_default',
        [biz.businessId, id],
      );
      if (!del[0]) throw notFound('Bank account not found');
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
      if (!row) throw notFound(`No ${name.replace(/-/g, ' ').replace(/s$/, '')} with id ${params.id} in this business`);
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
        reject(new HttpError(413, 41300, 'Request body is larger than the 1 MB limit'));
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
          reject(new HttpError(413, 41300, 'Request body is larger than the 1 MB limit'));
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
        } catch (e) {
          return reject(badInput(`Request body is not valid JSON: ${(e as Error).message}`));
        }
        if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) {
          return reject(badInput('Request body must be a JSON object'));
        }
        resolveBody(parsed as Record<string, unknown>);
      });
    });
  }

  async function handleApi(req: IncomingMessage, res: ServerResponse, path: string, query: URLSearchParams) {
    const method = req.method ?? 'GET';
    const matches = routes.filter((r) => r.re.test(path));
    if (matches.length === 0) throw notFound(`No API endpoint ${method} ${path}`);
    const r = matches.find((m) => m.method === method || (method === 'HEAD' && m.method === 'GET'));
    if (!r) {
      throw new HttpError(405, 40500, `${method} is not supported on ${path}`);
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
      sendJson(res, 404, { code: 40400, message: 'The console UI is not built (index.html missing)' });
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
    if (!staticRoot) throw notFound(`Not found: ${pathname}`);
    if (method !== 'GET' && method !== 'HEAD') throw new HttpError(405, 40500, `${method} is not supported here`);
    if (!pathname.startsWith(basePath)) {
      if (`${pathname}/` === basePath || pathname === '/') {
        res.writeHead(302, { Location: basePath });
        res.end();
        return;
      }
      throw notFound(`Not found: ${pathname} (the console is served under ${basePath})`);
    }
    let rel: string;
    try {
      rel = decodeURIComponent(pathname.slice(basePath.length));
    } catch {
      throw badInput('Malformed URL');
    }
    if (rel === '' || rel === 'index.html' || rel.includes('\0')) return serveIndex(req, res);
    const file = resolve(staticRoot, rel);
    if (file !== staticRoot && !file.startsWith(staticRoot + sep)) throw notFound('Not found');
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
    if (rel.startsWith('assets/')) throw notFound(`Not found: ${pathname}`);
    return serveIndex(req, res);
  }

  return (req, res) => {
    let url: URL;
    try {
      url = new URL(req.url ?? '/', 'http://localhost');
    } catch {
      sendJson(res, 400, { code: 40000, message: 'Malformed URL' });
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
      sendJson(res, 500, { code: 50000, message: 'Internal server error; please try again later' });
    });
  };
}
