import ExcelJS from 'exceljs';
import iconv from 'iconv-lite';
import { describe, expect, it } from 'vitest';
import { DESKTOP, P, downloadBytes, gatewayUrl, useSignedInPage, openPage } from './session';
import { idCard } from '../id-card';

const baseUrl = gatewayUrl();
const ui = useSignedInPage(baseUrl, { ...DESKTOP, viewport: { width: 1440, height: 1000 }, acceptDownloads: true });

const broken = (id: string) => `${id.slice(0, 17)}${id.endsWith('1') ? '2' : '1'}`;

async function openUploadPage(): Promise<string> {
  await openPage(ui.page, `${baseUrl}${P.roster}`);
  await ui.page.getByTestId('roster-upload').waitFor();
  await ui.page.getByTestId('plan-select').click();
  const option = ui.page.locator('.ant-select-item-option').first();
  const plan = (await option.getAttribute('title')) ?? '';
  await option.click();
  return plan;
}

async function rowValues(): Promise<string[][]> {
  return ui.page.getByTestId('roster-row').evaluateAll((rows) =>
    rows.map((r) => [...r.querySelectorAll('[data-col]')].map((c) => (c instanceof HTMLInputElement ? c.value : (c.textContent ?? '')))),
  );
}

describe('roster upload in the browser', () => {
  it('template → filled .xlsx with one bad row → preview → fix in the editor → confirm with the cost → historical form → original file', async () => {
    const { page } = ui;
    await openUploadPage();

    // The template, as the user downloads it.
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: '下载模板' }).click()]);
    expect(download.suggestedFilename()).toBe('名单投保模板.xlsx');
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load((await downloadBytes(download)) as unknown as ArrayBuffer);
    const ws = wb.worksheets[0];
    expect((ws.getRow(1).values as string[]).slice(1)).toEqual(['*姓名', '*身份证号', '手机号', '工种']);

    // Fill it as Excel would: the example row replaced by three people, one with a wrong ID.
    const good1 = idCard('19900307', 31);
    const good2 = idCard('19920518', 32);
    const fixed = idCard('19930621', 33);
    ws.spliceRows(2, 1);
    ws.addRow(['陈晓东', good1, '13912345678', '仓储分拣']);
    ws.addRow(['林雪梅', broken(fixed), '13812345679', '配送骑手']);
    ws.addRow(['黄志强', good2, '', '']);
    const bytes = Buffer.from(await wb.xlsx.writeBuffer());

    await page.locator('input[type=file]').setInputFiles({ name: '三月名单.xlsx', mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', buffer: bytes });
    const summary = page.getByTestId('upload-summary');
    await summary.waitFor({ timeout: 60_000 });
    expect(await summary.innerText()).toContain('共 3 行，有效 2 行，有误 1 行，重复 0 行');

    // The bad row, on the 有误 tab, fixed in place.
    await page.getByRole('tab', { name: /有误 1/ }).click();
    await expect.poll(() => page.getByTestId('roster-row').count()).toBe(1);
    const row = page.getByTestId('roster-row').first();
    expect(await row.innerText()).toContain('身份证号不正确');
    await row.locator('[data-col=idCard]').click();
    await row.locator('input[data-col=idCard]').fill(fixed);
    await expect.poll(() => row.getAttribute('data-status')).toBe('valid');
    await expect.poll(() => page.getByRole('tab', { name: /有效 3/ }).count()).toBe(1);

    // Cost dialog, then charge.
    const quoteBefore = await ui.get<{ balance: number }>(`/api/insure-uploads/quote?planName=${encodeURIComponent((await ui.get<Array<{ value: string }>>('/api/plans?unit=month'))[0].value)}&startDate=${(await ui.get<{ earliestStartDate: string }>('/api/insure-uploads/config')).earliestStartDate}&people=1`);
    await page.getByRole('button', { name: /确认投保（3 人）/ }).click();
    const breakdown = page.getByTestId('cost-breakdown');
    await breakdown.waitFor();
    const text = await breakdown.innerText();
    expect(text).toContain('3 人 × 12 个月');
    expect(text).toContain('扣费后余额');
    const total = Number((await page.getByTestId('cost-total').innerText()).replace(/[¥,]/g, ''));
    expect(total).toBeGreaterThan(0);
    await page.getByRole('button', { name: '确认并扣费' }).click();

    await page.waitForURL(/\/query-history-form\/\d+$/, { timeout: 30_000 });
    const batchId = Number(new URL(page.url()).pathname.split('/').pop());
    await expect.poll(() => page.locator('.ant-descriptions').first().innerText(), { timeout: 15_000 }).toContain('三月名单.xlsx');
    await expect.poll(() => page.locator('.ant-descriptions').first().innerText(), { timeout: 15_000 }).toContain('138****0000');
    expect(await page.locator('.ant-descriptions').first().innerText()).toContain('上传文件');
    await expect.poll(() => page.locator('.ant-table-tbody tr.ant-table-row').count(), { timeout: 15_000 }).toBe(3);
    expect(await page.locator('.ant-table-tbody').innerText()).toContain('林雪梅');
    const quoteAfter = await ui.get<{ balance: number }>(`/api/insure-uploads/quote?planName=${encodeURIComponent((await ui.get<Array<{ value: string }>>('/api/plans?unit=month'))[0].value)}&startDate=${(await ui.get<{ earliestStartDate: string }>('/api/insure-uploads/config')).earliestStartDate}&people=1`);
    expect(Math.round((quoteBefore.balance - quoteAfter.balance) * 100)).toBe(Math.round(total * 100));

    // The original file downloads again, byte for byte.
    const [original] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: '下载原文件' }).click()]);
    expect(original.suggestedFilename()).toBe('三月名单.xlsx');
    expect(Buffer.compare(await downloadBytes(original), bytes)).toBe(0);

    // The form is in the history list, and its row leads back to this detail.
    await openPage(page, `${baseUrl}${P.historyForms}`);
    const batch = await ui.get<{ batchNo: string }>(`/api/insure-batches/${batchId}`);
    await expect.poll(() => page.locator('.ant-table-tbody').innerText(), { timeout: 15_000 }).toContain(batch.batchNo);
  });

  it('imports a GBK CSV saved by Excel on Chinese Windows with correct names', async () => {
    const { page } = ui;
    await openUploadPage();
    const a = idCard('19880101', 41);
    const b = idCard('19870202', 42);
    const csv = iconv.encode(`姓名,身份证号,手机号,工种\r\n欧阳娜娜,${a},13712345678,分拣员\r\n诸葛明亮,${b},,\r\n`, 'gbk');
    await page.locator('input[type=file]').setInputFiles({ name: '名单.csv', mimeType: 'text/csv', buffer: csv });
    await page.getByTestId('upload-summary').waitFor({ timeout: 60_000 });
    expect(await page.getByTestId('upload-summary').innerText()).toContain('共 2 行，有效 2 行');
    const values = await rowValues();
    expect(values.map((v) => v.slice(0, 2))).toEqual([
      ['欧阳娜娜', a],
      ['诸葛明亮', b],
    ]);
  });

  it('refuses an .exe renamed .xlsx with a Chinese message', async () => {
    const { page } = ui;
    await openUploadPage();
    const exe = Buffer.concat([Buffer.from('MZ'), Buffer.alloc(58), Buffer.from([0x80, 0, 0, 0]), Buffer.alloc(64), Buffer.from('PE\0\0'), Buffer.alloc(400)]);
    await page.locator('input[type=file]').setInputFiles({ name: '名单.xlsx', mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', buffer: exe });
    const err = page.getByTestId('upload-error');
    await err.waitFor({ timeout: 30_000 });
    expect(await err.innerText()).toContain('文件内容与扩展名不符（实际为可执行文件）');
    expect(await page.getByTestId('roster-row').count()).toBe(0);
  });
});
