/**
 * The first list page and a detail in headless Chromium, as a user meets them after signing in: the
 * workbench is loaded (its own code cached, nothing else: a fresh browser context each run), then the
 * console navigates to the order list (client-side, as a link does) and the time until its rows are on
 * screen and the main thread is free is measured; then the first order number is clicked and the time
 * until the order's fields are on screen and the main thread is free is measured.
 *
 * "Shown" = the animation frame that first has the rows (the details) in the DOM has been produced (a
 * task queued from that frame has run). "Interactive" = shown, or later the end of the last long task
 * (≥ 50 ms, PerformanceObserver 'longtask') before a 500 ms window without one, i.e. Lighthouse's TTI
 * with the rows in place of the first paint and a shorter quiet window. CPU throttling (CDP
 * Emulation.setCPUThrottlingRate) is set once the workbench is quiet, before the navigation.
 */
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { BUSINESS, startGateway } from './lib/gateway.ts';
import { launchChromium, signInTo } from './lib/chromium.ts';
import { Report } from './lib/report.ts';
import { settle } from './lib/settle.ts';
import { fmtBytes, summarize } from './lib/stats.ts';

/** Paths of the order list, first the spec's, then the console's of before the spec routes (ba2f8d0). */
export const LIST_PATHS = ['/main/online-insurance/cost-manage/order-manage', '/order/list'];
export const HOME_PATH = '/mine/home';
export const TARGETS = { listMs: 400, listThrottledMs: 1500, detailMs: 150 };

const ROW = '.ant-table-tbody tr.ant-table-row';
const DETAIL = '.ant-descriptions-row';

export interface Timing {
  /** Navigation → the frame with the rows (fields) produced. */
  shown: number;
  /** Navigation → shown and no long task for 500 ms (see the module comment). */
  interactive: number;
  /** Long tasks between the navigation and interactive: count, total and longest (ms). */
  longTasks: { count: number; total: number; longest: number };
  /** Script files and their bytes as served (Resource Timing) fetched after the navigation. */
  scripts: number;
  scriptBytes: number;
  /** Elements in the document and <style> elements once interactive. */
  domNodes: number;
  styleTags: number;
}

export interface FirstPageRun {
  list: Timing;
  detail: Timing;
  listPath: string;
}

/** In-page: starts a navigation (`go`) and resolves with its Timing once `selector` is shown and the page is quiet. */
async function timeNavigation(page: Page, selector: string, go: { push?: string; click?: string }): Promise<Timing> {
  return page.evaluate(
    ({ selector, go }) =>
      new Promise<Timing>((resolve, reject) => {
        const tasks: Array<[number, number]> = [];
        const po = new PerformanceObserver((l) => {
          for (const e of l.getEntries()) tasks.push([e.startTime, e.startTime + e.duration]);
        });
        po.observe({ type: 'longtask' });
        // Marks for a trace of the run (bench/firstpage-compare.ts --trace).
        const t0 = performance.mark('firstpage:start').startTime;
        if (go.push) {
          history.pushState(null, '', go.push);
          dispatchEvent(new PopStateEvent('popstate', { state: null }));
        } else {
          const a = document.querySelector<HTMLElement>(go.click!);
          if (!a) return reject(new Error(`nothing to click: ${go.click}`));
          a.click();
        }
        const shownReady = () => document.querySelector(selector) && !document.querySelector('.ant-spin-spinning, .ant-skeleton');
        const deadline = t0 + 60_000;
        const frame = () => {
          if (performance.now() > deadline) return reject(new Error(`${selector} not shown within 60 s`));
          if (!shownReady()) return requestAnimationFrame(frame);
          // The frame with the content: done when a task queued from it runs (style, layout, paint are over).
          const ch = new MessageChannel();
          ch.port1.onmessage = () => {
            const shown = performance.now();
            const quiet = () => {
              const now = performance.now();
              const lastEnd = Math.max(shown, ...tasks.filter((t) => t[1] > t0).map((t) => t[1]));
              if (now - lastEnd < 500) return void setTimeout(quiet, 100);
              po.disconnect();
              performance.mark('firstpage:shown', { startTime: shown });
              performance.mark('firstpage:interactive', { startTime: lastEnd });
              const mine = tasks.filter((t) => t[1] > t0 && t[0] < lastEnd);
              const res = performance
                .getEntriesByType('resource')
                .filter((e) => e.startTime >= t0 && /\.m?js(\?|$)/.test(e.name)) as PerformanceResourceTiming[];
              resolve({
                shown: shown - t0,
                interactive: lastEnd - t0,
                longTasks: {
                  count: mine.length,
                  total: mine.reduce((a, t) => a + t[1] - t[0], 0),
                  longest: Math.max(0, ...mine.map((t) => t[1] - t[0])),
                },
                scripts: res.length,
                scriptBytes: res.reduce((a, r) => a + r.encodedBodySize, 0),
                domNodes: document.getElementsByTagName('*').length,
                styleTags: document.getElementsByTagName('style').length,
              });
            };
            setTimeout(quiet, 100);
          };
          ch.port2.postMessage(0);
        };
        requestAnimationFrame(frame);
      }),
    { selector, go },
  );
}

/**
 * Waits until the page has settled: no request for 500 ms, then no long task for a second and at least
 * two seconds after the load (the workbench's charts animate for about a second after they are drawn;
 * a user reads the page before moving on).
 */
async function quiet(page: Page): Promise<void> {
  await page.waitForLoadState('networkidle', { timeout: 60_000 }).catch(() => undefined);
  await page.evaluate(
    () =>
      new Promise<void>((resolve) => {
        let last = performance.now();
        const po = new PerformanceObserver(() => (last = performance.now()));
        po.observe({ type: 'longtask', buffered: true });
        const check = () => {
          const now = performance.now();
          if (now - last >= 1000 && now >= 2000) {
            po.disconnect();
            resolve();
          } else setTimeout(check, 100);
        };
        setTimeout(check, 100);
      }),
  );
}

export interface MeasureOptions {
  /** CPU throttling rate during the two navigations (1 = none). */
  rate: number;
  /** Record a Chromium performance trace of the two navigations to this file. */
  tracePath?: string;
  /** Called with the page and its CDP session before the list navigation (e.g. to start a profiler). */
  before?: (page: Page) => Promise<void>;
  after?: (page: Page) => Promise<void>;
}

/**
 * One run in a fresh context (empty HTTP cache) with the signed-in `storageState`: workbench, then the
 * order list, then the first order's detail.
 */
export async function measureFirstPage(
  browser: Browser,
  origin: string,
  storageState: Awaited<ReturnType<BrowserContext['storageState']>>,
  o: MeasureOptions,
): Promise<FirstPageRun> {
  const ctx = await browser.newContext({ locale: 'zh-CN', viewport: { width: 1440, height: 900 }, storageState });
  try {
    // tsx compiles the functions passed to page.evaluate with esbuild's keepNames, which calls __name().
    await ctx.addInitScript('window.__name = (f) => f');
    const page = await ctx.newPage();
    await page.goto(origin + HOME_PATH, { waitUntil: 'load', timeout: 60_000 });
    await page.locator('.ant-layout').first().waitFor({ timeout: 60_000 });
    await quiet(page);
    const listPath = await findListPath(page);
    const cdp = await ctx.newCDPSession(page);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: o.rate });
    if (o.tracePath) {
      await browser.startTracing(page, {
        path: o.tracePath,
        categories: ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'blink.user_timing', 'loading'],
      });
    }
    await o.before?.(page);
    const list = await timeNavigation(page, ROW, { push: listPath });
    // The first row's first link: the order number, leading to the order's detail.
    const detail = await timeNavigation(page, DETAIL, { click: `${ROW} a[href]` });
    await o.after?.(page);
    if (o.tracePath) await browser.stopTracing();
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: 1 });
    return { list, detail, listPath };
  } finally {
    await ctx.close();
  }
}

/** The order list path of this console: the spec's, or the one of the console before the spec's routes (no /main section). */
async function findListPath(page: Page): Promise<string> {
  const hasMain = await page.evaluate(() => !!document.querySelector('a[href^="/main"]'));
  return hasMain ? LIST_PATHS[0] : LIST_PATHS[1];
}

/**
 * Section `firstpage`: the console's build (dist/) served by a gateway on the embedded database with the
 * demo data, `runs` runs at normal speed and `runs` at 4x CPU throttling, each in a fresh context.
 * Figures (issue 22): the first list page interactive ≤ 400 ms / ≤ 1.5 s at 4x, an order's detail ≤ 150
 * ms, medians of the runs (worst, shown time, long tasks and what was loaded in the notes).
 */
export async function runFirstPage(report: Report, o: { repoRoot: string; runs: number }): Promise<void> {
  const gw = await startGateway({ driver: 'pglite', dataDir: 'memory' }, { staticDir: join(o.repoRoot, 'dist') });
  const browser = await launchChromium();
  try {
    const ctx = await browser.newContext({ locale: 'zh-CN', viewport: { width: 1440, height: 900 } });
    await signInTo(await ctx.newPage(), gw.origin, BUSINESS);
    const state = await ctx.storageState();
    await ctx.close();
    for (const rate of [1, 4]) {
      const runs: FirstPageRun[] = [];
      for (let i = 0; i < o.runs; i++) {
        await settle({ maxMs: 10_000 });
        runs.push(await measureFirstPage(browser, gw.origin, state, { rate }));
      }
      const tag = rate > 1 ? ` (${rate}x CPU throttling)` : '';
      const row = (figure: string, pick: (r: FirstPageRun) => Timing, target?: number) => {
        const t = summarize(runs.map((r) => pick(r).interactive));
        const shown = summarize(runs.map((r) => pick(r).shown));
        const lt = summarize(runs.map((r) => pick(r).longTasks.total));
        const first = pick(runs[0]);
        report.add({
          section: 'firstpage',
          figure: `${figure}${tag}, median of ${runs.length}`,
          value: t.p50,
          unit: 'ms',
          target: target ? `≤ ${target} ms` : '',
          pass: target ? t.p50 <= target : null,
          note: `worst ${Math.round(t.max)} ms; rows shown ${Math.round(shown.p50)} ms; long tasks ${Math.round(lt.p50)} ms; ${first.scripts} scripts ${fmtBytes(first.scriptBytes)}; ${first.domNodes} elements, ${first.styleTags} <style>`,
        });
      };
      row(`first list page interactive (workbench → ${runs[0].listPath}, cold JS cache)`, (r) => r.list, rate === 1 ? TARGETS.listMs : TARGETS.listThrottledMs);
      row('order detail interactive (first order of the list)', (r) => r.detail, rate === 1 ? TARGETS.detailMs : undefined);
    }
  } finally {
    await browser.close();
    await gw.close();
  }
}
