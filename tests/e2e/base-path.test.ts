import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { sharedBrowser, signInToFirstBusiness } from './session';

// The same build (made by the global setup) served under another base path by a gateway of its own
// (the global setup's, on gateway 1's database): the gateway passes it to the browser as
// window.__APP_CONFIG__.basePath and the router and asset URLs follow it.
const consoleUrl = inject('consoleUrl');
let browser: Browser;

describe('console under a base path', () => {
  beforeAll(async () => {
    browser = await sharedBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('routes, signs in and links under /console/', async () => {
    const origin = consoleUrl.replace(/\/console$/, '');
    const page = await browser.newPage();
    await page.goto(`${origin}/console/`);
    await page.waitForURL(`${origin}/console/login/index`);
    expect(await page.evaluate(() => window.__APP_CONFIG__?.basePath)).toBe('/console/');
    await signInToFirstBusiness(page, `${origin}/console`);
    expect(new URL(page.url()).pathname).toBe('/console/mine/home');
    // The workbench has no side menu; its section links lead into the menu layout.
    await page.getByTestId('section-links').first().getByText('签约投保').click();
    await page.waitForURL(/\/console\/main\/online-insurance\/form-insurance\/upload-insurance-confidence$/);
    await page.locator('[data-testid=side-menu] a[href]').first().waitFor();
    const hrefs = await page.locator('[data-testid=side-menu] a[href]').evaluateAll((as) => as.map((a) => a.getAttribute('href')));
    expect(hrefs.length).toBeGreaterThan(0);
    for (const h of hrefs) expect(h).toMatch(/^\/console\//);
  });
});
