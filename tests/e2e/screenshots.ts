import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'vitest';
import type { Page } from 'playwright-core';
import type { Stop } from './tour';

const OUT = path.resolve(import.meta.dirname, '../../test-results/screenshots');

/** What a screenshot tour found: the PNGs saved and the layout rules broken. */
export interface ScreenshotChecks {
  saved: string[];
  problems: string[];
  /** The tour's visit: saves the page's PNG and checks its layout. */
  visit(page: Page, stop: Stop): Promise<void>;
}

/**
 * Saves a PNG of each page of a tour into test-results/screenshots/<width>/<route>.png for review, and
 * checks the layout rules that can be measured: nothing wider than the window, the brand in view, no
 * fixed column unless the table scrolls.
 */
export function screenshotChecks(width: number): ScreenshotChecks {
  const dir = path.join(OUT, String(width));
  mkdirSync(dir, { recursive: true });
  const checks: ScreenshotChecks = {
    saved: [],
    problems: [],
    async visit(page, stop) {
      const { problems } = checks;
      await page.mouse.move(0, 0);
      const file = path.join(dir, `${stop.name}.png`);
      await page.screenshot({ path: file, animations: 'disabled' });
      checks.saved.push(file);
      // The page never scrolls sideways: wide tables scroll inside themselves.
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      if (overflow > 0) problems.push(`${stop.name}: page is ${overflow}px wider than the window`);
      if (stop.signedIn && !stop.name.startsWith('login')) {
        const box = await page.getByTestId('brand').first().boundingBox();
        const middle = box ? box.y + box.height / 2 : -1;
        if (!box || middle < 0 || middle > 64 || box.width < 40) problems.push(`${stop.name}: brand not in view`);
      }
      // The fixed 操作 column covers no data: either the table scrolls sideways (data moves from under it)
      // or every header cell ends where the fixed column starts.
      const covered = await page.evaluate(() =>
        [...document.querySelectorAll('.ant-table')].some((table) => {
          const body = table.querySelector('.ant-table-body, .ant-table-content');
          if (!body || body.scrollWidth > body.clientWidth + 1) return false;
          const ths = [...table.querySelectorAll('thead th')];
          const fixed = ths.filter((th) => th.classList.contains('ant-table-cell-fix-right'));
          if (fixed.length === 0) return false;
          const fixedLeft = Math.min(...fixed.map((th) => th.getBoundingClientRect().left));
          return ths.some((th) => !fixed.includes(th) && th.getBoundingClientRect().right > fixedLeft + 1);
        }),
      );
      if (covered) problems.push(`${stop.name}: the fixed 操作 column covers a data column`);
    },
  };
  return checks;
}

/** The test that judges a tour's screenshot checks. */
export function expectScreenshots(checks: ScreenshotChecks): void {
  expect(checks.problems).toEqual([]);
  expect(checks.saved.length).toBeGreaterThanOrEqual(24);
}
