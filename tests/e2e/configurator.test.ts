/**
 * The configurator's and the developer's flows of issue 19, end to end, on a copy of schemas/ (the
 * gateway runs on the copy and hands it to the browser, so the console needs no rebuild):
 * - a configurator adds 工号 (employeeNo) to insured-person exactly as the README says; a roster file
 *   with a 工号 column stores it, the list shows and searches it, the edit drawer changes it (21
 *   characters refused by the browser and by the gateway), the detail shows it, the export holds it;
 * - a developer runs `npm run codegen -- new service-ticket --label 服务工单`, pastes the routes it
 *   prints, and the list, form and detail work with no code change.
 */
import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import ExcelJS from 'exceljs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../src/server/server';
import { DESKTOP, listRowsLoaded, P, sharedBrowser, signInToFirstBusiness, openPage } from './session';
import { idCard } from '../id-card';

const REPO = resolve(import.meta.dirname, '../..');
const PERSONS = '/main/online-insurance/attendance-insurance/insure-person-manage';
const POLL = { timeout: 20_000 };
const EMPLOYEE_NO = { type: 'string', label: '工号', maxLength: 20, search: 'contains' };

let root = '';
let server: RunningServer;
let origin = '';
let browser: Browser;
let page: Page;
let auth: Record<string, string> = {};
let printed = '';

/** A copy of schemas/ with 工号 added and the service-ticket scaffold applied as its printed steps say. */
function configuredCopy(): string {
  const dir = mkdtempSync(join(tmpdir(), 'configurator-'));
  cpSync(join(REPO, 'schemas'), join(dir, 'schemas'), { recursive: true });
  const personFile = join(dir, 'schemas/entities/insured-person.json');
  const person = JSON.parse(readFileSync(personFile, 'utf8'));
  person.fields.employeeNo = EMPLOYEE_NO;
  writeFileSync(personFile, `${JSON.stringify(person, null, 2)}\n`);
  printed = execFileSync(join(REPO, 'node_modules/.bin/tsx'), [join(REPO, 'scripts/codegen.ts'), 'new', 'service-ticket', '--label', '服务工单', '--root', dir], { encoding: 'utf8' });
  const routes = JSON.parse(/\n(\[\n[\s\S]*?\n\])\n/.exec(printed)![1]);
  const routesFile = join(dir, 'schemas/routes.json');
  const file = JSON.parse(readFileSync(routesFile, 'utf8'));
  file.routes.push(...routes);
  writeFileSync(routesFile, `${JSON.stringify(file, null, 2)}\n`);
  return dir;
}

const call = async (method: string, path: string, body?: unknown) => {
  const r = await fetch(`${origin}${path}`, { method, headers: { ...auth, ...(body ? { 'content-type': 'application/json' } : {}) }, body: body ? JSON.stringify(body) : undefined });
  return { status: r.status, body: (await r.json()) as { data: any; errors?: Array<{ field: string; message: string }> } };
};

beforeAll(async () => {
  root = configuredCopy();
  server = await startServer({ port: 0, host: '127.0.0.1', dataDir: 'memory', seed: true, schemaRoot: root, staticDir: join(REPO, 'dist') });
  origin = server.url.replace(/\/$/, '');
  // The run's one Chromium (a browser of its own cost a launch); this file's own gateway, so its own context.
  browser = await sharedBrowser();
  page = await (await browser.newContext({ ...DESKTOP, acceptDownloads: true })).newPage();
  auth = await signInToFirstBusiness(page, origin);
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await server?.close();
  if (root) rmSync(root, { recursive: true, force: true });
});

describe('a configurator adds 工号 to 参保人员 in schemas/ only', () => {
  const person = { name: '周志远', idCard: idCard('19910412', 71), phone: '13911112222', jobType: '仓储管理' };

  it('a roster file with a 工号 column stores it, and the form shows it', async () => {
    const cols = (await call('GET', '/api/insure-uploads/config')).body.data.columns as Array<{ key: string; label: string }>;
    expect(cols.map((c) => c.label)).toContain('工号');
    const values: Record<string, string> = { ...person, employeeNo: 'GH-20260001' };
    const csv = `${cols.map((c) => c.label).join(',')}\n${cols.map((c) => values[c.key] ?? '').join(',')}\n`;
    await openPage(page, `${origin}${P.roster}`);
    await page.getByTestId('plan-select').click();
    await page.locator('.ant-select-item-option').first().click();
    await page.locator('input[type=file]').setInputFiles({ name: '工号名单.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
    await page.getByTestId('upload-summary').waitFor({ timeout: 60_000 });
    await page.getByRole('button', { name: /确认投保（1 人）/ }).click();
    await page.getByTestId('cost-breakdown').waitFor();
    await page.getByRole('button', { name: '确认并扣费' }).click();
    await page.waitForURL(/\/query-history-form\/\d+$/, { timeout: 60_000 });
    // The form's row columns come from the entity: 工号 is one of them, with the file's value.
    await expect.poll(() => page.locator('.ant-table-thead').last().innerText(), POLL).toContain('工号');
    await expect.poll(() => page.locator('.ant-table-tbody').last().innerText(), POLL).toContain('GH-20260001');
  });

  it('the list shows 工号 and its search finds the row', async () => {
    await openPage(page, `${origin}${PERSONS}`);
    await page.locator('.ant-table-row').first().waitFor({ timeout: 60_000 });
    expect(await page.locator('.ant-table-thead').innerText()).toContain('工号');
    // Search fields past the first row of the form are behind 展开.
    const expand = page.getByTestId('list-search-toggle').filter({ hasText: '展开' });
    if (await expand.count()) await expand.click();
    await page.locator('.ant-form-item', { hasText: '工号' }).locator('input').fill('2026000');
    await page.getByRole('button', { name: '查询' }).click();
    await expect.poll(() => new URL(page.url()).searchParams.get('employeeNo'), POLL).toBe('2026000');
    await expect.poll(() => page.locator('tr.ant-table-row').count(), POLL).toBe(1);
    expect(await page.locator('tr.ant-table-row').innerText()).toContain('GH-20260001');
  });

  it('the edit drawer changes it; 21 characters are refused by the browser and by the gateway', async () => {
    const row = page.locator('tr.ant-table-row').first();
    const id = (await row.getAttribute('data-row-key'))!;
    await row.getByText(/完善信息|修改信息/).click();
    const drawer = page.locator('.ant-drawer-content');
    await drawer.waitFor();
    const input = drawer.locator('.ant-formily-item', { hasText: '工号' }).locator('input');
    expect(await input.inputValue()).toBe('GH-20260001');
    await input.fill('G'.repeat(21));
    await drawer.getByRole('button', { name: /保\s*存/ }).click();
    await expect.poll(() => drawer.getByText('工号不能超过 20 个字符').count(), POLL).toBeGreaterThan(0);
    const refused = await call('PUT', `/api/insured-persons/${id}/info`, { employeeNo: 'G'.repeat(21) });
    expect(refused.status).toBe(400);
    expect(refused.body.errors).toContainEqual({ field: 'employeeNo', message: '工号不能超过 20 个字符' });
    expect((await call('GET', `/api/insured-persons/${id}`)).body.data.employeeNo).toBe('GH-20260001');

    await input.fill('GH-20260002');
    await drawer.getByRole('button', { name: /保\s*存/ }).click();
    await drawer.waitFor({ state: 'hidden' });
    expect((await call('GET', `/api/insured-persons/${id}`)).body.data.employeeNo).toBe('GH-20260002');
  });

  it('the detail shows it and the Excel export contains it', async () => {
    await page.goto(`${origin}${PERSONS}?employeeNo=GH-20260002`);
    await listRowsLoaded(page);
    await page.locator('tr.ant-table-row').first().getByRole('link', { name: person.name }).click();
    const drawer = page.locator('.ant-drawer-content', { hasText: '参保人员详情' });
    await expect.poll(() => drawer.locator('.ant-descriptions').first().innerText(), POLL).toContain('GH-20260002');
    expect(await drawer.locator('.ant-descriptions').first().innerText()).toContain('工号');

    const res = await fetch(`${origin}/api/insured-persons/export?format=xlsx&employeeNo=GH-20260002`, { headers: auth });
    expect(res.status).toBe(200);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(await res.arrayBuffer());
    const sheet = wb.worksheets[0];
    const header = (sheet.getRow(1).values as unknown[]).slice(1);
    const values = (sheet.getRow(2).values as unknown[]).slice(1);
    expect(values[header.indexOf('工号')]).toBe('GH-20260002');
    expect(values[header.indexOf('姓名')]).toBe(person.name);
  });
});

describe('a developer scaffolds 服务工单 with codegen and follows what it prints', () => {
  it('prints the next steps', () => {
    expect(printed).toContain('schemas/entities/service-ticket.json');
    expect(printed).toContain('npm run codegen');
  });

  it('the list, the form and the detail work with no code change', async () => {
    await openPage(page, `${origin}/service-ticket/list`);
    await expect.poll(() => page.title(), POLL).toContain('服务工单列表');
    await page.getByRole('button', { name: '新增服务工单' }).click();
    const form = page.locator('.ant-drawer-content, .ant-modal-content', { hasText: '新增服务工单' });
    await form.waitFor();
    await form.locator('.ant-formily-item', { hasText: '名称' }).locator('input').fill('打印机卡纸');
    await form.getByRole('button', { name: /保\s*存/ }).click();
    await expect.poll(() => page.locator('.ant-table-tbody').innerText(), POLL).toContain('打印机卡纸');
    await page.getByRole('link', { name: '打印机卡纸' }).click();
    await page.waitForURL(/\/service-ticket\/detail\/\d+$/);
    await expect.poll(() => page.title(), POLL).toContain('服务工单详情');
    await expect.poll(() => page.locator('.ant-descriptions').first().innerText(), POLL).toContain('打印机卡纸');
  });
});
