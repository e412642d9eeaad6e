import type { FastifyInstance } from 'fastify';
import type { Queryable } from '../db.ts';
import { addDays, localParts } from '../domain/util.ts';
import { listRows } from '../entity/query.ts';
import { repoEntities } from '../entity/repo.ts';
import { ok } from '../http/errors.ts';
import type { Business } from '../http/types.ts';
import type { ListName, Metric } from '../../shared/workbench.ts';

/**
 * The workbench: each number comes with the list it was counted from (`list` = entity, `query` = the
 * list's own filters), and counts are taken through that list's query (listRows), so the number on the
 * workbench is the total the linked list shows. Money figures are sums over the same filter.
 */


const yuan = (cents: number) => cents / 100;

/** Last day of the month of `ym` (YYYY-MM). */
const monthEnd = (ym: string) => addDays(`${nextMonth(ym)}-01`, -1);
function nextMonth(ym: string): string {
  const [y, m] = ym.split('-').map(Number);
  return m === 12 ? `${y + 1}-01` : `${y}-${String(m + 1).padStart(2, '0')}`;
}
function monthsBack(ym: string, n: number): string[] {
  const out = [ym];
  let [y, m] = ym.split('-').map(Number);
  for (let i = 1; i < n; i++) {
    m -= 1;
    if (m === 0) {
      m = 12;
      y -= 1;
    }
    out.unshift(`${y}-${String(m).padStart(2, '0')}`);
  }
  return out;
}

/** Sum of order amounts (cents) over a created-at range, with the list's range semantics (UTC days). */
async function orderSum(db: Queryable, businessId: string, from: string, to: string): Promise<number> {
  const [r] = await db.query<{ c: number }>(
    `SELECT coalesce(sum(amount_cents), 0)::float8 AS c FROM orders
      WHERE business_id = $1 AND created_at >= ($2::date)::timestamp AT TIME ZONE 'UTC'
        AND created_at < (($3::date + 1)::timestamp AT TIME ZONE 'UTC')`,
    [businessId, from, to],
  );
  return r.c;
}

export async function workbench(db: Queryable, biz: Business, now = new Date(), registry = repoEntities().registry) {
  const count = async (list: ListName, query: Record<string, string>) =>
    (await listRows(db, registry.get(list), biz.businessId, { ...query, current: '1', pageSize: '1' })).total;
  const metric = async (key: string, list: ListName, query: Record<string, string>): Promise<Metric> => ({
    key,
    value: await count(list, query),
    valueType: 'digit',
    list,
    query,
  });

  const today = localParts(now).date;
  const month = today.slice(0, 7);
  const monthRange = `${month}-01,${today}`;
  // People are listed under attendance insurance (a service pack); without it, their cover records.
  const persons = biz.servicePacks.includes('attendance');
  const [unpaid] = await db.query<{ c: number }>(
    `SELECT coalesce(sum(amount_cents), 0)::float8 AS c FROM orders WHERE business_id = $1 AND pay_status = 'unpaid'`,
    [biz.businessId],
  );

  const stats: Metric[] = [
    persons ? await metric('insuredCount', 'insured-person', { status: 'insured' }) : await metric('insuredCount', 'insure-record', { status: 'effective' }),
    persons ? await metric('pendingCount', 'insured-person', { status: 'pending' }) : await metric('pendingCount', 'insure-record', { status: 'pending' }),
    {
      key: 'monthPremium',
      value: yuan(await orderSum(db, biz.businessId, `${month}-01`, today)),
      valueType: 'money',
      list: 'order',
      // One page holds the month's orders, so the list shows every order the sum is made of.
      query: { createdAt: monthRange, pageSize: '100' },
    },
    { ...(await metric('unpaidOrders', 'order', { payStatus: 'unpaid' })), amount: yuan(unpaid.c) },
    await metric('openClaims', 'claim', { status: 'reviewing' }),
    { key: 'balance', value: biz.balance, valueType: 'money' },
  ];

  const todos: Metric[] = [{ ...(await metric('unpaidOrders', 'order', { payStatus: 'unpaid' })), amount: yuan(unpaid.c) }];
  // Spec §3 status 0 (信息待完善), once the insured-person entity carries the automatic-insurance status.
  const autoStatus = registry.get('insured-person').fields.autoStatus;
  if (persons && autoStatus?.search) todos.push(await metric('personsToComplete', 'insured-person', { autoStatus: '0' }));
  todos.push(await metric('claimsWaiting', 'claim', { status: 'reported' }));
  todos.push(await metric('invoicesReady', 'invoice', { status: 'issued', createdAt: `${addDays(today, -29)},${today}` }));

  // The last 12 months of orders: people insured and premium per month, and by plan.
  const months = monthsBack(month, 12);
  const from = `${months[0]}-01`;
  const rows = await db.query<{ m: string; plan: string; people: number; premium: number }>(
    `SELECT to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM') AS m, product_name AS plan,
            sum(person_count)::int AS people, sum(amount_cents)::float8 AS premium
       FROM orders
      WHERE business_id = $1 AND created_at >= ($2::date)::timestamp AT TIME ZONE 'UTC'
        AND created_at < (($3::date + 1)::timestamp AT TIME ZONE 'UTC')
      GROUP BY 1, 2`,
    [biz.businessId, from, today],
  );
  const trend = months.map((m) => {
    const inMonth = rows.filter((r) => r.m === m);
    const to = m === month ? today : monthEnd(m);
    return {
      month: m,
      people: inMonth.reduce((s, r) => s + r.people, 0),
      premium: yuan(inMonth.reduce((s, r) => s + r.premium, 0)),
      query: { createdAt: `${m}-01,${to}`, pageSize: '100' },
    };
  });
  const plans = new Map<string, { people: number; premium: number }>();
  for (const r of rows) {
    const p = plans.get(r.plan) ?? { people: 0, premium: 0 };
    p.people += r.people;
    p.premium += r.premium;
    plans.set(r.plan, p);
  }
  const byPlan = [...plans.entries()]
    .sort((a, b) => b[1].premium - a[1].premium)
    .map(([plan, p]) => ({ plan, people: p.people, premium: yuan(p.premium), query: { productName: plan, createdAt: `${from},${today}`, pageSize: '100' } }));
  return { month, today, stats, todos, trend, byPlan };
}

export default async function overviewRoutes(app: FastifyInstance) {
  const { db } = app.deps;
  // The six headline numbers (kept for existing clients); the same definitions as the workbench.
  app.get('/api/overview', { config: { auth: 'business' }, schema: { tags: ['overview'], summary: '首页概览数字' } }, async (req) => {
    const { stats } = await workbench(db, req.business, new Date(), app.deps.entities.registry);
    return ok(Object.fromEntries(stats.map((s) => [s.key, s.value])));
  });
  app.get(
    '/api/overview/workbench',
    { config: { auth: 'business' }, schema: { tags: ['overview'], summary: '工作台：概览数字、待办、近 12 个月趋势与按方案分布（每个数字附带其列表筛选条件）' } },
    async (req) => ok(await workbench(db, req.business, new Date(), app.deps.entities.registry)),
  );
}
