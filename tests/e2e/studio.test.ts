/**
 * Issue 24's configurator flow in the schema studio, end to end on `npm run dev` in a temp copy of the
 * project (its own schemas/, database and ports): add 工号 to 参保人员 in the browser, see the SQL and
 * the file diff, save; the file equals the one a person writes (one added line), the list shows the column and
 * its search without a restart, a roster stores it. Then rename it to 员工编号 (employeeNo → staffNo):
 * the studio proposes the migration file, the values survive it, both validators use the new label.
 * Each save reloads the gateway in its process (src/server/schema-reload.ts), which the test counts by
 * its "Server listening" lines. That a production gateway has no studio (404 on the page and on its API)
 * is tests/server/studio.test.ts's.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scaffold } from '../../scripts/codegen-emit';
import { earliestCoverStart } from '../../src/server/domain/cover';
import { idCard } from '../id-card';
import { DESKTOP, openInApp, sharedBrowser, signInToFirstBusiness } from './session';

const REPO = resolve(import.meta.dirname, '../..');
const PERSONS = '/main/online-insurance/attendance-insurance/insure-person-manage';
const POLL = { timeout: 90_000, interval: 500 };
const PERSON_FILE = 'schemas/entities/insured-person.json';

const EMPLOYEE_NO = '    "employeeNo": { "type": "string", "label": "工号", "maxLength": 20, "search": "contains" }';
const STAFF_NO = '    "staffNo": { "type": "string", "label": "员工编号", "maxLength": 20, "search": "contains" }';

/** The entity file as a person edits it: one line after the last field (which gets its comma). */
function withLastField(text: string, line: string): string {
  const lines = text.split('\n');
  const end = lines.lastIndexOf('  }');
  lines[end - 1] += ',';
  lines.splice(end, 0, line);
  return lines.join('\n');
}

let dir: string;
let original: string;
/** What `npm run dev` printed so far (the gateway prints "Server listening" at every start). */
let out = '';
const starts = () => out.split('Server listening').length - 1;
let dev: ChildProcess | undefined;
let origin: string;
let context: BrowserContext;
let page: Page;
let auth: Record<string, string>;

const freePort = () =>
  new Promise<number>((ok) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => ok(port));
    });
  });

/** The project as a developer has it: sources and schemas copied, dependencies shared. */
function projectCopy(): string {
  const d = mkdtempSync(join(tmpdir(), 'studio-'));
  for (const f of ['src', 'schemas', 'scripts', 'content', 'public', 'index.html', 'package.json', 'tsconfig.json', 'vite.config.ts', 'tests/vitest']) {
    cpSync(join(REPO, f), join(d, f), { recursive: true });
  }
  rmSync(join(d, 'schemas/migrations'), { recursive: true, force: true });
  cpSync(join(REPO, 'schemas/migrations'), join(d, 'schemas/migrations'), { recursive: true });
  symlinkSync(join(REPO, 'node_modules'), join(d, 'node_modules'));
  return d;
}

/** Starts `npm run dev`'s script and resolves with the console's URL once the gateway answers through it. */
async function startDev(): Promise<string> {
  const port = await freePort();
  dev = spawn(join(dir, 'node_modules/.bin/tsx'), ['src/server/dev.ts'], { cwd: dir, env: { ...process.env, PORT: String(port), DATA_DIR: join(dir, '.data'), NODE_ENV: 'development' }, stdio: ['ignore', 'pipe', 'pipe'] });
  dev.stdout!.on('data', (c: Buffer) => (out += c.toString()));
  dev.stderr!.on('data', (c: Buffer) => (out += c.toString()));
  for (let i = 0; i < 600; i++) {
    const url = /Console \(dev\) ready at (http:\/\/\S+?)\/? /.exec(out)?.[1];
    if (url) {
      const r = await fetch(`${url}/api/plans`).catch(() => undefined);
      if (r && r.status !== 502 && r.status !== 500) return url.replace(/\/$/, '');
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error(`npm run dev did not start:\n${out.slice(-3000)}`);
}

async function call(method: string, path: string, body?: unknown) {
  const res = await fetch(`${origin}${path}`, { method, headers: { ...auth, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
  return { status: res.status, body: await res.json().catch(() => ({})) };
}

/** Waits for the gateway to run on the saved schemas (it starts again in its process): the roster's columns name `label`. */
async function gatewayHas(label: string) {
  await expect.poll(async () => ((await call('GET', '/api/insure-uploads/config')).body.data?.columns ?? []).map((c: { label: string }) => c.label), POLL).toContain(label);
}

/** Opens a page of the running console as its menu does: a full load of the dev server's unbundled modules costs Chromium several seconds of CPU. */
async function open(path: string) {
  await openInApp(page, `${origin}${path}`);
}

async function openStudio() {
  await open('/studio');
  await page.getByRole('cell', { name: 'phone', exact: true }).waitFor({ timeout: 90_000 });
}

/** Saves the draft and waits for the gateway started again on the saved files. */
async function saveDraft() {
  const before = starts();
  await page.getByRole('button', { name: '保存', exact: true }).click();
  await page.getByText(/已保存：/).waitFor({ timeout: 60_000 });
  await expect.poll(starts, POLL).toBeGreaterThan(before);
  await expect.poll(async () => (await fetch(`${origin}/api/plans`, { headers: auth })).status, POLL).toBe(200);
}

beforeAll(async () => {
  dir = projectCopy();
  original = readFileSync(join(dir, PERSON_FILE), 'utf8');
  origin = await startDev();
  const browser = await sharedBrowser();
  context = await browser.newContext(DESKTOP);
  page = await context.newPage();
  // Vite's first page load bundles the dependencies (no cache in a fresh clone): on a loaded machine that
  // is more than playwright's 30 s; once the sign-in page shows, pages load as usual.
  await page.goto(`${origin}/login/index`, { timeout: 180_000 });
  await page.getByPlaceholder('请输入手机号').waitFor({ timeout: 180_000 });
  auth = await signInToFirstBusiness(page, origin);
}, 600_000);

afterAll(async () => {
  await context?.close();
  if (dev && dev.exitCode === null) {
    dev.kill('SIGTERM');
    await new Promise((r) => dev!.once('exit', r));
  }
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('the schema studio on npm run dev', () => {
  const person = { name: '孙工号', idCard: idCard('19900315', 23), phone: '13911113333', jobType: '仓储管理' };

  it('adds 工号 to 参保人员: SQL and diff before saving, the file a person writes after', async () => {
    await openStudio();
    await page.getByRole('button', { name: '新增字段' }).click();
    await page.getByLabel('字段名', { exact: true }).fill('employeeNo');
    await page.getByLabel('中文名称', { exact: true }).fill('工号');
    await page.getByLabel('最多字符数', { exact: true }).fill('20');
    await page.getByRole('combobox', { name: '列表筛选' }).click();
    await page.getByTitle('包含（contains）').click();
    await page.getByRole('button', { name: '应用到草稿' }).click();
    await page.getByText('草稿：1 处改动').waitFor();
    // The live preview renders the draft's list on the development database's rows, with the new column.
    await expect.poll(() => page.getByTestId('studio-preview-schemas/tables/insured-persons.json').locator('.ant-table-thead').innerText(), POLL).toContain('工号');
    await page.getByRole('tab', { name: '数据库变更' }).click();
    await expect.poll(() => page.getByTestId('studio-sql').innerText(), POLL).toContain('ALTER TABLE insured_persons ADD COLUMN employee_no TEXT');
    await page.getByRole('tab', { name: '文件差异' }).click();
    expect(await page.getByTestId('studio-diff').innerText()).toContain(`+${EMPLOYEE_NO}`);
    await saveDraft();
    expect(readFileSync(join(dir, PERSON_FILE), 'utf8')).toBe(withLastField(original, EMPLOYEE_NO));
    expect(readFileSync(join(dir, 'src/generated/entities.ts'), 'utf8')).toContain('employeeNo');
  });

  it('the running console and gateway pick it up: the list shows 工号 and its search, a roster stores it', async () => {
    await gatewayHas('工号');
    const [plan] = (await call('GET', '/api/plans?unit=month')).body.data as Array<{ value: string }>;
    const roster = await call('POST', '/api/insure/roster', { planName: plan.value, startDate: earliestCoverStart(), rows: [{ ...person, employeeNo: 'GH-7001' }] });
    expect(roster.status, JSON.stringify(roster.body)).toBe(200);
    const stored = (await call('GET', `/api/insured-persons?employeeNo=GH-7001`)).body.data.list;
    expect(stored.map((p: { name: string; employeeNo: string }) => [p.name, p.employeeNo])).toEqual([[person.name, 'GH-7001']]);
    await open(PERSONS);
    await expect.poll(() => page.locator('.ant-table-thead').innerText(), POLL).toContain('工号');
    const expand = page.getByTestId('list-search-toggle').filter({ hasText: '展开' });
    if (await expand.count()) await expand.click();
    await page.getByLabel('工号', { exact: true }).fill('GH-7001');
    await page.getByRole('button', { name: /查\s*询/ }).click();
    await expect.poll(() => page.locator('.ant-table-row').count(), POLL).toBe(1);
    expect(await page.locator('.ant-table-tbody').innerText()).toContain(person.name);
  });

  it('renames 工号 to 员工编号 (staffNo) with the migration it proposes; the values survive, both validators say 员工编号', async () => {
    await openStudio();
    await page.getByRole('row', { name: /employeeNo/ }).getByRole('button', { name: '编辑' }).click();
    await page.getByLabel('字段名', { exact: true }).fill('staffNo');
    await page.getByLabel('中文名称', { exact: true }).fill('员工编号');
    await page.getByRole('button', { name: '应用到草稿' }).click();
    await page.getByRole('tab', { name: '数据库变更' }).click();
    await page.getByText('insured_persons.employee_no 看起来改名为 staff_no：迁移文件改列名，数据保留').waitFor({ timeout: 60_000 });
    await page.getByRole('button', { name: '采用该迁移文件' }).click();
    await expect.poll(() => page.getByTestId('studio-sql').innerText(), POLL).toContain('ALTER TABLE insured_persons RENAME COLUMN employee_no TO staff_no');
    await saveDraft();
    expect(readFileSync(join(dir, PERSON_FILE), 'utf8')).toBe(withLastField(original, STAFF_NO));
    const migration = readdirSync(join(dir, 'schemas/migrations')).find((f) => /^\d{3}-rename-employee-no-to-staff-no\.sql$/.test(f));
    expect(migration, 'a rename migration file').toBeTruthy();
    expect(readFileSync(join(dir, 'schemas/migrations', migration!), 'utf8')).toContain('RENAME COLUMN employee_no TO staff_no');

    await gatewayHas('员工编号');
    const [stored] = (await call('GET', `/api/insured-persons?staffNo=GH-7001`)).body.data.list;
    expect([stored.name, stored.staffNo]).toEqual([person.name, 'GH-7001']);
    const refused = await call('PUT', `/api/insured-persons/${stored.id}/info`, { staffNo: 'G'.repeat(21) });
    expect(refused.status).toBe(400);
    expect(JSON.stringify(refused.body)).toContain('员工编号');
    expect((await call('GET', `/api/insured-persons/${stored.id}`)).body.data.staffNo).toBe('GH-7001');

    // The browser's validator: the person drawer has 员工编号 with the same rule.
    await open(PERSONS);
    await page.locator('.ant-table-row', { hasText: person.name }).getByText(/修改信息|完善信息/).click();
    const drawer = page.locator('.ant-drawer-content');
    await drawer.locator('.ant-formily-item', { hasText: '员工编号' }).locator('input').fill('G'.repeat(21));
    await drawer.getByRole('button', { name: /保\s*存/ }).click();
    await expect.poll(() => drawer.innerText(), POLL).toContain('员工编号不能超过 20 个字符');
  });
});

describe('a new entity gets its menu page from the studio', () => {
  it('加入菜单 writes the list, form, detail and routes; they work at once', async () => {
    // Only the entity file (the one codegen's scaffold writes); its pages come from the studio.
    const entity = scaffold('service-ticket', { label: '服务工单' }).files['schemas/entities/service-ticket.json'];
    writeFileSync(join(dir, 'schemas/entities/service-ticket.json'), `${JSON.stringify(entity, null, 2)}\n`);
    await expect.poll(async () => (await call('GET', '/api/service-tickets')).status, POLL).toBe(200);
    await openStudio();
    await page.getByRole('menuitem', { name: '服务工单 service-ticket' }).click();
    await page.getByRole('button', { name: /加入菜单/ }).click();
    await page.getByText(/草稿：\d+ 处改动/).waitFor();
    await page.getByRole('tab', { name: '文件差异' }).click();
    await expect.poll(() => page.getByTestId('studio-diff').innerText(), POLL).toContain('schemas/routes.json');
    await saveDraft();
    for (const f of ['tables/service-tickets.json', 'forms/service-ticket.json', 'details/service-ticket.json']) expect(existsSync(join(dir, 'schemas', f)), f).toBe(true);

    // The console reloads with the new routes (Vite); the page's title is set once its schema is shown.
    await expect
      .poll(async () => {
        await page.goto(`${origin}/service-ticket/list`);
        return page.waitForFunction(() => document.title.includes('服务工单列表'), undefined, { timeout: 15_000 }).then(() => true, () => false);
      }, POLL)
      .toBe(true);
    await page.getByRole('button', { name: '新增服务工单' }).click();
    const form = page.locator('.ant-drawer-content, .ant-modal-content', { hasText: '新增服务工单' });
    await form.locator('.ant-formily-item', { hasText: '名称' }).locator('input').fill('空调漏水');
    await form.getByRole('button', { name: /保\s*存/ }).click();
    await expect.poll(() => page.locator('.ant-table-tbody').innerText(), POLL).toContain('空调漏水');
    await page.getByRole('link', { name: '空调漏水' }).click();
    await expect.poll(() => page.locator('.ant-descriptions').first().innerText(), POLL).toContain('空调漏水');
  });
});
