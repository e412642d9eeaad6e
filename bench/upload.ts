/**
 * The largest roster and a zip bomb, through the real gateway in a process of its own whose memory is
 * read from /proc (as an operator would watch it). Figures, per database:
 *
 * - a 50,000-row .xlsx: upload → parse → the editor's first page of rows received (what the browser
 *   waits for: POST, status polled every 250 ms, the preview's head, /rows?page=0), worst of three;
 * - the largest single answer the browser receives on the way (pages, not one 3.5 MB JSON);
 * - another business's list requests meanwhile (one client, back to back): p99;
 * - the gateway's RSS after the three uploads, against its RSS before them (both after a warm-up
 *   upload and a quiet moment), and its peak;
 * - a 1 MB xlsx that inflates to 1 GB: time to the refusal and the gateway's RSS growth.
 *
 * Run alone: npx tsx bench/upload.ts [--drivers postgres,pglite] [--rows 50000]
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createWriteStream, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { earliestCoverStart } from '../src/server/domain/cover.ts';
import { exportWorkbook } from '../src/server/files/workbooks.ts';
import { zipBombXlsx } from '../tests/server/zip-bomb.ts';
import { BUSINESS, DEMO, OTHER_BUSINESS } from './lib/gateway.ts';
import { Report } from './lib/report.ts';
import { summarize } from './lib/stats.ts';
import { rosterRows } from './writes.ts';

export const UPLOAD_TARGETS = { firstRowsMs: 3000, answerBytes: 512 * 1024, othersP99Ms: 100, rssMiB: 50, bombMs: 1000 };
const REPEATS = 3;
const POLL_MS = 250;

interface Child {
  origin: string;
  /** Resident memory of the gateway process (MiB). */
  rss(): number;
  close(): Promise<void>;
}

async function startChild(options: Record<string, unknown>, filesDir: string): Promise<Child> {
  const entry = fileURLToPath(new URL('./lib/gateway-child.ts', import.meta.url));
  const child = spawn(process.execPath, ['--import', 'tsx', entry], {
    env: { ...process.env, FILES_DIR: filesDir, BENCH_GATEWAY_OPTIONS: JSON.stringify(options) },
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const exited = once(child, 'exit');
  const port = await new Promise<number>((resolve, reject) => {
    createInterface({ input: child.stdout! }).on('line', (line) => {
      const m = /^\{"port":(\d+)\}$/.exec(line.trim());
      if (m) resolve(Number(m[1]));
    });
    exited.then(([code]) => reject(new Error(`gateway exited with code ${code} before listening`)));
  });
  return {
    origin: `http://127.0.0.1:${port}`,
    rss: () => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'))![1]) / 1024,
    async close() {
      if (child.exitCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}

async function rosterXlsx(path: string, rows: number): Promise<Buffer> {
  const out = createWriteStream(path);
  await exportWorkbook({
    sheetName: '名单',
    columns: [
      { key: 'name', label: '姓名' },
      { key: 'idCard', label: '身份证号' },
      { key: 'phone', label: '手机号' },
      { key: 'jobType', label: '工种' },
    ],
    rows: rosterRows(rows, 0),
    output: out,
  });
  if (!out.writableFinished) await once(out, 'finish');
  return readFileSync(path);
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** RSS once the process has been quiet: the lowest of 10 readings over 5 s (a GC may run meanwhile). */
async function quietRss(gw: Child): Promise<number> {
  let low = Infinity;
  for (let i = 0; i < 10; i++) {
    await sleep(500);
    low = Math.min(low, gw.rss());
  }
  return low;
}

export async function runUpload(report: Report, opts: { driver: 'postgres' | 'pglite'; databaseUrl?: string; rows?: number }): Promise<void> {
  const label = opts.driver === 'postgres' ? 'PostgreSQL' : 'PGlite';
  const rows = opts.rows ?? 50_000;
  const dir = mkdtempSync(join(tmpdir(), 'bench-upload-'));
  const gw = await startChild(
    {
      port: 0,
      host: '127.0.0.1',
      seed: true,
      limits: { apiPerMinute: 100_000_000 },
      ...(opts.driver === 'postgres' ? { databaseUrl: opts.databaseUrl } : { dataDir: join(dir, 'pglite') }),
    },
    join(dir, 'files'),
  );
  let peak = 0;
  const sampler = setInterval(() => (peak = Math.max(peak, gw.rss())), 20);
  try {
    const xlsx = await rosterXlsx(join(dir, 'roster.xlsx'), rows);
    const login = (await (await fetch(`${gw.origin}/api/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(DEMO) })).json()) as {
      data: { token: string };
    };
    const headers = (biz: string) => ({ authorization: `Bearer ${login.data.token}`, 'x-company-id': biz });
    const get = async (path: string, biz = BUSINESS) => {
      const r = await fetch(gw.origin + path, { headers: headers(biz) });
      const text = await r.text();
      return { status: r.status, bytes: Buffer.byteLength(text), body: JSON.parse(text) as { data: any; message: string } };
    };
    const plan = (await get('/api/plans?unit=month')).body.data[0].value as string;
    const post = async (bytes: Buffer, name: string) => {
      const fd = new FormData();
      fd.append('planName', plan);
      fd.append('startDate', earliestCoverStart());
      fd.append('file', new Blob([new Uint8Array(bytes)]), name);
      const r = await fetch(`${gw.origin}/api/insure-uploads`, { method: 'POST', headers: headers(BUSINESS), body: fd });
      return { status: r.status, body: (await r.json()) as { data: { id: number }; message: string } };
    };
    /** Upload → ready → head → first page (timed) → every other page; the largest answer. */
    const uploadAndPreview = async (bytes: Buffer, name: string) => {
      const t0 = performance.now();
      const up = await post(bytes, name);
      if (up.status !== 202) throw new Error(`upload refused: ${up.status} ${up.body.message}`);
      let s: { status: string; error: string | null };
      for (;;) {
        s = (await get(`/api/insure-uploads/${up.body.data.id}`)).body.data;
        if (s.status !== 'parsing') break;
        await sleep(POLL_MS);
      }
      if (s.status !== 'ready') throw new Error(`parse ${s.status}: ${s.error}`);
      const head = await get(`/api/insure-uploads/${up.body.data.id}/preview`);
      const first = await get(`/api/insure-uploads/${up.body.data.id}/rows?page=0`);
      const firstMs = performance.now() - t0;
      let largest = Math.max(head.bytes, first.bytes);
      for (let p = 1; p < head.body.data.result.pages; p++) largest = Math.max(largest, (await get(`/api/insure-uploads/${up.body.data.id}/rows?page=${p}`)).bytes);
      return { firstMs, allMs: performance.now() - t0, largest };
    };

    // Warm-up: code paths loaded, caches filled; then the process's memory at rest.
    for (let i = 0; i < 30; i++) await get('/api/orders?current=1&pageSize=20', OTHER_BUSINESS);
    await uploadAndPreview(await rosterXlsx(join(dir, 'small.xlsx'), 100), 'warm-up.xlsx');
    const start = await quietRss(gw);
    peak = start;

    const others: number[] = [];
    let loading = true;
    const load = (async () => {
      while (loading) {
        const t = performance.now();
        await get('/api/orders?current=1&pageSize=20', OTHER_BUSINESS);
        others.push(performance.now() - t);
        await sleep(10);
      }
    })();
    const runs = [];
    for (let i = 0; i < REPEATS; i++) runs.push(await uploadAndPreview(xlsx, `全员名单-${i + 1}.xlsx`));
    loading = false;
    await load;
    const after = await quietRss(gw);

    const worst = Math.max(...runs.map((r) => r.firstMs));
    const what = `${rows.toLocaleString('en')}-row .xlsx (${(xlsx.length / 1024 / 1024).toFixed(1)} MB)`;
    report.add({
      section: 'upload',
      figure: `${label}: ${what} upload → parsed → first page of rows received (worst of ${REPEATS})`,
      value: worst,
      unit: 'ms',
      target: opts.driver === 'postgres' ? `≤ ${UPLOAD_TARGETS.firstRowsMs} ms` : '',
      pass: opts.driver === 'postgres' ? worst <= UPLOAD_TARGETS.firstRowsMs : null,
      note: `${runs.map((r) => Math.round(r.firstMs)).join(' / ')} ms; every page received after ${runs.map((r) => Math.round(r.allMs)).join(' / ')} ms`,
    });
    const largest = Math.max(...runs.map((r) => r.largest));
    report.add({
      section: 'upload',
      figure: `${label}: largest answer the browser receives for it`,
      value: largest / 1024,
      unit: 'kB',
      target: `≤ ${UPLOAD_TARGETS.answerBytes / 1024} kB`,
      pass: largest <= UPLOAD_TARGETS.answerBytes,
      note: 'rows come in pages of 5,000',
    });
    const o = summarize(others);
    report.add({
      section: 'upload',
      figure: `${label}: another business's order list meanwhile, p99 (one client, n=${o.n})`,
      value: o.p99,
      unit: 'ms',
      target: `≤ ${UPLOAD_TARGETS.othersP99Ms} ms`,
      pass: o.p99 <= UPLOAD_TARGETS.othersP99Ms,
      note: `p50 ${o.p50.toFixed(1)} ms, max ${o.max.toFixed(0)} ms`,
    });
    report.add({
      section: 'upload',
      figure: `${label}: gateway RSS after ${REPEATS} uploads − before them`,
      value: after - start,
      unit: 'MiB',
      target: `≤ ${UPLOAD_TARGETS.rssMiB} MiB`,
      pass: after - start <= UPLOAD_TARGETS.rssMiB,
      note: `before ${start.toFixed(0)} MiB, after ${after.toFixed(0)} MiB, peak ${peak.toFixed(0)} MiB`,
    });

    // A 1 MB xlsx that inflates to 1 GB.
    const bomb = (await zipBombXlsx(1000)).honest;
    const before = await quietRss(gw);
    peak = before;
    const t0 = performance.now();
    const refused = await post(bomb, '名单.xlsx');
    const ms = performance.now() - t0;
    await sleep(500);
    report.add({
      section: 'upload',
      figure: `${label}: zip bomb (${(bomb.length / 1024 / 1024).toFixed(2)} MB .xlsx → 1,000 MB) refused`,
      value: ms,
      unit: 'ms',
      target: `≤ ${UPLOAD_TARGETS.bombMs} ms`,
      pass: refused.status === 400 && ms <= UPLOAD_TARGETS.bombMs,
      note: `HTTP ${refused.status} ${refused.body.message}; gateway RSS peak +${(peak - before).toFixed(0)} MiB`,
    });
  } finally {
    clearInterval(sampler);
    await gw.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { values } = parseArgs({ options: { drivers: { type: 'string', default: 'postgres,pglite' }, rows: { type: 'string', default: '50000' } } });
  const report = new Report();
  for (const d of values.drivers!.split(',') as Array<'postgres' | 'pglite'>) {
    const databaseUrl = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres:postgres@127.0.0.1:5432/bench';
    await runUpload(report, { driver: d, databaseUrl, rows: Number(values.rows) });
  }
  console.log(`\n${report.table()}`);
}
