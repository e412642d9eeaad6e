import { describe, expect, it } from 'vitest';
import { DESKTOP, P, gatewayUrl, useSignedInPage, openPage } from './session';
import { idCard } from '../id-card';
import { fillAttendance } from './attendance';
import { earliestCoverStart } from '../../src/server/domain/cover';

const baseUrl = gatewayUrl();
const ui = useSignedInPage(baseUrl, DESKTOP);

const due = () => ui.get<{ balance: number; unpaidCount: number; unpaidAmount: number }>('/api/payments/due');
const money = (n: number) => `¥${n.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;

/** What is due, and an unpaid order the balance can pay. */
async function affordableUnpaid() {
  const before = await due();
  const unpaid = await ui.get<{ list: Array<{ id: number; orderNo: string; amount: number }> }>('/api/orders?payStatus=unpaid&pageSize=100');
  const order = unpaid.list.find((o) => o.amount <= before.balance)!;
  expect(order).toBeTruthy();
  return { before, order };
}

describe('paying and costs in the browser (prepaid business)', () => {
  it('pays an unpaid order from the list: 去支付 opens the payment dialog right there', async () => {
    const { page } = ui;
    const { before, order } = await affordableUnpaid();

    // The list says what is due and offers 去支付 on unpaid rows.
    const listUrl = `${baseUrl}${P.orders}?payStatus=unpaid&current=1&pageSize=100`;
    await openPage(page, listUrl);
    await expect.poll(() => page.getByTestId('orders-due').innerText()).toContain(`待支付订单 ${before.unpaidCount} 笔，合计 ${money(before.unpaidAmount)}`);
    const row = page.locator('.ant-table-tbody tr.ant-table-row', { hasText: order.orderNo });
    await row.getByTestId('list-pay').click();
    const dialog = page.locator('.ant-modal', { hasText: '确认支付' });
    const summary = await dialog.getByTestId('pay-summary').innerText();
    expect(summary).toContain(order.orderNo);
    expect(summary).toContain(money(order.amount));
    expect(summary).toContain(money(before.balance));
    expect(summary).toContain(money(Math.round(before.balance * 100 - order.amount * 100) / 100));
    await dialog.getByRole('button', { name: '确认从余额支付' }).click();
    await dialog.waitFor({ state: 'hidden', timeout: 15000 });

    // Still on the list; the order is paid and what is due is less by its amount.
    expect(page.url()).toBe(listUrl);
    const after = Math.round(before.balance * 100 - order.amount * 100) / 100;
    expect((await ui.get<{ payStatus: string }>(`/api/orders/${order.id}`)).payStatus).toBe('paid');
    expect((await due()).balance).toBe(after);
    await expect.poll(() => page.getByTestId('orders-due').innerText()).toContain(`账户余额 ${money(after)}`);
    await expect.poll(() => page.locator('.ant-table-tbody tr.ant-table-row', { hasText: order.orderNo }).count()).toBe(0);
  });

  it('pays an unpaid order from its detail page: the order shows 已支付 and the balance drops by its amount', async () => {
    const { page } = ui;
    const { before, order } = await affordableUnpaid();
    await openPage(page, `${baseUrl}${P.orders}/${order.id}`);

    await expect.poll(() => page.getByTestId('order-pay-status').innerText()).toBe('待支付');
    await page.getByTestId('order-pay-button').click();
    const dialog = page.locator('.ant-modal', { hasText: '确认支付' });
    expect(await dialog.getByTestId('pay-summary').innerText()).toContain(order.orderNo);
    await dialog.getByRole('button', { name: '确认从余额支付' }).click();

    await expect.poll(() => page.getByTestId('order-pay-status').innerText(), { timeout: 15000 }).toBe('已支付');
    const after = Math.round(before.balance * 100 - order.amount * 100) / 100;
    await expect.poll(() => page.getByTestId('order-balance').innerText()).toContain(money(after));
    await expect(page.getByTestId('order-pay-button').count()).resolves.toBe(0);
    expect((await ui.get<{ payStatus: string }>(`/api/orders/${order.id}`)).payStatus).toBe('paid');
    expect((await due()).balance).toBe(after);
  });

  it('shows the cost and asks for confirmation before an attendance submission is charged', async () => {
    const { page } = ui;
    const before = await due();
    const batches = () => ui.get<{ total: number }>('/api/insure-batches?pageSize=1').then((d) => d.total);
    const batchesBefore = await batches();
    const csv = `姓名,身份证号,手机号,工种\n王芳,${idCard('19900307', 71)},13912345678,仓储分拣\n赵强,${idCard('19880412', 72)},13812345679,配送骑手\n`;
    const workDate = earliestCoverStart();
    await fillAttendance(page, baseUrl, csv, 2);

    await page.getByRole('button', { name: '提交投保' }).click();
    const confirm = page.getByTestId('cost-confirm');
    await confirm.waitFor({ timeout: 15000 });
    const text = await confirm.innerText();
    expect(text).toContain('2 人 × 1 天 × ¥3.50/人·天');
    expect(text).toContain('¥7.00');
    expect(text).toContain(money(before.balance));
    // A day plan for one work date covers that date only (not「work date 至 the next day」).
    const period = await confirm.locator('.ant-descriptions-row', { hasText: '保障期间' }).innerText();
    expect(period.replace(/\s+/g, ' ').trim()).toBe(`保障期间 ${workDate}`);
    // Nothing is charged or stored while the user looks at the cost; going back changes nothing.
    expect((await due()).balance).toBe(before.balance);
    expect(await batches()).toBe(batchesBefore);
    await page.getByRole('button', { name: '返回修改' }).click();
    await confirm.waitFor({ state: 'hidden' });
    expect(await batches()).toBe(batchesBefore);

    await page.getByRole('button', { name: '提交投保' }).click();
    await confirm.waitFor();
    await page.getByRole('button', { name: '确认并提交投保' }).click();
    await page.getByTestId('attendance-result').waitFor({ timeout: 20000 });
    expect(await batches()).toBe(batchesBefore + 1);
    expect((await due()).balance).toBe(Math.round(before.balance * 100 - 700) / 100);
    // The stored cover is the period the confirmation showed.
    const records = await ui.get<{ list: Array<{ personName: string; effectiveDate: string; expiryDate: string }> }>(
      `/api/insure-records?personName=${encodeURIComponent('王芳')}&effectiveDate=${workDate},${workDate}&pageSize=100`,
    );
    expect(records.list.filter((r) => r.personName === '王芳').map((r) => [r.effectiveDate, r.expiryDate])).toContainEqual([workDate, workDate]);
  });
});
