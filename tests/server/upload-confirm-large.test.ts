import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../src/server/db.ts';
import { BIZ_ADMIN, boot, type Client } from './helpers.ts';
import { people, targets } from './money-helpers.ts';
import { balanceCents, count, monthPlan, START, upload, waitParsed } from './upload-helpers.ts';

/** More than two orders' worth (MAX_BATCH_ROWS = 5,000 persons per order). */
const ROWS = Number(process.env.CONFIRM_ROWS ?? 12_000);
const ORDER_ROWS = 5000;

for (const t of targets()) {
  describe(`confirming an upload larger than one order: ${ROWS} rows (${t.name})`, () => {
    let db: Db;
    let c: Client;
    let plan: string;
    let uploadId: number;
    let quote: { total: number; people: number; orders: number; unitPrice: number; months: number };
    const rows = people(ROWS, 700_000);

    beforeAll(async () => {
      process.env.FILES_DIR = mkdtempSync(join(tmpdir(), 'upload-large-'));
      db = await t.openEmpty();
      c = await boot({ db });
      await c.login();
      plan = await monthPlan(c);
      const csv = ['姓名,身份证号,手机号,工种', ...rows.map((r) => `${r.name},${r.idCard},${r.phone},${r.jobType}`)].join('\r\n');
      const r = await upload(c, { name: '全员名单.csv', bytes: Buffer.from(csv, 'utf8') }, { planName: plan, startDate: START() });
      expect(r.status).toBe(202);
      uploadId = r.body.data.id;
      const s = await waitParsed(c, uploadId);
      expect(s.counts).toEqual({ total: ROWS, valid: ROWS, errors: 0, duplicates: 0 });
    }, 300_000);
    afterAll(async () => {
      await c?.server.close();
      await db?.close();
    });

    it('the preview quotes the total over all orders', async () => {
      const p = await c.call('GET', `/api/insure-uploads/${uploadId}/preview`);
      expect(p.status).toBe(200);
      expect(p.body.data.quoteError).toBeNull();
      quote = p.body.data.quote;
      expect(quote).toMatchObject({ people: ROWS, orders: Math.ceil(ROWS / ORDER_ROWS), months: 12 });
      expect(Math.round(quote.total * 100)).toBe(ROWS * 12 * Math.round(quote.unitPrice * 100));
    });

    it('a balance short of the total by one cent refuses it all: nothing stored, nothing charged', async () => {
      const total = Math.round(quote.total * 100);
      await c.server.db.query('UPDATE businesses SET balance_cents = $2 WHERE id = $1', [BIZ_ADMIN, total - 1]);
      const orders = await count(c, 'SELECT 1 FROM orders WHERE business_id = $1', [BIZ_ADMIN]);
      const r = await c.call('POST', '/api/insure-uploads/confirm', { body: { uploadId, planName: plan, startDate: START() } });
      expect(r.status).toBe(400);
      expect(r.body.message).toContain(`本次需支付 ¥${quote.total.toLocaleString('en-US', { minimumFractionDigits: 2 })}（${quote.orders} 个订单合计）`);
      expect(await balanceCents(c)).toBe(total - 1);
      expect(await count(c, 'SELECT 1 FROM orders WHERE business_id = $1', [BIZ_ADMIN])).toBe(orders);
      expect(await count(c, 'SELECT 1 FROM insure_records WHERE id_card = ANY($1::text[])', [rows.map((x) => x.idCard)])).toBe(0);
      expect((await c.call('GET', `/api/insure-uploads/${uploadId}`)).body.data.status).toBe('ready');
    });

    it('confirms all rows sent by the browser in one transaction: consecutive orders of ≤ 5,000, one form, the total charged', async () => {
      const total = Math.round(quote.total * 100);
      const left = 123_45;
      await c.server.db.query('UPDATE businesses SET balance_cents = $2 WHERE id = $1', [BIZ_ADMIN, total + left]);
      const body = { uploadId, planName: plan, startDate: START(), rows: rows.map((r, i) => ({ row: i + 2, ...r })) };
      const r = await c.call('POST', '/api/insure-uploads/confirm', { body, headers: { 'idempotency-key': `large-${uploadId}` } });
      expect(r.status, JSON.stringify(r.body).slice(0, 500)).toBe(200);
      const d = r.body.data;
      expect(d).toMatchObject({ people: ROWS, total: ROWS, succeeded: ROWS, failed: 0, amount: quote.total, balanceAfter: left / 100 });
      const sizes = [...Array.from({ length: Math.floor(ROWS / ORDER_ROWS) }, () => ORDER_ROWS), ...(ROWS % ORDER_ROWS ? [ROWS % ORDER_ROWS] : [])];
      expect(d.orders.map((o: { people: number }) => o.people)).toEqual(sizes);

      // What is stored: the balance, one ledger row and one payment per order, the orders of the one form.
      expect(await balanceCents(c)).toBe(left);
      const unit = Math.round(quote.unitPrice * 100) * 12;
      const orders = await c.server.db.query<{ order_no: string; person_count: number; amount: number; pay_status: string }>(
        'SELECT order_no, person_count, amount_cents::float8 AS amount, pay_status FROM orders WHERE batch_id = $1 ORDER BY id',
        [d.batchId],
      );
      expect(orders.map((o) => o.order_no)).toEqual(d.orders.map((o: { orderNo: string }) => o.orderNo));
      expect(orders.map((o) => o.person_count)).toEqual(sizes);
      expect(orders.map((o) => Number(o.amount))).toEqual(sizes.map((n) => n * unit));
      expect(new Set(orders.map((o) => o.pay_status))).toEqual(new Set(['paid']));
      const ledger = await c.server.db.query<{ n: number; s: number }>(
        `SELECT count(*)::int AS n, sum(delta_cents)::float8 AS s FROM balance_ledger WHERE business_id = $1 AND ref = ANY($2::text[])`,
        [BIZ_ADMIN, orders.map((o) => o.order_no)],
      );
      expect(ledger[0]).toEqual({ n: sizes.length, s: -total });
      expect(await count(c, `SELECT 1 FROM payments WHERE order_no = ANY($1::text[]) AND status = 'succeeded'`, [orders.map((o) => o.order_no)])).toBe(sizes.length);
      expect(await count(c, 'SELECT 1 FROM insure_records WHERE batch_id = $1', [d.batchId])).toBe(ROWS);
      expect(await count(c, 'SELECT 1 FROM insured_persons WHERE business_id = $1 AND id_card = ANY($2::text[])', [BIZ_ADMIN, rows.map((x) => x.idCard)])).toBe(ROWS);
      expect(await count(c, `SELECT 1 FROM insure_batch_rows WHERE batch_id = $1 AND result = 'success'`, [d.batchId])).toBe(ROWS);
      expect(await count(c, 'SELECT 1 FROM insure_batches WHERE id = $1 AND total = $2 AND succeeded = $2', [d.batchId, ROWS])).toBe(1);

      // The historical form lists all its orders; the upload is confirmed and a second confirmation refused.
      const info = await c.call('GET', `/api/insure-batches/${d.batchId}/info`);
      expect(info.body.data.orders.map((o: { orderNo: string }) => o.orderNo)).toEqual(d.orders.map((o: { orderNo: string }) => o.orderNo));
      expect(info.body.data.amount).toBe(quote.total);
      expect((await c.call('GET', `/api/insure-uploads/${uploadId}`)).body.data).toMatchObject({ status: 'confirmed', batchId: d.batchId });
      const again = await c.call('POST', '/api/insure-uploads/confirm', { body: { uploadId, planName: plan, startDate: START() } });
      expect(again.status).toBe(409);
    }, 120_000);
  });
}
