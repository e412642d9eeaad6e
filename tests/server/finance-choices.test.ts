import { describe, expect, it } from 'vitest';
import { BIZ_ADMIN, useGateway } from './helpers.ts';

// The invoice and refund applications offer only what the gateway would accept (domain/finance-choices.ts).
describe('invoice and refund choices', () => {
  const c = useGateway();
  const rows = <T,>(sql: string, params: unknown[] = []) => c.server.db.query<T>(sql, params);

  it('invoice apply: only paid orders not yet invoiced, with amount and payment date, and the business title and tax number', async () => {
    const r = await c.call('GET', '/api/invoices/invoiceable-orders');
    expect(r.status).toBe(200);
    const expected = await rows<{ order_no: string }>(
      `SELECT order_no FROM orders WHERE business_id = $1 AND pay_status = 'paid' AND NOT invoiced ORDER BY paid_at DESC, id DESC`,
      [BIZ_ADMIN],
    );
    expect(expected.length).toBeGreaterThan(0);
    expect(r.body.data.map((o: { value: string }) => o.value)).toEqual(expected.map((o) => o.order_no));
    expect(r.body.data[0].label).toMatch(/^OD\S+ · ¥[\d,]+\.\d{2} · \d{4}-\d{2}-\d{2} 支付$/);
    // Each offered order is one the gateway invoices: apply for the first one, then it is no longer offered.
    const first = r.body.data[0].value as string;
    const d = await c.call('GET', '/api/invoices/apply-defaults');
    expect(d.body.data).toMatchObject({ title: '上海鑫达人力资源有限公司', taxNo: '91310104MA1FL2XK3P' });
    expect(d.body.data.email).toMatch(/@example\.com$/);
    const applied = await c.call('POST', '/api/invoices', { body: { title: d.body.data.title, taxNo: d.body.data.taxNo, type: 'normal', email: d.body.data.email, orderNos: [first] } });
    expect(applied.status).toBe(200);
    const after = await c.call('GET', '/api/invoices/invoiceable-orders');
    expect(after.body.data.map((o: { value: string }) => o.value)).toEqual(expected.slice(1).map((o) => o.order_no));
  });

  it('refund apply: only issued invoices not refunded in full, with what is left', async () => {
    const r = await c.call('GET', '/api/invoice-refunds/refundable-invoices');
    const expected = await rows<{ invoice_no: string; left: number }>(
      `SELECT invoice_no, (amount_cents - refunded_cents)::float8 / 100 AS left FROM invoices
        WHERE business_id = $1 AND status = 'issued' AND refunded_cents < amount_cents ORDER BY created_at DESC, id DESC`,
      [BIZ_ADMIN],
    );
    expect(expected.length).toBeGreaterThan(0);
    expect(r.body.data.map((i: { value: string; left: number }) => [i.value, i.left])).toEqual(expected.map((i) => [i.invoice_no, Number(i.left)]));
    expect(r.body.data[0].label).toMatch(/ · 可退 ¥[\d,]+\.\d{2}$/);
    // Refunding all that is left takes the invoice off the list.
    const inv = r.body.data[0];
    const refund = await c.call('POST', '/api/invoice-refunds', { body: { invoiceNo: inv.value, amount: inv.left, reason: '开票信息有误' } });
    expect(refund.status).toBe(200);
    const after = await c.call('GET', '/api/invoice-refunds/refundable-invoices');
    expect(after.body.data.map((i: { value: string }) => i.value)).not.toContain(inv.value);
  });

  it('another business sees only its own', async () => {
    const r = await c.call('GET', '/api/invoices/invoiceable-orders', { biz: 'B10002' });
    const own = await rows<{ n: number }>(`SELECT count(*)::int AS n FROM orders WHERE business_id = 'B10002' AND pay_status = 'paid' AND NOT invoiced`);
    expect(r.body.data).toHaveLength(own[0].n);
    expect((await c.call('GET', '/api/invoices/apply-defaults', { biz: 'B10002' })).body.data.title).toBe('杭州云帆物流有限公司');
  });
});
