/**
 * Roster editor (the upload page's virtualized editor) in headless Chromium: uploads a 5,000-row CSV
 * through the page's file input; the gateway parses it in a worker and the page loads the preview
 * into the editor. Figures: loading the 5,000 parsed rows into the editor (preview response received
 * → rows rendered, in-page timing) against the import target, and the whole path (file chosen →
 * upload → background parse → preview → rendered) as information. Then types 50 characters into a
 * cell and measures each keystroke's main-thread time (key event → handled, plus the frame it produces;
 * see typeAndMeasure), at normal speed and under 4x CPU throttling.
 */
import { performance } from 'node:perf_hooks';
import type { Browser, Page } from 'playwright-core';
import { startGateway } from './lib/gateway.ts';
import { launchChromium, openSignIn, submitSignIn } from './lib/chromium.ts';
import { Report } from './lib/report.ts';
import { summarize } from './lib/stats.ts';
import { rosterRows } from './writes.ts';

export const ROSTER_PATHS = ['/main/online-insurance/form-insurance/upload-insurance-confidence', '/insure/roster'];
export const TARGETS = { importMs: 300, keyMs: 16, keyThrottledMs: 50 };
const ROWS = 5000;
const KEYS = 50;

/** Opens the roster upload page, chooses the first plan (uploading needs one) and returns its path. */
async function openRoster(page: Page, origin: string): Promise<string> {
  for (const path of ROSTER_PATHS) {
    await page.goto(origin + path, { waitUntil: 'load', timeout: 30_000 });
    const ok = await page
      .getByTestId('plan-select')
      .waitFor({ state: 'visible', timeout: 10_000 })
      .then(() => true, () => false);
    if (!ok) continue;
    await page.getByTestId('plan-select').click();
    await page.locator('.ant-select-item-option').first().click();
    await page.locator('input[type=file]').first().waitFor({ state: 'attached', timeout: 10_000 });
    await page.waitForFunction(() => !document.querySelector('input[type=file]')?.hasAttribute('disabled'), undefined, { timeout: 10_000 });
    return path;
  }
  throw new Error(`roster upload page (plan select + input[type=file]) not found at ${ROSTER_PATHS.join(' or ')}`);
}

export interface KeyLatency {
  /** Main-thread time of the keystroke: key event → its handlers done, plus the frame it produces (frame start → frame done). */
  busy: number;
  /** Key event → the frame after it is done, including the wait for the display's next frame (vsync). */
  toFrame: number;
}

/**
 * Types KEYS characters into `input`, one at a time, and returns each keystroke's latency (ms). For each key:
 * `start` = the keydown event's timeStamp, `handled` = when the input event has been handled (a window
 * listener, which runs after React's root listener and its synchronous render), `frame` = the start time of
 * the next animation frame (requestAnimationFrame's timestamp), `done` = a task queued from that frame (the
 * frame's style, layout, paint and commit are done). `toFrame` = done − start. `busy` leaves out the time the
 * page sat idle between handling the key and the next frame starting, which is the display's frame clock, not
 * the page's work: at 60 Hz it adds up to 16.7 ms at random (a bare <input> measures p90 ≈ 18 ms to the next
 * frame on this machine), so a "≤ 16 ms per keystroke" budget can only be checked on the work itself.
 * When the frame starts before the handling is done (the page is the bottleneck) nothing is left out.
 */
async function typeAndMeasure(page: Page, input: ReturnType<Page['locator']>): Promise<KeyLatency[]> {
  await input.click();
  await page.evaluate(() => {
    type Rec = { start: number; handled?: number };
    const w = window as unknown as { __lat: Array<{ busy: number; toFrame: number }>; __key?: Rec; __latInstalled?: boolean };
    w.__lat = [];
    if (w.__latInstalled) return;
    w.__latInstalled = true;
    window.addEventListener('input', () => {
      if (w.__key && w.__key.handled === undefined) w.__key.handled = performance.now();
    });
    document.addEventListener(
      'keydown',
      (e) => {
        const rec: Rec = { start: e.timeStamp };
        w.__key = rec;
        requestAnimationFrame((frame) => {
          const ch = new MessageChannel();
          ch.port1.onmessage = () => {
            const done = performance.now();
            const handled = rec.handled ?? rec.start;
            const idle = Math.max(0, frame - handled);
            w.__lat.push({ busy: done - rec.start - idle, toFrame: done - rec.start });
          };
          ch.port2.postMessage(0);
        });
      },
      true,
    );
  });
  for (let i = 0; i < KEYS; i++) {
    await page.keyboard.type(String.fromCharCode(97 + (i % 26)));
    // Wait until this keystroke's frame is measured, then pause like a (fast) typist.
    await page.waitForFunction((n) => (window as unknown as { __lat: unknown[] }).__lat.length >= n, i + 1, { timeout: 10_000 });
    await page.waitForTimeout(30);
  }
  return page.evaluate(() => (window as unknown as { __lat: KeyLatency[] }).__lat.slice());
}

export async function runBrowser(report: Report, o: { repoRoot: string }): Promise<void> {
  const gw = await startGateway({ driver: 'pglite', dataDir: 'memory' }, { staticDir: `${o.repoRoot}/dist` });
  let browser: Browser | undefined;
  try {
    browser = await launchChromium();
    const page = await browser.newPage({ locale: 'zh-CN', viewport: { width: 1440, height: 900 } });
    await openSignIn(page, gw.origin);
    await submitSignIn(page);
    const path = await openRoster(page, gw.origin);

    const csv = ['姓名,身份证号,手机号,工种', ...rosterRows(ROWS, 900).map((r) => `${r.name},${r.idCard},${r.phone},${r.jobType}`)].join('\n') + '\n';
    const t0 = performance.now();
    await page.locator('input[type=file]').first().setInputFiles({ name: 'roster.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
    // Polled every frame: the moment the editor shows rows and the parse summary is up.
    const renderedAt = await page
      .waitForFunction(
        () =>
          document.querySelectorAll('[data-testid=roster-row] [data-col]').length > 0 &&
          !!document.querySelector('[data-testid=upload-summary]') &&
          performance.now(),
        undefined,
        { polling: 'raf', timeout: 120_000 },
      )
      .then((h) => h.jsonValue() as Promise<number>, () => null);
    const totalMs = performance.now() - t0;
    const summary = ((await page.getByTestId('upload-summary').textContent().catch(() => '')) ?? '').trim();
    const previewEnd = await page.evaluate(() => {
      const e = performance.getEntriesByType('resource').filter((r) => /\/preview$/.test(r.name)).pop() as PerformanceResourceTiming | undefined;
      return e ? e.responseEnd : null;
    });
    const imported = renderedAt !== null && previewEnd !== null;
    const loadMs = imported ? renderedAt! - previewEnd! : NaN;
    report.add({
      section: 'browser',
      figure: `import ${ROWS.toLocaleString('en')} rows into the roster editor (preview with its rows received → rows rendered, ${path})`,
      value: imported ? loadMs : 'timeout after 120 s',
      unit: 'ms',
      target: `≤ ${TARGETS.importMs} ms`,
      pass: imported && loadMs <= TARGETS.importMs,
      note: summary.slice(0, 60) || undefined,
    });
    report.add({
      section: 'browser',
      figure: `upload ${ROWS.toLocaleString('en')}-row CSV → gateway parse in a worker → editor rendered (end to end)`,
      value: imported ? totalMs : 'timeout after 120 s',
      unit: 'ms',
      target: '',
      pass: null,
      note: 'information: includes the upload, the worker start, the background parse and the status requests (held by the gateway until the upload changes)',
    });
    if (!imported) return;

    const rows = page.getByTestId('roster-row');
    const cdp = await page.context().newCDPSession(page);
    for (const [rate, target, row] of [
      [1, TARGETS.keyMs, 0],
      [4, TARGETS.keyThrottledMs, 1],
    ] as const) {
      await cdp.send('Emulation.setCPUThrottlingRate', { rate });
      try {
        // A cell is an input while it is edited: click it, then type into that input.
        await rows.nth(row).locator('[data-col=name]').click();
        const cell = rows.nth(row).locator('input[data-col=name]');
        await cell.fill('');
        const keys = await typeAndMeasure(page, cell);
        const lat = summarize(keys.map((k) => k.busy));
        const toFrame = summarize(keys.map((k) => k.toFrame));
        report.add({
          section: 'browser',
          figure: `keystroke in a ${ROWS.toLocaleString('en')}-row roster p90, main-thread time${rate > 1 ? ` (${rate}x CPU throttling)` : ''}`,
          value: lat.p90,
          unit: 'ms',
          target: `≤ ${target} ms`,
          pass: lat.n === KEYS && lat.p90 <= target,
          note: `p50 ${lat.p50.toFixed(1)} ms, max ${lat.max.toFixed(1)} ms, n=${lat.n}; to the next frame incl. the vsync wait: p50 ${toFrame.p50.toFixed(1)}, p90 ${toFrame.p90.toFixed(1)} ms`,
        });
      } finally {
        await cdp.send('Emulation.setCPUThrottlingRate', { rate: 1 });
      }
    }
  } finally {
    await browser?.close();
    await gw.close();
  }
}
