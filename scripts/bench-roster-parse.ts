/**
 * Bench: write a 50,000-row roster .xlsx (exceljs streaming writer) into a temp dir, then
 * 1. parse + map + validate it in a worker thread directly (parseRosterInWorker), and
 * 2. the real path: a gateway (startServer, embedded database, demo data) receives it as a multipart
 *    upload (POST /api/insure-uploads), parses it in the background while progress goes to the
 *    database, and the status endpoint is polled until it is ready; meanwhile another user's list
 *    requests (GET /api/orders) are timed to show the gateway keeps answering.
 * Usage: npx tsx scripts/bench-roster-parse.ts [rows]   (not part of the test suite)
 */
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { createWriteStream } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { makeIdCard } from '../tests/id-card.ts';
import { exportWorkbook } from '../src/server/files/workbooks.ts';
import { MAX_ROWS, parseRosterInWorker } from '../src/server/files/parse-in-worker.ts';
import { ROSTER_COLUMNS } from '../src/server/files/roster-columns.ts';
import { startServer } from '../src/server/server.ts';
import { earliestCoverStart } from '../src/server/domain/cover.ts';

const rows = Number(process.argv[2] ?? MAX_ROWS);
const TARGET_S = 30;

function idFor(i: number): string {
  const birth = `${1960 + (i % 40)}${String(1 + (i % 12)).padStart(2, '0')}${String(1 + (i % 28)).padStart(2, '0')}`;
  return makeIdCard('110101', birth, Math.floor(i / 840) % 1000);
}

// Peak RSS of the process (main thread + worker threads share it).
let peakRss = process.memoryUsage.rss();
const sampler = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage.rss())), 50);

const dir = await mkdtemp(join(tmpdir(), 'bench-roster-'));
try {
  const file = join(dir, 'roster.xlsx');
  let t = performance.now();
  const out = createWriteStream(file);
  await exportWorkbook({
    sheetName: '名单',
    columns: ROSTER_COLUMNS.map((c) => ({ key: c.key, label: c.label })),
    rows: (function* () {
      for (let i = 0; i < rows; i++) yield { name: `员工${i}`, idCard: idFor(i), phone: `13${String(i).padStart(9, '0')}`, jobType: i % 2 ? '普工' : '焊工' };
    })(),
    output: out,
  });
  await new Promise<void>((r) => (out.writableFinished ? r() : out.on('finish', () => r())));
  const size = (await stat(file)).size;
  console.log(`wrote ${rows} rows, ${(size / 1024 / 1024).toFixed(2)} MB in ${((performance.now() - t) / 1000).toFixed(2)} s`);

  const buffer = await readFile(file);
  t = performance.now();
  let lastPercent = -1;
  const task = parseRosterInWorker({
    buffer,
    ext: 'xlsx',
    columns: ROSTER_COLUMNS,
    keyColumn: 'idCard',
    validatorModule: { path: fileURLToPath(new URL('../src/server/files/roster-columns.ts', import.meta.url)), exportName: 'createRosterValidator' },
  }).onProgress((p) => {
    if (p.percent % 10 === 0 && p.percent !== lastPercent) {
      lastPercent = p.percent;
      console.log(`  progress ${p.percent}% (${p.done}/${p.total})`);
    }
  });
  const preview = await task.result;
  const seconds = (performance.now() - t) / 1000;
  clearInterval(sampler);
  peakRss = Math.max(peakRss, process.memoryUsage.rss());
  console.log(`parsed + validated in worker: total ${preview.total}, valid ${preview.valid.length}, errors ${preview.errors.length}, duplicates ${preview.duplicates.length}`);
  console.log(`time ${seconds.toFixed(2)} s (target < ${TARGET_S} s: ${seconds < TARGET_S ? 'OK' : 'TOO SLOW'}), ${Math.round(preview.total / seconds)} rows/s`);
  console.log(`peak RSS ${(peakRss / 1024 / 1024).toFixed(0)} MB (node ${process.version})`);
  const gatewaySeconds = await viaGateway(buffer, dir);
  process.exitCode = seconds < TARGET_S && gatewaySeconds < TARGET_S ? 0 : 1;
} finally {
  clearInterval(sampler);
  await rm(dir, { recursive: true, force: true });
}

/** The upload endpoint end to end; returns seconds from POST to status 'ready'. */
async function viaGateway(buffer: Buffer, dir: string): Promise<number> {
  process.env.FILES_DIR = join(dir, 'files');
  const server = await startServer({ port: 0, dataDir: 'memory', seed: true });
  try {
    const origin = server.url.replace(/\/$/, '');
    const login = await fetch(`${origin}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ phone: '13800000000', password: 'demo1234' }),
    });
    const token = ((await login.json()) as { data: { token: string } }).data.token;
    const headers = { authorization: `Bearer ${token}`, 'x-company-id': 'B10001' };
    const plans = (await (await fetch(`${origin}/api/plans?unit=month`, { headers })).json()) as { data: Array<{ value: string }> };
    const fd = new FormData();
    fd.append('planName', plans.data[0].value);
    fd.append('startDate', earliestCoverStart());
    fd.append('file', new Blob([new Uint8Array(buffer)]), 'roster.xlsx');
    const t0 = performance.now();
    const up = await fetch(`${origin}/api/insure-uploads`, { method: 'POST', headers, body: fd });
    const upBody = (await up.json()) as { data: { id: number }; message: string };
    if (up.status !== 202) throw new Error(`upload refused: ${up.status} ${upBody.message}`);
    console.log(`gateway: upload answered ${up.status} in ${((performance.now() - t0) / 1000).toFixed(2)} s (file stored, parse queued)`);

    // Another user's list requests while the parse runs (one at a time, every 100 ms).
    const other: number[] = [];
    let parsing = true;
    const load = (async () => {
      while (parsing) {
        const t = performance.now();
        await (await fetch(`${origin}/api/orders?current=1&pageSize=20`, { headers: { ...headers, 'x-company-id': 'B10002' } })).arrayBuffer();
        other.push(performance.now() - t);
        await new Promise((r) => setTimeout(r, 100));
      }
    })();
    let status: { status: string; percent: number; rowsDone: number; rowsTotal: number; error: string | null; counts: Record<string, number> };
    let lastShown = -1;
    for (;;) {
      status = ((await (await fetch(`${origin}/api/insure-uploads/${upBody.data.id}`, { headers })).json()) as { data: typeof status }).data;
      if (status.percent !== lastShown && status.percent % 20 === 0) {
        lastShown = status.percent;
        console.log(`  status ${status.status} ${status.percent}% (${status.rowsDone}/${status.rowsTotal})`);
      }
      if (status.status !== 'parsing') break;
      await new Promise((r) => setTimeout(r, 250));
    }
    const parsedS = (performance.now() - t0) / 1000;
    parsing = false;
    await load;
    const t1 = performance.now();
    const preview = await fetch(`${origin}/api/insure-uploads/${upBody.data.id}/preview`, { headers: { ...headers, 'accept-encoding': 'br, gzip' } });
    const previewBytes = (await preview.arrayBuffer()).byteLength;
    const previewMs = performance.now() - t1;
    other.sort((a, b) => a - b);
    const pct = (p: number) => other[Math.min(other.length - 1, Math.ceil((p / 100) * other.length) - 1)] ?? NaN;
    console.log(`gateway: ${status.status} ${JSON.stringify(status.counts)}${status.error ? ` (${status.error})` : ''}`);
    console.log(`gateway: upload → ready ${parsedS.toFixed(2)} s (target < ${TARGET_S} s: ${parsedS < TARGET_S ? 'OK' : 'TOO SLOW'})`);
    console.log(`gateway: preview ${previewMs.toFixed(0)} ms, ${(previewBytes / 1024 / 1024).toFixed(2)} MB (decoded JSON)`);
    console.log(`gateway: other user's GET /api/orders during the parse: n=${other.length}, p50 ${pct(50).toFixed(0)} ms, p99 ${pct(99).toFixed(0)} ms, max ${pct(100).toFixed(0)} ms`);
    return parsedS;
  } finally {
    await server.close();
  }
}
