/**
 * Bench: write a 50,000-row roster .xlsx (exceljs streaming writer) into a temp dir, then
 * parse + map + validate it in a worker thread, as the upload preview does.
 * Usage: npx tsx scripts/bench-roster-parse.ts [rows]   (not part of the test suite)
 */
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { createWriteStream } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { idCardCheckChar } from '../src/shared/checks.ts';
import { exportWorkbook } from '../src/server/files/workbooks.ts';
import { MAX_ROWS, parseRosterInWorker } from '../src/server/files/parse-in-worker.ts';
import { ROSTER_COLUMNS } from '../src/server/files/roster-columns.ts';

const rows = Number(process.argv[2] ?? MAX_ROWS);
const TARGET_S = 30;

function idFor(i: number): string {
  const birth = `${1960 + (i % 40)}${String(1 + (i % 12)).padStart(2, '0')}${String(1 + (i % 28)).padStart(2, '0')}`;
  const first17 = `110101${birth}${String(Math.floor(i / 840) % 1000).padStart(3, '0')}`;
  return first17 + idCardCheckChar(first17);
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
  process.exitCode = seconds < TARGET_S ? 0 : 1;
} finally {
  clearInterval(sampler);
  await rm(dir, { recursive: true, force: true });
}
