import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { businessName, chooseBusiness, gatewayUrl, sharedBrowser, signIn, signInToFirstBusiness } from './session';
import { CM, CONTENT, FI, M, PM, PUBLIC_ROUTES, firstId as firstIdOf, signedInRoutes } from './routeList';

const baseUrl = gatewayUrl();

let browser: Browser;
let context: BrowserContext;
let page: Page;
let auth: Record<string, string>;
const errors: string[] = [];

function watch(p: Page) {
  p.on('pageerror', (e) => errors.push(`pageerror: ${String(e)}`));
  p.on('console', (m) => {
    if (m.type() !== 'error') return;
    const where = m.location()?.url ?? '';
    errors.push(`console: ${m.text()} @ ${where}`);
  });
}

const firstId = (resource: string) => firstIdOf(baseUrl, auth, resource);

/** Opens a path and checks the page header title, real content and no error page. */
async function expectPage(path: string, title: string, content = CONTENT) {
  await page.goto(`${baseUrl}${path}`);
  await expect.poll(() => page.getByTestId('page-title').textContent(), { timeout: 30000 }).toBe(title);
  await page.locator(content).first().waitFor({ timeout: 30000 });
  expect(await page.getByText('页面出错了').count(), path).toBe(0);
  await expect.poll(() => page.title()).toMatch(new RegExp(`^${title} · `));
}

describe('every route of the specification in Chromium', () => {
  beforeAll(async () => {
    browser = await sharedBrowser();
    context = await browser.newContext({ locale: 'zh-CN' });
    page = await context.newPage();
    watch(page);
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('shows the 3 public routes signed out, and a 404 without the menu for an unknown URL', async () => {
    for (const [path, title] of PUBLIC_ROUTES) {
      await page.goto(`${baseUrl}${path}`);
      await expect.poll(() => page.title(), { timeout: 20000 }).toMatch(new RegExp(`^${title} · `));
      expect(new URL(page.url()).pathname, path).toBe(path);
    }
    await page.goto(`${baseUrl}/no/such/page`);
    await page.getByText('页面不存在').first().waitFor();
    expect(await page.locator('.ant-pro-sider, .ant-layout-sider').count()).toBe(0);
  });

  it('brings a signed-out deep link back after signing in, also across a reload', async () => {
    const target = `${PM}/pay-notice`;
    await page.goto(`${baseUrl}${target}`);
    await page.waitForURL(/\/login\/index\?redirect=/);
    await page.reload();
    expect(new URL(page.url()).searchParams.get('redirect')).toBe(target);
    await signIn(page, baseUrl, undefined, '');
    await chooseBusiness(page, await businessName(baseUrl));
    await page.waitForURL(`${baseUrl}${target}`);
    const [token, company] = await page.evaluate(() => [localStorage.getItem('token'), localStorage.getItem('companyId')]);
    auth = { Authorization: `Bearer ${token}`, 'X-Company-Id': String(company) };
    expect(company).toBe('B10001');
  });

  it('opens every signed-in route with its title and real content', async () => {
    const pages = await signedInRoutes(baseUrl, auth);
    for (const [path, title, content] of pages) await expectPage(path, title, content);
    // the section route opens its first child
    await page.goto(`${baseUrl}${M}`);
    await page.waitForURL(`${baseUrl}${FI}/upload-insurance-confidence`);
    await page.goto(`${baseUrl}${CM}`);
    await page.waitForURL(`${baseUrl}${CM}/order-manage`);
    expect(errors).toEqual([]);
  });

  it('pre-fills the refund form with the invoice of the route', async () => {
    const invoice = await firstId('invoices');
    const r = (await (await fetch(`${baseUrl}/api/invoices/${invoice}`, { headers: auth })).json()) as { data: { invoiceNo: string } };
    await page.goto(`${baseUrl}${CM}/invoice-manage/apply-refund/${invoice}`);
    const input = page.locator('.ant-formily-item input').first();
    await expect.poll(() => input.inputValue(), { timeout: 20000 }).toBe(r.data.invoiceNo);
  });

  it('redirects old paths to their new ones, params kept', async () => {
    const order = await firstId('orders');
    await page.goto(`${baseUrl}/order/detail/${order}`);
    await page.waitForURL(`${baseUrl}${CM}/order-manage/${order}`);
    await page.goto(`${baseUrl}/insure/roster`);
    await page.waitForURL(`${baseUrl}${FI}/upload-insurance-confidence`);
    await page.goto(`${baseUrl}/mine/business`);
    await page.waitForURL(`${baseUrl}/mine/home`);
  });

  it('switches business from the header; without the attendance pack the page explains it in Chinese', async () => {
    await page.goto(`${baseUrl}${M}/attendance-insurance/insure-person-manage`);
    await page.getByTestId('business-switch').click();
    await page.getByRole('menuitem', { name: /杭州云帆物流/ }).click();
    await expect.poll(() => page.getByTestId('current-business').textContent()).toContain('杭州云帆物流');
    const text = await page.locator('.ant-result').first().innerText();
    expect(text).toContain('「考勤」服务包');
    expect(text).not.toContain('attendance');
    const menu = await page.locator('.ant-pro-sider, .ant-layout-sider').first().innerText();
    expect(menu).not.toContain('考勤投保');
    expect(menu).not.toContain('银行账户管理'); // operator there
    expect(errors).toEqual([]);
  });

  it('shows the brand in both nav modes, and the workbench without the side menu', async () => {
    await page.goto(`${baseUrl}${CM}/order-manage`);
    await page.getByTestId('brand').first().waitFor();
    await page.getByTestId('account-menu').hover();
    await page.getByText('切换为顶部导航').click();
    await expect.poll(() => page.getByTestId('brand').first().isVisible()).toBe(true);
    expect(await page.locator('.ant-pro-sider').count()).toBe(0);
    await page.getByTestId('account-menu').hover();
    await page.getByText('切换为侧边导航').click();
    await page.locator('.ant-pro-sider').first().waitFor();
    await page.goto(`${baseUrl}/mine/home`);
    await page.getByTestId('section-links').first().waitFor();
    expect(await page.locator('.ant-pro-sider, .ant-layout-sider').count()).toBe(0);
    await expect.poll(() => page.getByTestId('brand').first().isVisible()).toBe(true);
  });

  it('a remembered business is entered directly at the next sign-in', async () => {
    const other = await browser.newContext();
    const fresh = await other.newPage();
    watch(fresh);
    await signInToFirstBusiness(fresh, baseUrl);
    // The session is gone (no token) but the chosen business is still saved: the password alone enters it.
    await fresh.evaluate(() => {
      localStorage.setItem('root', JSON.stringify({ user: { token: '', businessInfo: { businessId: 'B10001', chargeForm: 'prepaid' } } }));
    });
    await signIn(fresh, baseUrl);
    await fresh.waitForURL(/\/mine\/home$/);
    expect(await fresh.getByTestId('business-picker').count()).toBe(0);
    await other.close();
    expect(errors).toEqual([]);
  });
});
