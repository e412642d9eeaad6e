/**
 * Workbench benchmark (issue 22 items 1 and 3): what a user of a large business meets right after
 * sign-in, with 10 concurrent connections at the seeded size (1M orders, 100k persons) — the workbench
 * (/api/overview/workbench), the order page's banner (/api/payments/due), the lists the workbench
 * links to, and short contains-searches (one or two characters, matching a quarter of the orders) —
 * and whether every workbench number equals the total of the list it links to (exact on both sides).
 */
import { runLoad } from './lib/load.ts';
import { Report } from './lib/report.ts';
import { fmtCount, summarize } from './lib/stats.ts';
import { BUSINESS, type Gateway } from './lib/gateway.ts';

export const WORKBENCH_TARGET_MS = 100;

interface Metric {
  key: string;
  value: number;
  list?: string;
  query?: Record<string, string>;
}

/** The list API of each entity the workbench links to. */
const LIST_API: Record<string, string> = {
  order: '/api/orders',
  'insured-person': '/api/insured-persons',
  'insure-record': '/api/insure-records',
  claim: '/api/claims',
  invoice: '/api/invoices',
};

const qs = (q: Record<string, string>) => new URLSearchParams(q).toString();

export interface WorkbenchOptions {
  requests: number;
  durationMs: number;
}

export async function runWorkbench(gw: Gateway, driver: 'postgres' | 'pglite', size: number, report: Report, opts: WorkbenchOptions): Promise<void> {
  const label = `${driver === 'postgres' ? 'PostgreSQL' : 'PGlite'} ${fmtCount(size)}`;
  const judged = driver === 'postgres';
  const headers = gw.headers(BUSINESS);
  const wb = await gw.get<{ stats: Metric[]; todos: Metric[] }>('/api/overview/workbench');
  const linked = [...wb.stats, ...wb.todos].filter((m) => m.list && m.query && !m.query.pageSize);

  // Every number against the total of the list it links to, both read now (nothing writes meanwhile).
  const unequal: string[] = [];
  for (const m of linked) {
    const r = await gw.get<{ total: number; estimated?: boolean }>(`${LIST_API[m.list!]}?${qs({ ...m.query!, current: '1', pageSize: '20' })}`);
    if (r.total !== m.value || r.estimated) unequal.push(`${m.key} ${m.value} vs list ${r.estimated ? '约 ' : ''}${r.total}`);
  }
  report.add({
    section: 'workbench',
    figure: `${label} workbench numbers equal to their lists' totals`,
    value: `${linked.length - unequal.length} of ${linked.length}`,
    unit: '',
    target: 'all, exact',
    pass: unequal.length === 0,
    note: unequal.join('; ') || linked.map((m) => `${m.key} ${m.value}`).join(', '),
  });

  const plans = await gw.get<Array<{ value: string }>>('/api/plans');
  const employer = plans.map((p) => p.value).find((p) => p.includes('雇主')) ? '雇主' : plans[0].value.slice(0, 2);
  const cases: Array<{ name: string; path: string }> = [
    { name: 'workbench', path: '/api/overview/workbench' },
    { name: 'payments due (order page banner)', path: '/api/payments/due' },
    ...linked.map((m) => ({ name: `list of ${m.key}`, path: `${LIST_API[m.list!]}?${qs({ ...m.query!, current: '1', pageSize: '20' })}` })),
    { name: `orders contains-search ${employer} (2 characters)`, path: `/api/orders?${qs({ productName: employer, current: '1', pageSize: '20' })}` },
    { name: 'orders contains-search 日 (1 character)', path: `/api/orders?${qs({ productName: '日', current: '1', pageSize: '20' })}` },
    { name: 'persons contains-search 王 (1 character)', path: `/api/insured-persons?${qs({ name: '王', current: '1', pageSize: '20' })}` },
  ];
  await runLoad({ concurrency: 10, count: 0, warmup: cases.length * 30, durationMs: 60_000, requestTimeoutMs: 60_000, next: (i) => ({ url: gw.origin + cases[i % cases.length].path, headers }) });
  await gw.drain();
  for (const c of cases) {
    let info = '';
    const load = await runLoad({
      concurrency: 10,
      count: opts.requests,
      warmup: 30,
      durationMs: opts.durationMs,
      requestTimeoutMs: Math.max(2 * opts.durationMs, 10_000),
      next: () => ({ url: gw.origin + c.path, headers }),
      check(body) {
        const b = body as { code?: number; data?: { total?: number; estimated?: boolean } };
        if (b.code !== 0) throw new Error(`unexpected body ${JSON.stringify(body).slice(0, 200)}`);
        if (b.data?.total !== undefined) info = `total ${b.data.estimated ? '约 ' : '共 '}${b.data.total}`;
      },
    });
    await gw.drain();
    const s = summarize(load.latencies);
    const complete = !load.timedOut && load.errors === 0 && s.n > 0;
    report.add({
      section: 'workbench',
      figure: `${label} ${c.name} p99 (10 connections)`,
      value: load.timedOut ? `timeout after ${Math.round(load.elapsedMs / 1000)} s` : s.n ? s.p99 : 'error',
      unit: 'ms',
      target: judged ? `≤ ${WORKBENCH_TARGET_MS} ms` : '',
      pass: judged ? complete && s.p99 <= WORKBENCH_TARGET_MS : null,
      note: [s.n ? `p50 ${Math.round(s.p50)} ms` : '', `n=${s.n}`, `${(s.n / (load.elapsedMs / 1000)).toFixed(0)} requests/s`, info, load.errors ? `${load.errors} errors: ${load.firstError?.slice(0, 80)}` : '']
        .filter(Boolean)
        .join(', '),
    });
  }
}
