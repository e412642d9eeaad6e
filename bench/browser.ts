/**
 * Roster editor in headless Chromium: imports 5,000 rows from a CSV through the page's file input
 * (time until the rows are rendered and the success toast shows), then types 50 characters into a
 * cell and measures each keystroke from the key event to the frame after it (in-page: keydown
 * timeStamp → requestAnimationFrame → next task), at normal speed and under 4x CPU throttling.
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

/** Opens the roster upload page (new route first, then today's) and returns its path. */
async function openRoster(page: Page, origin: string): Promise<string> {
  for (const path of ROSTER_PATHS) {
    await page.goto(origin + path, { waitUntil: 'load', timeout: 30_000 });
    const ok = await page
      .locator('input[type=file]')
      .first()
      .waitFor({ state: 'attached', timeout: 10_000 })
      .then(() => true, () => false);
    if (ok) return path;
  }
  throw new Error(`roster editor (input[type=file]) not found at ${ROSTER_PATHS.join(' or ')}`);
}

/** Types KEYS characters into `input`, one at a time, and returns each keystroke's latency (ms). */
async function typeAndMeasure(page: Page, input: ReturnType<Page['locator']>): Promise<number[]> {
  await input.click();
  await page.evaluate(() => {
    const w = window as unknown as { __lat: number[]; __latInstalled?: boolean };
    w.__lat = [];
    if (w.__latInstalled) return;
    w.__latInstalled = true;
    document.addEventListener(
      'keydown',
      (e) => {
        const start = e.timeStamp;
        requestAnimationFrame(() => {
          const ch = new MessageChannel();
          ch.port1.onmessage = () => w.__lat.push(performance.now() - start);
          ch.port2.postMessage(0);
        });
      },
      true,
    );
  });
  for (let i = 0; i < KEYS; i++) {
    await page.keyboard.type(String.fromCharCode(97 + (i % 26)));
    // Wait until this keystroke's frame is measured, then pause like a (fast) typist.
    await page.waitForFunction((n) => (window as unknown as { __lat: number[] }).__lat.length >= n, i + 1, { timeout: 10_000 });
    await page.waitForTimeout(30);
  }
  return page.evaluate(() => (window as unknown as { __lat: number[] }).__lat.slice());
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
    const imported = await page
      .waitForFunction(
        () =>
          document.querySelectorAll('.ant-table-tbody tr.ant-table-row input').length > 0 &&
          /已导入|导入成功/.test(document.querySelector('.ant-message')?.textContent ?? ''),
        undefined,
        { polling: 'raf', timeout: 120_000 },
      )
      .then(() => true, () => false);
    const importMs = performance.now() - t0;
    const toast = (await page.locator('.ant-message').textContent().catch(() => '')) ?? '';
    report.add({
      section: 'browser',
      figure: `import ${ROWS.toLocaleString('en')} rows into the roster editor (${path})`,
      value: imported ? importMs : 'timeout after 120 s',
      unit: 'ms',
      target: `≤ ${TARGETS.importMs} ms`,
      pass: imported && importMs <= TARGETS.importMs,
      note: toast.trim().slice(0, 40) || undefined,
    });
    if (!imported) return;

    const rows = page.locator('.ant-table-tbody tr.ant-table-row');
    const cdp = await page.context().newCDPSession(page);
    for (const [rate, target, row] of [
      [1, TARGETS.keyMs, 0],
      [4, TARGETS.keyThrottledMs, 1],
    ] as const) {
      await cdp.send('Emulation.setCPUThrottlingRate', { rate });
      try {
        const cell = rows.nth(row).locator('input:not([type=file])').first();
        await cell.fill('');
        const lat = summarize(await typeAndMeasure(page, cell));
        report.add({
          section: 'browser',
          figure: `keystroke in a ${ROWS.toLocaleString('en')}-row roster p90${rate > 1 ? ` (${rate}x CPU throttling)` : ''}`,
          value: lat.p90,
          unit: 'ms',
          target: `≤ ${target} ms`,
          pass: lat.n === KEYS && lat.p90 <= target,
          note: `p50 ${lat.p50.toFixed(1)} ms, max ${lat.max.toFixed(1)} ms, n=${lat.n}`,
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
