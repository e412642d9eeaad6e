import { describe, expect, it } from 'vitest';
import { earliestCoverStart } from '../../src/server/domain/index.ts';
import { BIZ_ADMIN, BIZ_OPERATOR, makeIdCard, useGateway } from './helpers.ts';

/** Paying orders, quotes, statements and the workbench numbers through the real gateway. */
const c = useGateway();

async function one<T>(sql: string, params: unknown[]): Promise<T> {
  return (await c.server.db.query<{ v: T }>(sql, params))[0].v;
}
const balanceCents = (biz = BIZ_ADMIN) => one<number>('SELECT balance_cents::float8 AS v FROM businesses WHERE id = $1', [biz]);
const ledger = (ref: string) => c.server.db.query<{ delta: number; reason: string }>('SELECT delta_cents::float8 AS delta, reason FROM balance_ledger WHERE ref = $1', [ref]);
const payments = (orderNo: string) => c.server.db.query<{ channel: string; status: string; amount: number }>(
  'SELECT channel, status, amount_cents::float8 AS amount FROM payments WHERE order_no = $1',
  [orderNo],
);

/** An unpaid order of a business, newly written so each test has its own. */
async function unpaidOrder(biz: string, amountCents: number): Promise<{ id: number; orderNo: string }> {
  const orderNo = `ODTEST${Math.floor(Math.random() * 1e9)}`;
  const [r] = await c.server.db.query<{ id: number }>(
    `INSERT INTO orders (business_id, order_no, product_name, person_count, amount_cents, pay_status, order_status)
     VALUES ($1,$2,'雇主责任险·标准版（60万）',2,$3,'unpaid','pending_payment') RETURNING id`,
    [biz, orderNo, amountCents],
  );
  return { id: r.id, orderNo };
}

describe('paying an order', () => {
  it('prepaid: pays from the balance once, with a payment and a ledger row; a replay charges nothing more', async () => {
    const o = await unpaidOrder(BIZ_ADMIN, 108000);
    const start = await balanceCents();
    const headers = { 'idempotency-key': `pay-${o.orderNo}` };
    const [a, b] = await Promise.all([
      c.call('POST', `/api/orders/${o.id}/pay`, { body: {}, headers }),
      c.call('POST', `/api/orders/${o.id}/pay`, { body: {}, headers }),
    ]);
    expect(a.status).toBe(200);
    expect(b.body).toEqual(a.body);
    expect(a.body.data.payment).toMatchObject({ orderNo: o.orderNo, payStatus: 'paid', channel: 'balance', amount: 1080, balanceAfter: (start - 108000) / 100 });
    expect(a.body.data.order).toMatchObject({ id: o.id, payStatus: 'paid', orderStatus: 'completed' });
    expect(a.body.data.order.paidAt).toMatch(/^\d{4}-\d{2}-\d{2}T/);
    expect(a.body.data.balance).toBe((start - 108000) / 100);
    expect(await balanceCents()).toBe(start - 108000);
    expect(await ledger(o.orderNo)).toEqual([{ delta: -108000, reason: 'order' }]);
    expect(await payments(o.orderNo)).toEqual([{ channel: 'balance', status: 'succeeded', amount: 108000 }]);

    const replay = await c.call('POST', `/api/orders/${o.id}/pay`, { body: {}, headers });
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.body).toEqual(a.body);
    // Without the key a second payment is refused: the order is already paid.
    const again = await c.call('POST', `/api/orders/${o.id}/pay`, { body: {} });
    expect(again.status).toBe(409);
    expect(again.body.message).toBe(`订单 ${o.orderNo} 已支付或已关闭，无需重复支付`);
    expect(await balanceCents()).toBe(start - 108000);
    expect(await ledger(o.orderNo)).toHaveLength(1);
  });

  it('prepaid with a short balance: refused with the amounts in Chinese, nothing changed', async () => {
    const o = await unpaidOrder(BIZ_ADMIN, 50000);
    const start = await balanceCents();
    await c.server.db.query('UPDATE businesses SET balance_cents = 12345 WHERE id = $1', [BIZ_ADMIN]);
    try {
      const r = await c.call('POST', `/api/orders/${o.id}/pay`, { body: {}, headers: { 'idempotency-key': `short-${o.orderNo}` } });
      expect(r.status).toBe(400);
      expect(r.body.message).toBe('余额不足：本次需支付 ¥500.00，当前余额 ¥123.45，请先充值');
      expect(await balanceCents()).toBe(12345);
      expect(await one<string>('SELECT pay_status AS v FROM orders WHERE id = $1', [o.id])).toBe('unpaid');
      expect(await ledger(o.orderNo)).toEqual([]);
      expect(await payments(o.orderNo)).toEqual([]);
      // The failed attempt kept no idempotency record: a retry after a top-up runs afresh.
      expect(await one<number>("SELECT count(*)::int AS v FROM idempotency_keys WHERE key = $1", [`short-${o.orderNo}`])).toBe(0);
    } finally {
      await c.server.db.query('UPDATE businesses SET balance_cents = $2 WHERE id = $1', [BIZ_ADMIN, start]);
    }
  });

  it('postpaid: paid through the (development) payment provider; the balance is untouched', async () => {
    const o = await unpaidOrder(BIZ_OPERATOR, 30000);
    const r = await c.call('POST', `/api/orders/${o.id}/pay`, { body: {}, biz: BIZ_OPERATOR });
    expect(r.status).toBe(200);
    expect(r.body.data.payment).toMatchObject({ channel: 'provider', payStatus: 'paid', amount: 300 });
    expect(r.body.data.payment.providerRef).toMatch(/^DEV-/);
    expect(await payments(o.orderNo)).toEqual([{ channel: 'provider', status: 'succeeded', amount: 30000 }]);
    expect(await balanceCents(BIZ_OPERATOR)).toBe(0);
    const bal = await c.call('POST', `/api/orders/${o.id}/pay`, { body: { channel: 'balance' }, biz: BIZ_OPERATOR });
    expect(bal.status).toBe(400);
  });

  it('refuses an order of another business, an unknown id and a bad channel', async () => {
    const o = await unpaidOrder(BIZ_OPERATOR, 1000);
    expect((await c.call('POST', `/api/orders/${o.id}/pay`, { body: {} })).status).toBe(404);
    // Not a record number at all: refused on its shape (400 on id, src/server/http/input-shape.ts), nothing paid.
    expect((await c.call('POST', '/api/orders/abc/pay', { body: {} })).status).toBe(400);
    const bad = await c.call('POST', `/api/orders/${o.id}/pay`, { body: { channel: 'cash' }, biz: BIZ_OPERATOR });
    expect(bad.status).toBe(400);
    expect(bad.body.errors).toEqual([{ field: 'channel', message: '支付方式只能是余额支付或在线支付' }]);
    expect(await one<string>('SELECT pay_status AS v FROM orders WHERE id = $1', [o.id])).toBe('unpaid');
  });

  it('what is due equals the unpaid orders', async () => {
    const r = await c.call('GET', '/api/payments/due');
    const n = await one<number>("SELECT count(*)::int AS v FROM orders WHERE business_id = $1 AND pay_status = 'unpaid'", [BIZ_ADMIN]);
    const sum = await one<number>("SELECT sum(amount_cents)::float8 AS v FROM orders WHERE business_id = $1 AND pay_status = 'unpaid'", [BIZ_ADMIN]);
    expect(r.body.data).toEqual({ chargeForm: 'prepaid', unpaidCount: n, unpaidAmount: sum / 100, balance: (await balanceCents()) / 100 });
    const list = await c.call('GET', '/api/orders?payStatus=unpaid&pageSize=1');
    expect(list.body.data.total).toBe(n);
  });
});

describe('quote', () => {
  const rows = (n: number) => Array.from({ length: n }, (_, i) => ({ name: `试算${i}`, idCard: makeIdCard('310104', '19900101', 500 + i), phone: '13900000000', jobType: '普工' }));

  it('attendance: people × days × unit price, with the balance before and after; nothing stored or charged', async () => {
    const before = { bal: await balanceCents(), batches: await one<number>('SELECT count(*)::int AS v FROM insure_batches', []) };
    const r = await c.call('POST', '/api/insure/quote', { body: { source: 'attendance', planName: '灵活用工日单险（按天）', workDate: earliestCoverStart(), rows: rows(3) } });
    expect(r.status).toBe(200);
    expect(r.body.data).toMatchObject({
      people: 3,
      units: 1,
      unitLabel: '天',
      unitPrice: 3.5,
      total: 10.5,
      formula: '3 人 × 1 天 × ¥3.50/人·天',
      chargeForm: 'prepaid',
      balance: before.bal / 100,
      balanceAfter: (before.bal - 1050) / 100,
      enough: true,
    });
    expect(await balanceCents()).toBe(before.bal);
    expect(await one<number>('SELECT count(*)::int AS v FROM insure_batches', [])).toBe(before.batches);
  });

  it('roster: 12 months; a short balance is reported, not refused', async () => {
    const start = await balanceCents();
    await c.server.db.query('UPDATE businesses SET balance_cents = 100 WHERE id = $1', [BIZ_ADMIN]);
    try {
      const r = await c.call('POST', '/api/insure/quote', { body: { source: 'roster', planName: '雇主责任险·标准版（60万）', startDate: earliestCoverStart(), rows: rows(2) } });
      expect(r.body.data).toMatchObject({ people: 2, units: 12, unitLabel: '月', unitPrice: 45, total: 1080, enough: false });
      expect(r.body.data.message).toBe('余额不足：本次需支付 ¥1,080.00，当前余额 ¥1.00，请先充值');
    } finally {
      await c.server.db.query('UPDATE businesses SET balance_cents = $2 WHERE id = $1', [BIZ_ADMIN, start]);
    }
  });

  it('refuses what the submission would refuse, on the right field', async () => {
    const past = await c.call('POST', '/api/insure/quote', { body: { source: 'attendance', planName: '灵活用工日单险（按天）', workDate: '2020-01-01', rows: rows(1) } });
    expect(past.status).toBe(400);
    expect(past.body.errors[0].field).toBe('workDate');
    expect(past.body.message).toMatch(/^出勤日期不能早于/);
    const plan = await c.call('POST', '/api/insure/quote', { body: { source: 'attendance', planName: '雇主责任险·标准版（60万）', workDate: earliestCoverStart(), rows: rows(1) } });
    expect(plan.body.errors).toEqual([{ field: 'planName', message: '请选择按天计费的保险方案' }]);
    const bad = await c.call('POST', '/api/insure/quote', { body: { source: 'attendance', planName: '灵活用工日单险（按天）', workDate: earliestCoverStart(), rows: [{ name: '张三', idCard: '123' }] } });
    expect(bad.status).toBe(400);
    expect(bad.body.errors.some((e: { field: string }) => e.field === 'rows[0].idCard')).toBe(true);
    const noPack = await c.call('POST', '/api/insure/quote', { biz: BIZ_OPERATOR, body: { source: 'attendance', planName: '灵活用工日单险（按天）', workDate: earliestCoverStart(), rows: rows(1) } });
    expect(noPack.status).toBe(403);
  });
});

describe('monthly statement (postpaid)', () => {
  it('lists the months; a month totals its orders, equal to the statement amount', async () => {
    const months = await c.call('GET', '/api/statements', { biz: BIZ_OPERATOR });
    expect(months.status).toBe(200);
    expect(months.body.data.length).toBeGreaterThan(0);
    for (const m of months.body.data) {
      const st = await c.call('GET', `/api/statements/${m.month}`, { biz: BIZ_OPERATOR });
      expect(st.body.data.amount).toBe(m.amount);
      expect(st.body.data.ordersTotal).toBe(m.amount);
      expect(st.body.data.orders).toHaveLength(m.orderCount);
      const sum = st.body.data.orders.reduce((s: number, o: { amount: number }) => s + Math.round(o.amount * 100), 0);
      expect(sum / 100).toBe(m.amount);
      expect(st.body.data.orders.every((o: { id?: number }) => typeof o.id === 'number')).toBe(true);
    }
    const total = await one<number>(
      "SELECT coalesce(sum(amount_cents), 0)::float8 AS v FROM orders WHERE business_id = $1 AND statement_month IS NOT NULL",
      [BIZ_OPERATOR],
    );
    expect(months.body.data.reduce((s: number, m: { amount: number }) => s + Math.round(m.amount * 100), 0)).toBe(total);
  });

  it('refuses a bad month and prepaid businesses', async () => {
    expect((await c.call('GET', '/api/statements/2024-13', { biz: BIZ_OPERATOR })).status).toBe(400);
    expect((await c.call('GET', '/api/statements', { biz: BIZ_ADMIN })).status).toBe(403);
  });
});

describe('workbench', () => {
  it('every number equals the total of the list it links to; 本月保费 is the sum of this month’s orders', async () => {
    for (const biz of [BIZ_ADMIN, BIZ_OPERATOR]) {
      const r = await c.call('GET', '/api/overview/workbench', { biz });
      expect(r.status).toBe(200);
      const { stats, todos, trend, byPlan } = r.body.data;
      const api = { order: 'orders', 'insured-person': 'insured-persons', 'insure-record': 'insure-records', claim: 'claims', invoice: 'invoices' } as Record<string, string>;
      // The console sends date ranges as <field>Range (src/runtime/tableColumns.ts toQuery).
      const listQuery = (q: Record<string, string>) =>
        new URLSearchParams(Object.entries(q).map(([k, v]) => [k === 'createdAt' ? 'createdAtRange' : k, v])).toString();
      for (const m of [...stats, ...todos]) {
        if (!m.list) continue;
        const list = await c.call('GET', `/api/${api[m.list]}?${listQuery({ ...m.query, pageSize: '100' })}`, { biz });
        if (m.valueType === 'digit') expect(list.body.data.total, m.key).toBe(m.value);
        else {
          expect(list.body.data.total).toBeLessThanOrEqual(100);
          const sum = list.body.data.list.reduce((s: number, o: { amount: number }) => s + Math.round(o.amount * 100), 0);
          expect(sum / 100, m.key).toBe(m.value);
          expect(m.value).toBeGreaterThan(0);
        }
      }
      const month = stats.find((s: { key: string }) => s.key === 'monthPremium');
      expect(trend).toHaveLength(12);
      expect(trend[11].premium).toBe(month.value);
      const sumPlans = byPlan.reduce((s: number, p: { premium: number }) => s + Math.round(p.premium * 100), 0);
      expect(sumPlans).toBe(trend.reduce((s: number, t: { premium: number }) => s + Math.round(t.premium * 100), 0));
      const overview = await c.call('GET', '/api/overview', { biz });
      expect(overview.body.data.monthPremium).toBe(month.value);
    }
  });
});
