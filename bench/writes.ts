/**
 * Write benchmark: POST /api/insure/roster with 5,000 fresh people, 3 times (after one unjudged warm-up
 * roster: the first a gateway process handles runs cold), into business B10002
 * (postpaid: a 5,000-person month costs millions, more than the prepaid demo business's balance),
 * timing each write, while 10 connections keep listing the other business's orders (B10001, the one
 * seeded with the bench's N orders; GET /api/orders page 1); reports the write time and the list p99
 * during the writes (next to the same load without writes).
 */
import { performance } from 'node:perf_hooks';
import { runLoad, type LoadResult } from './lib/load.ts';
import { Report } from './lib/report.ts';
import { summarize } from './lib/stats.ts';
import { makeIdCard } from '../tests/id-card.ts';
import { BUSINESS, OTHER_BUSINESS, describeTarget, type Gateway } from './lib/gateway.ts';
import { earliestCoverStart } from '../src/server/domain/cover.ts';

export const WRITE_TARGET_MS = 1000;
export const LIST_DURING_WRITE_TARGET_MS = 100;
const SURNAMES = '王李张刘陈杨黄赵吴周徐孙马朱胡郭何高林罗郑'.split('');
const GIVEN = '伟芳娜敏静丽强磊军洋勇艳杰娟涛明超霞平刚华'.split('');
const JOBS = ['快递员', '仓库分拣员', '外卖骑手', '保洁员', '装卸工'];

/** `count` people whose ID cards are unique for each distinct `unique` index (region 320506). */
export function rosterRows(count: number, unique: number): Array<{ name: string; idCard: string; phone: string; jobType: string }> {
  const rows = [];
  const epoch = Date.UTC(1965, 0, 1);
  for (let i = 0; i < count; i++) {
    const u = unique * count + i; // < 10,000 days × 1,000 sequence numbers
    const birth = new Date(epoch + (u % 10_000) * 86_400_000).toISOString().slice(0, 10).replace(/-/g, '');
    rows.push({
      name: SURNAMES[i % SURNAMES.length] + GIVEN[(i * 7) % GIVEN.length],
      idCard: makeIdCard('320506', birth, Math.floor(u / 10_000) % 1000),
      phone: `139${String((u * 7919) % 100_000_000).padStart(8, '0')}`,
      jobType: JOBS[i % JOBS.length],
    });
  }
  return rows;
}

function listLoad(gw: Gateway, durationMs: number, stop?: () => boolean): Promise<LoadResult> {
  const url = `${gw.origin}/api/orders?current=1&pageSize=20`;
  const headers = gw.headers(BUSINESS);
  return runLoad({ concurrency: 10, count: 20_000, durationMs, requestTimeoutMs: 30_000, next: () => ({ url, headers }), stop });
}

export interface WriteOptions {
  rows: number;
  repeats: number;
}

export async function runWrites(gw: Gateway, driver: 'postgres' | 'pglite', report: Report, opts: WriteOptions): Promise<void> {
  const label = describeTarget(driver === 'postgres' ? { driver, url: '' } : { driver, dataDir: '' });
  const judged = driver === 'postgres';
  await gw.drain();
  const plans = await gw.get<Array<{ value: string }>>('/api/plans?unit=month', OTHER_BUSINESS);
  if (!plans.length) throw new Error('no monthly plans');
  // Cover starts on the business calendar's today (Asia/Shanghai) or later, not the UTC date.
  const today = earliestCoverStart();
  const nonce = Math.floor(Math.random() * 300); // fresh ID cards even on a database that was not reset

  // The first roster a gateway process handles runs its code cold (V8 has not compiled the write path
  // yet). It is timed and reported for information, then the judged figures are steady state, as the
  // lists' are after their warm-up pass.
  const coldBody = { planName: plans[0].value, startDate: today, rows: rosterRows(opts.rows, 300 * opts.repeats + nonce) };
  const c0 = performance.now();
  const cold = await gw.post<{ code?: number; message?: string }>('/api/insure/roster', coldBody, OTHER_BUSINESS);
  const coldMs = performance.now() - c0;
  if (cold.status !== 200 || cold.body?.code !== 0) throw new Error(`warm-up roster failed: HTTP ${cold.status} ${JSON.stringify(cold.body).slice(0, 300)}`);
  report.add({
    section: 'writes',
    figure: `${label} first roster on a fresh gateway process (cold, no list load)`,
    value: coldMs,
    unit: 'ms',
    target: '',
    pass: null,
    note: 'not judged: the figures below are steady state',
  });

  // The same list load without writes, for comparison.
  const idle = summarize((await listLoad(gw, 3000)).latencies);

  const times: number[] = [];
  const during: number[] = [];
  let errors = 0;
  let firstError = '';
  for (let rep = 0; rep < opts.repeats; rep++) {
    const body = { planName: plans[rep % plans.length].value, startDate: today, rows: rosterRows(opts.rows, nonce * opts.repeats + rep) };
    let done = false;
    const load = listLoad(gw, 120_000, () => done);
    const t0 = performance.now();
    const res = await gw.post<{ code?: number; message?: string }>('/api/insure/roster', body, OTHER_BUSINESS);
    const ms = performance.now() - t0;
    done = true;
    const l = await load;
    during.push(...l.latencies);
    errors += l.errors;
    if (res.status !== 200 || res.body?.code !== 0) throw new Error(`roster write failed: HTTP ${res.status} ${JSON.stringify(res.body).slice(0, 300)}`);
    times.push(ms);
  }
  if (errors) firstError = `${errors} list errors`;
  const w = summarize(times);
  report.add({
    section: 'writes',
    figure: `${label} roster ${opts.rows.toLocaleString('en')} rows (worst of ${opts.repeats})`,
    value: w.max,
    unit: 'ms',
    target: judged ? `< ${WRITE_TARGET_MS} ms` : '',
    pass: judged ? w.max < WRITE_TARGET_MS : null,
    note: `runs ${times.map((t) => Math.round(t)).join(' / ')} ms`,
  });
  const d = summarize(during);
  report.add({
    section: 'writes',
    figure: `${label} other users' list p99 during writes`,
    value: d.n ? d.p99 : 'no samples',
    unit: 'ms',
    target: judged ? `≤ ${LIST_DURING_WRITE_TARGET_MS} ms` : '',
    pass: judged ? d.n > 0 && !errors && d.p99 <= LIST_DURING_WRITE_TARGET_MS : null,
    note: [`p50 ${Math.round(d.p50)} ms`, `n=${d.n}`, `without writes p99 ${Math.round(idle.p99)} ms`, firstError].filter(Boolean).join(', '),
  });
}
