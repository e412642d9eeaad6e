import { randomUUID } from 'node:crypto';
import type { Db, Queryable } from '../db.ts';
import { DomainError } from './errors.ts';
import { deductBalance } from './balance.ts';
import { coverStartError } from './cover.ts';
import { cents, type BizRef } from './util.ts';

export interface CreatePaymentInput {
  orderNo: string;
  amountCents: number;
  businessId: string;
}

export interface CreatePaymentResult {
  providerRef: string;
  status: 'succeeded' | 'pending';
  /** Where the payer completes a pending payment (cashier page / QR code URL). */
  payUrl?: string;
}

/** A payment provider (WeChat Pay, Alipay, bank gateway…). Implementations must make providerRef unique. */
export interface PaymentProvider {
  createPayment(input: CreatePaymentInput): Promise<CreatePaymentResult>;
  /** Asks the provider for the final state of a payment (used by callbacks/polling). */
  verify(providerRef: string): Promise<{ status: 'succeeded' | 'pending' | 'failed'; amountCents?: number }>;
}

/**
 * DEVELOPMENT ONLY: every payment succeeds at once and no money moves. Never wire it up in production;
 * plug a real provider into the same interface instead.
 */
export class DevPaymentProvider implements PaymentProvider {
  private readonly amounts = new Map<string, number>();
  async createPayment(input: CreatePaymentInput): Promise<CreatePaymentResult> {
    const providerRef = `DEV-${input.orderNo}-${randomUUID()}`;
    this.amounts.set(providerRef, input.amountCents);
    return { providerRef, status: 'succeeded' };
  }
  async verify(providerRef: string) {
    return { status: 'succeeded' as const, amountCents: this.amounts.get(providerRef) };
  }
}

export interface PayResult {
  orderNo: string;
  payStatus: 'paid' | 'unpaid';
  amountCents: number;
  channel: 'balance' | 'provider';
  providerRef?: string;
  payUrl?: string;
  balanceAfterCents?: number;
}

interface OrderRow {
  order_no: string;
  business_id: string;
  pay_status: string;
  amount: number;
  batch_id: number | null;
}

async function lockOrder(tx: Queryable, businessId: string, orderNo: string): Promise<OrderRow> {
  const rows = await tx.query<OrderRow>(
    `SELECT order_no, business_id, pay_status, amount_cents::float8 AS amount, batch_id
       FROM orders WHERE business_id = $1 AND order_no = $2 FOR UPDATE`,
    [businessId, orderNo],
  );
  if (!rows[0]) throw new DomainError(404, `订单 ${orderNo} 不存在`, 'orderNo');
  return rows[0];
}

/** Marks a locked order paid: its batch's cover no longer waits for the payment (its dates decide its status). */
async function markPaid(tx: Queryable, order: OrderRow, now: Date): Promise<void> {
  await tx.query(`UPDATE orders SET pay_status = 'paid', order_status = 'completed', paid_at = $2 WHERE order_no = $1`, [
    order.order_no,
    now.toISOString(),
  ]);
  if (order.batch_id === null) return;
  await tx.query(
    `UPDATE insured_persons p SET cover_event = NULL
       FROM insure_records r
      WHERE r.batch_id = $1 AND r.cover_event = 'pending' AND p.business_id = $2 AND p.id_card = r.id_card
        AND p.start_date = r.effective_date AND p.cover_event = 'pending'`,
    [order.batch_id, order.business_id],
  );
  await tx.query(`UPDATE insure_records SET cover_event = NULL WHERE batch_id = $1 AND cover_event = 'pending'`, [order.batch_id]);
}

/** Pending cover may only be paid while its start date is still allowed (no cover after the fact). */
async function checkCoverStillStartable(tx: Queryable, order: OrderRow, now: Date, cutoff?: string): Promise<void> {
  if (order.batch_id === null) return;
  const rows = await tx.query<{ start: string }>(
    `SELECT min(effective_date)::text AS start FROM insure_records WHERE batch_id = $1 AND cover_event = 'pending'`,
    [order.batch_id],
  );
  const start = rows[0]?.start;
  if (start && coverStartError(start, now, cutoff)) {
    throw new DomainError(409, `订单已过起保日期 ${start}，不能再支付，请重新投保`, 'orderNo');
  }
}

export interface PayOptions {
  channel: 'balance' | 'provider';
  provider?: PaymentProvider;
  now?: Date;
  cutoff?: string;
}

/**
 * Pays an unpaid order. The order row is locked first, so parallel payments of one order queue and
 * only the first one pays. Balance: atomic deduction with a ledger row. Provider: a payment row keyed
 * by providerRef; paid at once when the provider reports success, otherwise via confirmProviderPayment.
 */
export async function payOrder(db: Db, biz: BizRef, orderNo: string, opts: PayOptions): Promise<PayResult> {
  const now = opts.now ?? new Date();
  if (opts.channel !== 'balance' && opts.channel !== 'provider') throw new DomainError(400, '不支持的支付方式', 'channel');
  // A missing provider is a wiring bug, not a user error: let it surface as a 500.
  if (opts.channel === 'provider' && !opts.provider) throw new Error('payOrder: channel "provider" needs a PaymentProvider');
  return db.tx(async (tx) => {
    const order = await lockOrder(tx, biz.businessId, orderNo);
    if (order.pay_status !== 'unpaid') throw new DomainError(409, `订单 ${orderNo} 已支付或已关闭，无需重复支付`, 'orderNo');
    await checkCoverStillStartable(tx, order, now, opts.cutoff);
    const amountCents = cents(order.amount);
    if (opts.channel === 'balance') {
      const balanceAfterCents = await deductBalance(tx, biz.businessId, amountCents, 'order', orderNo);
      await tx.query(
        `INSERT INTO payments (business_id, order_no, amount_cents, channel, status) VALUES ($1,$2,$3,'balance','succeeded')`,
        [biz.businessId, orderNo, amountCents],
      );
      await markPaid(tx, order, now);
      return { orderNo, payStatus: 'paid', amountCents, channel: 'balance', balanceAfterCents };
    }
    // One open provider payment per order: hand back the pending one instead of starting another.
    const pending = await tx.query<{ provider_ref: string }>(
      `SELECT provider_ref FROM payments WHERE order_no = $1 AND channel = 'provider' AND status = 'pending' ORDER BY id LIMIT 1`,
      [orderNo],
    );
    if (pending[0]) return { orderNo, payStatus: 'unpaid', amountCents, channel: 'provider', providerRef: pending[0].provider_ref };
    const created = await opts.provider!.createPayment({ orderNo, amountCents, businessId: biz.businessId });
    await tx.query(
      `INSERT INTO payments (business_id, order_no, amount_cents, channel, provider_ref, status) VALUES ($1,$2,$3,'provider',$4,'pending')`,
      [biz.businessId, orderNo, amountCents, created.providerRef],
    );
    if (created.status === 'succeeded') {
      await tx.query(`UPDATE payments SET status = 'succeeded' WHERE provider_ref = $1`, [created.providerRef]);
      await markPaid(tx, order, now);
    }
    return {
      orderNo,
      payStatus: created.status === 'succeeded' ? 'paid' : 'unpaid',
      amountCents,
      channel: 'provider',
      providerRef: created.providerRef,
      ...(created.payUrl ? { payUrl: created.payUrl } : {}),
    };
  });
}

/**
 * Provider callback / polling: verifies the payment with the provider and settles it once.
 * Idempotent on providerRef: only a 'pending' payment row moves, a repeat returns the current state.
 */
export async function confirmProviderPayment(
  db: Db,
  providerRef: string,
  provider: PaymentProvider,
  opts: { now?: Date } = {},
): Promise<{ orderNo: string; status: 'pending' | 'succeeded' | 'failed' }> {
  const verified = await provider.verify(providerRef);
  return db.tx(async (tx) => {
    const rows = await tx.query<{ order_no: string; business_id: string; status: 'pending' | 'succeeded' | 'failed'; amount: number }>(
      `SELECT order_no, business_id, status, amount_cents::float8 AS amount FROM payments WHERE provider_ref = $1 FOR UPDATE`,
      [providerRef],
    );
    const pay = rows[0];
    if (!pay) throw new DomainError(404, '支付记录不存在');
    if (pay.status !== 'pending' || verified.status === 'pending') return { orderNo: pay.order_no, status: pay.status };
    if (verified.status === 'failed') {
      await tx.query(`UPDATE payments SET status = 'failed' WHERE provider_ref = $1`, [providerRef]);
      return { orderNo: pay.order_no, status: 'failed' };
    }
    if (verified.amountCents !== undefined && verified.amountCents !== cents(pay.amount)) {
      throw new DomainError(409, '支付金额与订单金额不一致，请联系客服');
    }
    await tx.query(`UPDATE payments SET status = 'succeeded' WHERE provider_ref = $1`, [providerRef]);
    const order = await lockOrder(tx, pay.business_id, pay.order_no);
    // Paid meanwhile through another channel: the money is recorded on the payment row for a refund.
    if (order.pay_status === 'unpaid') await markPaid(tx, order, opts.now ?? new Date());
    return { orderNo: pay.order_no, status: 'succeeded' };
  });
}

export interface Statement {
  businessId: string;
  month: string;
  amountCents: number;
  orderCount: number;
  status: string;
  /** Sum of the orders listed below (equals amountCents unless something bypassed the domain). */
  ordersTotalCents: number;
  orders: { orderNo: string; amountCents: number; payStatus: string; createdAt: string }[];
}

/** The postpaid monthly statement of a business with its orders. */
export async function monthlyStatement(db: Db | Queryable, biz: BizRef, month: string): Promise<Statement> {
  if (!/^\d{4}-(0[1-9]|1[0-2])$/.test(month)) throw new DomainError(400, '月份格式不正确，应为 2024-01', 'month');
  const [st] = await db.query<{ amount: number; order_count: number; status: string }>(
    `SELECT amount_cents::float8 AS amount, order_count, status FROM statements WHERE business_id = $1 AND month = $2`,
    [biz.businessId, month],
  );
  const orders = await db.query<{ order_no: string; amount: number; pay_status: string; created_at: string }>(
    `SELECT order_no, amount_cents::float8 AS amount, pay_status, created_at::text AS created_at
       FROM orders WHERE business_id = $1 AND statement_month = $2 ORDER BY id`,
    [biz.businessId, month],
  );
  return {
    businessId: biz.businessId,
    month,
    amountCents: cents(st?.amount),
    orderCount: st?.order_count ?? 0,
    status: st?.status ?? 'open',
    ordersTotalCents: orders.reduce((s, o) => s + cents(o.amount), 0),
    orders: orders.map((o) => ({ orderNo: o.order_no, amountCents: cents(o.amount), payStatus: o.pay_status, createdAt: o.created_at })),
  };
}
