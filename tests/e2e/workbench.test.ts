import { afterAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { DESKTOP, P, gatewayUrl, listRowsLoaded, openInApp, useSignedInPage, openPage } from './session';
import { M } from './routeList';
import { makeIdCard } from '../id-card';

const baseUrl = gatewayUrl();
const ui = useSignedInPage(baseUrl, DESKTOP);

const yuan = (s: string) => Math.round(Number(s.replace(/[¥,\s]/g, '')) * 100);

const LIST_API = /\/api\/(orders|insured-persons|insure-records|claims|invoices)\?/;

/**
 * Runs `open` (a click or a navigation to a list page), waits for the list's own request and its
 * rendering, and returns the total the list shows (「共 N 条」), or 0 for an empty list.
 */
async function openList(p: Page, open: () => Promise<unknown>): Promise<number> {
  const response = p.waitForResponse((r) => LIST_API.test(r.url()), { timeout: 20000 });
  await open();
  const total = ((await (await response).json()) as { data: { total: number } }).data.total;
  await expect.poll(async () => (await p.locator('.ant-spin-spinning').count()) === 0 && (await p.locator(total ? '.ant-table-row' : '.ant-empty').count()) > 0, { timeout: 15000 }).toBe(true);
  if ((await p.locator('.ant-table-row').count()) === 0) return 0;
  const text = await p.locator('.ant-pagination-total-text').first().innerText();
  return Number(/共\s*(\d+)\s*条/.exec(text)![1]);
}

/** Sum (cents) of the 订单金额 column of the rows on the current page. */
async function amountSum(p: Page): Promise<number> {
  const headers = await p.locator('.ant-table-thead th').allInnerTexts();
  const col = headers.findIndex((h) => h.trim() === '订单金额');
  expect(col).toBeGreaterThanOrEqual(0);
  const cells = await p.locator('.ant-table-tbody tr.ant-table-row').evaluateAll((rows, i) => rows.map((r) => (r.children[i] as HTMLElement).innerText), col);
  return cells.reduce((s, c) => s + yuan(c), 0);
}

describe('workbench', () => {
  it('shows the charts and the to-do list', async () => {
    const { page } = ui;
    await openPage(page, `${baseUrl}${P.home}`);
    await page.getByTestId('todos').waitFor();
    await page.locator('[data-testid=chart-trend] canvas').waitFor({ timeout: 20000 });
    await page.locator('[data-testid=chart-plans] canvas').waitFor({ timeout: 20000 });
    const todos = await page.getByTestId('todos').innerText();
    for (const label of ['待支付订单', '待跟进的理赔申请', '近 30 天已开具的发票', '信息待完善的参保人员']) expect(todos).toContain(label);
  });

  it('every number equals the total of the list it links to', async () => {
    const { page } = ui;
    await openPage(page, `${baseUrl}${P.home}`);
    await page.getByTestId('todos').waitFor();
    const links = await page.locator('[data-testid^=wb-link-]').evaluateAll((as) =>
      as.map((a) => ({ key: a.getAttribute('data-testid')!.slice('wb-link-'.length), href: a.getAttribute('href')!, value: Number(a.getAttribute('data-value')) })),
    );
    expect(links.map((l) => l.key).sort()).toEqual(
      ['balance', 'claimsWaiting', 'insuredCount', 'invoicesReady', 'monthPremium', 'openClaims', 'pendingCount', 'personsToComplete', 'unpaidOrders'].sort(),
    );
    for (const l of links) {
      await openInApp(page, P.home);
      await page.getByTestId('todos').waitFor();
      const click = () => page.locator(`[data-testid="wb-link-${l.key}"]`).click();
      if (l.key === 'balance') {
        await click();
        await expect.poll(() => page.getByTestId('account-info').innerText()).toContain(`¥${l.value.toLocaleString('en-US', { minimumFractionDigits: 2 })}`);
        continue;
      }
      const n = await openList(page, click);
      // The list's URL carries the filters the number was counted with.
      const want = new URL(l.href, baseUrl);
      const got = new URL(page.url());
      expect(got.pathname).toBe(want.pathname);
      for (const [k, v] of want.searchParams) if (k !== 'current') expect(got.searchParams.get(k), k).toBe(v);
      if (l.key === 'monthPremium') {
        expect(n).toBeGreaterThan(0);
        expect(n).toBeLessThanOrEqual(100);
        await expect.poll(() => page.locator('.ant-table-tbody tr.ant-table-row').count()).toBe(n);
        expect(await amountSum(page), l.key).toBe(Math.round(l.value * 100));
      } else {
        expect(n, `${l.key} → ${l.href}`).toBe(l.value);
      }
    }
  });

  it('each plan’s premium equals the sum of the orders it links to', async () => {
    const { page } = ui;
    await openPage(page, `${baseUrl}${P.home}`);
    const plans = page.locator('[data-testid=chart-plans] [data-testid=metric-item]');
    await plans.first().waitFor();
    const items = await plans.evaluateAll((els) => els.map((e) => { const a = e.querySelector('a')!; return { href: a.getAttribute('href')!, text: a.textContent ?? '' }; }));
    expect(items.length).toBeGreaterThan(0);
    for (const it of items) {
      const n = await openList(page, () => openInApp(page, it.href));
      expect(n).toBeLessThanOrEqual(100);
      await expect.poll(() => page.locator('.ant-table-tbody tr.ant-table-row').count()).toBe(n);
      expect(await amountSum(page), it.href).toBe(yuan(it.text));
    }
  });
});

describe('statuses follow the calendar (the gateway’s clock moved a day on)', () => {
  const setClock = (now: string | null) =>
    fetch(`${baseUrl}/api/dev/clock`, { method: 'PUT', headers: { ...ui.auth, 'Content-Type': 'application/json' }, body: JSON.stringify({ now }) });
  afterAll(async () => {
    await setClock(null);
  });

  /** The status cell of the one row a list shows for `name` (its URL filters by it). */
  async function statusOf(p: Page, url: string): Promise<string> {
    await openInApp(p, url);
    await listRowsLoaded(p);
    const headers = await p.locator('.ant-table-thead th').allInnerTexts();
    const col = headers.findIndex((h) => h.trim() === '状态');
    expect(col).toBeGreaterThanOrEqual(0);
    await expect.poll(() => p.locator('.ant-table-row').count()).toBe(1);
    return (await p.locator('.ant-table-row td').nth(col).innerText()).trim();
  }

  it('cover bought for tomorrow reads 待生效 today and 在保 / 已生效 tomorrow; the workbench counts equal the lists then', async () => {
    const { page } = ui;
    const plans = await ui.get<Array<{ value: string }>>('/api/plans?unit=month');
    const wb = await ui.get<{ today: string }>('/api/overview/workbench');
    const tomorrow = new Date(Date.parse(`${wb.today}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
    const name = '明日生效';
    const r = await fetch(`${baseUrl}/api/insure/roster`, {
      method: 'POST',
      headers: { ...ui.auth, 'Content-Type': 'application/json' },
      body: JSON.stringify({ planName: plans[0].value, startDate: tomorrow, rows: [{ name, idCard: makeIdCard('320506', '19880808', 901), phone: '13900000901', jobType: '快递员' }] }),
    });
    expect(r.status).toBe(200);
    const records = `${M}/insured-record?personName=${encodeURIComponent(name)}`;
    const persons = `${M}/attendance-insurance/insure-person-manage?name=${encodeURIComponent(name)}`;
    expect(await statusOf(page, records)).toBe('待生效');
    expect(await statusOf(page, persons)).toBe('待生效');

    // The next morning: nothing was written, the dates alone make the cover begin.
    expect((await setClock(new Date(Date.now() + 86_400_000).toISOString())).status).toBe(200);
    expect((await ui.get<{ today: string }>('/api/overview/workbench')).today).toBe(tomorrow);
    expect(await statusOf(page, records)).toBe('已生效');
    expect(await statusOf(page, persons)).toBe('在保');

    for (const key of ['insuredCount', 'pendingCount']) {
      await openInApp(page, P.home);
      const link = page.locator(`[data-testid="wb-link-${key}"]`);
      await link.waitFor();
      const value = Number(await link.getAttribute('data-value'));
      expect(await openList(page, () => link.click()), key).toBe(value);
    }
  });
});
