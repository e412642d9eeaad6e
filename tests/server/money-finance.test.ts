import { describe, expect, it } from 'vitest';
import type { Db } from '../../src/server/db.ts';
import { applyInvoice, issueInvoice, rejectInvoice } from '../../src/server/domain/invoice.ts';
import { applyRefund, rejectRefund } from '../../src/server/domain/refund.ts';
import { addBankAccount, deleteBankAccount, setDefaultBank } from '../../src/server/domain/bank.ts';
import { hashRequest, purgeIdempotencyKeys, withIdempotency } from '../../src/server/domain/idempotency.ts';
import { createInsuranceBatch } from '../../src/server/domain/insure.ts';
import { INV, balanceOf, count, makeBusiness, paidOrder, people, targets, today, useTargetDb } from './money-helpers.ts';


for (const t of targets()) {
  describe(`invoices, refunds, bank accounts, idempotency (${t.name})`, () => {
    const db = useTargetDb(t);

    it('an invoice sums its paid orders; an order is invoiced once until the invoice is rejected', async () => {
      const biz = await makeBusiness(db, { chargeForm: 'postpaid' });
      const a = await paidOrder(db, biz.businessId, 100_000);
      const b = await paidOrder(db, biz.businessId, 63_400);
      const inv = await applyInvoice(db, biz, { ...INV, orderNos: [b, a, a] });
      expect(inv.amountCents).toBe(163_400);
      expect(await count(db, 'SELECT amount_cents FROM invoices WHERE id = $1', [inv.id])).toBe(163_400);
      expect(await count(db, 'SELECT count(*) FROM invoice_orders WHERE invoice_id = $1 AND active', [inv.id])).toBe(2);
      await expect(applyInvoice(db, biz, { ...INV, orderNos: [a] })).rejects.toThrow(`订单 ${a} 已开票或正在开票`);
      const other = await makeBusiness(db, { chargeForm: 'postpaid' });
      await expect(applyInvoice(db, other, { ...INV, orderNos: [a] })).rejects.toThrow(`订单 ${a} 不存在`);
      const unpaid = await createInsuranceBatch(db, biz, { source: 'attendance', planId: 'flex-day', startDate: today(), rows: people(1, 5000) });
      await expect(applyInvoice(db, biz, { ...INV, orderNos: [unpaid.orderNo] })).rejects.toThrow('未支付，不能开票');
      await rejectInvoice(db, biz, inv.invoiceNo);
      const again = await applyInvoice(db, biz, { ...INV, orderNos: [a] });
      expect(again.amountCents).toBe(100_000);
    });

    it('refunds never exceed the invoice; a rejected refund gives the amount back', async () => {
      const biz = await makeBusiness(db, { chargeForm: 'prepaid' });
      const inv = await applyInvoice(db, biz, { ...INV, orderNos: [await paidOrder(db, biz.businessId, 163_400)] });
      await expect(applyRefund(db, biz, { invoiceNo: inv.invoiceNo, amountCents: 100, reason: '抬头错误' })).rejects.toThrow('仅已开具的发票可申请退票');
      await issueInvoice(db, biz, inv.invoiceNo);
      const r1 = await applyRefund(db, biz, { invoiceNo: inv.invoiceNo, amountCents: 100_000, reason: '订单部分退保' });
      expect(r1).toMatchObject({ refundedCents: 100_000, remainingCents: 63_400 });
      await expect(applyRefund(db, biz, { invoiceNo: inv.invoiceNo, amountCents: 63_401, reason: '订单部分退保' })).rejects.toThrow('该发票最多可退 ¥634.00');
      await expect(applyRefund(db, biz, { invoiceNo: 'FP-none', amountCents: 1, reason: 'x' })).rejects.toThrow('发票 FP-none 不存在');
      const r2 = await applyRefund(db, biz, { invoiceNo: inv.invoiceNo, amountCents: 63_400, reason: '订单部分退保' });
      expect(r2.remainingCents).toBe(0);
      await rejectRefund(db, biz, r1.refundNo);
      await expect(rejectRefund(db, biz, r1.refundNo)).rejects.toThrow('已处理');
      expect(await count(db, 'SELECT refunded_cents FROM invoices WHERE id = $1', [inv.id])).toBe(63_400);
      const r3 = await applyRefund(db, biz, { invoiceNo: inv.invoiceNo, amountCents: 100_000, reason: '重新退' });
      expect(r3.remainingCents).toBe(0);
      expect(await count(db, `SELECT sum(amount_cents) FROM invoice_refunds WHERE invoice_no = $1 AND status <> 'rejected'`, [inv.invoiceNo])).toBe(163_400);
    });

    it('seeded refunds are counted on their invoices (backfill)', async () => {
      const [bad] = await db.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM invoices i WHERE i.refunded_cents <> LEAST(i.amount_cents, (SELECT coalesce(sum(amount_cents),0)
           FROM invoice_refunds r WHERE r.invoice_no = i.invoice_no AND r.status <> 'rejected'))`,
      );
      expect(bad.n).toBe(0);
      expect(await count(db, `SELECT count(*) FROM invoice_orders`)).toBeGreaterThan(0);
    });

    it('bank accounts: first is default, a new default demotes the old, deleting the default promotes the oldest', async () => {
      const biz = await makeBusiness(db, { chargeForm: 'postpaid' });
      const acct = (n: string, isDefault?: boolean) => ({ accountName: biz.name, bankName: '招商银行', accountNo: `62148302${n}`, isDefault });
      const a = await addBankAccount(db, biz, acct('0001'));
      const b = await addBankAccount(db, biz, acct('0002'));
      expect([a.isDefault, b.isDefault]).toEqual([true, false]);
      const c = await addBankAccount(db, biz, acct('0003', true));
      const defaults = () => db.query<{ id: number }>('SELECT id FROM bank_accounts WHERE business_id = $1 AND is_default', [biz.businessId]);
      expect(await defaults()).toEqual([{ id: c.id }]);
      await setDefaultBank(db, biz, b.id);
      expect(await defaults()).toEqual([{ id: b.id }]);
      await deleteBankAccount(db, biz, b.id);
      expect(await defaults()).toEqual([{ id: a.id }]);
      await expect(setDefaultBank(db, biz, 999_999)).rejects.toThrow('银行账户不存在');
      await expect(addBankAccount(db, biz, acct('x'))).rejects.toThrow('银行账号应为 8–30 位数字');
    });

    it('idempotency: a replay returns the first response and charges once; another body with the key is 409', async () => {
      const biz = await makeBusiness(db, { chargeForm: 'prepaid', balanceCents: 10_000_00 });
      const body = { planId: 'employer-std-60w', startDate: today(), rows: people(2, 5100) };
      const scope = { userId: 1, key: `k-${biz.businessId}`, method: 'POST', path: '/api/insure/roster', requestHash: hashRequest({ biz: biz.businessId, body }) };
      const run = (tx: Db) => createInsuranceBatch(tx, biz, { source: 'roster', ...body }).then((r) => ({ status: 200, body: r }));
      const first = await withIdempotency(db, scope, run);
      const second = await withIdempotency(db, scope, run);
      expect(first.replayed).toBe(false);
      expect(second).toEqual({ ...first, replayed: true });
      expect(await balanceOf(db, biz.businessId)).toBe(10_000_00 - 2 * 12 * 4500);
      expect(await count(db, 'SELECT count(*) FROM insure_batches WHERE business_id = $1', [biz.businessId])).toBe(1);
      await expect(withIdempotency(db, { ...scope, requestHash: hashRequest({ other: true }) }, run)).rejects.toThrow('Idempotency-Key 已用于另一个请求');
      // A failed first attempt stores nothing, so the retry runs again.
      const poor = await makeBusiness(db, { chargeForm: 'prepaid', balanceCents: 0 });
      const s2 = { ...scope, key: `k-${poor.businessId}` };
      const runPoor = (tx: Db) => createInsuranceBatch(tx, poor, { source: 'roster', ...body }).then((r) => ({ status: 200, body: r }));
      await expect(withIdempotency(db, s2, runPoor)).rejects.toThrow('余额不足');
      await db.query('UPDATE businesses SET balance_cents = 10000000 WHERE id = $1', [poor.businessId]);
      expect((await withIdempotency(db, s2, runPoor)).replayed).toBe(false);
      expect(hashRequest({ a: 1, b: [1, { c: 2, d: 3 }] })).toBe(hashRequest({ b: [1, { d: 3, c: 2 }], a: 1 }));
      await db.query(`UPDATE idempotency_keys SET created_at = now() - interval '25 hours' WHERE key = $1`, [scope.key]);
      expect(await purgeIdempotencyKeys(db)).toBeGreaterThanOrEqual(1);
    });
  });
}
