import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Db } from '../db.ts';
import { addBankAccount, applyInvoice, applyRefund, createClaim, createInsuranceBatch, deleteBankAccount, hashRequest, isDomainError, withIdempotency } from '../domain/index.ts';
import { parseAttachmentIds } from '../domain/attachments.ts';
import { idempotencyKey } from './idempotency-key.ts';
import { getResource, listResource, QueryError, RESOURCES } from '../resources.ts';
import { PLANS } from '../seed.ts';
import { isValidIdCard } from '../util.ts';
import { badInput, forbidden, notFound, ok } from '../http/errors.ts';
import { requireAdmin } from '../http/auth.ts';
import type { Business, User } from '../http/types.ts';
import { Check, checkRows, today, type RosterRow } from './legacy-check.ts';
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
  /** The transaction of a write (with its idempotency record), or the database for reads. */
  tx: Db;
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
      handler: async (req: FastifyRequest, reply: FastifyReply) => {
        const qs = req.url.indexOf('?');
        const ctx: Ctx = {
          tx: db,
          query: new URLSearchParams(qs >= 0 ? req.url.slice(qs + 1) : ''),
          params: req.params as Record<string, string>,
          body: (req.body ?? {}) as Record<string, unknown>,
          user: req.user,
          biz: req.business,
        };
        if (method === 'GET') return ok(await handler(ctx));
        const key = idempotencyKey(req);
        if (!key) return db.tx(async (tx) => ok(await handler({ ...ctx, tx })));
        // A replay with the same key returns the first answer and changes nothing twice.
        const r = await withIdempotency(
          db,
          { userId: req.user.id, key, method, path: req.routeOptions.url ?? path, requestHash: hashRequest({ biz: req.business.businessId, params: ctx.params, body: ctx.body }) },
          async (tx) => ({ status: 200, body: ok(await handler({ ...ctx, tx })) }),
        );
        reply.header('idempotent-replayed', String(r.replayed));
        return reply.status(r.status).send(r.body);
      },
    });
  };

  // ------------------------------------------------------------ insure writes

  /** Rosters and attendance go through the money rules: cover from today, balance checked atomically. */
  async function createBatch(tx: Db, biz: Business, source: 'roster' | 'attendance', planName: string, fileName: string, rows: RosterRow[], date: string) {
    const r = await createInsuranceBatch(tx, biz, { source, planId: planName, startDate: date, rows, fileName });
    return getResource(tx, RESOURCES['insure-batches'], biz.businessId, r.batchId);
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

  route('POST', '/api/insure/roster', 'business', async ({ tx, body, biz }) => {
    const { planName, date, fileName, rows } = checkBatchInput(body, 'month', 'startDate', '起保日期');
    // Roster cover runs one year; premium is the monthly price times 12 (src/server/domain/insure.ts).
    return createBatch(tx, biz, 'roster', planName, fileName, rows, date);
  });

  route('POST', '/api/insure/attendance', 'business', async ({ tx, body, biz }) => {
    if (!biz.servicePacks.includes('attendance')) {
      throw forbidden('当前企业未开通考勤服务包');
    }
    const { planName, date, fileName, rows } = checkBatchInput(body, 'day', 'workDate', '出勤日期');
    return createBatch(tx, biz, 'attendance', planName, fileName, rows, date);
  });

  // ------------------------------------------------------------ finance / claims writes

  route('POST', '/api/invoices', 'business', async ({ tx, body, biz }) => {
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
    const inv = await applyInvoice(tx, biz, { orderNos: orderNos as string[], title, taxNo, type: type as 'normal' | 'special', email });
    return getResource(tx, RESOURCES.invoices, biz.businessId, inv.id);
  });

  route('POST', '/api/invoice-refunds', 'business', async ({ tx, body, biz }) => {
    const c = new Check(body);
    const invoiceNo = c.str('invoiceNo', { max: 40, label: '发票号' });
    const cents = c.money('amount', '退款金额');
    const reason = c.str('reason', { min: 2, max: 200, label: '退款原因' });
    c.done();
    const r = await applyRefund(tx, biz, { invoiceNo, amountCents: cents, reason });
    return getResource(tx, RESOURCES['invoice-refunds'], biz.businessId, r.id);
  });

  route('POST', '/api/claims', 'business', async ({ tx, body, biz }) => {
    const c = new Check(body);
    const personName = c.str('personName', { min: 2, max: 30, label: '出险人' });
    const idCard = c.str('idCard', { max: 18, label: '身份证号' }).toUpperCase();
    if (idCard && !isValidIdCard(idCard)) c.add('idCard', '身份证号不正确');
    const accidentDate = c.date('accidentDate', '出险日期', { date: today(), message: '出险日期不能晚于今天' });
    const accidentType = c.str('accidentType', { max: 30, label: '事故类型', pick: true });
    const description = c.str('description', { max: 1000, label: '事故经过' });
    const cents = c.money('amount', '预估金额');
    let attachmentIds: number[] = [];
    try {
      attachmentIds = parseAttachmentIds(body.attachmentIds);
    } catch (err) {
      if (!isDomainError(err)) throw err;
      c.add('attachmentIds', err.message);
    }
    c.done();
    // The claim must fall inside the person's cover and within the plan's limit (src/server/domain/cover.ts);
    // its uploaded attachments are linked in the same transaction.
    const claim = await createClaim(tx, biz, { personName, idCard, accidentDate, accidentType, description, amountCents: cents, attachmentIds });
    return getResource(tx, RESOURCES.claims, biz.businessId, claim.id);
  });

  route('POST', '/api/bank-accounts', 'business', async ({ tx, body, biz }) => {
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
    // One default account per business, safe under parallel requests (src/server/domain/bank.ts).
    const acct = await addBankAccount(tx, biz, { accountName, bankName, accountNo, branch, isDefault: isDefault === true });
    return getResource(tx, RESOURCES['bank-accounts'], biz.businessId, acct.id);
  });

  route('DELETE', '/api/bank-accounts/:id', 'business', async ({ tx, params, biz }) => {
    requireAdmin(biz);
    const id = Number(params.id);
    if (!Number.isInteger(id) || id < 1) throw notFound('银行账户不存在');
    await deleteBankAccount(tx, biz, id);
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
