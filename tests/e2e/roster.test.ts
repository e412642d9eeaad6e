import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { chromium, type Browser, type Page } from 'playwright-core';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from './chromium';
import { P, signInToFirstBusiness } from './session';

const baseUrl = inject('baseUrl');

/** A valid 18-digit mainland ID for a birth date and sequence (ISO 7064 MOD 11-2 check digit). */
function idCard(birth: string, seq: number): string {
  const body = `110105${birth}${String(seq).padStart(3, '0')}`;
  const w = [7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2];
  const sum = [...body].reduce((s, d, i) => s + Number(d) * w[i], 0);
  return body + '10X98765432'[sum % 11];
}

let browser: Browser;
let page: Page;
let auth: Record<string, string>;

async function batchTotal(): Promise<number> {
  const r = await fetch(`${baseUrl}/api/insure-batches?current=1&pageSize=1`, { headers: auth });
  const b = (await r.json()) as { data: { total: number } };
  return b.data.total;
}

describe('roster insurance in the browser', () => {
  beforeAll(async () => {
    browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS, headless: true });
    page = await browser.newPage({ locale: 'zh-CN' });
    auth = await signInToFirstBusiness(page, baseUrl);
  });

  afterAll(async () => {
    await browser?.close();
  });

  it('imports a CSV roster, blocks a bad ID without storing anything, then insures after the fix', async () => {
    const before = await batchTotal();
    await page.goto(`${baseUrl}${P.roster}`);

    await page.locator('.ant-select').first().click();
    await page.locator('.ant-select-item-option').first().click();
    const date = page.getByPlaceholder('请选择日期');
    await date.click();
    await date.fill('2026-12-01');
    await date.press('Enter');

    const good = idCard('19900307', 11);
    const bad = `${idCard('19910412', 12).slice(0, 17)}${idCard('19910412', 12).endsWith('0') ? '1' : '0'}`;
    const csv = `姓名,身份证号,手机号,工种\n张伟,${good},13912345678,仓储分拣\n李娜,${bad},13812345679,配送骑手\n`;
    await page.locator('input[type=file]').setInputFiles({ name: 'roster.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
    await expect.poll(() => page.locator('.ant-table-tbody tr.ant-table-row').count()).toBe(2);

    await page.getByRole('button', { name: '提交投保' }).click();
    await expect.poll(() => page.getByText('身份证号不正确').count()).toBeGreaterThan(0);
    expect(new URL(page.url()).pathname).toBe(P.roster);
    expect(await batchTotal()).toBe(before);

    // Fix the second person's ID in the table and submit again.
    const fixed = idCard('19910412', 12);
    const cell = page.locator('.ant-table-tbody tr.ant-table-row').nth(1).locator('input').nth(1);
    await cell.fill(fixed);
    await page.getByRole('button', { name: '提交投保' }).click();
    await page.waitForURL(/\/query-history-form$/, { timeout: 20000 });
    expect(await batchTotal()).toBe(before + 1);

    const latest = (await (await fetch(`${baseUrl}/api/insure-batches?current=1&pageSize=1&sortField=createdAt&sortOrder=descend`, { headers: auth })).json()) as {
      data: { list: Array<{ batchNo: string; total: number; source: string }> };
    };
    expect(latest.data.list[0]).toMatchObject({ total: 2, source: 'roster' });
    await expect.poll(() => page.locator('.ant-table-tbody').innerText(), { timeout: 15000 }).toContain(latest.data.list[0].batchNo);
  });
});
