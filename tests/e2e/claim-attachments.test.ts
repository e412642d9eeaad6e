import { describe, expect, it } from 'vitest';
import { gatewayUrl, useSignedInPage, openPage } from './session';
import { idCard } from '../id-card';
import { makePng } from '../server/png';

const baseUrl = gatewayUrl();
const ui = useSignedInPage(baseUrl, { locale: 'zh-CN' });
const PM = '/service/service-center/pay-manage';


async function apiCall<T>(method: string, path: string, body?: unknown): Promise<T> {
  const res = await fetch(`${baseUrl}${path}`, {
    method,
    headers: { ...ui.auth, 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = (await res.json()) as { code: number; data: T; message: string };
  if (json.code !== 0) throw new Error(`${method} ${path}: ${json.message}`);
  return json.data;
}

/** The Formily item of a form by its label. */
const item = (label: string) => ui.page.locator('.ant-formily-item', { has: ui.page.locator('.ant-formily-item-label', { hasText: label }) });

describe('claim attachments in the browser', () => {
  it('files a claim with a photo and shows the photo in the claim detail', async () => {
    const { page } = ui;
    // Someone insured from today, so an accident today is inside the cover period.
    const plans = await apiCall<Array<{ value: string }>>('GET', '/api/plans?unit=month');
    const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Shanghai' }).format(new Date());
    const person = { name: '陈晓峰', idCard: idCard('19880512', 37) };
    await apiCall('POST', '/api/insure/roster', { planName: plans[0].value, startDate: today, rows: [{ ...person, phone: '13912340037', jobType: '仓储' }] });

    await openPage(page, `${baseUrl}${PM}/pay-apply-send`);
    await item('出险人').locator('input').fill(person.name);
    await item('身份证号').locator('input').fill(person.idCard);
    const date = item('出险日期').locator('input');
    await date.click();
    await date.fill(today);
    await date.press('Enter');
    await item('事故类型').locator('.ant-select').click();
    await page.locator('.ant-select-item-option', { hasText: '意外伤害' }).click();
    await item('事故经过').locator('textarea').fill('仓库搬运货物时被货架划伤右手');
    // An amount that yuan × 100 cut off would store one cent short (1998).
    await item('申请金额').locator('input').fill('19.99');

    const photo = makePng(48, 32, [30, 140, 60]);
    await item('理赔材料').locator('input[type=file]').setInputFiles({ name: '伤情照片.png', mimeType: 'image/png', buffer: photo });
    // Uploaded with a thumbnail made in the browser (an object URL of the chosen file).
    const thumb = item('理赔材料').locator('.ant-upload-list-item-done img');
    await thumb.waitFor({ timeout: 20000 });
    expect(await thumb.getAttribute('src')).toMatch(/^blob:/);

    await page.getByRole('button', { name: '提交申请' }).click();
    await page.waitForURL(`${baseUrl}${PM}/pay-apply`, { timeout: 20000 });

    const list = await apiCall<{ list: Array<{ id: number; personName: string; amount: number }> }>('GET', '/api/claims?sortField=createdAt&sortOrder=descend&pageSize=1');
    const claim = list.list[0];
    expect(claim.personName).toBe(person.name);
    expect(Math.round(claim.amount * 100)).toBe(1999); // stored to the cent
    const files = await apiCall<{ list: Array<{ fileName: string; size: number }> }>('GET', `/api/claims/${claim.id}/attachments`);
    expect(files.list).toEqual([expect.objectContaining({ fileName: '伤情照片.png', size: photo.length })]);

    // The detail shows the stored photo itself (48 × 32 pixels, decoded from the served bytes).
    await openPage(page, `${baseUrl}${PM}/pay-apply?id=${claim.id}`);
    await expect.poll(() => page.locator('.ant-descriptions').first().innerText(), { timeout: 20000 }).toContain('¥19.99');
    const shown = page.locator('[data-testid="claim-attachments"] img.ant-image-img');
    await shown.waitFor({ timeout: 20000 });
    await expect.poll(() => shown.evaluate((img: HTMLImageElement) => `${img.naturalWidth}x${img.naturalHeight}`), { timeout: 10000 }).toBe('48x32');
    // Clicking the thumbnail opens the larger preview.
    await page.locator('[data-testid="claim-attachments"] .ant-image').first().click();
    await page.locator('.ant-image-preview-img').waitFor({ timeout: 10000 });
  });
});
