import { describe, expect, it } from 'vitest';
import { DESKTOP, gatewayUrl, useSignedInPage, openPage } from './session';
import { CM } from './routeList';

const baseUrl = gatewayUrl();
const ui = useSignedInPage(baseUrl, DESKTOP);

interface Order {
  id: number;
  orderNo: string;
  payStatus: string;
  invoiced: boolean;
}
interface Invoice {
  id: number;
  invoiceNo: string;
  status: string;
}

const orders = (q: string) => ui.get<{ list: Order[] }>(`/api/orders?${q}&current=1&pageSize=100`).then((d) => d.list);

/** Opens a detail page and waits until its record is shown (the conditional actions depend on it). */
async function openOrder(o: Order) {
  await openPage(ui.page, `${baseUrl}${CM}/order-manage/${o.id}`);
  await ui.page.getByText(o.orderNo, { exact: true }).first().waitFor({ timeout: 20000 });
  await ui.page.getByRole('button', { name: '返回列表' }).waitFor();
}
const hasButton = (name: string) => ui.page.getByRole('button', { name, exact: true }).count();

describe('detail actions appear only when they can succeed', () => {
  it('an unpaid order offers 去支付 and no 申请开票; a paid uninvoiced one offers 申请开票; an invoiced one neither', async () => {
    const { page } = ui;
    const [unpaid] = await orders('payStatus=unpaid');
    expect(unpaid).toBeTruthy();
    await openOrder(unpaid);
    expect(await hasButton('去支付')).toBe(1);
    expect(await hasButton('申请开票')).toBe(0);

    const paid = await orders('payStatus=paid');
    const open = paid.find((o) => !o.invoiced);
    expect(open, 'a paid order without an invoice in the demo data').toBeTruthy();
    await openOrder(open!);
    await expect.poll(() => hasButton('申请开票')).toBe(1);
    expect(await hasButton('去支付')).toBe(0);
    // The action leads to the invoice form with this order chosen, which the gateway accepts. The page reads
    // the invoiceable orders once: its picker shows what the page read (no second request for them).
    const choiceCalls: string[] = [];
    const onRequest = (r: { url(): string }) => r.url().includes('/api/invoices/invoiceable-orders') && choiceCalls.push(r.url());
    page.on('request', onRequest);
    await page.getByRole('button', { name: '申请开票' }).click();
    await page.waitForURL(new RegExp(`/invoice-manage/apply/${open!.id}$`));
    const chosen = page.locator('.ant-select-selection-item', { hasText: open!.orderNo });
    await chosen.first().waitFor({ timeout: 20000 });
    expect(await chosen.first().textContent()).toMatch(new RegExp(`^${open!.orderNo} · ¥[\\d,]+\\.\\d{2} · \\d{4}-\\d{2}-\\d{2} 支付$`));
    await page.getByRole('combobox', { name: '开票订单' }).click();
    await page.locator('.ant-select-item-option').first().waitFor();
    expect(await page.locator('.ant-select-item-option').count()).toBeGreaterThan(1);
    page.off('request', onRequest);
    expect(choiceCalls).toHaveLength(1);

    const invoiced = paid.find((o) => o.invoiced);
    expect(invoiced, 'a paid, invoiced order in the demo data').toBeTruthy();
    await openOrder(invoiced!);
    expect(await hasButton('申请开票')).toBe(0);
    expect(await hasButton('去支付')).toBe(0);
  });

  it('an issued invoice offers 申请退票; one still being applied for does not', async () => {
    const { page } = ui;
    const list = (await ui.get<{ list: Invoice[] }>('/api/invoices?current=1&pageSize=100')).list;
    const issued = list.find((i) => i.status === 'issued')!;
    const applying = list.find((i) => i.status === 'applying')!;
    expect(issued && applying).toBeTruthy();
    await openPage(page, `${baseUrl}${CM}/invoice-manage/detail/${issued.id}`);
    await page.getByText(issued.invoiceNo).first().waitFor({ timeout: 20000 });
    await expect.poll(() => hasButton('申请退票')).toBe(1);
    await openPage(page, `${baseUrl}${CM}/invoice-manage/detail/${applying.id}`);
    await page.getByText(applying.invoiceNo).first().waitFor({ timeout: 20000 });
    await page.getByText('暂无退票申请').or(page.locator('[data-testid="invoice-orders"]')).first().waitFor();
    expect(await hasButton('申请退票')).toBe(0);
  });
});
