import { describe, expect, it } from 'vitest';
import { DESKTOP, P, gatewayUrl, useSignedInPage } from './session';
import { makeIdCard } from '../id-card';

/** IDs from region 110105, apart from the other browser tests' people. */
const idCard = (birth: string, seq: number) => makeIdCard('110105', birth, seq);
const baseUrl = gatewayUrl();
const ui = useSignedInPage(baseUrl, { ...DESKTOP, viewport: { width: 1440, height: 1000 } });


const batchTotal = () => ui.get<{ total: number }>('/api/insure-batches?current=1&pageSize=1').then((d) => d.total);

describe('roster typed into the editor (no file)', () => {
  it('checks rows while typing (bad ID, duplicate), keeps them out, then insures after the fix', async () => {
    const { page } = ui;
    const before = await batchTotal();
    await page.goto(`${baseUrl}${P.roster}`);
    await page.getByTestId('roster-upload').waitFor();
    await page.getByTestId('plan-select').click();
    await page.locator('.ant-select-item-option').first().click();

    const good = idCard('19900307', 11);
    const fixed = idCard('19910412', 12);
    const bad = `${fixed.slice(0, 17)}${fixed.endsWith('0') ? '1' : '0'}`;
    for (let i = 0; i < 3; i++) await page.getByRole('button', { name: '添加一行' }).click();
    const rows = page.getByTestId('roster-row');
    await expect.poll(() => rows.count()).toBe(3);
    const fill = async (i: number, name: string, id: string) => {
      await rows.nth(i).locator('input[data-col=name]').fill(name);
      await rows.nth(i).locator('input[data-col=idCard]').fill(id);
    };
    await fill(0, '张伟', good);
    await fill(1, '李娜', bad);
    await fill(2, '王芳', good);
    await expect.poll(() => rows.nth(1).getAttribute('data-status')).toBe('error');
    expect(await rows.nth(1).innerText()).toContain('身份证号不正确');
    await expect.poll(() => rows.nth(2).getAttribute('data-status')).toBe('duplicate');
    expect(await rows.nth(2).innerText()).toContain('与第 1 条重复');
    await expect.poll(() => page.getByRole('button', { name: /确认投保（1 人）/ }).count()).toBe(1);
    expect(await batchTotal()).toBe(before);

    // Fix the ID, remove the duplicate, confirm with the cost shown.
    await rows.nth(1).locator('input[data-col=idCard]').fill(fixed);
    await rows.nth(2).getByRole('button', { name: /删除/ }).click();
    await expect.poll(() => rows.count()).toBe(2);
    await page.getByRole('button', { name: /确认投保（2 人）/ }).click();
    await page.getByTestId('cost-breakdown').waitFor();
    expect(await page.getByTestId('cost-breakdown').innerText()).toContain('2 人 × 12 个月');
    await page.getByRole('button', { name: '确认并扣费' }).click();
    await page.waitForURL(/\/query-history-form\/\d+$/, { timeout: 20000 });
    expect(await batchTotal()).toBe(before + 1);
    await expect.poll(() => page.locator('.ant-table-tbody tr.ant-table-row').count(), { timeout: 15000 }).toBe(2);
    await expect.poll(() => page.locator('.ant-descriptions').first().innerText(), { timeout: 15000 }).toContain('在线录入');
  });
});
