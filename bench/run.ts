/**
 * `npm run bench` (tsx bench/run.ts): seeds the data, runs every section against the real gateway
 * and headless Chromium, prints one table with target and PASS/FAIL per figure and writes
 * bench/results/latest.md and latest.json. Exits 0 when figures fail (it is a report), 1 on a crash.
 *
 * Flags: --only lists,endpoints,searches,writes,upload,workbench,bundle,firstpage,browser,embedded   --quick (10k/100k
 *        rows, shorter cases)   --sizes 10000,1000000   --drivers postgres,pglite   --duration <s per list case>
 *        --requests <per list case>   --runs <browser runs per CPU rate>   --out <dir>
 *        --no-build (serve the dist/ already built)
 * Env:   BENCH_DATABASE_URL (default postgres://postgres:postgres@127.0.0.1:5432/bench — it is wiped),
 *        BENCH_PGLITE_DIR (default <tmp>/bench-pglite — it is wiped), CHROMIUM_PATH,
 *        BENCH_GATEWAY_LOG=1 (the gateway's log on stderr; LOG_LEVEL=info adds the roster parses' phase timings).
 */
import { execSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { cpus, loadavg, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { startGateway, type DbTarget } from './lib/gateway.ts';
import { Report } from './lib/report.ts';
import { fmtCount } from './lib/stats.ts';
import { watchRss } from './lib/rss.ts';
import { ensureSchema, resetTarget, seedTo } from './seed.ts';
import { compareSizes, orderListColumns, runLists, type CaseResult } from './lists.ts';
import { observePageCalls, runEndpoints } from './endpoints.ts';
import { runSearches } from './searches.ts';
import { runWrites } from './writes.ts';
import { runUpload, UPLOAD_TARGETS } from './upload.ts';
import { runWorkbench } from './workbench.ts';
import { runBundle } from './bundle.ts';
import { runFirstPage } from './firstpage.ts';
import { runBrowser } from './browser.ts';
import { runEmbedded } from './embedded.ts';

const SECTIONS = ['lists', 'endpoints', 'searches', 'writes', 'upload', 'workbench', 'bundle', 'firstpage', 'browser', 'embedded'] as const;
/** Sections on the seeded databases (the others use the console's build and the demo data). */
const DB_SECTIONS: readonly Section[] = ['lists', 'endpoints', 'searches', 'writes', 'upload', 'workbench'];
/** Sections that need the console's build (dist/), made once per run. */
const BUILD_SECTIONS: readonly Section[] = ['endpoints', 'bundle', 'firstpage', 'browser'];
type Section = (typeof SECTIONS)[number];

const { values: flags } = parseArgs({
  options: {
    only: { type: 'string' },
    quick: { type: 'boolean', default: false },
    'no-build': { type: 'boolean', default: false },
    sizes: { type: 'string' },
    drivers: { type: 'string', default: 'postgres,pglite' },
    duration: { type: 'string' },
    requests: { type: 'string' },
    runs: { type: 'string' },
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
const browserRuns = Number(flags.runs ?? (flags.quick ? 3 : 5));
/** Requests per endpoint and per short search (10 users; capped at the list cases' duration). */
const callRequests = Math.min(requests, flags.quick ? 200 : 500);

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

/** Builds the console once per run, for the sections that serve it (--no-build: the dist/ already there). */
let built = false;
function build(): void {
  if (built) return;
  if (flags['no-build'] && existsSync(join(repoRoot, 'dist', 'index.html'))) {
    console.log('\n== build: --no-build, serving the dist/ already there');
    built = true;
    return;
  }
  console.log('\n== build (npx vite build)');
  execSync('npx vite build --logLevel warn', { cwd: repoRoot, stdio: 'inherit', timeout: 600_000, env: { ...process.env, NODE_ENV: 'production' } });
  built = true;
}

async function dbSections(driver: 'postgres' | 'pglite'): Promise<void> {
  const target = targetFor(driver);
  const label = driver === 'postgres' ? 'PostgreSQL' : 'PGlite';
  await resetTarget(target);
  const plans = await ensureSchema(target);
  const runSizes = only.has('lists') ? sizes : sizes.slice(-1);
  const largest = runSizes[runSizes.length - 1];
  let prev: { size: number; results: Map<string, CaseResult> } | undefined;
  for (const size of runSizes) {
    console.log(`-- ${label}: seeding to ${fmtCount(size)} orders`);
    const s = await seedTo(target, size, plans, (m) => console.log(m));
    report.add({ section: 'seed', figure: `${label} seed ${fmtCount(s.added)} orders (+${fmtCount(s.added / 10)} persons)`, value: s.seconds, unit: 's', target: '', pass: null });
    const here = DB_SECTIONS.filter((x) => only.has(x) && (x === 'lists' || size === largest));
    const gw = await startGateway(target, here.includes('endpoints') ? { staticDir: join(repoRoot, 'dist') } : {});
    // The gateway's memory over its sections: back within 50 MiB of its start at the end (issue 22).
    const rss = watchRss(gw.pid);
    try {
      for (const name of here) {
        await section(`${name} ${driver} ${fmtCount(size)}`, async () => {
          if (name === 'lists') {
            const results = await runLists(gw, driver, size, report, { concurrency: 10, requests, durationMs });
            if (prev) compareSizes(driver, prev, { size, results }, report);
            prev = { size, results };
          } else if (name === 'endpoints') {
            console.log(`-- ${label}: the API calls of every page, opened in Chromium`);
            const found = await observePageCalls(gw, repoRoot);
            await runEndpoints(gw, driver, size, report, found, { concurrency: 10, requests: callRequests, durationMs: Math.min(durationMs, 10_000) });
          } else if (name === 'searches') {
            await runSearches(gw, target, size, report, repoRoot, { concurrency: 10, requests: callRequests, durationMs: Math.min(durationMs, 10_000) });
          } else if (name === 'writes') {
            await runWrites(gw, driver, report, { rows: 5000, repeats: 3 });
          } else if (name === 'upload') {
            await runUpload(gw, driver, report, { rows: 50_000, repeats: 3 });
          } else if (name === 'workbench') {
            console.log(`-- ${label}: workbench at ${fmtCount(size)} orders`);
            await runWorkbench(gw, driver, size, report, { requests: Math.min(requests, 500), durationMs });
          }
        });
      }
    } finally {
      const back = await rss.settleBelow(rss.start + UPLOAD_TARGETS.rssMiB, 30_000);
      const r = rss.stop();
      report.add({
        section: 'memory',
        figure: `${label} ${fmtCount(size)} gateway RSS at the end of ${here.join(', ')}`,
        value: back.rss,
        unit: 'MiB',
        target: `≤ ${Math.round(r.start + UPLOAD_TARGETS.rssMiB)} MiB (start + ${UPLOAD_TARGETS.rssMiB})`,
        pass: back.rss <= r.start + UPLOAD_TARGETS.rssMiB,
        note: `start ${Math.round(r.start)} MiB, peak ${Math.round(r.peak)} MiB, waited ${(back.waitedMs / 1000).toFixed(1)} s`,
      });
      await gw.close();
    }
  }
}

const started = new Date();
if (BUILD_SECTIONS.some((x) => only.has(x))) await section('build', async () => build());
if (DB_SECTIONS.some((x) => only.has(x))) {
  const cols = orderListColumns(repoRoot);
  report.note(`orders list columns from ${cols.source}: search ${Object.keys(cols.search).join(', ')}; sort ${cols.sort.join(', ')}`);
  for (const d of drivers) await section(`database sections ${d}`, () => dbSections(d));
}
if (only.has('bundle')) await section('bundle', () => runBundle(report, { repoRoot, skipBuild: built }));
if (only.has('firstpage')) await section('firstpage', () => runFirstPage(report, { repoRoot, runs: browserRuns }));
if (only.has('browser')) await section('browser', () => runBrowser(report, { repoRoot }));
if (only.has('embedded')) await section('embedded', () => runEmbedded(report, flags.quick ? { confirmRows: [1000, 5000], exportRows: 10_000 } : { confirmRows: [1000, 5000, 20_000], exportRows: 45_000 }));

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
  sections: [...only].join(', '),
  'list load': `gateway in its own process; 10 concurrent keep-alive connections; once the machine is at least 90 % idle (at most 30 s), 100 warm-up requests per case when a gateway starts and 30 more before each case, then ${requests} requests or ${durationMs / 1000} s per case (whichever first), sizes ${sizes.map(fmtCount).join(' / ')}`,
};
console.log(`\n${report.table()}\n`);
report.write(join(outDir, 'latest.md'), join(outDir, 'latest.json'), meta);
console.log(`${report.summary()}; results in ${join(outDir, 'latest.md')}`);
process.exit(crashed ? 1 : 0);
