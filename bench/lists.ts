/**
 * List benchmark: GET /api/orders at each size, on each driver — page 1, a filter on each searchable
 * column, a sort on each sortable column (both orders) and page 1000 — with 10 concurrent
 * keep-alive connections, ~1,000 requests per case (after unrecorded warm-up requests, once the machine
 * is quiet: lib/settle.ts) and a duration cap per case.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runLoad } from './lib/load.ts';
import { settle } from './lib/settle.ts';
import { Report } from './lib/report.ts';
import { fmtCount, summarize, type Summary } from './lib/stats.ts';
import type { Gateway } from './lib/gateway.ts';

/**
 * The orders list under test. `search` maps each searchable field to its match kind
 * (exact | like | enum | range), `sort` names the sortable fields. When the entity schema
 * schemas/entities/order.json exists, both are derived from its fields' `search` / `sort` keys.
 */
export const ORDER_LIST = {
  api: '/api/orders',
  entitySchema: 'schemas/entities/order.json',
  pageSize: 20,
  deepPage: 1000,
  search: { orderNo: 'exact', productName: 'exact', payStatus: 'enum', orderStatus: 'enum' } as Record<string, string>,
  sort: ['amount', 'createdAt', 'paidAt'] as string[],
};

export const LIST_TARGET_MS = { postgres: 50, pglite: 200 } as const;
export const RATIO_TARGET = 2;

export interface ListColumns {
  search: Record<string, string>;
  sort: string[];
  source: string;
}

/** Searchable/sortable fields: from the entity schema when it exists, else from ORDER_LIST. */
export function orderListColumns(repoRoot = fileURLToPath(new URL('..', import.meta.url))): ListColumns {
  const file = join(repoRoot, ORDER_LIST.entitySchema);
  if (existsSync(file)) {
    const schema = JSON.parse(readFileSync(file, 'utf8')) as { fields?: Record<string, { search?: unknown; sort?: unknown }> };
    const fields = Object.entries(schema.fields ?? {});
    const search = Object.fromEntries(
      fields.filter(([, f]) => f.search !== undefined && f.search !== false).map(([k, f]) => [k, typeof f.search === 'string' ? f.search : 'exact']),
    );
    const sort = fields.filter(([, f]) => f.sort === true).map(([k]) => k);
    if (Object.keys(search).length || sort.length) return { search, sort, source: ORDER_LIST.entitySchema };
  }
  return { search: { ...ORDER_LIST.search }, sort: [...ORDER_LIST.sort], source: 'ORDER_LIST in bench/lists.ts' };
}

export interface ListCase {
  name: string;
  query: string;
}

type Row = Record<string, unknown>;

function filterParam(field: string, kind: string, value: unknown): string {
  const s = String(value);
  if (kind === 'range' || /^\d{4}-\d{2}-\d{2}/.test(s)) {
    const d = s.slice(0, 10);
    return `${field}Range=${encodeURIComponent(`${d},${d}`)}`;
  }
  return `${field}=${encodeURIComponent(s)}`;
}

/** The cases for one size; filter values come from a real row (page 5 of the default order). */
export async function listCases(gw: Gateway, cols: ListColumns): Promise<ListCase[]> {
  const base = `current=1&pageSize=${ORDER_LIST.pageSize}`;
  const sample = await gw.get<{ list: Row[] }>(`${ORDER_LIST.api}?current=5&pageSize=${ORDER_LIST.pageSize}`);
  const row = sample.list[7] ?? sample.list[0];
  if (!row) throw new Error('orders list is empty; seed first');
  const cases: ListCase[] = [{ name: 'page 1', query: base }];
  for (const [field, kind] of Object.entries(cols.search)) {
    const value = row[field];
    if (value === null || value === undefined || value === '') continue;
    cases.push({ name: `filter ${field}`, query: `${base}&${filterParam(field, kind, value)}` });
  }
  for (const field of cols.sort) {
    for (const order of ['ascend', 'descend']) {
      cases.push({ name: `sort ${field} ${order === 'ascend' ? 'asc' : 'desc'}`, query: `${base}&sortField=${field}&sortOrder=${order}` });
    }
  }
  cases.push({ name: `page ${ORDER_LIST.deepPage}`, query: `current=${ORDER_LIST.deepPage}&pageSize=${ORDER_LIST.pageSize}` });
  return cases;
}

export interface CaseResult {
  name: string;
  summary: Summary;
  timedOut: boolean;
  errors: number;
  note: string;
}

export interface ListOptions {
  concurrency: number;
  requests: number;
  durationMs: number;
}

/** Runs every case against one gateway/size and adds a row per case to the report. */
export async function runLists(
  gw: Gateway,
  driver: 'postgres' | 'pglite',
  size: number,
  report: Report,
  opts: ListOptions,
): Promise<Map<string, CaseResult>> {
  const cols = orderListColumns();
  const cases = await listCases(gw, cols);
  const target = LIST_TARGET_MS[driver];
  const label = `${driver === 'postgres' ? 'PostgreSQL' : 'PGlite'} ${fmtCount(size)}`;
  const results = new Map<string, CaseResult>();
  const headers = gw.headers();
  const quiet = await settle();
  console.log(`    machine quiet after ${(quiet.waitedMs / 1000).toFixed(1)} s (${Math.round(quiet.idle * 100)} % idle)`);
  // A fresh gateway process first: unrecorded passes over every case (100 requests each), so the first
  // case measured does not also pay for V8 compiling the request path (the figures are steady state, not
  // a process start). With 30 per case, the first case of each size still ran at p50 23-25 ms against
  // 16-18 ms for the cases after it (2026-11-24).
  await runLoad({
    concurrency: opts.concurrency,
    count: 0,
    warmup: cases.length * 10 * opts.concurrency,
    durationMs: 60_000,
    requestTimeoutMs: 60_000,
    next: (i: number) => ({ url: `${gw.origin}${ORDER_LIST.api}?${cases[i % cases.length].query}`, headers }),
  });
  await gw.drain();
  for (const c of cases) {
    const url = `${gw.origin}${ORDER_LIST.api}?${c.query}`;
    let info = '';
    const load = await runLoad({
      concurrency: opts.concurrency,
      count: opts.requests,
      warmup: 3 * opts.concurrency,
      durationMs: opts.durationMs,
      requestTimeoutMs: Math.max(2 * opts.durationMs, 10_000),
      next: () => ({ url, headers }),
      check(body) {
        const b = body as { code?: number; data?: { list?: unknown[]; total?: number; current?: number; estimated?: boolean } };
        if (b.code !== 0 || !Array.isArray(b.data?.list)) throw new Error(`unexpected body ${JSON.stringify(body).slice(0, 200)}`);
        info = `rows ${b.data.list.length}, total ${b.data.total}${b.data.estimated ? ' (estimate)' : ''}, current ${b.data.current}`;
      },
    });
    const drained = await gw.drain();
    const summary = summarize(load.latencies);
    const incomplete = load.timedOut || load.errors > 0 || summary.n === 0;
    const note = [
      summary.n ? `p50 ${Math.round(summary.p50)} ms` : '',
      `n=${summary.n}`,
      load.errors ? `${load.errors} errors: ${load.firstError?.slice(0, 80)}` : '',
      c.name.startsWith('page ') ? info : '',
      drained > 1000 ? `server busy ${Math.round(drained / 1000)} s more with abandoned requests` : '',
    ]
      .filter(Boolean)
      .join(', ');
    results.set(c.name, { name: c.name, summary, timedOut: load.timedOut, errors: load.errors, note });
    report.add({
      section: 'lists',
      figure: `${label} ${c.name} p99`,
      value: load.timedOut
        ? `timeout after ${Math.round(load.elapsedMs / 1000)} s${summary.n ? `, p99 ${Math.round(summary.p99)} ms` : ', no answer in time'}`
        : summary.n
          ? summary.p99
          : 'error',
      unit: 'ms',
      target: `≤ ${target} ms`,
      pass: !incomplete && summary.p99 <= target,
      note,
    });
  }
  return results;
}

/** Adds the large/small ratio of p50 latency per case (same request, same driver). */
export function compareSizes(
  driver: 'postgres' | 'pglite',
  small: { size: number; results: Map<string, CaseResult> },
  large: { size: number; results: Map<string, CaseResult> },
  report: Report,
): void {
  const label = `${driver === 'postgres' ? 'PostgreSQL' : 'PGlite'} ${fmtCount(large.size)}/${fmtCount(small.size)}`;
  for (const [name, big] of large.results) {
    const base = small.results.get(name);
    if (!base) continue;
    const ratio = big.summary.p50 / base.summary.p50;
    const incomplete = big.timedOut || big.errors > 0 || base.errors > 0;
    report.add({
      section: 'lists',
      figure: `${label} ${name} p50 ratio`,
      value: Number.isFinite(ratio) ? ratio : 'n/a',
      unit: 'x',
      target: `≤ ${RATIO_TARGET}x`,
      pass: !incomplete && ratio <= RATIO_TARGET,
      note: big.timedOut ? 'large size timed out (ratio is a lower bound)' : undefined,
    });
  }
}
