import { describe, expect, it } from 'vitest';
import { DESKTOP, gatewayUrl, listRowsLoaded, urlQuery, useSignedInPage } from './session';
import { CM } from './routeList';

const baseUrl = gatewayUrl();
const ui = useSignedInPage(baseUrl, DESKTOP);
const INVOICES = `${CM}/invoice-manage`;


const query = () => urlQuery(ui.page);
const activeTab = () => ui.page.locator('.ant-tabs-tab-active').innerText();
const firstCell = () => ui.page.locator('.ant-tabs-tabpane-active .ant-table-row').first().locator('td').first().innerText();

const rowsLoaded = () => listRowsLoaded(ui.page, '.ant-tabs-tabpane-active .ant-table-row');

describe('list state with tabs (发票管理: 发票 / 退票申请)', () => {
  it('the refunds tab keeps its tab and sort in the URL across its detail, the invoice detail and Back, and a reload', async () => {
    const { page } = ui;
    await page.goto(`${baseUrl}${INVOICES}`);
    await rowsLoaded();
    await page.getByRole('tab', { name: '退票申请' }).click();
    await expect.poll(query).toEqual({ tab: 'refunds' });
    await rowsLoaded();
    await page.locator('.ant-tabs-tabpane-active .ant-table-thead th', { hasText: '退票金额' }).first().click();
    await expect.poll(query).toMatchObject({ tab: 'refunds', sortField: 'amount', sortOrder: 'ascend', current: '1' });
    await rowsLoaded();
    const first = await firstCell();

    // A refund opens its detail (a drawer, ?id=) without losing the list; from there its invoice's page.
    await page.locator('.ant-tabs-tabpane-active .ant-table-row').first().locator('a').first().click();
    await expect.poll(() => query().id).toBeTruthy();
    expect(query()).toMatchObject({ tab: 'refunds', sortField: 'amount' });
    const drawer = page.locator('.ant-drawer-content');
    await drawer.getByText(first).first().waitFor({ timeout: 20000 });
    await drawer.getByRole('link', { name: /^FP/ }).click();
    await page.waitForURL(/\/invoice-manage\/detail\/\d+$/);
    await page.getByText('发票信息').first().waitFor();

    await page.goBack();
    await rowsLoaded();
    expect(query()).toMatchObject({ tab: 'refunds', sortField: 'amount', sortOrder: 'ascend' });
    expect(await activeTab()).toBe('退票申请');
    await page.locator('.ant-drawer-close').click();
    await expect.poll(() => query().id).toBeUndefined();
    expect(query()).toMatchObject({ tab: 'refunds', sortField: 'amount', sortOrder: 'ascend', current: '1' });
    await expect.poll(firstCell).toBe(first);

    await page.reload();
    await rowsLoaded();
    expect(await activeTab()).toBe('退票申请');
    await expect.poll(firstCell).toBe(first);
    expect(query()).toMatchObject({ tab: 'refunds', sortField: 'amount' });
  });

  it('the invoices tab leads to the invoice detail, and Back restores its filter and sort', async () => {
    const { page } = ui;
    await page.goto(`${baseUrl}${INVOICES}?status=issued&sortField=amount&sortOrder=descend&current=1&pageSize=30`);
    await rowsLoaded();
    expect(await activeTab()).toBe('发票');
    const first = await firstCell();
    const statuses = await page.locator('.ant-tabs-tabpane-active .ant-table-row td:nth-child(6)').allInnerTexts();
    for (const s of statuses) expect(s).toContain('已开具');
    await page.locator('.ant-tabs-tabpane-active .ant-table-row').first().getByRole('link', { name: first }).click();
    await page.waitForURL(/\/invoice-manage\/detail\/\d+$/);
    await page.getByText(first).first().waitFor();
    await page.goBack();
    await rowsLoaded();
    expect(query()).toMatchObject({ status: 'issued', sortField: 'amount', sortOrder: 'descend' });
    await expect.poll(firstCell).toBe(first);
    // Switching tabs starts the other list afresh (its own filters), keeping only the tab.
    await page.getByRole('tab', { name: '退票申请' }).click();
    await expect.poll(query).toEqual({ tab: 'refunds' });
  });
});
