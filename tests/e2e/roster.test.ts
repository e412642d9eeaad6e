import { describe, expect, it } from 'vitest';
import { DESKTOP, P, gatewayUrl, useSignedInPage } from './session';
import { makeIdCard } from '../id-card';
import { axeViolations } from './axe';

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
    // A cell becomes an input when it is clicked (the editor keeps one input at a time).
    const edit = async (i: number, col: string, text: string) => {
      await rows.nth(i).locator(`[data-col=${col}]`).click();
      await rows.nth(i).locator(`input[data-col=${col}]`).fill(text);
    };
    const fill = async (i: number, name: string, id: string) => {
      await edit(i, 'name', name);
      await edit(i, 'idCard', id);
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

    // Cells are named text boxes that become inputs on focus: Tab walks them with the text kept, one input
    // at a time. The editor with flagged rows passes the accessibility check, contrast included (the row
    // numbers and the problem texts on the rows' tinted backgrounds).
    await rows.nth(0).locator('[data-col=name]').click();
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => [document.activeElement?.tagName, (document.activeElement as HTMLInputElement).value])).toEqual(['INPUT', good]);
    expect(await page.locator('[data-testid=roster-row] input').count()).toBe(1);
    expect(JSON.stringify(await axeViolations(page, ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']))).toBe('[]');

    // Fix the ID, remove the duplicate, confirm with the cost shown.
    await edit(1, 'idCard', fixed);
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
