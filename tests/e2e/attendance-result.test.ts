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
});
