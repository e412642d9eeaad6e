import ExcelJS from 'exceljs';
import iconv from 'iconv-lite';
import { describe, expect, it } from 'vitest';
import { DESKTOP, gatewayUrl, useSignedInPage } from './session';
import { idCard } from '../id-card';
import { PERSONS_PAGE as PAGE, fillAttendance, submitAttendance } from './attendance';

const baseUrl = gatewayUrl();
const ui = useSignedInPage(baseUrl, DESKTOP);

describe('attendance insurance: the outcome on the page after submitting', () => {
  it('shows who was insured, the cost and each skipped person with the reason, linking the form and the persons list', async () => {
    const { page } = ui;
    const balance = (await ui.get<{ balance: number }>('/api/payments/due')).balance;
    const complete = idCard('19910214', 91);
    const csv = [
      '姓名,身份证号,手机号,工种',
      `周全,${complete},13912340091,仓储分拣`,
      `吴缺,${idCard('19920315', 92)},,`,
      `郑老,${idCard('19450101', 93)},13912340093,保洁`,
    ].join('\n');
    await fillAttendance(page, baseUrl, csv, 3);

    // The page itself says what happened: no redirect, no need to open the history.
    const result = await submitAttendance(page);
    expect(page.url()).toContain(`${PAGE}?tab=attendance`);
    expect(await result.locator('.ant-result-title').innerText()).toBe('投保已提交：1 人已投保，2 人未投保');
    const summary = await page.getByTestId('attendance-summary').innerText();
    expect(summary).toMatch(/已投保\s+1 人/);
    expect(summary).toMatch(/未投保\s+2 人/);
    const charged = Math.round(balance * 100 - (await ui.get<{ balance: number }>('/api/payments/due')).balance * 100) / 100;
    expect(charged).toBeGreaterThan(0);
    expect(summary).toContain(`¥${charged.toFixed(2)}`);

    const skipped = page.getByTestId('attendance-skipped').locator('tr.ant-table-row');
    expect(await skipped.count()).toBe(2);
    const missing = await skipped.nth(0).innerText();
    expect(missing).toContain('吴缺');
    expect(missing).toContain('信息待完善');
    expect(missing).toContain('缺少手机号、工种');
    const incorrect = await skipped.nth(1).innerText();
    expect(incorrect).toContain('郑老');
    expect(incorrect).toContain('年龄');
    expect(incorrect).not.toContain(idCard('19450101', 93)); // ID numbers stay masked

    // The historical form keeps the same per-row results.
    await result.getByRole('button', { name: '查看历史表单详情' }).click();
    await page.waitForURL(/\/query-history-form\/\d+$/, { timeout: 20000 });
    await page.locator('.ant-table-row', { hasText: '吴缺' }).waitFor({ timeout: 20000 });
    expect(await page.locator('.ant-table-row', { hasText: '吴缺' }).innerText()).toContain('失败');
    expect(await page.locator('.ant-table-row', { hasText: '周全' }).innerText()).toContain('成功');

    await page.goto(`${baseUrl}${PAGE}?tab=attendance`);
    expect(await page.getByTestId('attendance-result').count()).toBe(0); // a fresh visit shows the form again
  });

  it('the 去参保人员管理处理 button leads to the persons list', async () => {
    const { page } = ui;
    const csv = ['姓名,身份证号,手机号,工种', `冯全,${idCard('19930416', 94)},13912340094,配送`, `陈缺,${idCard('19940517', 95)},13912340095,`].join('\n');
    await fillAttendance(page, baseUrl, csv, 2);
    const result = await submitAttendance(page);
    expect(await page.getByTestId('attendance-skipped').locator('tr.ant-table-row').innerText()).toContain('缺少工种');
    await result.getByRole('button', { name: '去参保人员管理处理' }).click();
    await page.waitForURL(/tab=persons/);
    await page.locator('tr.ant-table-row').first().waitFor({ timeout: 20000 });
    expect(await page.getByRole('tab', { name: '参保人员', selected: true }).count()).toBe(1);
  });

  it('imports a GBK CSV saved by Excel and an xlsx through the roster reader: five people from five rows, the example row left out', async () => {
    const { page } = ui;
    const names = ['欧阳娜娜', '诸葛明亮', '司马相如', '上官婉儿', '东方不败'];
    const csv = ['姓名,身份证号,手机号,工种', ...names.map((n, i) => `${n},${idCard('19900101', 70 + i)},1391234007${i},分拣员`)].join('\r\n');
    await fillAttendance(page, baseUrl, { name: '考勤.csv', mimeType: 'text/csv', buffer: iconv.encode(csv, 'gbk') }, 5);
    const cells = () => page.locator('.ant-table-tbody tr.ant-table-row input').evaluateAll((els) => els.map((e) => (e as HTMLInputElement).value));
    const shown = await cells();
    for (const n of names) expect(shown).toContain(n);
    expect(shown).not.toContain('姓名');

    // The downloaded template filled in Excel: its example row is not a person.
    const wb = new ExcelJS.Workbook();
    const ws = wb.addWorksheet('名单');
    ws.addRows([['*姓名', '*身份证号', '手机号', '工种'], ['张三', '11010519491231002X', '13800000000', '快递员'], ['钱多多', idCard('19910101', 80), '13912340080', '保洁']]);
    const xlsx = Buffer.from(await wb.xlsx.writeBuffer());
    await fillAttendance(page, baseUrl, { name: '考勤.xlsx', mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', buffer: xlsx }, 1);
    expect(await cells()).toContain('钱多多');
  });
});
