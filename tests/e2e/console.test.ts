import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { DEMO, P, businessName, chooseBusiness, gatewayUrl, sharedBrowser, signIn, pickFromAccountMenu } from './session';

const baseUrl = gatewayUrl();

let browser: Browser;
let page: Page;
const pageErrors: string[] = [];

describe('console end to end (headless Chromium against the real gateway)', () => {
  beforeAll(async () => {
    browser = await sharedBrowser();
    page = await browser.newPage({ locale: 'zh-CN', reducedMotion: 'reduce' });
    page.on('pageerror', (e) => pageErrors.push(String(e)));
  });

  afterAll(async () => {
    await browser?.close();
  });

  it('sends a visitor who is not signed in to the sign-in page', async () => {
    await page.goto(`${baseUrl}${P.orders}`);
    await page.waitForURL(/\/login\/index\?redirect=/);
    await expect.poll(() => page.title()).toMatch(/^登录 · /);
  });

  it('rejects a wrong password with the gateway message and stays on sign-in', async () => {
    const direct = await fetch(`${baseUrl}/api/auth/login`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ phone: DEMO.phone, password: 'wrong-password-1' }),
    });
    expect(direct.status).toBe(401);
    const { message } = (await direct.json()) as { message: string };
    await signIn(page, baseUrl, 'wrong-password-1');
    await expect.poll(() => page.getByRole('alert').first().textContent(), { timeout: 15000 }).toContain(message);
    expect(new URL(page.url()).pathname).toBe(P.login);
    expect(await page.evaluate(() => localStorage.getItem('token') ?? '')).toBe('');
  });

  it('signs in, picks a business and shows the order list with rows from the gateway', async () => {
    await signIn(page, baseUrl);
    // The demo account has several businesses and none is remembered, so sign-in asks which one to work in.
    await chooseBusiness(page, await businessName(baseUrl));
    await page.waitForURL(/\/mine\/home$/);

    const token = await page.evaluate(() => localStorage.getItem('token'));
    const companyId = await page.evaluate(() => localStorage.getItem('companyId'));
    expect(token).toBeTruthy();
    expect(companyId).toBeTruthy();

    // What the gateway holds for this business, first page, as the table asks for it (spec §9: 30 rows a page).
    const res = await fetch(`${baseUrl}/api/orders?current=1&pageSize=30`, {
      headers: { Authorization: `Bearer ${token}`, 'X-Company-Id': String(companyId) },
    });
    const body = (await res.json()) as { code: number; data: { list: Array<{ orderNo: string }>; total: number } };
    expect(body.code).toBe(0);
    expect(body.data.total).toBeGreaterThan(0);

    await page.goto(`${baseUrl}${P.orders}`);
    const rows = page.locator('.ant-table-tbody tr.ant-table-row');
    await rows.first().waitFor({ timeout: 30000 });
    expect(await rows.count()).toBe(Math.min(30, body.data.list.length));
    const firstRow = await rows.first().innerText();
    expect(firstRow).toContain(body.data.list[0].orderNo);
    expect(await page.locator('.ant-pagination').innerText()).toContain(`共 ${body.data.total} 条`);
    expect(await page.locator('.ant-pagination-options').innerText()).toContain('30 / page');
    await expect.poll(() => page.title()).toMatch(/^订单管理 · /);

    // Menu: hidden entries (order detail) are not listed, visible ones are.
    const menuText = await page.locator('[data-testid=side-menu]').first().innerText();
    expect(menuText).toContain('订单管理');
    expect(menuText).not.toContain('订单详情');
  });

  it('opens an order detail from the list link', async () => {
    const link = page.locator('.ant-table-tbody tr.ant-table-row a[href*="/order-manage/"]').first();
    const orderNo = (await link.innerText()).trim();
    await link.click();
    await page.waitForURL(/\/order-manage\/\d+$/);
    await expect.poll(() => page.locator('.ant-descriptions').first().innerText(), { timeout: 15000 }).toContain(orderNo);
  });

  it('keeps the session across a reload and clears mirrored keys on logout', async () => {
    await page.reload();
    await page.locator('.ant-descriptions').first().waitFor();
    await pickFromAccountMenu(page, '退出登录');
    await page.waitForURL(/\/login\/index$/);
    const keys = await page.evaluate(() => ['token', 'refreshToken', 'companyId', 'chargeForm'].map((k) => localStorage.getItem(k)));
    expect(keys).toEqual(['', '', '', '']);
    expect(pageErrors).toEqual([]);
  });
});
