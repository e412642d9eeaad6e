/**
 * The embedded database (PGlite) under long work: what another business's users see while one business
 * confirms a large roster or exports a large list. PGlite is one PostgreSQL session: it runs one
 * statement at a time, and a transaction holds it until it commits.
 *
 * On a fresh PGlite data directory (BENCH_PGLITE_DIR + '-embedded', wiped): the demo data plus `--export-rows`
 * bench orders in business B10001. Then, with the real gateway in its own process:
 *
 * - confirmations: for each size of `--confirm-rows`, a CSV roster of that many fresh people is uploaded
 *   into B10002 (postpaid) and parsed; then, while readers list B10001's orders, it is confirmed (one
 *   transaction: persons, records, orders) and its status polled until it is confirmed;
 * - exports: B10001's orders (all of them, CSV and xlsx) are downloaded while readers list B10002's orders.
 *
 * The readers are paced, not a closed loop: a list request starts every READ_EVERY_MS whatever the
 * others are doing, as users arrive on their own, so a request that arrives during a stall waits for
 * the rest of it and is counted (a closed loop of N workers would record only N requests per stall).
 * Figures: the readers' p50/p99/max during the work (from its start until it is done) next to the same
 * readers on an idle gateway, and how long the work took. Informational (no target): the README's
 * "The embedded database" states the sizes at which PostgreSQL is needed from these figures.
 *
 * Stand-alone: `tsx bench/embedded.ts [--confirm-rows 1000,5000,20000] [--export-rows 45000]`;
 * in the full bench: `npm run bench -- --only embedded`.
 */
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { earliestCoverStart } from '../src/server/domain/cover.ts';
import { BUSINESS, OTHER_BUSINESS, startGateway, type DbTarget, type Gateway } from './lib/gateway.ts';
import { Report } from './lib/report.ts';
import { fmtCount, summarize } from './lib/stats.ts';
import { ensureSchema, resetTarget, seedTo } from './seed.ts';
import { rosterRows } from './writes.ts';

/** One list request every this many milliseconds (20 a second): a few users clicking around. */
const READ_EVERY_MS = 50;

export interface EmbeddedOptions {
  /** Roster sizes to confirm, one after another. */
  confirmRows: number[];
  /** Bench orders in B10001 to export (the demo's few orders come on top). */
  exportRows: number;
}

interface Reads {
  latencies: number[];
  errors: number;
}

/** Starts paced list requests of `business`'s orders; stop() waits for the ones under way. */
function paceReads(gw: Gateway, business: string): { stop(): Promise<Reads> } {
  const out: Reads = { latencies: [], errors: 0 };
  const pending = new Set<Promise<void>>();
  const url = `${gw.origin}/api/orders?current=1&pageSize=20`;
  const headers = gw.headers(business);
  const one = async () => {
    const t0 = performance.now();
    try {
      const r = await fetch(url, { headers, signal: AbortSignal.timeout(120_000) });
      await r.arrayBuffer();
      if (r.ok) out.latencies.push(performance.now() - t0);
      else out.errors++;
    } catch {
      out.errors++;
    }
  };
  const timer = setInterval(() => {
    const p = one().finally(() => pending.delete(p));
    pending.add(p);
  }, READ_EVERY_MS);
  return {
    async stop() {
      clearInterval(timer);
      await Promise.all(pending);
      return out;
    },
  };
}

/** The readers' figures while `work` runs, and how long it ran. */
async function during(gw: Gateway, business: string, work: () => Promise<string>): Promise<{ ms: number; reads: Reads; note: string }> {
  const readers = paceReads(gw, business);
  const t0 = performance.now();
  let note: string;
  try {
    note = await work();
  } catch (err) {
    await readers.stop();
    throw err;
  }
  const ms = performance.now() - t0;
  return { ms, reads: await readers.stop(), note };
}

async function poll(gw: Gateway, id: number, until: (status: string) => boolean): Promise<Record<string, unknown>> {
  for (let failures = 0; ; ) {
    let u: Record<string, unknown>;
    try {
      u = await gw.get<Record<string, unknown>>(`/api/insure-uploads/${id}`, OTHER_BUSINESS);
    } catch (err) {
      // A kept-alive connection the gateway closed meanwhile (ECONNRESET): ask again.
      if (++failures > 5) throw err;
      continue;
    }
    if (until(String(u.status))) return u;
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** Uploads a roster of `rows` fresh people into OTHER_BUSINESS and waits until it is parsed. */
async function uploadRoster(gw: Gateway, plan: string, rows: number, unique: number): Promise<number> {
  const csv = ['姓名,身份证号,手机号,工种', ...rosterRows(rows, unique).map((r) => `${r.name},${r.idCard},${r.phone},${r.jobType}`)].join('\r\n');
  const form = new FormData();
  form.append('planName', plan);
  form.append('startDate', earliestCoverStart());
  form.append('file', new Blob([csv]), `名单-${rows}.csv`);
  const r = await fetch(`${gw.origin}/api/insure-uploads`, { method: 'POST', headers: gw.headers(OTHER_BUSINESS), body: form });
  const body = (await r.json()) as { data?: { id?: number } };
  if (r.status !== 202 || !body.data?.id) throw new Error(`upload of ${rows} rows: HTTP ${r.status} ${JSON.stringify(body).slice(0, 300)}`);
  const u = await poll(gw, body.data.id, (s) => s !== 'parsing');
  if (u.status !== 'ready') throw new Error(`upload of ${rows} rows: ${JSON.stringify(u).slice(0, 300)}`);
  return body.data.id;
}

function addFigures(report: Report, what: string, r: { ms: number; reads: Reads; note: string }, idle: ReturnType<typeof summarize>): void {
  const d = summarize(r.reads.latencies);
  report.add({ section: 'embedded', figure: `PGlite ${what}: time`, value: r.ms, unit: 'ms', target: '', pass: null, note: r.note });
  report.add({
    section: 'embedded',
    figure: `PGlite ${what}: other business's list p99`,
    value: d.n ? d.p99 : 'no samples',
    unit: 'ms',
    target: '',
    pass: null,
    note: [`p50 ${Math.round(d.p50)} ms`, `max ${Math.round(d.max)} ms`, `n=${d.n}`, `idle p99 ${Math.round(idle.p99)} ms`, r.reads.errors ? `${r.reads.errors} errors` : ''].filter(Boolean).join(', '),
  });
}

export async function runEmbedded(report: Report, opts: EmbeddedOptions): Promise<void> {
  const target: DbTarget = { driver: 'pglite', dataDir: `${process.env.BENCH_PGLITE_DIR ?? join(tmpdir(), 'bench-pglite')}-embedded` };
  await resetTarget(target);
  const plans = await ensureSchema(target);
  console.log(`-- PGlite: seeding ${fmtCount(opts.exportRows)} orders into ${BUSINESS}`);
  await seedTo(target, opts.exportRows, plans, (m) => console.log(m));
  const gw = await startGateway(target);
  try {
    const plan = (await gw.get<Array<{ value: string }>>('/api/plans?unit=month', OTHER_BUSINESS))[0]?.value;
    if (!plan) throw new Error('no monthly plan');
    // Warm-up: a small upload and confirmation (V8 compiles the write path once).
    const warm = await uploadRoster(gw, plan, 50, 990);
    await gw.post('/api/insure-uploads/confirm', { uploadId: warm, planName: plan, startDate: earliestCoverStart() }, OTHER_BUSINESS);
    await poll(gw, warm, (s) => s !== 'confirming');
    const idleReads = paceReads(gw, BUSINESS);
    await new Promise((r) => setTimeout(r, 3000));
    const idle = summarize((await idleReads.stop()).latencies);
    report.add({ section: 'embedded', figure: 'PGlite list p99, nothing else running', value: idle.p99, unit: 'ms', target: '', pass: null, note: `p50 ${Math.round(idle.p50)} ms, n=${idle.n}` });

    for (const [i, rows] of opts.confirmRows.entries()) {
      const id = await uploadRoster(gw, plan, rows, 900 + i);
      const r = await during(gw, BUSINESS, async () => {
        const c = await gw.post<{ code?: number }>('/api/insure-uploads/confirm', { uploadId: id, planName: plan, startDate: earliestCoverStart() }, OTHER_BUSINESS);
        if (c.status !== 202) throw new Error(`confirm of ${rows} rows: HTTP ${c.status} ${JSON.stringify(c.body).slice(0, 300)}`);
        const u = await poll(gw, id, (s) => s !== 'confirming');
        if (u.status !== 'confirmed') throw new Error(`confirm of ${rows} rows: ${JSON.stringify(u).slice(0, 300)}`);
        return `${fmtCount(rows)} persons insured in one transaction (request to status confirmed)`;
      });
      addFigures(report, `confirmation of ${fmtCount(rows)} rows`, r, idle);
    }

    for (const format of ['csv', 'xlsx']) {
      const r = await during(gw, OTHER_BUSINESS, async () => {
        const res = await fetch(`${gw.origin}/api/orders/export?format=${format}`, { headers: gw.headers(BUSINESS), signal: AbortSignal.timeout(600_000) });
        const bytes = (await res.arrayBuffer()).byteLength;
        if (!res.ok) throw new Error(`export: HTTP ${res.status}`);
        return `${res.headers.get('x-export-rows')} rows, ${(bytes / 2 ** 20).toFixed(1)} MB`;
      }).catch((err: Error) => {
        // e.g. fetch's 300 s body timeout: a figure of its own, not the end of the run.
        report.add({ section: 'embedded', figure: `PGlite export of ${BUSINESS}'s orders (${format})`, value: 'failed', unit: '', target: '', pass: null, note: String(err.cause ?? err.message).slice(0, 160) });
        return null;
      });
      if (r) addFigures(report, `export of ${BUSINESS}'s orders (${format})`, r, idle);
    }
  } finally {
    await gw.close();
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const { values } = parseArgs({ options: { 'confirm-rows': { type: 'string', default: '1000,5000,20000' }, 'export-rows': { type: 'string', default: '45000' } } });
  const report = new Report();
  await runEmbedded(report, {
    confirmRows: values['confirm-rows']!.split(',').filter(Boolean).map(Number),
    exportRows: Number(values['export-rows']),
  });
  console.log(`\n${report.table()}\n`);
  process.exit(0);
}
