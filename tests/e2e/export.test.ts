import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { downloadBytes, gatewayUrl, useSignedInPage } from './session';

const baseUrl = gatewayUrl();
const ui = useSignedInPage(baseUrl, { locale: 'zh-CN', acceptDownloads: true });


describe('list export in the browser', () => {
  it('exports the filtered claims list to an .xlsx holding exactly the filtered rows and the shown columns', async () => {
    const { page } = ui;
    await page.goto(`${baseUrl}/service/service-center/pay-manage/pay-apply`);
    await page.locator('.ant-table-row').first().waitFor({ timeout: 20000 });
    // Filter: 状态 = 已拒赔 (no test files a rejected claim, so the filtered rows stay put; in the folded part of the search form).
    await page.getByTestId('list-search-toggle').click();
    const status = page.locator('[data-testid=list-search] .ant-form-item', { has: page.locator('label', { hasText: /^状态$/ }) });
    await status.locator('.ant-select').click();
    await page.locator('.ant-select-item-option', { hasText: '已拒赔' }).click();
    await page.getByRole('button', { name: /查\s*询/ }).click();
    const api = (await (await fetch(`${baseUrl}/api/claims?status=rejected&pageSize=100&sortField=createdAt&sortOrder=descend`, { headers: ui.auth })).json()) as {
      data: { total: number; list: Array<{ claimNo: string }> };
    };
    await expect.poll(() => page.locator('.ant-pagination-total-text').innerText(), { timeout: 20000 }).toContain(String(api.data.total));

    const downloading = page.waitForEvent('download', { timeout: 30000 });
    await page.getByRole('button', { name: /导出 Excel/ }).click();
    const download = await downloading;
    expect(download.suggestedFilename()).toMatch(/^理赔申请-\d{8}\.xlsx$/);
    await page.getByText(/已导出 \d+ 条记录/).waitFor({ timeout: 20000 });

    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load((await downloadBytes(download)) as unknown as ArrayBuffer);
    const rows: ExcelJS.CellValue[][] = [];
    wb.worksheets[0].eachRow((r) => rows.push((r.values as ExcelJS.CellValue[]).slice(1)));
    const header = rows[0];
    const shownHeaders = (await page.locator('.ant-table-thead th').allInnerTexts()).map((t) => t.trim()).filter((t) => t && t !== '操作');
    expect(header).toEqual(shownHeaders);
    const body = rows.slice(1);
    expect(body.length).toBe(api.data.total);
    const statusCol = header.indexOf('状态');
    expect(body.every((r) => r[statusCol] === '已拒赔')).toBe(true);
    const noCol = header.indexOf('理赔申请号');
    expect(new Set(body.map((r) => r[noCol]))).toEqual(new Set(api.data.list.map((c) => c.claimNo)));
  });
});
