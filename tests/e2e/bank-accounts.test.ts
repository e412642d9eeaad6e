import { describe, expect, it } from 'vitest';
import { P, gatewayUrl, useSignedInPage } from './session';

const baseUrl = gatewayUrl();
const ui = useSignedInPage(baseUrl);

const accounts = () => ui.get<{ list: Array<{ bankName: string; accountNo: string }> }>('/api/bank-accounts?current=1&pageSize=100').then((d) => d.list);

describe('bank accounts (admin)', () => {
  it('adds an account from the dialog after a bad account number is refused', async () => {
    const { page } = ui;
    const before = await accounts();
    await page.goto(`${baseUrl}${P.bank}`);
    await page.locator('.ant-table-tbody tr.ant-table-row').first().waitFor();
    await page.getByRole('button', { name: '新增银行账户' }).click();
    const dialog = page.locator('.ant-modal');
    await dialog.getByPlaceholder('与营业执照上的企业名称一致').fill('上海鑫达人力资源有限公司');
    await dialog.getByPlaceholder('如：招商银行').fill('交通银行');
    const inputs = dialog.locator('input.ant-input');
    await inputs.nth(2).fill('12ab');
    await inputs.nth(3).fill('上海长宁支行');
    await dialog.getByRole('button', { name: /保\s*存/ }).click();
    await expect.poll(() => dialog.getByText('银行账号应为 8–30 位数字').count()).toBeGreaterThan(0);
    expect(await accounts()).toHaveLength(before.length);

    await inputs.nth(2).fill('6222 0210 0100 9876');
    await dialog.getByRole('button', { name: /保\s*存/ }).click();
    await dialog.waitFor({ state: 'hidden' });
    const after = await accounts();
    expect(after).toHaveLength(before.length + 1);
    expect(after.some((a) => a.bankName === '交通银行' && a.accountNo.endsWith('9876'))).toBe(true);
    await expect.poll(() => page.locator('.ant-table-tbody').innerText()).toContain('交通银行');
  });
});
