import type { FastifyInstance, FastifyRequest } from 'fastify';
import { getResource, listResource, QueryError, RESOURCES } from '../resources.ts';
import { PLANS } from '../seed.ts';
import { isValidIdCard } from '../util.ts';
import { badInput, forbidden, notFound, ok, type FieldError } from '../http/errors.ts';
import { requireAdmin } from '../http/auth.ts';
import type { Business, User } from '../http/types.ts';
import { addDays, Check, checkRows, serialNo, today, type RosterRow } from './legacy-check.ts';
import { LEGACY_BODIES } from './legacy-schemas.ts';

/**
 * Today's business write routes and the generic list/detail routes, moved over from the node:http
 * gateway with minimal changes (the integrator replaces them with schema-derived routes).
 */

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

interface Ctx {
  query: URLSearchParams;
  params: Record<string, string>;
  body: Record<string, unknown>;
  user: User;
  biz: Business;
}

export default async function businessLegacyRoutes(app: FastifyInstance) {
  const { db } = app.deps;

  const route = (method: 'GET' | 'POST' | 'DELETE', path: string, _auth: 'business', handler: (ctx: Ctx) => Promise<unknown>) => {
    const body = LEGACY_BODIES[`${method} ${path}`];
    app.route({
      method,
      url: path,
      config: { auth: 'business' },
      schema: { tags: ['business'], ...(body ? { body } : {}) },
      handler: async (req: FastifyRequest) => {
        const qs = req.url.indexOf('?');
        const ctx: Ctx = {
          query: new URLSearchParams(qs >= 0 ? req.url.slice(qs + 1) : ''),
          params: req.params as Record<string, string>,
          body: (req.body ?? {}) as Record<string, unknown>,
          user: req.user,
          biz: req.business,
        };
        return ok(await handler(ctx));
      },
    });
  };

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
    const accidentDate = c.date('accidentDate', '出险日期', { date: today(), message: '出险日期不能晚于今天' });
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
}
