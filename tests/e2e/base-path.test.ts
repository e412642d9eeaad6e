import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { launchChromium } from './chromium';
import { signInToFirstBusiness } from './session';
import { startServer, type RunningServer } from '../../src/server/server';

// The same build (made by the global setup) served under another base path: the gateway passes it to
// the browser as window.__APP_CONFIG__.basePath and the router and asset URLs follow it.
let server: RunningServer;
let browser: Browser;

describe('console under a base path', () => {
  beforeAll(async () => {
    const dist = path.resolve(import.meta.dirname, '../../dist');
    server = await startServer({ port: 0, dataDir: 'memory', staticDir: dist, basePath: '/console/', seed: true });
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('routes, signs in and links under /console/', async () => {
    const origin = server.url.replace(/\/console\/$/, '');
    const page = await browser.newPage();
    await page.goto(`${origin}/console/`);
    await page.waitForURL(`${origin}/console/login/index`);
    expect(await page.evaluate(() => window.__APP_CONFIG__?.basePath)).toBe('/console/');
    await signInToFirstBusiness(page, `${origin}/console`);
    expect(new URL(page.url()).pathname).toBe('/console/mine/home');
    // The workbench has no side menu; its section links lead into the menu layout.
    await page.getByTestId('section-links').first().getByText('签约投保').click();
    await page.waitForURL(/\/console\/main\/online-insurance\/form-insurance\/upload-insurance-confidence$/);
    await page.locator('.ant-pro-sider a[href], .ant-layout-sider a[href]').first().waitFor();
    const hrefs = await page.locator('.ant-pro-sider a[href], .ant-layout-sider a[href]').evaluateAll((as) => as.map((a) => a.getAttribute('href')));
    expect(hrefs.length).toBeGreaterThan(0);
    for (const h of hrefs) expect(h).toMatch(/^\/console\//);
  });
});
