import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { businessName, chooseBusiness, gatewayUrl, openPage, recordErrors, sharedBrowser, signIn, pickFromAccountMenu } from './session';
import { AC, CM, CONTENT, FI, M, PM, PUBLIC_ROUTES, firstId as firstIdOf, signedInRoutes } from './routeList';

const baseUrl = gatewayUrl();

let browser: Browser;
let context: BrowserContext;
let page: Page;
let auth: Record<string, string>;
const errors: string[] = [];

const firstId = (resource: string) => firstIdOf(baseUrl, auth, resource);

/** Loads a path cold (a deep link: the console starts at that URL) and checks its header title, real content and no error page. */
async function expectDeepLink(path: string, title: string, content = CONTENT) {
  await page.goto(`${baseUrl}${path}`);
  await expect.poll(() => page.getByTestId('page-title').textContent(), { timeout: 30000 }).toBe(title);
  await page.locator(content).first().waitFor({ timeout: 30000 });
  expect(await page.getByText('页面出错了').count(), path).toBe(0);
  await expect.poll(() => page.title()).toMatch(new RegExp(`^${title} · `));
}

describe('every route of the specification in Chromium', () => {
  beforeAll(async () => {
    browser = await sharedBrowser();
    context = await browser.newContext({ locale: 'zh-CN', reducedMotion: 'reduce' });
    page = await context.newPage();
    recordErrors(page, errors);
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
    expect(await page.locator('[data-testid=side-menu]').count()).toBe(0);
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

  it('answers every signed-in route as a deep link, and opens a list, a detail and a form cold', async () => {
    // Opening each inside the console, with its title and content and no error logged, is the tour's
    // (a11y.test.ts): each is also a deep link, the gateway answers every route's URL with the console…
    const pages = await signedInRoutes(baseUrl, auth);
    for (const [path] of pages) {
      const res = await fetch(`${baseUrl}${path}`, { headers: { accept: 'text/html' } });
      expect(res.status, path).toBe(200);
      expect(await res.text(), path).toContain('<div id="root">');
    }
    // …which starts on that route: a list, a detail by its id and a form by its id, loaded cold.
    const deep = pages.filter(([path]) => [/\/order-manage$/, /\/order-manage\/\d+$/, /\/apply-refund\/\d+$/].some((r) => r.test(path)));
    expect(deep).toHaveLength(3);
    for (const [path, title, content] of deep) await expectDeepLink(path, title, content);
    // the section route opens its first child
    await page.goto(`${baseUrl}${M}`);
    await page.waitForURL(`${baseUrl}${FI}/upload-insurance-confidence`);
    await page.goto(`${baseUrl}${CM}`);
    await page.waitForURL(`${baseUrl}${CM}/order-manage`);
    expect(errors).toEqual([]);
  });

  it('pre-fills the refund form with the invoice of the route and what is left of it', async () => {
    const r = (await (await fetch(`${baseUrl}/api/invoice-refunds/refundable-invoices`, { headers: auth })).json()) as { data: Array<{ id: number; value: string; left: number }> };
    const inv = r.data[0];
    await openPage(page, `${baseUrl}${CM}/invoice-manage/apply-refund/${inv.id}`);
    await expect.poll(() => page.locator('.ant-formily-item .ant-select-selection-item').first().textContent(), { timeout: 20000 }).toContain(inv.value);
    const left = `¥${inv.left.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;
    expect(await page.getByTestId('refund-left').innerText()).toContain(`可退 ${left}`);
  });

  it('goes from 历史表单查询 into a form and back to the list', async () => {
    await openPage(page, `${baseUrl}${FI}/query-history-form`);
    const row = page.locator('.ant-table-row').first();
    await row.waitFor({ timeout: 30000 });
    const no = (await row.locator('td').first().innerText()).trim();
    await row.getByRole('link', { name: no }).click();
    await page.waitForURL(new RegExp(`${FI}/query-history-form/\\d+$`));
    await expect.poll(() => page.getByTestId('page-title').textContent(), { timeout: 20000 }).toBe('历史表单详情');
    await expect.poll(() => page.locator('.ant-descriptions').first().innerText(), { timeout: 20000 }).toContain(no);
    await page.goBack();
    await page.waitForURL(`${baseUrl}${FI}/query-history-form`);
    await page.locator('.ant-table-row').first().waitFor({ timeout: 30000 });
    // A record's 投保单号 leads to the same form.
    await openPage(page, `${baseUrl}${M}/insured-record`);
    const rec = page.locator('.ant-table-row').first();
    await rec.waitFor({ timeout: 30000 });
    await rec.locator('td').first().getByRole('link').click();
    await page.waitForURL(new RegExp(`${FI}/query-history-form/\\d+$`));
    expect(errors).toEqual([]);
  });

  it('shows one 未找到 page for a detail with an unknown id, with the way back to its list', async () => {
    for (const path of [`${FI}/query-history-form/999999`, `${CM}/order-manage/abc`, `${CM}/invoice-manage/detail/999999`, `${M}/insured-record?id=999999`]) {
      await openPage(page, `${baseUrl}${path}`);
      const nf = page.getByTestId('detail-not-found');
      await nf.waitFor({ timeout: 30000 });
      expect(await nf.innerText(), path).toContain('未找到');
    }
    await page.getByTestId('detail-not-found').getByRole('button', { name: '返回列表' }).click();
    await page.waitForURL(`${baseUrl}${M}/insured-record`);
    // The browser logs the gateway's 404 (and, for an id that is no number, 400) answers this test asked for; nothing else may be logged.
    const asked = errors.filter((e) => /status of 40[04] .*\/api\/(insure-batches|orders|invoices|insure-records)\/(999999|abc)/.test(e));
    expect(errors.filter((e) => !asked.includes(e))).toEqual([]);
    errors.splice(0, errors.length);
  });

  it('invoice apply offers only invoiceable orders, with amount and date, and starts from the title and tax number', async () => {
    const offered = (await (await fetch(`${baseUrl}/api/invoices/invoiceable-orders`, { headers: auth })).json()) as { data: Array<{ value: string; label: string }> };
    const defaults = (await (await fetch(`${baseUrl}/api/invoices/apply-defaults`, { headers: auth })).json()) as { data: { title: string; taxNo: string } };
    await openPage(page, `${baseUrl}${CM}/invoice-manage/apply`);
    const title = page.getByRole('textbox', { name: '发票抬头' });
    await expect.poll(() => title.inputValue(), { timeout: 20000 }).toBe(defaults.data.title);
    expect(await page.getByRole('textbox', { name: '税号' }).inputValue()).toBe(defaults.data.taxNo);
    await page.locator('.ant-formily-item', { hasText: '开票订单' }).locator('.ant-select-selector').click();
    const options = page.locator('.ant-select-dropdown:visible .ant-select-item-option');
    await options.first().waitFor({ timeout: 20000 });
    const labels = await page.locator('.ant-select-dropdown:visible .ant-select-item-option-content').allInnerTexts();
    // A virtual list renders what fits: every shown option is an invoiceable order with its amount and date.
    expect(labels.length).toBeGreaterThan(0);
    for (const l of labels) expect(offered.data.map((o) => o.label)).toContain(l);
    expect(labels[0]).toMatch(/^OD\S+ · ¥[\d,]+\.\d{2} · \d{4}-\d{2}-\d{2} 支付$/);
    const unpaid = (await (await fetch(`${baseUrl}/api/orders?payStatus=unpaid&current=1&pageSize=5`, { headers: auth })).json()) as { data: { list: Array<{ orderNo: string }> } };
    for (const o of unpaid.data.list) expect(labels.join('\n')).not.toContain(o.orderNo);
    await page.keyboard.press('Escape');
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

  it('the change-password form asks for the new password twice and refuses the current one', async () => {
    await openPage(page, `${baseUrl}${AC}/basic-setting`);
    const field = (name: string) => page.locator('.ant-formily-item', { has: page.getByLabel(name, { exact: true }) });
    await page.getByLabel('原密码', { exact: true }).fill('demo1234');
    await page.getByLabel('新密码', { exact: true }).fill('demo1234');
    await page.getByLabel('确认新密码', { exact: true }).fill('demo1234');
    let posted = 0;
    const count = (r: { url(): string; method(): string }) => {
      if (r.method() === 'POST' && r.url().includes('/api/settings/password')) posted++;
    };
    page.on('request', count);
    await page.getByRole('button', { name: '修改密码' }).click();
    await expect.poll(() => field('新密码').innerText(), { timeout: 10000 }).toContain('新密码不能与原密码相同');
    await page.getByLabel('新密码', { exact: true }).fill('another123');
    await page.getByRole('button', { name: '修改密码' }).click();
    await expect.poll(() => field('确认新密码').innerText(), { timeout: 10000 }).toContain('两次输入的密码不一致');
    page.off('request', count);
    expect(posted).toBe(0);
  });

  it('switches business from the header to a page it may open; without the attendance pack the page explains it in Chinese', async () => {
    await openPage(page, `${baseUrl}${M}/attendance-insurance/insure-person-manage`);
    await page.getByTestId('business-switch').click();
    await page.getByRole('menuitem', { name: /杭州云帆物流/ }).click();
    await expect.poll(() => page.getByTestId('current-business').textContent()).toContain('杭州云帆物流');
    // The new business has no attendance pack: the switch lands on the workbench, not on 暂无权限.
    await page.waitForURL(`${baseUrl}/mine/home`);
    await openPage(page, `${baseUrl}${M}/attendance-insurance/insure-person-manage`);
    await page.locator('.ant-result').first().waitFor({ timeout: 20000 });
    const text = await page.locator('.ant-result').first().innerText();
    expect(text).toContain('「考勤」服务包');
    expect(text).not.toContain('attendance');
    const menu = await page.locator('[data-testid=side-menu]').first().innerText();
    expect(menu).not.toContain('考勤投保');
    expect(menu).not.toContain('银行账户管理'); // operator there
    expect(errors).toEqual([]);
  });

  it('shows the brand in both nav modes, and the workbench without the side menu', async () => {
    await openPage(page, `${baseUrl}${CM}/order-manage`);
    await page.getByTestId('brand').first().waitFor();
    await pickFromAccountMenu(page, '切换为顶部导航');
    // The layout switches after the click: wait for the side menu to go, then the brand is in the top bar.
    await expect.poll(() => page.locator('[data-testid=side-menu]').count()).toBe(0);
    await expect.poll(() => page.getByTestId('brand').first().isVisible()).toBe(true);
    await pickFromAccountMenu(page, '切换为侧边导航');
    await page.locator('[data-testid=side-menu]').first().waitFor();
    await openPage(page, `${baseUrl}/mine/home`);
    await page.getByTestId('section-links').first().waitFor();
    expect(await page.locator('[data-testid=side-menu]').count()).toBe(0);
    await expect.poll(() => page.getByTestId('brand').first().isVisible()).toBe(true);
  });

  it('a remembered business is entered directly at the next sign-in', async () => {
    const other = await browser.newContext();
    const fresh = await other.newPage();
    recordErrors(fresh, errors);
    // What an earlier session left in this browser: the session is gone (no token) but the chosen business
    // is still saved (the console's own store, written on the origin's page): the password alone enters it.
    await fresh.goto(`${baseUrl}/login/index`);
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
