import { afterAll, describe, expect, it } from 'vitest';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { GENERATED, generate, staleFiles, writeScaffold } from '../../scripts/codegen';
import { loadSchemaFiles } from '../../src/schema/load-node';
import { formatIssues, validateSchemas } from '../../src/schema/validate';
import { buildEntityRegistry } from '../../src/shared/entity/registry';
import { resolveDetail, resolveForm, resolveTable } from '../../src/schema/resolve';
import type { DetailSchemaFile, FormSchemaFile, RouteNode, RoutesFile, TableSchemaFile } from '../../src/schema/types';

const ROOT = resolve(__dirname, '../..');
const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

function copy(): string {
  const dir = mkdtempSync(join(tmpdir(), 'codegen-'));
  dirs.push(dir);
  cpSync(join(ROOT, 'schemas'), join(dir, 'schemas'), { recursive: true });
  for (const f of GENERATED) cpSync(join(ROOT, f), join(dir, f), { recursive: true });
  return dir;
}

describe('codegen', () => {
  it('--check passes on the committed output, which carries the do-not-edit header', () => {
    expect(staleFiles(ROOT)).toEqual([]);
    for (const f of GENERATED) expect(readFileSync(join(ROOT, f), 'utf8')).toMatch(/^\/\/ generated .* do not edit/);
    const api = readFileSync(join(ROOT, 'src/generated/api.ts'), 'utf8');
    expect(api).toContain('export const listOrders = (query: T.OrderListQuery = {})');
    expect(api).toContain('export const getOrder = (id: number)');
    expect(api).toContain('export const createClaim = (payload: T.ClaimInput)');
    expect(api).not.toContain('createOrder');
    const types = readFileSync(join(ROOT, 'src/generated/entities.ts'), 'utf8');
    expect(types).toContain('payStatus: "unpaid" | "paid" | "refunded";');
    expect(types).toContain('export interface RosterSubmitInput');
  });

  it('--check reports a generated file as stale after an entity edit', () => {
    const dir = copy();
    const file = join(dir, 'schemas/entities/order.json');
    const e = JSON.parse(readFileSync(file, 'utf8'));
    e.fields.remark = { type: 'string', label: '备注' };
    writeFileSync(file, JSON.stringify(e));
    expect(staleFiles(dir)).toEqual(['src/generated/entities.ts']);
    expect(generate(dir)['src/generated/entities.ts']).toContain('remark?: string | null;');
  });

  it('new <entity> scaffolds files the validator accepts once the printed routes are pasted', () => {
    const dir = copy();
    expect(() => writeScaffold(dir, 'service-ticket', { label: ' ' })).toThrow(/--label/);
    expect(() => writeScaffold(dir, 'service-ticket', { label: '服务工单', icon: 'NopeOutlined' })).toThrow(/图标 NopeOutlined 不可用/);
    const { written, routes } = writeScaffold(dir, 'service-ticket', { label: '服务工单' });
    expect(written).toEqual([
      'schemas/entities/service-ticket.json',
      'schemas/tables/service-tickets.json',
      'schemas/forms/service-ticket.json',
      'schemas/details/service-ticket.json',
    ]);
    expect(() => writeScaffold(dir, 'service-ticket', { label: '服务工单' })).toThrow(/文件已存在/);
    const routesPath = join(dir, 'schemas/routes.json');
    const rf = JSON.parse(readFileSync(routesPath, 'utf8')) as RoutesFile;
    rf.routes.push(...(routes as RouteNode[]));
    writeFileSync(routesPath, JSON.stringify(rf));
    const files = loadSchemaFiles(dir).files;
    const issues = validateSchemas(files);
    // The new routes need no code edit: the spec's routes are checked by a test that reads the spec.
    expect(formatIssues(issues)).toBe('');
    const reg = buildEntityRegistry(files);
    const table = resolveTable(files['schemas/tables/service-tickets.json'] as TableSchemaFile, reg);
    expect(table.columns.map((c) => c.dataIndex)).toEqual(['title', 'createdAt']);
    // Pages read in Chinese, from the label: 服务工单列表 / 新增服务工单 / 服务工单详情.
    expect([table.title, (files['schemas/forms/service-ticket.json'] as FormSchemaFile).title, (files['schemas/details/service-ticket.json'] as DetailSchemaFile).title]).toEqual(['服务工单列表', '新增服务工单', '服务工单详情']);
    expect((routes as RouteNode[]).map((r) => r.title)).toEqual(['服务工单列表', '服务工单详情']);
    expect(reg.get('service-ticket').label).toBe('服务工单');
    expect(resolveForm(files['schemas/forms/service-ticket.json'] as FormSchemaFile, reg).fields.map((f) => f.name)).toEqual(['title']);
    expect(resolveDetail(files['schemas/details/service-ticket.json'] as DetailSchemaFile, reg).sections[0].fields).toHaveLength(2);
    expect(generate(dir)['src/generated/api.ts']).toContain('export const createServiceTicket');
  });
});
