import { describe, expect, it } from 'vitest';
import { DESKTOP, gatewayUrl, listRowsLoaded, urlQuery, useSignedInPage, openPage } from './session';
import { makeIdCard } from '../id-card';
import { CM, M, PM } from './routeList';

const baseUrl = gatewayUrl();
const ui = useSignedInPage(baseUrl, DESKTOP);
const ORDERS = `${CM}/order-manage`;


const query = () => urlQuery(ui.page);
const firstOrderNo = () => ui.page.locator('.ant-table-row').first().locator('td').first().innerText();
const activePage = () => ui.page.locator('.ant-pagination-item-active').innerText();

const rowsLoaded = () => listRowsLoaded(ui.page);

describe('list state in the URL', () => {
  it('keeps page and sort across a detail and back, and a reload', async () => {
    const { page } = ui;
    await openPage(page, `${baseUrl}${ORDERS}`);
    await rowsLoaded();
    expect(query()).toEqual({}); // the default view keeps a clean URL
    await page.locator('.ant-table-thead th', { hasText: '订单金额' }).first().click();
    await expect.poll(query).toMatchObject({ sortField: 'amount', sortOrder: 'ascend', current: '1' });
    await page.locator('.ant-pagination-item-2').click();
    await expect.poll(query).toMatchObject({ current: '2', pageSize: '30', sortField: 'amount' });
    await rowsLoaded();
    const first = await firstOrderNo();

    await page.locator('.ant-table-row').first().locator('a').first().click();
    await page.waitForURL(/\/order-manage\/\d+$/);
    await page.goBack();
    await rowsLoaded();
    expect(query()).toMatchObject({ current: '2', sortField: 'amount', sortOrder: 'ascend' });
    await expect.poll(activePage).toBe('2');
    await expect.poll(firstOrderNo).toBe(first);

    await page.reload();
    await rowsLoaded();
    await expect.poll(activePage).toBe('2');
    await expect.poll(firstOrderNo).toBe(first);
  });

  it('keeps the search form filters, and 重置 clears them from the URL', async () => {
    const { page } = ui;
    await openPage(page, `${baseUrl}${ORDERS}`);
    await rowsLoaded();
    await page.getByPlaceholder('请输入').nth(1).fill('团体');
    await page.getByRole('button', { name: '查询' }).click();
    await expect.poll(query).toMatchObject({ productName: '团体', current: '1' });
    await rowsLoaded();
    await page.locator('.ant-table-row').first().locator('a').first().click();
    await page.waitForURL(/\/order-manage\/\d+$/);
    await page.goBack();
    await rowsLoaded();
    expect(await page.getByPlaceholder('请输入').nth(1).inputValue()).toBe('团体');
    const products = await page.locator('.ant-table-row td:nth-child(2)').allInnerTexts();
    expect(products.length).toBeGreaterThan(0);
    for (const p of products) expect(p).toContain('团体');

    await page.getByRole('button', { name: '重置' }).click();
    await expect.poll(() => query().productName).toBeUndefined();
    expect(await page.getByPlaceholder('请输入').nth(1).inputValue()).toBe('');
  });

  it('opens the view a link names: filters (also a date range) in the form, the request and the URL', async () => {
    const { page } = ui;
    const requests: string[] = [];
    page.on('request', (r) => {
      if (new URL(r.url()).pathname === '/api/orders') requests.push(r.url());
    });
    await page.goto(`${baseUrl}${ORDERS}?payStatus=paid&createdAt=2020-01-01,2099-12-31&current=1&pageSize=50&sortField=createdAt&sortOrder=descend`);
    await rowsLoaded();
    const sent = new URL(requests.at(-1)!).searchParams;
    expect(sent.get('payStatus')).toBe('paid');
    expect(sent.get('pageSize')).toBe('50');
    expect(sent.get('sortField')).toBe('createdAt');
    expect(sent.get('createdAtRange') ?? sent.get('createdAt')).toBe('2020-01-01,2099-12-31');
    // Filters in use are shown: the search form opens expanded, the date range is filled in.
    const dates = page.locator('[data-testid=list-search] .ant-picker-range input');
    await expect.poll(() => dates.first().inputValue()).toBe('2020-01-01');
    expect(await dates.nth(1).inputValue()).toBe('2099-12-31');
    const statuses = await page.locator('.ant-table-row td:nth-child(5)').allInnerTexts();
    for (const s of statuses) expect(s).toContain('已支付');
  });

  it('a drawer detail opened from a list keeps the list state when closed', async () => {
    const { page } = ui;
    await openPage(page, `${baseUrl}${PM}/pay-apply?sortField=createdAt&sortOrder=ascend&current=1&pageSize=30`);
    await rowsLoaded();
    await page.locator('.ant-table-row').first().locator('a').first().click();
    await expect.poll(query).toMatchObject({ sortField: 'createdAt', sortOrder: 'ascend' });
    expect(query().id).toBeTruthy();
    await page.locator('.ant-drawer-close').click();
    await expect.poll(() => query().id).toBeUndefined();
    expect(query()).toMatchObject({ sortField: 'createdAt', sortOrder: 'ascend', current: '1' });
  });
});

describe('a filter picked from a list of the gateway', () => {
  it('保险方案 on the insurance records is a select of the plans on sale, and lists only that plan', async () => {
    const { page } = ui;
    const plans = await ui.get<Array<{ value: string }>>('/api/plans');
    const first = await ui.get<{ list: Array<{ planName: string }> }>('/api/insure-records?current=1&pageSize=1');
    const plan = plans.find((p) => p.value === first.list[0].planName)!;
    expect(plan).toBeTruthy();
    const expected = await ui.get<{ total: number }>(`/api/insure-records?current=1&pageSize=1&planName=${encodeURIComponent(plan.value)}`);

    await openPage(page, `${baseUrl}${M}/insured-record`);
    await rowsLoaded();
    const item = page.locator('[data-testid=list-search] .ant-form-item', { hasText: '保险方案' });
    if (!(await item.isVisible())) await page.getByTestId('list-search-toggle').click(); // the third filter is folded at first
    await item.locator('.ant-select').click();
    const options = page.locator('.ant-select-dropdown:visible .ant-select-item-option');
    await expect.poll(() => options.count()).toBe(plans.length);
    await options.filter({ hasText: plan.value }).click();
    await page.getByRole('button', { name: '查询' }).click();
    await expect.poll(query).toMatchObject({ planName: plan.value, current: '1' });
    await rowsLoaded();

    const headers = await page.locator('.ant-table-thead th').allInnerTexts();
    const col = headers.findIndex((h) => h.trim() === '保险方案') + 1;
    const cells = await page.locator(`.ant-table-row td:nth-child(${col})`).allInnerTexts();
    expect(cells.length).toBe(Math.min(expected.total, 30));
    for (const c of cells) expect(c.trim()).toBe(plan.value); // the stored name, as the option shows it (no price)
    await expect.poll(() => page.locator('.ant-pagination-total-text').innerText()).toContain(String(expected.total));
  });
});

describe('a list over 1,000 rows', () => {
  it('reaches its last row through the pager: 约 N 条 while estimated, 共 1050 条 on the last page', async () => {
    const { page } = ui;
    // 1,050 people on one day's attendance (day plan): one batch, a filter no count answers exactly.
    const plans = await ui.get<Array<{ value: string }>>('/api/plans?unit=day');
    const { today } = await ui.get<{ today: string }>('/api/overview/workbench');
    const rows = Array.from({ length: 1050 }, (_, i) => ({
      name: `翻页${String(i).padStart(4, '0')}`,
      idCard: makeIdCard('320506', `1990${String(1 + (i % 12)).padStart(2, '0')}15`, 100 + Math.floor(i / 12)),
      phone: `137${String(i).padStart(8, '0')}`,
      jobType: '分拣员',
    }));
    const r = await fetch(`${baseUrl}/api/insure/attendance`, {
      method: 'POST',
      headers: { ...ui.auth, 'Content-Type': 'application/json' },
      body: JSON.stringify({ planName: plans[0].value, workDate: today, rows }),
    });
    const batch = ((await r.json()) as { data: { batchNo: string; insured: number } }).data;
    expect(batch.insured).toBe(1050);

    await openPage(page, `${baseUrl}${M}/insured-record?batchNo=${batch.batchNo}&pageSize=50`);
    // The first list request after 1,050 new rows also refreshes the table's statistics for the estimate.
    await page.locator('.ant-table-row').first().waitFor({ timeout: 60_000 });
    await rowsLoaded();
    const total = () => page.locator('.ant-pagination-total-text').innerText();
    expect(await total()).toMatch(/^约 [\d,]+ 条$/);
    const next = page.locator('.ant-pagination-next');
    const nextPage = async () => {
      const before = await activePage();
      await next.click();
      await expect.poll(activePage).not.toBe(before);
      await rowsLoaded();
    };
    // Page by page from the start, then the pager's 跳至 to page 19 (each page of an estimated list is
    // its own request, so walking all 21 only repeats this), then page by page to the end.
    await nextPage();
    await nextPage();
    expect(await activePage()).toBe('3');
    const jumper = page.locator('.ant-pagination-options-quick-jumper input');
    await jumper.fill('19');
    await jumper.press('Enter');
    await expect.poll(activePage).toBe('19');
    await rowsLoaded();
    expect(await total()).toMatch(/^约 [\d,]+ 条$/);
    for (let i = 0; i < 10 && (await next.getAttribute('aria-disabled')) !== 'true'; i++) await nextPage();
    await expect.poll(total).toBe('共 1050 条');
    expect(await activePage()).toBe('21');
    // A full last page: 50 rows, the batch's first record (ID-card order) at the very end.
    expect(await page.locator('.ant-table-row').count()).toBe(50);
    const first = rows.map((x) => x).sort((a, b) => (a.idCard < b.idCard ? -1 : 1))[0];
    expect(await page.locator('.ant-table-row').last().innerText()).toContain(first.name);
  });
});
