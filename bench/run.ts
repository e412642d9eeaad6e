/**
 * `npm run bench` (tsx bench/run.ts): seeds the data, runs every section against the real gateway
 * and headless Chromium, prints one table with target and PASS/FAIL per figure and writes
 * bench/results/latest.md and latest.json. Exits 0 when figures fail (it is a report), 1 on a crash.
 *
 * Flags: --only lists,writes,bundle,browser,upload   --quick (10k/100k rows, shorter cases)
 *        --sizes 10000,1000000   --drivers postgres,pglite   --duration <s per list case>
 *        --requests <per list case>   --out <dir>
 * Env:   BENCH_DATABASE_URL (default postgres://postgres:postgres@127.0.0.1:5432/bench — it is wiped),
 *        BENCH_PGLITE_DIR (default <tmp>/bench-pglite — it is wiped), CHROMIUM_PATH.
 */
import { execSync } from 'node:child_process';
import { cpus, loadavg, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { startGateway, type DbTarget } from './lib/gateway.ts';
import { Report } from './lib/report.ts';
import { fmtCount } from './lib/stats.ts';
import { ensureSchema, resetTarget, seedTo } from './seed.ts';
import { compareSizes, orderListColumns, runLists, type CaseResult } from './lists.ts';
import { runWrites } from './writes.ts';
import { runBundle } from './bundle.ts';
import { runBrowser } from './browser.ts';
import { runUpload } from './upload.ts';

const SECTIONS = ['lists', 'writes', 'bundle', 'browser', 'upload'] as const;
type Section = (typeof SECTIONS)[number];

const { values: flags } = parseArgs({
  options: {
    only: { type: 'string' },
    quick: { type: 'boolean', default: false },
    sizes: { type: 'string' },
    drivers: { type: 'string', default: 'postgres,pglite' },
    duration: { type: 'string' },
    requests: { type: 'string' },
    out: { type: 'string' },
  },
});

const repoRoot = fileURLToPath(new URL('..', import.meta.url));
const only = new Set<Section>(
  (flags.only ? flags.only.split(',') : SECTIONS).map((s) => {
    if (!(SECTIONS as readonly string[]).includes(s.trim())) throw new Error(`--only: unknown section ${s} (${SECTIONS.join(', ')})`);
    return s.trim() as Section;
  }),
);
const sizes = (flags.sizes ?? (flags.quick ? '10000,100000' : '10000,1000000')).split(',').map(Number);
if (sizes.some((n) => !Number.isInteger(n) || n < 100 || n > 5_000_000)) throw new Error('--sizes: integers between 100 and 5,000,000');
sizes.sort((a, b) => a - b);
const drivers = flags.drivers!.split(',').map((d) => d.trim()) as Array<'postgres' | 'pglite'>;
const durationMs = Number(flags.duration ?? (flags.quick ? 8 : 20)) * 1000;
// 1,000 samples per case: the p99 is then the 10th-worst request, not the 2nd-worst of 200, which moved by
// 10–30 ms between runs on this machine.
const requests = Number(flags.requests ?? 1000);
const outDir = flags.out ?? join(repoRoot, 'bench', 'results');

function targetFor(driver: 'postgres' | 'pglite'): DbTarget {
  if (driver === 'postgres') return { driver, url: process.env.BENCH_DATABASE_URL ?? 'postgres://postgres:postgres@127.0.0.1:5432/bench' };
  if (driver === 'pglite') return { driver, dataDir: process.env.BENCH_PGLITE_DIR ?? join(tmpdir(), 'bench-pglite') };
  throw new Error(`--drivers: unknown driver ${driver}`);
}

const report = new Report();
let crashed = 0;

async function section(name: string, fn: () => Promise<void>): Promise<void> {
  console.log(`\n== ${name}`);
  try {
    await fn();
  } catch (err) {
    crashed++;
    const msg = err instanceof Error ? err.message : String(err);
    console.error(err);
    report.add({ section: name.split(' ')[0], figure: `${name} crashed`, value: msg.slice(0, 160), unit: '', target: '', pass: false });
  }
}

async function dbSections(driver: 'postgres' | 'pglite'): Promise<void> {
  const target = targetFor(driver);
  const label = driver === 'postgres' ? 'PostgreSQL' : 'PGlite';
  await resetTarget(target);
  const plans = await ensureSchema(target);
  const runSizes = only.has('lists') ? sizes : sizes.slice(-1);
  let prev: { size: number; results: Map<string, CaseResult> } | undefined;
  for (const size of runSizes) {
    console.log(`-- ${label}: seeding to ${fmtCount(size)} orders`);
    const s = await seedTo(target, size, plans, (m) => console.log(m));
    report.add({ section: 'seed', figure: `${label} seed ${fmtCount(s.added)} orders (+${fmtCount(s.added / 10)} persons)`, value: s.seconds, unit: 's', target: '', pass: null });
    const gw = await startGateway(target);
    try {
      if (only.has('lists')) {
        const results = await runLists(gw, driver, size, report, { concurrency: 10, requests, durationMs });
        if (prev) compareSizes(driver, prev, { size, results }, report);
        prev = { size, results };
      }
      if (only.has('writes') && size === runSizes[runSizes.length - 1]) {
        console.log(`-- ${label}: roster writes at ${fmtCount(size)} orders`);
        await runWrites(gw, driver, report, { rows: 5000, repeats: 3 });
      }
    } finally {
      await gw.close();
    }
  }
}

const started = new Date();
if (only.has('lists') || only.has('writes')) {
  const cols = orderListColumns(repoRoot);
  report.note(`orders list columns from ${cols.source}: search ${Object.keys(cols.search).join(', ')}; sort ${cols.sort.join(', ')}`);
  for (const d of drivers) await section(`${only.has('lists') ? 'lists' : 'writes'} ${d}`, () => dbSections(d));
}
if (only.has('bundle')) await section('bundle', () => runBundle(report, { repoRoot }));
if (only.has('browser')) await section('browser', () => runBrowser(report, { repoRoot }));
for (const d of only.has('upload') ? drivers : []) {
  const t = targetFor(d);
  await section(`upload ${d}`, () => runUpload(report, { driver: d, databaseUrl: t.driver === 'postgres' ? t.url : undefined }));
}

let commit = 'unknown';
try {
  commit = execSync('git rev-parse --short HEAD', { cwd: repoRoot, encoding: 'utf8' }).trim();
} catch {
  /* not a git checkout */
}
const meta: Record<string, string> = {
  date: started.toISOString(),
  commit,
  command: `tsx bench/run.ts ${process.argv.slice(2).join(' ')}`.trim(),
  machine: `${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, ${Math.round(totalmem() / 2 ** 30)} GB RAM, load average ${loadavg().map((l) => l.toFixed(1)).join(' ')} at the end`,
  node: process.version,
  'list load': `gateway in its own process; 10 concurrent keep-alive connections; once the machine is at least 90 % idle (at most 30 s), 100 warm-up requests per case when a gateway starts and 30 more before each case, then ${requests} requests or ${durationMs / 1000} s per case (whichever first), sizes ${sizes.map(fmtCount).join(' / ')}`,
};
console.log(`\n${report.table()}\n`);
report.write(join(outDir, 'latest.md'), join(outDir, 'latest.json'), meta);
console.log(`${report.failed} figure(s) fail; results in ${join(outDir, 'latest.md')}`);
process.exit(crashed ? 1 : 0);
