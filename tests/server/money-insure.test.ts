import { describe, expect, it } from 'vitest';
import type { Db } from '../../src/server/db.ts';
import { createInsuranceBatch } from '../../src/server/domain/insure.ts';
import { quoteInsurance } from '../../src/server/domain/quote.ts';
import { DevPaymentProvider, monthlyStatement, payOrder, confirmProviderPayment, type PaymentProvider } from '../../src/server/domain/payment.ts';
import { addDays, localParts } from '../../src/server/domain/util.ts';
import { balanceOf, count, ledgerSum, makeBusiness, people, targets, today, useTargetDb } from './money-helpers.ts';

const ROSTER = 'employer-std-60w'; // 45.00 yuan per person-month
const DAY_PLAN = 'flex-day'; // 3.50 yuan per person-day

async function counts(db: Db, businessId: string) {
  const q = (t: string) => count(db, `SELECT count(*) FROM ${t} WHERE business_id = $1`, [businessId]);
  return {
    batches: await q('insure_batches'),
    records: await q('insure_records'),
    persons: await q('insured_persons'),
    orders: await q('orders'),
    payments: await q('payments'),
    ledger: await q('balance_ledger'),
    balance: await balanceOf(db, businessId),
  };
}

for (const t of targets()) {
  describe(`insurance batches and payment (${t.name})`, () => {
    const db = useTargetDb(t);

    it('prepaid with enough balance: paid order, balance down by people × 12 × price, ledger matches', async () => {
      const start = 1_000_000_00;
      const biz = await makeBusiness(db, { chargeForm: 'prepaid', balanceCents: start });
      const quote = await quoteInsurance(db, biz, { planId: ROSTER, startDate: today(), people: 7 });
      expect(quote).toMatchObject({ people: 7, units: 12, unitPriceCents: 4500, totalCents: 7 * 12 * 4500, balanceCents: start, enough: true, startError: null });
      const r = await createInsuranceBatch(db, biz, { source: 'roster', planId: ROSTER, startDate: today(), rows: people(7, 1000), fileName: 'a.xlsx' });
      expect(r).toMatchObject({ amountCents: 378_000, people: 7, payStatus: 'paid', coverStatus: 'effective', balanceAfterCents: start - 378_000 });
      expect(r.endDate).toBe(addDays(`${Number(today().slice(0, 4)) + 1}${today().slice(4)}`, -1));
      expect(await balanceOf(db, biz.businessId)).toBe(start - 378_000);
      expect(await ledgerSum(db, biz.businessId)).toBe(-378_000);
      const [order] = await db.query<{ pay_status: string; amount: number; paid_at: string | null; person_count: number }>(
        'SELECT pay_status, amount_cents::float8 AS amount, paid_at, person_count FROM orders WHERE order_no = $1',
        [r.orderNo],
      );
      expect(order).toMatchObject({ pay_status: 'paid', amount: 378_000, person_count: 7 });
      expect(order.paid_at).not.toBeNull();
      expect(await count(db, `SELECT sum(amount_cents) FROM payments WHERE order_no = $1 AND channel = 'balance' AND status = 'succeeded'`, [r.orderNo])).toBe(378_000);
      expect(await count(db, `SELECT sum(premium_cents) FROM insure_records WHERE batch_id = $1 AND status = 'effective'`, [r.batchId])).toBe(378_000);
      expect(await count(db, `SELECT count(*) FROM insured_persons WHERE business_id = $1 AND status = 'insured' AND plan_id = $2`, [biz.businessId, ROSTER])).toBe(7);

      // Attendance: price × 1 day × people.
      const a = await createInsuranceBatch(db, biz, { source: 'attendance', planId: DAY_PLAN, startDate: today(), rows: people(4, 1100) });
      expect(a.amountCents).toBe(4 * 350);
      expect(await balanceOf(db, biz.businessId)).toBe(start - 378_000 - 1400);
      expect(await ledgerSum(db, biz.businessId)).toBe(-378_000 - 1400);
    });

    it('a day plan quoted for N days ends on start + N − 1, and attendance cover is stored ending where its quote ends', async () => {
      const biz = await makeBusiness(db, { chargeForm: 'prepaid', balanceCents: 1_000_000_00 });
      for (const days of [1, 2, 7, 31, 366]) {
        const q = await quoteInsurance(db, biz, { planId: DAY_PLAN, startDate: today(), people: 3, days });
        expect(q, `${days} days`).toMatchObject({ unit: 'day', units: days, totalCents: 3 * days * 350, startDate: today(), endDate: addDays(today(), days - 1) });
      }
      const quoted = await quoteInsurance(db, biz, { planId: DAY_PLAN, startDate: today(), people: 2 });
      expect(quoted.endDate).toBe(today()); // one day: cover starts and ends on the work date
      const a = await createInsuranceBatch(db, biz, { source: 'attendance', planId: DAY_PLAN, startDate: today(), rows: people(2, 1450) });
      expect(a.endDate).toBe(quoted.endDate);
      const stored = await db.query<{ effective: string; expiry: string }>(
        `SELECT DISTINCT effective_date::text AS effective, expiry_date::text AS expiry FROM insure_records WHERE batch_id = $1`,
        [a.batchId],
      );
      expect(stored).toEqual([{ effective: today(), expiry: quoted.endDate }]);
    });

    it('prepaid with too little balance: refused with the amounts, nothing stored', async () => {
      const biz = await makeBusiness(db, { chargeForm: 'prepaid', balanceCents: 100_00 });
      const before = await counts(db, biz.businessId);
      const q = await quoteInsurance(db, biz, { planId: ROSTER, startDate: today(), people: 2 });
      expect(q.enough).toBe(false);
      await expect(createInsuranceBatch(db, biz, { source: 'roster', planId: ROSTER, startDate: today(), rows: people(2, 1200) })).rejects.toThrow(
        '余额不足：本次需支付 ¥1,080.00，当前余额 ¥100.00，请先充值',
      );
      expect(await counts(db, biz.businessId)).toEqual(before);
    });

    it('the same people twice for an overlapping period are refused (no double charge), a later period is fine', async () => {
      const biz = await makeBusiness(db, { chargeForm: 'prepaid', balanceCents: 1_000_000_00 });
      const rows = people(3, 1300);
      await createInsuranceBatch(db, biz, { source: 'roster', planId: ROSTER, startDate: today(), rows });
      const after1 = await counts(db, biz.businessId);
      await expect(createInsuranceBatch(db, biz, { source: 'roster', planId: ROSTER, startDate: today(), rows: [...rows].reverse() })).rejects.toThrow(
        '3 名人员在该期间已有同一方案的保障',
      );
      expect(await counts(db, biz.businessId)).toEqual(after1);
      const next = addDays(today(), 400);
      const r = await createInsuranceBatch(db, biz, { source: 'roster', planId: ROSTER, startDate: next, rows });
      expect(r.payStatus).toBe('paid');
      // The persons list keeps today's cover; the later cover is in the records.
      expect(await count(db, `SELECT count(*) FROM insured_persons WHERE business_id = $1 AND status = 'insured' AND start_date = $2`, [biz.businessId, today()])).toBe(3);
      expect(await count(db, `SELECT count(*) FROM insure_records WHERE business_id = $1 AND effective_date = $2`, [biz.businessId, next])).toBe(3);
    });

    it('wrong plan unit, plan not on sale, duplicate rows and missing pack are refused', async () => {
      const biz = await makeBusiness(db, { chargeForm: 'postpaid', packs: [] });
      const rows = people(2, 1400);
      await expect(createInsuranceBatch(db, biz, { source: 'roster', planId: DAY_PLAN, startDate: today(), rows })).rejects.toThrow('请选择按月计费的保险方案');
      await expect(createInsuranceBatch(db, biz, { source: 'roster', planId: 'nope', startDate: today(), rows })).rejects.toThrow('该保险方案不存在或已停售');
      await expect(createInsuranceBatch(db, biz, { source: 'roster', planId: ROSTER, startDate: today(), rows: [rows[0], rows[0]] })).rejects.toThrow('名单中有数据不正确');
      await expect(
        createInsuranceBatch(db, biz, { source: 'roster', planId: ROSTER, startDate: today(), rows: [{ name: '张三', idCard: '110105194912310021' }] }),
      ).rejects.toMatchObject({ status: 400, errors: [{ field: 'rows[0].idCard', message: '第 1 行：身份证号不正确' }] });
      await expect(createInsuranceBatch(db, biz, { source: 'attendance', planId: DAY_PLAN, startDate: today(), rows })).rejects.toThrow('当前企业未开通考勤服务包');
      // Today's routes send the plan name: accepted too.
      const r = await createInsuranceBatch(db, biz, { source: 'roster', planId: '团体意外险·基础版（30万）', startDate: today(), rows });
      expect(r.amountCents).toBe(2 * 12 * 2800);
    });

    it('postpaid: order unpaid, cover effective, statement = sum of the month orders', async () => {
      const biz = await makeBusiness(db, { chargeForm: 'postpaid' });
      const a = await createInsuranceBatch(db, biz, { source: 'roster', planId: ROSTER, startDate: today(), rows: people(5, 1500) });
      const b = await createInsuranceBatch(db, biz, { source: 'attendance', planId: DAY_PLAN, startDate: today(), rows: people(3, 1600) });
      expect(a).toMatchObject({ payStatus: 'unpaid', coverStatus: 'effective' });
      expect(a.balanceAfterCents).toBeUndefined();
      expect(await count(db, `SELECT count(*) FROM insure_records WHERE batch_id = $1 AND status = 'effective'`, [a.batchId])).toBe(5);
      expect(await count(db, `SELECT count(*) FROM orders WHERE business_id = $1 AND pay_status = 'unpaid'`, [biz.businessId])).toBe(2);
      const month = localParts(new Date()).date.slice(0, 7);
      const st = await monthlyStatement(db, biz, month);
      expect(st.amountCents).toBe(5 * 12 * 4500 + 3 * 350);
      expect(st.amountCents).toBe(st.ordersTotalCents);
      expect(st.orderCount).toBe(2);
      expect(st.orders.map((o) => o.orderNo).sort()).toEqual([a.orderNo, b.orderNo].sort());
      expect(await balanceOf(db, biz.businessId)).toBe(0);
      expect(await ledgerSum(db, biz.businessId)).toBe(0);
    });

    it('pay an unpaid order from the balance; pending cover becomes effective', async () => {
      const biz = await makeBusiness(db, { chargeForm: 'prepaid', balanceCents: 50_000_00 });
      const r = await createInsuranceBatch(db, biz, { source: 'roster', planId: ROSTER, startDate: today(), rows: people(2, 1700), payLater: true });
      expect(r).toMatchObject({ payStatus: 'unpaid', coverStatus: 'pending' });
      expect(await balanceOf(db, biz.businessId)).toBe(50_000_00);
      // Not covered before payment.
      expect(await count(db, `SELECT count(*) FROM insure_records WHERE batch_id = $1 AND status = 'effective'`, [r.batchId])).toBe(0);
      const paid = await payOrder(db, biz, r.orderNo, { channel: 'balance' });
      expect(paid).toMatchObject({ payStatus: 'paid', amountCents: 108_000, balanceAfterCents: 50_000_00 - 108_000 });
      expect(await ledgerSum(db, biz.businessId)).toBe(-108_000);
      expect(await count(db, `SELECT count(*) FROM insure_records WHERE batch_id = $1 AND status = 'effective'`, [r.batchId])).toBe(2);
      expect(await count(db, `SELECT count(*) FROM insured_persons WHERE business_id = $1 AND status = 'insured'`, [biz.businessId])).toBe(2);
      await expect(payOrder(db, biz, r.orderNo, { channel: 'balance' })).rejects.toThrow('已支付');
      await expect(payOrder(db, biz, 'OD-none', { channel: 'balance' })).rejects.toThrow('不存在');
    });

    it('balance too small for an order: clear message, order stays unpaid', async () => {
      const biz = await makeBusiness(db, { chargeForm: 'prepaid', balanceCents: 10_00 });
      const r = await createInsuranceBatch(db, biz, { source: 'roster', planId: ROSTER, startDate: today(), rows: people(1, 1800), payLater: true });
      await expect(payOrder(db, biz, r.orderNo, { channel: 'balance' })).rejects.toThrow('余额不足：本次需支付 ¥540.00，当前余额 ¥10.00，请先充值');
      expect(await count(db, `SELECT count(*) FROM orders WHERE order_no = $1 AND pay_status = 'unpaid'`, [r.orderNo])).toBe(1);
      expect(await balanceOf(db, biz.businessId)).toBe(10_00);
    });

    it('a pending cover whose start date has passed can no longer be paid', async () => {
      const biz = await makeBusiness(db, { chargeForm: 'prepaid', balanceCents: 50_000_00 });
      const r = await createInsuranceBatch(db, biz, { source: 'roster', planId: ROSTER, startDate: today(), rows: people(1, 1900), payLater: true });
      const later = new Date(Date.now() + 3 * 86400000);
      await expect(payOrder(db, biz, r.orderNo, { channel: 'balance', now: later })).rejects.toThrow('订单已过起保日期');
      expect(await balanceOf(db, biz.businessId)).toBe(50_000_00);
    });

    it('provider channel: dev provider pays at once; a pending provider payment settles once on confirm', async () => {
      const biz = await makeBusiness(db, { chargeForm: 'postpaid' });
      const r = await createInsuranceBatch(db, biz, { source: 'attendance', planId: DAY_PLAN, startDate: today(), rows: people(2, 2000) });
      const paid = await payOrder(db, biz, r.orderNo, { channel: 'provider', provider: new DevPaymentProvider() });
      expect(paid.payStatus).toBe('paid');
      expect(await count(db, `SELECT count(*) FROM payments WHERE order_no = $1 AND status = 'succeeded' AND provider_ref IS NOT NULL`, [r.orderNo])).toBe(1);

      let state: 'pending' | 'succeeded' = 'pending';
      const slow: PaymentProvider = {
        createPayment: async ({ orderNo }) => ({ providerRef: `SLOW-${orderNo}`, status: 'pending', payUrl: 'https://pay.example/x' }),
        verify: async () => ({ status: state, amountCents: 700 }),
      };
      const r2 = await createInsuranceBatch(db, biz, { source: 'attendance', planId: DAY_PLAN, startDate: addDays(today(), 1), rows: people(2, 2100) });
      const p1 = await payOrder(db, biz, r2.orderNo, { channel: 'provider', provider: slow });
      expect(p1).toMatchObject({ payStatus: 'unpaid', payUrl: 'https://pay.example/x' });
      const p2 = await payOrder(db, biz, r2.orderNo, { channel: 'provider', provider: slow });
      expect(p2.providerRef).toBe(p1.providerRef);
      expect(await confirmProviderPayment(db, p1.providerRef!, slow)).toMatchObject({ status: 'pending' });
      state = 'succeeded';
      expect(await confirmProviderPayment(db, p1.providerRef!, slow)).toMatchObject({ status: 'succeeded' });
      expect(await confirmProviderPayment(db, p1.providerRef!, slow)).toMatchObject({ status: 'succeeded' });
      expect(await count(db, `SELECT count(*) FROM orders WHERE order_no = $1 AND pay_status = 'paid' AND paid_at IS NOT NULL`, [r2.orderNo])).toBe(1);
      expect(await count(db, `SELECT count(*) FROM payments WHERE order_no = $1`, [r2.orderNo])).toBe(1);
    });

    it('stores a 5,000-row roster in one go', async () => {
      const biz = await makeBusiness(db, { chargeForm: 'prepaid', balanceCents: 3_000_000_00 });
      const rows = people(5000, 100_000);
      // How fast this is, is measured by `npm run bench` (writes), not asserted here.
      const r = await createInsuranceBatch(db, biz, { source: 'roster', planId: ROSTER, startDate: today(), rows });
      expect(r.amountCents).toBe(5000 * 12 * 4500);
      expect(await count(db, 'SELECT count(*) FROM insure_records WHERE batch_id = $1', [r.batchId])).toBe(5000);
      expect(await count(db, 'SELECT count(*) FROM insured_persons WHERE business_id = $1', [biz.businessId])).toBe(5000);
      expect(await balanceOf(db, biz.businessId)).toBe(3_000_000_00 - 5000 * 12 * 4500);
    });
  });
}
