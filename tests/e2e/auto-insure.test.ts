import { describe, expect, it } from 'vitest';
import type { Locator } from 'playwright-core';
import { gatewayUrl, useSignedInPage, openPage } from './session';

const baseUrl = gatewayUrl();
const ui = useSignedInPage(baseUrl, { viewport: { width: 1440, height: 900 } });
const PAGE = '/main/online-insurance/attendance-insurance/insure-person-manage';

interface Person {
  id: number;
  name: string;
  phone: string;
  jobType: string;
  autoStatus: string;
}

const person = (id: string) => ui.get<Person>(`/api/insured-persons/${id}`);

/** The list reloads after each action; give it time on a busy machine. */
const POLL = { timeout: 15_000 };
const tagOf = (row: Locator) => row.locator('[data-auto-status]').innerText();

describe('insured person management: automatic-insurance status (spec §3)', () => {
  it('completes a 信息待完善 person, then stops and restarts automatic insurance, seeing each status in the list', async () => {
    const { page } = ui;
    // A 信息待完善 person of the demo data, opened by name (other files add persons that sort before it).
    const [todo] = (await ui.get<{ list: Person[] }>('/api/insured-persons?autoStatus=0&pageSize=1')).list;
    await openPage(page, `${baseUrl}${PAGE}?name=${encodeURIComponent(todo.name)}`);
    const incomplete = page.locator('tr.ant-table-row', { has: page.locator('[data-auto-status="0"]') }).first();
    await incomplete.waitFor();
    const id = (await incomplete.getAttribute('data-row-key'))!;
    const row = page.locator(`tr.ant-table-row[data-row-key="${id}"]`);
    expect(await tagOf(row)).toBe('信息待完善');
    // Only the actions the transition table allows: a person to be completed can only be edited.
    expect(await row.getByText('开启自动投保', { exact: true }).count()).toBe(0);
    expect(await row.getByText('停止自动投保', { exact: true }).count()).toBe(0);
    const before = await person(id);
    expect(before.autoStatus).toBe('0');

    await row.getByText('完善信息', { exact: true }).click();
    const drawer = page.locator('.ant-drawer-content');
    await drawer.waitFor();
    const input = (label: string) => drawer.locator('.ant-formily-item', { hasText: label }).locator('input');
    await input('手机号').fill('123');
    await input('工种').fill('快递员');
    await drawer.getByRole('button', { name: /保\s*存/ }).click();
    await expect.poll(() => drawer.getByText('请输入正确的 11 位手机号').count(), POLL).toBeGreaterThan(0);
    expect((await person(id)).autoStatus).toBe('0');

    await input('手机号').fill('13912340000');
    await drawer.getByRole('button', { name: /保\s*存/ }).click();
    await drawer.waitFor({ state: 'hidden' });
    const completed = await person(id);
    expect(completed).toMatchObject({ autoStatus: '1', phone: '13912340000', jobType: '快递员' });
    await expect.poll(() => tagOf(row), POLL).toBe('自动投保中');

    await row.getByText('停止自动投保', { exact: true }).click();
    await page.locator('.ant-popover').getByRole('button', { name: /停\s*止/ }).click();
    await expect.poll(() => tagOf(row), POLL).toBe('已停止自动投保');
    expect((await person(id)).autoStatus).toBe('2');
    expect(await row.getByText('停止自动投保', { exact: true }).count()).toBe(0);

    await row.getByText('开启自动投保', { exact: true }).click();
    await page.locator('.ant-popover:visible').getByRole('button', { name: /开\s*启/ }).click();
    await expect.poll(() => tagOf(row), POLL).toBe('自动投保中');
    expect((await person(id)).autoStatus).toBe('1');
  });

  it('filters the list by status', async () => {
    const { page } = ui;
    const stopped = (await ui.get<{ total: number }>('/api/insured-persons?autoStatus=2&pageSize=100')).total;
    await openPage(page, `${baseUrl}${PAGE}`);
    await page.locator('tr.ant-table-row').first().waitFor();
    // The status filter sits in the collapsed part of the search form.
    await page.getByTestId('list-search-toggle').click();
    const field = page.locator('[data-testid=list-search] .ant-form-item', { hasText: '自动投保状态' });
    await field.locator('.ant-select').click();
    await page.locator('.ant-select-item-option', { hasText: '已停止自动投保' }).click();
    await page.getByTestId('list-search').getByRole('button', { name: /查\s*询/ }).click();
    await expect.poll(async () => {
      const tags = await page.locator('tr.ant-table-row [data-auto-status]').allInnerTexts();
      return tags.length > 0 && tags.every((t) => t === '已停止自动投保');
    }, POLL).toBe(true);
    expect(await page.locator('tr.ant-table-row').count()).toBe(Math.min(stopped, 30));
  });
});
