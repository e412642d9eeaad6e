import type { FastifyInstance } from 'fastify';
import type { Queryable } from '../db.ts';
import { addDays } from '../domain/util.ts';
import { groupCounts, readMany, type Statement } from '../entity/count.ts';
import { businessToday } from '../entity/query.ts';
import { countedStatement, countList, sumList } from '../entity/totals.ts';
import { repoEntities } from '../entity/repo.ts';
import { ok } from '../http/errors.ts';
import type { Business } from '../http/types.ts';
import type { ListName, Metric } from '../../shared/workbench.ts';
import type { EntityRegistry } from '../../shared/entity/registry.ts';

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

/** One figure of the workbench: a list's total, or with `sum` the sum of that field over it. */
interface Figure {
  list: ListName;
  query: Record<string, string>;
  sum?: string;
}

/**
 * The figures' values: those counter rows answer in one statement (readMany), the others one by one
 * as their lists count them.
 */
async function figureValues(db: Queryable, registry: EntityRegistry, businessId: string, figures: Figure[], opts: { today: string }): Promise<number[]> {
  const statements = figures.map((f) => countedStatement(registry.get(f.list), businessId, f.query, opts, f.sum));
  const batched = await readMany(db, statements.filter((s): s is Statement => s !== undefined));
  let next = 0; // batched holds the counted figures' values in the figures' order
  return Promise.all(
    figures.map((f, i) => {
      if (statements[i]) return batched[next++];
      const e = registry.get(f.list);
      return f.sum ? sumList(db, e, businessId, f.query, f.sum, opts) : countList(db, e, businessId, f.query, opts).then((c) => c.total);
    }),
  );
}

export async function workbench(db: Queryable, biz: Business, now = new Date(), registry = repoEntities().registry) {
  const today = businessToday(now);
  const opts = { today };
  const month = today.slice(0, 7);
  const monthRange = `${month}-01,${today}`;
  // People are listed under attendance insurance (a service pack); without it, their cover records.
  const persons = biz.servicePacks.includes('attendance');
  const autoStatus = registry.get('insured-person').fields.autoStatus;
  // The last 12 months of orders: people insured and premium per month, and by plan.
  const months = monthsBack(month, 12);
  const from = `${months[0]}-01`;
  const people: ListName = persons ? 'insured-person' : 'insure-record';
  const figures: Record<string, Figure> = {
    insuredCount: { list: people, query: { status: persons ? 'insured' : 'effective' } },
    pendingCount: { list: people, query: { status: 'pending' } },
    monthPremium: { list: 'order', query: { createdAt: monthRange }, sum: 'amount' },
    unpaidOrders: { list: 'order', query: { payStatus: 'unpaid' } },
    unpaidAmount: { list: 'order', query: { payStatus: 'unpaid' }, sum: 'amount' },
    openClaims: { list: 'claim', query: { status: 'reviewing' } },
    // Spec §3 status 0 (信息待完善), once the insured-person entity carries the automatic-insurance status.
    ...(persons && autoStatus?.search ? { personsToComplete: { list: 'insured-person' as ListName, query: { autoStatus: '0' } } } : {}),
    claimsWaiting: { list: 'claim', query: { status: 'reported' } },
    invoicesReady: { list: 'invoice', query: { status: 'issued', createdAt: `${addDays(today, -29)},${today}` } },
  };
  const keys = Object.keys(figures);
  const [values, monthly] = await Promise.all([
    figureValues(db, registry, biz.businessId, Object.values(figures), opts),
    groupCounts(db, registry.get('order'), biz.businessId, { by: ['createdAt', 'productName'], sum: ['personCount', 'amount'], days: { key: 'createdAt', from, to: today }, perMonth: true }),
  ]);
  const value = (key: string) => values[keys.indexOf(key)];
  const metric = (key: string): Metric => ({ key, value: value(key), valueType: 'digit', list: figures[key].list, query: figures[key].query });
  const [insured, pending, unpaid, openClaims, claimsWaiting, invoicesReady] = ['insuredCount', 'pendingCount', 'unpaidOrders', 'openClaims', 'claimsWaiting', 'invoicesReady'].map(metric);
  const toComplete = figures.personsToComplete ? metric('personsToComplete') : undefined;
  const monthPremium = value('monthPremium');
  const unpaidAmount = value('unpaidAmount');
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

  const rows = monthly.map((r) => ({ m: String(r.createdAt), plan: String(r.productName), people: Number(r.personCount), premium: Number(r.amount) }));
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
