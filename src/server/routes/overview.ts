import type { FastifyInstance } from 'fastify';
import type { Queryable } from '../db.ts';
import { addDays } from '../domain/util.ts';
import { groupCounts } from '../entity/count.ts';
import { businessToday, countList, sumList } from '../entity/query.ts';
import { repoEntities } from '../entity/repo.ts';
import { ok } from '../http/errors.ts';
import type { Business } from '../http/types.ts';
import type { ListName, Metric } from '../../shared/workbench.ts';

/**
 * The workbench: each number comes with the list it was counted from (`list` = entity, `query` = the
 * list's own filters), and counts are that list's total (countList), so the number on the workbench is
 * the total the linked list shows. Both come from counts kept exact in the same transaction as the rows
 * (src/server/entity/counts.ts), so the workbench of a business with a million orders reads a few
 * hundred counter rows, not its orders; statuses (在保, 待生效) are counted on the business's today from
 * per-day counts of cover starts and ends. Money figures are sums over the same filter.
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

export async function workbench(db: Queryable, biz: Business, now = new Date(), registry = repoEntities().registry) {
  const today = businessToday(now);
  const opts = { today };
  const count = (list: ListName, query: Record<string, string>) => countList(db, registry.get(list), biz.businessId, query, opts);
  const metric = async (key: string, list: ListName, query: Record<string, string>): Promise<Metric> => ({
    key,
    value: (await count(list, query)).total,
    valueType: 'digit',
    list,
    query,
  });
  const orderSum = (query: Record<string, string>) => sumList(db, registry.get('order'), biz.businessId, query, 'amount', opts);

  const month = today.slice(0, 7);
  const monthRange = `${month}-01,${today}`;
  // People are listed under attendance insurance (a service pack); without it, their cover records.
  const persons = biz.servicePacks.includes('attendance');
  const autoStatus = registry.get('insured-person').fields.autoStatus;
  // The last 12 months of orders: people insured and premium per month, and by plan.
  const months = monthsBack(month, 12);
  const from = `${months[0]}-01`;
  // Independent small reads (counter rows), sent together.
  const [insured, pending, monthPremium, unpaid, unpaidAmount, openClaims, toComplete, claimsWaiting, invoicesReady, days] = await Promise.all([
    persons ? metric('insuredCount', 'insured-person', { status: 'insured' }) : metric('insuredCount', 'insure-record', { status: 'effective' }),
    persons ? metric('pendingCount', 'insured-person', { status: 'pending' }) : metric('pendingCount', 'insure-record', { status: 'pending' }),
    orderSum({ createdAt: monthRange }),
    metric('unpaidOrders', 'order', { payStatus: 'unpaid' }),
    orderSum({ payStatus: 'unpaid' }),
    metric('openClaims', 'claim', { status: 'reviewing' }),
    // Spec §3 status 0 (信息待完善), once the insured-person entity carries the automatic-insurance status.
    persons && autoStatus?.search ? metric('personsToComplete', 'insured-person', { autoStatus: '0' }) : undefined,
    metric('claimsWaiting', 'claim', { status: 'reported' }),
    metric('invoicesReady', 'invoice', { status: 'issued', createdAt: `${addDays(today, -29)},${today}` }),
    groupCounts(db, registry.get('order'), biz.businessId, {
      by: ['createdAt', 'productName'],
      sum: ['personCount', 'amount'],
      days: { key: 'createdAt', from, to: today },
    }),
  ]);
  const unpaidOrders = { ...unpaid, amount: yuan(unpaidAmount) };

  const stats: Metric[] = [
    insured,
    pending,
    {
      key: 'monthPremium',
      value: yuan(monthPremium),
      valueType: 'money',
      list: 'order',
      // One page holds the month's orders, so the list shows every order the sum is made of.
      query: { createdAt: monthRange, pageSize: '100' },
    },
    unpaidOrders,
    openClaims,
    { key: 'balance', value: biz.balance, valueType: 'money' },
  ];
  const todos: Metric[] = [unpaidOrders, ...(toComplete ? [toComplete] : []), claimsWaiting, invoicesReady];

  const rows = days.map((r) => ({ m: String(r.createdAt).slice(0, 7), plan: String(r.productName), people: Number(r.personCount), premium: Number(r.amount) }));
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
    const { stats } = await workbench(db, req.business, req.now, app.deps.entities.registry);
    return ok(Object.fromEntries(stats.map((s) => [s.key, s.value])));
  });
  app.get(
    '/api/overview/workbench',
    { config: { auth: 'business' }, schema: { tags: ['overview'], summary: '工作台：概览数字、待办、近 12 个月趋势与按方案分布（每个数字附带其列表筛选条件）' } },
    async (req) => ok(await workbench(db, req.business, req.now, app.deps.entities.registry)),
  );
}
