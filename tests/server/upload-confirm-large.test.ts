import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../src/server/db.ts';
import { localParts } from '../../src/server/domain/util.ts';
import { CONFIRM_INTERRUPTED, MAX_CONFIRM_ATTEMPTS } from '../../src/server/routes/insure-upload-store.ts';
import { BIZ_ADMIN, BIZ_OPERATOR, boot, useFilesDir, type Client } from './helpers.ts';
import { people, targets } from './money-helpers.ts';
import { balanceCents, count, monthPlan, START, upload, waitConfirmed, waitParsed } from './upload-helpers.ts';

/** More than two orders' worth (MAX_BATCH_ROWS = 5,000 persons per order): two full orders and one of one person. */
const ROWS = Number(process.env.CONFIRM_ROWS ?? 10_001);
const ORDER_ROWS = 5000;

/** A transaction of the test's own holding `lockSql` until release() (PostgreSQL: another connection of the pool). */
async function holdLock(db: Db, lockSql: string[], params: unknown[]): Promise<{ release(): Promise<void> }> {
  let open!: () => void;
  const gate = new Promise<void>((r) => (open = r));
  let locked!: () => void;
  const isLocked = new Promise<void>((r) => (locked = r));
  const held = db.tx(async (tx) => {
    for (const sql of lockSql) await tx.query(sql, params);
    locked();
    await gate;
  });
  await Promise.race([isLocked, held]);
  return {
    async release() {
      open();
      await held;
    },
  };
}

for (const t of targets()) {
  describe(`confirming an upload larger than one order, as a background job: ${ROWS} rows (${t.name})`, () => {
    let db: Db;
    let c: Client;
    let plan: string;
    let uploadId: number;
    let quote: { total: number; people: number; orders: number; unitPrice: number; months: number };
    const rows = people(ROWS, 700_000);
    const cards = rows.map((x) => x.idCard);

    useFilesDir('upload-large-');
    beforeAll(async () => {
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

    it('a balance short of the total by one cent: the job fails, nothing is stored or charged, the upload is ready again with the message', async () => {
      const total = Math.round(quote.total * 100);
      await db.query('UPDATE businesses SET balance_cents = $2 WHERE id = $1', [BIZ_ADMIN, total - 1]);
      const orders = await count(c, 'SELECT 1 FROM orders WHERE business_id = $1', [BIZ_ADMIN]);
      const r = await c.call('POST', '/api/insure-uploads/confirm', { body: { uploadId, planName: plan, startDate: START() } });
      expect(r.status).toBe(202);
      expect(r.body.data).toMatchObject({ id: uploadId, status: 'confirming', confirmDone: 0, confirmTotal: ROWS, batchId: null });

      const s = await waitConfirmed(c, uploadId);
      expect(s).toMatchObject({ status: 'ready', confirmDone: 0, batchId: null, confirmResult: null });
      expect(s.error).toContain(`本次需支付 ¥${quote.total.toLocaleString('en-US', { minimumFractionDigits: 2 })}（${quote.orders} 个订单合计）`);
      expect(await balanceCents(c)).toBe(total - 1);
      expect(await count(c, 'SELECT 1 FROM orders WHERE business_id = $1', [BIZ_ADMIN])).toBe(orders);
      expect(await count(c, 'SELECT 1 FROM insure_records WHERE id_card = ANY($1::text[])', [cards])).toBe(0);
      expect(await count(c, 'SELECT 1 FROM insured_persons WHERE id_card = ANY($1::text[])', [cards])).toBe(0);
    });

    it('a running confirmation refuses another; one whose process died (no heartbeat) is given back as ready with a clear message', async () => {
      // Running (fresh heartbeat): a second confirmation is refused, the status keeps reporting it.
      await db.query(`UPDATE insure_uploads SET status = 'confirming', confirm_token = 'other-job', confirm_done = 5000, confirm_total = $2, updated_at = now() WHERE id = $1`, [uploadId, ROWS]);
      const busy = await c.call('POST', '/api/insure-uploads/confirm', { body: { uploadId, planName: plan, startDate: START() } });
      expect(busy.status).toBe(409);
      expect(busy.body.message).toBe('该文件正在确认投保，请稍候');
      expect((await c.call('GET', `/api/insure-uploads/${uploadId}`)).body.data).toMatchObject({ status: 'confirming', confirmDone: 5000, confirmPercent: Math.floor((5000 * 100) / ROWS) });

      // Its process died ten minutes ago and its takeovers are used up (a job with stored input is taken over
      // before that: insure-upload-confirm-resume.ts): the next read gives it back; nothing was insured.
      await db.query(`UPDATE insure_uploads SET updated_at = now() - interval '10 minutes', confirm_attempts = $2 WHERE id = $1`, [uploadId, MAX_CONFIRM_ATTEMPTS]);
      const s = (await c.call('GET', `/api/insure-uploads/${uploadId}`)).body.data;
      expect(s).toMatchObject({ status: 'ready', error: CONFIRM_INTERRUPTED, confirmDone: 0, batchId: null });
      expect(await count(c, `SELECT 1 FROM insure_uploads WHERE id = $1 AND confirm_token IS NULL`, [uploadId])).toBe(1);

      // Left behind by a dead job again: confirming takes it back too (the next test confirms from here).
      await db.query(`UPDATE insure_uploads SET status = 'confirming', confirm_token = 'dead-job', updated_at = now() - interval '10 minutes' WHERE id = $1`, [uploadId]);
    });

    it('answers 202 before anything is insured, reports the job on the status, then confirms all rows: orders of ≤ 5,000, one form, the total charged', async () => {
      const total = Math.round(quote.total * 100);
      const left = 123_45;
      await db.query('UPDATE businesses SET balance_cents = $2 WHERE id = $1', [BIZ_ADMIN, total + left]);
      // PostgreSQL: the test holds the business row, so the job waits at the prepaid charge (PGlite runs one transaction at a time).
      const lock = t.name === 'postgres' ? await holdLock(db, ['SELECT 1 FROM businesses WHERE id = $1 FOR UPDATE'], [BIZ_ADMIN]) : null;
      const body = { uploadId, planName: plan, startDate: START(), rows: rows.map((r, i) => ({ row: i + 2, ...r })) };
      const headers = { 'idempotency-key': `large-${uploadId}` };
      const r = await c.call('POST', '/api/insure-uploads/confirm', { body, headers });
      expect(r.status, JSON.stringify(r.body).slice(0, 500)).toBe(202);
      expect(r.body.data).toMatchObject({ id: uploadId, status: 'confirming', confirmDone: 0, confirmTotal: ROWS, confirmPercent: 0, error: null, batchId: null });

      if (lock) {
        try {
          const s = (await c.call('GET', `/api/insure-uploads/${uploadId}`)).body.data;
          expect(s).toMatchObject({ status: 'confirming', confirmDone: 0, confirmTotal: ROWS });
          expect(await count(c, 'SELECT 1 FROM insure_records WHERE id_card = ANY($1::text[])', [cards])).toBe(0);
          expect(await balanceCents(c)).toBe(total + left);
          // The same key replays the acceptance (no second job); another confirmation is refused.
          const replay = await c.call('POST', '/api/insure-uploads/confirm', { body, headers });
          expect(replay.status).toBe(202);
          expect(replay.headers.get('idempotent-replayed')).toBe('true');
          const other = await c.call('POST', '/api/insure-uploads/confirm', { body, headers: { 'idempotency-key': `other-${uploadId}` } });
          expect(other.status).toBe(409);
          expect(other.body.message).toBe('该文件正在确认投保，请稍候');
        } finally {
          await lock.release();
        }
      }

      const seen: Array<{ confirmDone: number }> = [];
      const s = await waitConfirmed(c, uploadId, seen);
      expect(s).toMatchObject({ status: 'confirmed', confirmDone: ROWS, confirmTotal: ROWS, confirmPercent: 100, error: null });
      const done = seen.map((v) => v.confirmDone);
      expect(done).toEqual([...done].sort((a, b) => a - b));
      const d = s.confirmResult;
      expect(s.batchId).toBe(d.batchId);
      expect(d).toMatchObject({ people: ROWS, total: ROWS, succeeded: ROWS, failed: 0, amount: quote.total, balanceAfter: left / 100 });
      const sizes = [...Array.from({ length: Math.floor(ROWS / ORDER_ROWS) }, () => ORDER_ROWS), ...(ROWS % ORDER_ROWS ? [ROWS % ORDER_ROWS] : [])];
      expect(d.orders.map((o: { people: number }) => o.people)).toEqual(sizes);

      // What is stored: the balance, one ledger row and one payment per order, the orders of the one form.
      expect(await balanceCents(c)).toBe(left);
      const unit = Math.round(quote.unitPrice * 100) * 12;
      const orders = await db.query<{ order_no: string; person_count: number; amount: number; pay_status: string }>(
        'SELECT order_no, person_count, amount_cents::float8 AS amount, pay_status FROM orders WHERE batch_id = $1 ORDER BY id',
        [d.batchId],
      );
      expect(orders.map((o) => o.order_no)).toEqual(d.orders.map((o: { orderNo: string }) => o.orderNo));
      expect(orders.map((o) => o.person_count)).toEqual(sizes);
      expect(orders.map((o) => Number(o.amount))).toEqual(sizes.map((n) => n * unit));
      expect(new Set(orders.map((o) => o.pay_status))).toEqual(new Set(['paid']));
      const ledger = await db.query<{ n: number; s: number }>(
        `SELECT count(*)::int AS n, sum(delta_cents)::float8 AS s FROM balance_ledger WHERE business_id = $1 AND ref = ANY($2::text[])`,
        [BIZ_ADMIN, orders.map((o) => o.order_no)],
      );
      expect(ledger[0]).toEqual({ n: sizes.length, s: -total });
      expect(await count(c, `SELECT 1 FROM payments WHERE order_no = ANY($1::text[]) AND status = 'succeeded'`, [orders.map((o) => o.order_no)])).toBe(sizes.length);
      expect(await count(c, 'SELECT 1 FROM insure_records WHERE batch_id = $1', [d.batchId])).toBe(ROWS);
      expect(await count(c, 'SELECT 1 FROM insure_records WHERE id_card = ANY($1::text[])', [cards])).toBe(ROWS);
      expect(await count(c, 'SELECT 1 FROM insured_persons WHERE business_id = $1 AND id_card = ANY($2::text[])', [BIZ_ADMIN, cards])).toBe(ROWS);
      expect(await count(c, `SELECT 1 FROM insure_batch_rows WHERE batch_id = $1 AND result = 'success'`, [d.batchId])).toBe(ROWS);
      expect(await count(c, 'SELECT 1 FROM insure_batches WHERE id = $1 AND total = $2 AND succeeded = $2', [d.batchId, ROWS])).toBe(1);
      expect(await count(c, 'SELECT 1 FROM insure_batches b JOIN insure_uploads u ON u.batch_id = b.id WHERE u.id = $1', [uploadId])).toBe(1);

      // The historical form lists all its orders; a second confirmation is refused.
      const info = await c.call('GET', `/api/insure-batches/${d.batchId}/info`);
      expect(info.body.data.orders.map((o: { orderNo: string }) => o.orderNo)).toEqual(d.orders.map((o: { orderNo: string }) => o.orderNo));
      expect(info.body.data.amount).toBe(quote.total);
      const again = await c.call('POST', '/api/insure-uploads/confirm', { body: { uploadId, planName: plan, startDate: START() } });
      expect(again.status).toBe(409);
      expect(again.body.message).toContain('已确认投保');
    }, 180_000);

    it.runIf(t.name === 'postgres')(
      'progress is written outside the insuring transaction: the status shows every person insured while the transaction is still open (postpaid)',
      async () => {
        const n = 6000;
        const list = people(n, 900_000);
        const biz = BIZ_OPERATOR;
        const csv = ['姓名,身份证号,手机号,工种', ...list.map((r) => `${r.name},${r.idCard},${r.phone},${r.jobType}`)].join('\r\n');
        const up = await upload(c, { name: '后付费名单.csv', bytes: Buffer.from(csv, 'utf8') }, { planName: plan, startDate: START() }, { 'x-company-id': biz });
        expect(up.status, JSON.stringify(up.body)).toBe(202);
        const id = up.body.data.id;
        const status = async () => (await c.call('GET', `/api/insure-uploads/${id}`, { biz })).body.data;
        for (let i = 0; i < 600 && (await status()).status === 'parsing'; i++) await new Promise((r) => setTimeout(r, 100));
        expect((await status()).counts.valid).toBe(n);

        // The job's last write before committing joins this month's statement: the test holds that row.
        const month = localParts(new Date()).date.slice(0, 7);
        const [before] = await db.query<{ a: number; n: number }>(
          'SELECT coalesce(sum(amount_cents), 0)::float8 AS a, coalesce(sum(order_count), 0)::int AS n FROM statements WHERE business_id = $1 AND month = $2',
          [biz, month],
        );
        const lock = await holdLock(
          db,
          [
            'INSERT INTO statements (business_id, month, amount_cents, order_count) VALUES ($1, $2, 0, 0) ON CONFLICT (business_id, month) DO NOTHING',
            'SELECT 1 FROM statements WHERE business_id = $1 AND month = $2 FOR UPDATE',
          ],
          [biz, month],
        );
        try {
          const r = await c.call('POST', '/api/insure-uploads/confirm', { body: { uploadId: id, planName: plan, startDate: START() }, biz });
          expect(r.status, JSON.stringify(r.body)).toBe(202);
          let s = await status();
          for (let i = 0; i < 1200 && s.confirmDone < n; i++) {
            await new Promise((res) => setTimeout(res, 100));
            s = await status();
          }
          // Every record is written (progress n / n) but not committed: still confirming, below 100 %, nothing visible.
          expect(s).toMatchObject({ status: 'confirming', confirmDone: n, confirmTotal: n, confirmPercent: 99 });
          expect(await count(c, 'SELECT 1 FROM insure_records WHERE id_card = ANY($1::text[])', [list.map((x) => x.idCard)])).toBe(0);
        } finally {
          await lock.release();
        }

        const fin = await waitConfirmed(c, id, [], biz);
        expect(fin).toMatchObject({ status: 'confirmed', confirmDone: n, confirmPercent: 100 });
        const d = fin.confirmResult;
        expect(d).toMatchObject({ people: n, payStatus: 'unpaid', balanceAfter: null });
        const orders = await db.query<{ person_count: number; statement_month: string }>(
          'SELECT person_count, statement_month FROM orders WHERE batch_id = $1 ORDER BY id',
          [d.batchId],
        );
        expect(orders.map((o) => o.person_count)).toEqual([5000, 1000]);
        expect(new Set(orders.map((o) => o.statement_month))).toEqual(new Set([month]));
        const [after] = await db.query<{ a: number; n: number }>('SELECT amount_cents::float8 AS a, order_count AS n FROM statements WHERE business_id = $1 AND month = $2', [biz, month]);
        expect(after).toEqual({ a: before.a + Math.round(d.amount * 100), n: before.n + 2 });
        expect(await count(c, 'SELECT 1 FROM insure_records WHERE batch_id = $1', [d.batchId])).toBe(n);
      },
      180_000,
    );
  });
}
