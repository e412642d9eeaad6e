/**
 * First-load JavaScript: builds the console (vite build), serves dist/ from the real gateway and
 * records, in headless Chromium, every script the sign-in page, the shell + workbench and each signed-in
 * page of schemas/routes.json load: bytes as served (Resource Timing encodedBodySize: compressed when the gateway
 * compresses) and decoded, plus content-encoding / cache-control of the JS responses. Local gzip -9
 * sizes of each dist asset are reported next to them as a cross-check.
 */
import { execSync } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import { basename, join } from 'node:path';
import { gzipSync } from 'node:zlib';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { startGateway } from './lib/gateway.ts';
import { launchChromium, openSignIn, submitSignIn } from './lib/chromium.ts';
import { Report } from './lib/report.ts';
import { fmtBytes } from './lib/stats.ts';
import { PREFETCH_MARK } from '../src/runtime/pages/prefetch.ts';

export const KB = 1000;
export const TARGETS = { signIn: 250 * KB, shell: 450 * KB, route: 150 * KB };
const TABLE_MARKERS = ['pro-table', 'rc-table'];

interface Script {
  url: string;
  file: string;
  encoded: number;
  decoded: number;
}

interface Headers {
  encoding: string;
  cacheControl: string;
}

/**
 * A signed-in page is shown: its title is there and nothing is spinning (the layout, page and data are
 * loaded one after the other, and on a busy machine a gap between them can outlast networkidle's 500 ms).
 */
async function signedInPageShown(page: Page): Promise<void> {
  await page
    .waitForFunction(() => document.querySelector('[data-testid="page-title"]') && !document.querySelector('.ant-spin-spinning'), undefined, {
      timeout: 30_000,
      polling: 100,
    })
    .catch(() => undefined);
}

/**
 * JS resources the page has loaded so far for itself (Resource Timing; works for cached responses too):
 * not the code of other pages it loads ahead once it is shown (those fetched after the page's
 * 'prefetch:start' mark, src/runtime/pages/prefetch.ts).
 */
async function scripts(page: Page): Promise<Script[]> {
  await page.waitForLoadState('networkidle', { timeout: 30_000 }).catch(() => undefined);
  const entries = await page.evaluate((mark) => {
    const ahead = performance.getEntriesByName(mark, 'mark')[0]?.startTime ?? Infinity;
    return performance
      .getEntriesByType('resource')
      .filter((e) => e.startTime < ahead)
      .map((e) => {
        const r = e as PerformanceResourceTiming;
        return { url: r.name, encoded: r.encodedBodySize, decoded: r.decodedBodySize };
      });
  }, PREFETCH_MARK);
  return entries.filter((e) => /\.m?js(\?|$)/.test(e.url)).map((e) => ({ ...e, file: basename(new URL(e.url).pathname) }));
}

interface RouteEntry {
  path: string;
  layout?: string;
  page?: unknown;
  childRoutes?: RouteEntry[];
}

/** The signed-in pages of schemas/routes.json (every route with a page outside the public 'basic' layout, without :params). */
export function signedInPaths(repoRoot: string): string[] {
  const file = JSON.parse(readFileSync(join(repoRoot, 'schemas', 'routes.json'), 'utf8')) as { routes: RouteEntry[] };
  const out: string[] = [];
  const walk = (rs: RouteEntry[], layout?: string) => {
    for (const r of rs) {
      const l = r.layout ?? layout;
      if (r.page && l !== 'basic' && !r.path.includes(':')) out.push(r.path);
      walk(r.childRoutes ?? [], l);
    }
  };
  walk(file.routes);
  return out;
}

const sum = (xs: Script[], k: 'encoded' | 'decoded') => xs.reduce((a, s) => a + s[k], 0);

export async function runBundle(report: Report, o: { repoRoot: string; skipBuild?: boolean }): Promise<void> {
  const dist = join(o.repoRoot, 'dist');
  if (!o.skipBuild) execSync('npx vite build --logLevel warn', { cwd: o.repoRoot, stdio: 'inherit', timeout: 600_000 });
  const gz = new Map<string, number>();
  for (const f of readdirSync(join(dist, 'assets'))) {
    if (/\.(m?js|css)$/.test(f)) gz.set(f, gzipSync(readFileSync(join(dist, 'assets', f)), { level: 9 }).length);
  }
  const gzOf = (xs: Script[]) => xs.reduce((a, s) => a + (gz.get(s.file) ?? s.decoded), 0);
  const content = (f: string) => {
    try {
      return readFileSync(join(dist, 'assets', f), 'utf8');
    } catch {
      return '';
    }
  };

  const gw = await startGateway({ driver: 'pglite', dataDir: 'memory' }, { staticDir: dist });
  let browser: Browser | undefined;
  try {
    browser = await launchChromium();
    const headers = new Map<string, Headers>();
    const track = (ctx: BrowserContext) =>
      ctx.on('response', (r) => {
        if (/\.m?js(\?|$)/.test(r.url()) && r.status() === 200) {
          const h = r.headers();
          headers.set(basename(new URL(r.url()).pathname), { encoding: h['content-encoding'] ?? 'none', cacheControl: h['cache-control'] ?? '' });
        }
      });

    // 1. Sign-in page, cold.
    const ctx = await browser.newContext({ locale: 'zh-CN' });
    track(ctx);
    const page = await ctx.newPage();
    const signInPath = await openSignIn(page, gw.origin);
    const signIn = await scripts(page);
    const row = (figure: string, xs: Script[], target: number) => {
      report.add({
        section: 'bundle',
        figure: `${figure} JS as served`,
        value: sum(xs, 'encoded') / KB,
        unit: 'kB',
        target: `≤ ${target / KB} kB`,
        pass: sum(xs, 'encoded') <= target,
        note: `${xs.length} files, ${fmtBytes(sum(xs, 'decoded'))} decoded`,
      });
      report.add({ section: 'bundle', figure: `${figure} JS gzip -9 (local)`, value: gzOf(xs) / KB, unit: 'kB', target: `(≤ ${target / KB} kB)`, pass: null });
    };
    row(`sign-in ${signInPath}`, signIn, TARGETS.signIn);
    report.note(`sign-in scripts: ${signIn.map((s) => `${s.file} ${fmtBytes(s.encoded)} served / ${fmtBytes(gz.get(s.file) ?? 0)} gzip / ${fmtBytes(s.decoded)} decoded`).join('; ')}`);
    // Code, not the names of lazy chunks the entry can import later ("./TablePage-….js" in its preload map).
    const code = (f: string) => content(f).replace(/(["'`])\.?\/?(assets\/)?[\w.-]+\.m?js\1/g, '""');
    const tableOnSignIn = signIn.filter((s) => /table/i.test(s.file) || TABLE_MARKERS.some((m) => code(s.file).includes(m)));
    report.add({
      section: 'bundle',
      figure: 'no table code on sign-in',
      value: tableOnSignIn.length ? tableOnSignIn.map((s) => s.file).join(', ') : 'none',
      unit: '',
      target: 'none',
      pass: tableOnSignIn.length === 0,
    });

    // 2. Sign in, then load the landing page (shell + workbench) cold in a fresh context with the session.
    await submitSignIn(page);
    await page.waitForLoadState('networkidle', { timeout: 30_000 }).catch(() => undefined);
    const home = page.url();
    const state = await ctx.storageState();
    const ctx2 = await browser.newContext({ locale: 'zh-CN', storageState: state });
    track(ctx2);
    const coldLoad = async (url: string) => {
      const p = await ctx2.newPage();
      try {
        await p.goto(url, { waitUntil: 'load', timeout: 30_000 });
        await signedInPageShown(p);
        return await scripts(p);
      } finally {
        await p.close();
      }
    };
    const shell = await coldLoad(home);
    row(`shell + workbench ${new URL(home).pathname}`, shell, TARGETS.shell);

    // 3. Each signed-in page route cold; its own chunks are those not loaded by every route (the common shell).
    const routes = signedInPaths(o.repoRoot)
      .map((p) => new URL(p, gw.origin).href)
      .slice(0, 40);
    const loads = new Map<string, Script[]>();
    for (const url of routes) loads.set(url, await coldLoad(url));
    let common = new Set(shell.map((s) => s.file));
    for (const xs of loads.values()) common = new Set(xs.filter((s) => common.has(s.file)).map((s) => s.file));
    for (const [url, xs] of loads) {
      const own = xs.filter((s) => !common.has(s.file)).sort((a, b) => b.encoded - a.encoded);
      const top = own[0];
      report.add({
        section: 'bundle',
        figure: `route ${new URL(url).pathname} largest own chunk as served`,
        value: top ? top.encoded / KB : 0,
        unit: 'kB',
        target: `≤ ${TARGETS.route / KB} kB`,
        pass: (top?.encoded ?? 0) <= TARGETS.route,
        note: top ? `${top.file}, gzip -9 ${fmtBytes(gz.get(top.file) ?? 0)}; ${own.length} own files ${fmtBytes(sum(own, 'encoded'))}` : 'no own chunk',
      });
    }
    if (!routes.length) report.note('no signed-in routes found in schemas/routes.json: route chunks not measured');

    // 4. Compression and caching of the JS responses.
    const all = [...headers.values()];
    const compressed = all.filter((h) => /br|gzip/.test(h.encoding)).length;
    const immutable = [...headers].filter(([f, h]) => /-[\w-]{8,}\.m?js$/.test(f) && /immutable/.test(h.cacheControl)).length;
    const hashed = [...headers.keys()].filter((f) => /-[\w-]{8,}\.m?js$/.test(f)).length;
    report.add({ section: 'bundle', figure: 'JS responses br/gzip-compressed', value: `${compressed}/${all.length}`, unit: '', target: 'all', pass: all.length > 0 && compressed === all.length, note: [...new Set(all.map((h) => h.encoding))].join(', ') });
    report.add({ section: 'bundle', figure: 'hashed JS with immutable caching', value: `${immutable}/${hashed}`, unit: '', target: 'all', pass: hashed > 0 && immutable === hashed });
    await ctx.close();
    await ctx2.close();
  } finally {
    await browser?.close();
    await gw.close();
  }
}
