import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Db } from '../db.ts';
import {
  findPlan,
  fmtYuan,
  getBalance,
  hashRequest,
  localParts,
  monthlyStatement,
  payOrder,
  quoteInsurance,
  withIdempotency,
  type PaymentProvider,
} from '../domain/index.ts';
import { badInput, forbidden, INVALID_INPUT, notFound, ok, unavailable } from '../http/errors.ts';
import { getRow } from '../entity/query.ts';
import { countList, sumList } from '../entity/totals.ts';
import { idempotencyKey } from './idempotency-key.ts';
import { checkObject, normalizePayload } from '../../shared/entity/rules.ts';

/**
 * Paying and costs: pay an order (prepaid from the balance, otherwise through the payment provider),
 * what is due, the postpaid monthly statement, and the cost of a roster or attendance submission
 * before it is sent (nothing is stored or charged by a quote). Money rules: docs/money-rules.md.
 */
export interface PaymentRoutesOptions {
  /**
   * The payment provider for the `provider` channel (startServer picks it: the development provider only
   * in development or demo mode). None: the channel answers 503 until a real provider is plugged in.
   */
  provider: PaymentProvider | null;
}

const MONTH_RE = /^\d{4}-(0[1-9]|1[0-2])$/;
const yuan = (cents: number) => cents / 100;

export default async function paymentRoutes(app: FastifyInstance, opts: PaymentRoutesOptions) {
  const { db } = app.deps;
  const orderEntity = app.deps.entities.registry.get('order');
  const provider = opts.provider;

  /** Runs a write in one transaction; with an Idempotency-Key a resent request replays the first answer. */
  async function write(req: FastifyRequest, reply: FastifyReply, payload: unknown, run: (tx: Db) => Promise<unknown>) {
    const key = idempotencyKey(req);
    if (!key) return db.tx(async (tx) => ok(await run(tx)));
    const r = await withIdempotency(
      db,
      { userId: req.user.id, key, method: req.method, path: req.routeOptions.url ?? req.url, requestHash: hashRequest({ biz: req.business.businessId, payload }) },
      async (tx) => ({ status: 200, body: ok(await run(tx)) }),
    );
    reply.header('idempotent-replayed', String(r.replayed));
    return reply.status(r.status).send(r.body);
  }

  app.post<{ Params: { id: string }; Body: { channel?: unknown } }>(
    '/api/orders/:id/pay',
    {
      config: { auth: 'business' },
      schema: {
        tags: ['payments'],
        summary: '支付订单（预付费从余额扣款，其余走支付渠道）',
        body: { type: 'object', properties: { channel: { type: ['string', 'null'], title: '支付方式', description: 'balance | provider' } } },
      },
    },
    async (req, reply) => {
      const biz = req.business;
      const id = Number(req.params.id);
      const raw = req.body?.channel;
      if (raw !== undefined && raw !== null && raw !== 'balance' && raw !== 'provider') {
        throw badInput('不支持的支付方式', [{ field: 'channel', message: '支付方式只能是余额支付或在线支付' }]);
      }
      // Prepaid businesses pay from their balance; postpaid ones settle through the payment provider.
      const channel = (raw as 'balance' | 'provider' | null | undefined) ?? (biz.chargeForm === 'prepaid' ? 'balance' : 'provider');
      if (channel === 'balance' && biz.chargeForm !== 'prepaid') throw badInput('后付费企业没有预存余额，请选择在线支付', [{ field: 'channel', message: '请选择在线支付' }]);
      if (channel === 'provider' && !provider) throw unavailable('在线支付暂未开通，请使用余额支付或联系客服');
      return write(req, reply, { id: req.params.id, channel }, async (tx) => {
        const order = await getRow(tx, orderEntity, biz.businessId, id);
        if (!order) throw notFound(`当前企业下不存在该订单（ID：${req.params.id}）`);
        const paid = await payOrder(tx, biz, String(order.orderNo), { channel, provider: provider ?? undefined });
        return {
          payment: { ...paid, amount: yuan(paid.amountCents), ...(paid.balanceAfterCents !== undefined ? { balanceAfter: yuan(paid.balanceAfterCents) } : {}) },
          order: await getRow(tx, orderEntity, biz.businessId, id),
          balance: yuan(await getBalance(tx, biz.businessId)),
        };
      });
    },
  );

  app.get('/api/payments/due', { config: { auth: 'business' }, schema: { tags: ['payments'], summary: '待支付订单合计与余额' } }, async (req) => {
    const biz = req.business;
    // The order list filtered by payStatus=unpaid: its total and sum, from the orders' counts (counts.ts).
    const unpaid = { payStatus: 'unpaid' };
    const [count, amount, [row]] = await Promise.all([
      countList(db, orderEntity, biz.businessId, unpaid),
      sumList(db, orderEntity, biz.businessId, unpaid, 'amount'),
      db.query<{ balance: number }>('SELECT balance_cents::float8 AS balance FROM businesses WHERE id = $1', [biz.businessId]),
    ]);
    return ok({ chargeForm: biz.chargeForm, unpaidCount: count.total, unpaidAmount: yuan(amount), balance: yuan(row.balance) });
  });

  const postpaidOnly = (req: FastifyRequest) => {
    if (req.business.chargeForm !== 'postpaid') throw forbidden('预付费企业按订单从余额支付，没有月结账单');
  };

  app.get('/api/statements', { config: { auth: 'business' }, schema: { tags: ['payments'], summary: '月结账单列表（后付费企业）' } }, async (req) => {
    postpaidOnly(req);
    const rows = await db.query<{ month: string; amount: number; order_count: number; status: string }>(
      `SELECT month, amount_cents::float8 AS amount, order_count, status FROM statements WHERE business_id = $1 ORDER BY month DESC`,
      [req.business.businessId],
    );
    return ok(rows.map((r) => ({ month: r.month, amount: yuan(r.amount), orderCount: r.order_count, status: r.status })));
  });

  app.get<{ Params: { month: string } }>(
    '/api/statements/:month',
    { config: { auth: 'business' }, schema: { tags: ['payments'], summary: '某月的月结账单及其订单（后付费企业）' } },
    async (req) => {
      postpaidOnly(req);
      const month = req.params.month;
      if (!MONTH_RE.test(month)) throw badInput('月份格式不正确，应为 2024-01', [{ field: 'month', message: '月份格式不正确，应为 2024-01' }]);
      const st = await monthlyStatement(db, req.business, month);
      // Order ids for the links to the order details.
      const ids = await db.query<{ id: number; order_no: string; product_name: string; person_count: number }>(
        'SELECT id, order_no, product_name, person_count FROM orders WHERE business_id = $1 AND statement_month = $2',
        [req.business.businessId, month],
      );
      const byNo = new Map(ids.map((r) => [r.order_no, r]));
      const unpaid = st.orders.filter((o) => o.payStatus === 'unpaid').reduce((s, o) => s + o.amountCents, 0);
      return ok({
        month,
        status: st.status,
        amount: yuan(st.amountCents),
        orderCount: st.orderCount,
        ordersTotal: yuan(st.ordersTotalCents),
        unpaidAmount: yuan(unpaid),
        orders: st.orders.map((o) => ({
          id: byNo.get(o.orderNo)?.id,
          orderNo: o.orderNo,
          productName: byNo.get(o.orderNo)?.product_name,
          personCount: byNo.get(o.orderNo)?.person_count,
          amount: yuan(o.amountCents),
          payStatus: o.payStatus,
          createdAt: o.createdAt,
        })),
      });
    },
  );

  app.post<{ Body: Record<string, unknown> }>(
    '/api/insure/quote',
    {
      config: { auth: 'business' },
      schema: {
        tags: ['payments'],
        summary: '投保费用试算（不扣费、不保存）',
        body: {
          type: 'object',
          properties: {
            source: { type: ['string', 'null'], title: '投保方式', description: 'roster | attendance' },
            planName: { type: ['string', 'null'], title: '保险方案' },
            startDate: { type: ['string', 'null'], title: '起保日期（名单投保）' },
            workDate: { type: ['string', 'null'], title: '出勤日期（考勤投保）' },
            rows: { type: 'array', title: '人员名单' },
          },
        },
      },
    },
    async (req) => {
      const body = req.body ?? {};
      const source = body.source;
      if (source !== 'roster' && source !== 'attendance') {
        throw badInput('投保方式不正确', [{ field: 'source', message: '投保方式只能是名单投保或考勤投保' }]);
      }
      if (source === 'attendance' && !req.business.servicePacks.includes('attendance')) throw forbidden('当前企业未开通考勤服务包');
      // The same checks as the submission, so a confirmed quote is one the gateway accepts.
      const unit = source === 'roster' ? 'month' : 'day';
      const dateField = source === 'roster' ? 'startDate' : 'workDate';
      // The submission's own entity rules (roster-submit / attendance-submit), so a quote the user
      // confirms is one the gateway accepts, with the same Chinese messages on the same fields.
      const entity = app.deps.entities.registry.get(source === 'roster' ? 'roster-submit' : 'attendance-submit');
      const { source: _source, ...rest } = body;
      const input = normalizePayload(rest);
      const errors = checkObject(entity, input, { mode: 'create', today: localParts(new Date()).date });
      const planName = typeof input.planName === 'string' ? input.planName : '';
      const plan = planName ? await findPlan(db, planName) : undefined;
      if (plan && plan.unit !== unit) {
        errors.push({ field: 'planName', message: unit === 'month' ? '请选择按月计费的保险方案' : '请选择按天计费的保险方案' });
      }
      if (errors.length) {
        throw badInput(errors.some((e) => e.field.startsWith('rows[')) ? '名单中有数据不正确，请修改后再试算费用' : INVALID_INPUT, errors);
      }
      const date = String(input[dateField]);
      const rows = Array.isArray(input.rows) ? input.rows : [];
      const q = await quoteInsurance(db, req.business, { planId: planName, startDate: date, people: rows.length, days: 1 });
      if (q.startError) {
        const message = source === 'attendance' ? q.startError.replace('起保日期', '出勤日期') : q.startError;
        throw badInput(message, [{ field: dateField, message }]);
      }
      const prepaid = q.chargeForm === 'prepaid';
      const unitLabel = q.unit === 'month' ? '月' : '天';
      return ok({
        source,
        planName: q.planName,
        people: q.people,
        units: q.units,
        unitLabel,
        unitPrice: yuan(q.unitPriceCents),
        total: yuan(q.totalCents),
        formula: `${q.people} 人 × ${q.units} ${unitLabel} × ¥${fmtYuan(q.unitPriceCents)}/人·${unitLabel}`,
        startDate: q.startDate,
        endDate: q.endDate,
        chargeForm: q.chargeForm,
        balance: yuan(q.balanceCents),
        ...(prepaid ? { balanceAfter: yuan(q.balanceCents - q.totalCents) } : { statementMonth: localParts(new Date()).date.slice(0, 7) }),
        enough: q.enough,
        ...(q.enough
          ? {}
          : { message: `余额不足：本次需支付 ¥${fmtYuan(q.totalCents)}，当前余额 ¥${fmtYuan(q.balanceCents)}，请先充值` }),
      });
    },
  );
}

