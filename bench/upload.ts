/**
 * The largest roster: a 50,000-row .xlsx through the roster upload as the page sends it (POST
 * /api/insure-uploads, the status asked as the page asks it until the background parse is done, then
 * the preview, which brings the editor's first page of rows with it), after one unjudged upload (the
 * first parse of a process starts its parse process and compiles the parser), three times, while 10
 * other users list the seeded business (from a second before the first of them). Figures (issue 22):
 * upload → first page of rows received ≤ 3 s on PostgreSQL (worst of 3); the largest single answer the
 * browser receives on the way (rows come in pages, not one 3.5 MB JSON);
 * the gateway's RSS back within 50 MiB of its value before the uploads (both databases); other users'
 * list p99 ≤ 100 ms meanwhile (PostgreSQL); a 1 MB .xlsx that inflates to 1 GB refused within 1 s.
 * Peak RSS is in the notes.
 */
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import ExcelJS from 'exceljs';
import { earliestCoverStart } from '../src/server/domain/cover.ts';
import { BUSINESS, OTHER_BUSINESS, describeTarget, type Gateway } from './lib/gateway.ts';
import { runLoad, type LoadResult } from './lib/load.ts';
import { Report } from './lib/report.ts';
import { watchRss } from './lib/rss.ts';
import { settle } from './lib/settle.ts';
import { fmtBytes, summarize } from './lib/stats.ts';
import { zipBombXlsx } from '../tests/server/zip-bomb.ts';
import { rosterRows } from './writes.ts';

export const UPLOAD_TARGETS = { previewMs: 3000, answerBytes: 512 * 1024, rssMiB: 50, othersP99Ms: 100, bombMs: 1000 };
const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
/** The page's status wait and pause (src/runtime/pages/custom/upload/api.ts, useRosterUpload.ts). */
const STATUS_WAIT_MS = 2000;
const PAGE_POLL_MS = 250;

/** A roster workbook of `rows` people (headers as the template names them). */
export async function rosterXlsx(rows: number, unique: number): Promise<Buffer> {
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet('名单');
  ws.addRow(['姓名', '身份证号', '手机号', '工种']);
  for (const r of rosterRows(rows, unique)) ws.addRow([r.name, r.idCard, r.phone, r.jobType]);
  return Buffer.from(await wb.xlsx.writeBuffer());
}

interface Upload {
  ms: number;
  /** The largest answer received: the preview's head or one page of rows (bytes). */
  largest: number;
  summary: string;
}

function post(gw: Gateway, file: Buffer, planName: string): Promise<Response> {
  const form = new FormData();
  form.set('planName', planName);
  form.set('startDate', earliestCoverStart());
  form.set('file', new Blob([new Uint8Array(file)], { type: XLSX }), 'roster.xlsx');
  return fetch(`${gw.origin}/api/insure-uploads`, { method: 'POST', headers: gw.headers(OTHER_BUSINESS), body: form, signal: AbortSignal.timeout(120_000) });
}

async function received(gw: Gateway, path: string): Promise<{ body: string; bytes: number }> {
  const r = await fetch(gw.origin + path, { headers: gw.headers(OTHER_BUSINESS), signal: AbortSignal.timeout(120_000) });
  const body = await r.text();
  if (!r.ok) throw new Error(`${path}: HTTP ${r.status} ${body.slice(0, 200)}`);
  return { body, bytes: Buffer.byteLength(body) };
}

/** One upload: file sent → parsed (status held until it changes) → preview with its first page of rows received (timed); then every other page. */
async function uploadOnce(gw: Gateway, file: Buffer, planName: string): Promise<Upload> {
  const t0 = performance.now();
  const res = await post(gw, file, planName);
  const created = (await res.json()) as { code: number; message?: string; data?: { id: string | number } };
  if (!res.ok || created.code !== 0 || !created.data) throw new Error(`upload: HTTP ${res.status} ${JSON.stringify(created).slice(0, 200)}`);
  const id = created.data.id;
  // As the page asks (nextStatus in src/runtime/pages/custom/upload/api.ts): the gateway holds the request until the
  // upload's progress changes; an unchanged answer that came quickly is followed by the page's pause.
  let seen = '';
  for (;;) {
    const asked = performance.now();
    const s = await gw.get<{ status: string; phase: string; rowsDone: number; error?: string }>(`/api/insure-uploads/${id}?waitMs=${STATUS_WAIT_MS}`, OTHER_BUSINESS);
    if (s.status === 'failed') throw new Error(`parse failed: ${s.error}`);
    if (s.status !== 'parsing') break;
    if (performance.now() - t0 > 120_000) throw new Error('parse still running after 120 s');
    const now = `${s.phase} ${s.rowsDone}`;
    if (now === seen && performance.now() - asked < PAGE_POLL_MS) await sleep(PAGE_POLL_MS);
    seen = now;
  }
  // The preview brings the first page of rows with it (as the page reads it, useRosterUpload).
  const head = await received(gw, `/api/insure-uploads/${id}/preview`);
  const data = (JSON.parse(head.body) as { data?: { upload?: { counts?: { total: number; valid: number; errors: number; duplicates: number } }; result?: { pages?: number }; firstPage?: unknown } }).data;
  const first = data?.firstPage || !data?.result?.pages ? head : await received(gw, `/api/insure-uploads/${id}/rows?page=0`);
  const ms = performance.now() - t0;
  let largest = Math.max(head.bytes, first.bytes);
  for (let p = 1; p < (data?.result?.pages ?? 1); p++) largest = Math.max(largest, (await received(gw, `/api/insure-uploads/${id}/rows?page=${p}`)).bytes);
  const c = data?.upload?.counts;
  return { ms, largest, summary: c ? `${c.total} rows: valid ${c.valid}, errors ${c.errors}, duplicates ${c.duplicates}` : '' };
}

/** A 1 MB .xlsx that inflates to 1 GB: refused before any parser opens it. */
async function zipBomb(gw: Gateway, label: string, planName: string, report: Report, rss: ReturnType<typeof watchRss>): Promise<void> {
  const bomb = (await zipBombXlsx(1000)).honest;
  const before = rss.resetPeak();
  const t0 = performance.now();
  const res = await post(gw, bomb, planName);
  const ms = performance.now() - t0;
  const body = (await res.json()) as { message?: string };
  await sleep(500);
  report.add({
    section: 'upload',
    figure: `${label} zip bomb (${(bomb.length / 1024 / 1024).toFixed(2)} MB .xlsx → 1,000 MB) refused`,
    value: ms,
    unit: 'ms',
    target: `≤ ${UPLOAD_TARGETS.bombMs} ms`,
    pass: res.status === 400 && ms <= UPLOAD_TARGETS.bombMs,
    note: `HTTP ${res.status} ${body.message ?? ''}; gateway RSS peak +${Math.round(rss.peak() - before)} MiB`,
  });
}

function listLoad(gw: Gateway, stop: () => boolean): Promise<LoadResult> {
  const url = `${gw.origin}/api/orders?current=1&pageSize=20`;
  const headers = gw.headers(BUSINESS);
  return runLoad({ concurrency: 10, count: 100_000, durationMs: 300_000, requestTimeoutMs: 30_000, next: () => ({ url, headers }), stop });
}

export async function runUpload(gw: Gateway, driver: 'postgres' | 'pglite', report: Report, opts: { rows: number; repeats: number }): Promise<void> {
  const label = describeTarget(driver === 'postgres' ? { driver, url: '' } : { driver, dataDir: '' });
  const judged = driver === 'postgres';
  await gw.drain();
  const plans = await gw.get<Array<{ value: string }>>('/api/plans?unit=month', OTHER_BUSINESS);
  if (!plans.length) throw new Error('no monthly plans');
  const nonce = 500 + Math.floor(Math.random() * 300); // ID numbers no earlier run used
  const files: Buffer[] = [];
  for (let i = 0; i <= opts.repeats; i++) files.push(await rosterXlsx(opts.rows, nonce + i));
  await settle();
  const rss = watchRss(gw.pid);
  const before = rss.resetPeak();

  const cold = await uploadOnce(gw, files[0], plans[0].value);
  report.add({ section: 'upload', figure: `${label} first ${opts.rows.toLocaleString('en')}-row roster on a gateway process (cold, no list load)`, value: cold.ms, unit: 'ms', target: '', pass: null, note: 'not judged: the figures below are steady state' });

  // The other users are already at work when the judged uploads start: a second of their load first, so
  // the gateway's pool has opened its connections (PostgreSQL starts a backend for each) before, not
  // during, the first upload; that second's latencies are not counted.
  const warmUntil = performance.now() + 1000;
  await listLoad(gw, () => performance.now() > warmUntil);

  const times: number[] = [];
  const during: number[] = [];
  let errors = 0;
  let last: Upload = cold;
  let largest = cold.largest;
  for (let rep = 1; rep <= opts.repeats; rep++) {
    let done = false;
    const load = listLoad(gw, () => done);
    try {
      last = await uploadOnce(gw, files[rep], plans[rep % plans.length].value);
      times.push(last.ms);
      largest = Math.max(largest, last.largest);
    } finally {
      done = true;
      const l = await load;
      during.push(...l.latencies);
      errors += l.errors;
    }
  }
  const peak = rss.peak();
  const back = await rss.settleBelow(before + UPLOAD_TARGETS.rssMiB, 30_000);
  const w = summarize(times);
  report.add({
    section: 'upload',
    figure: `${label} ${opts.rows.toLocaleString('en')}-row roster: upload → preview and first page of rows received (worst of ${opts.repeats})`,
    value: w.max,
    unit: 'ms',
    target: judged ? `≤ ${UPLOAD_TARGETS.previewMs} ms` : '',
    pass: judged ? w.max <= UPLOAD_TARGETS.previewMs : null,
    note: `runs ${times.map((t) => Math.round(t)).join(' / ')} ms; ${last.summary}`,
  });
  report.add({
    section: 'upload',
    figure: `${label} largest answer the browser receives for it`,
    value: largest / 1024,
    unit: 'kB',
    target: `≤ ${UPLOAD_TARGETS.answerBytes / 1024} kB`,
    pass: largest <= UPLOAD_TARGETS.answerBytes,
    note: `${fmtBytes(largest)}; rows come in pages of 5,000`,
  });
  report.add({
    section: 'upload',
    figure: `${label} gateway RSS after ${opts.repeats + 1} uploads`,
    value: back.rss,
    unit: 'MiB',
    target: `≤ ${Math.round(before + UPLOAD_TARGETS.rssMiB)} MiB (before + ${UPLOAD_TARGETS.rssMiB})`,
    pass: back.rss <= before + UPLOAD_TARGETS.rssMiB,
    note: `before ${Math.round(before)} MiB, peak ${Math.round(peak)} MiB, waited ${(back.waitedMs / 1000).toFixed(1)} s`,
  });
  const d = summarize(during);
  report.add({
    section: 'upload',
    figure: `${label} other users' list p99 during the uploads`,
    value: d.n ? d.p99 : 'no samples',
    unit: 'ms',
    target: judged ? `≤ ${UPLOAD_TARGETS.othersP99Ms} ms` : '',
    pass: judged ? d.n > 0 && errors === 0 && d.p99 <= UPLOAD_TARGETS.othersP99Ms : null,
    note: [`p50 ${Math.round(d.p50)} ms`, `n=${d.n}`, errors ? `${errors} errors` : ''].filter(Boolean).join(', '),
  });
  await zipBomb(gw, label, plans[0].value, report, rss);
  rss.stop();
}
