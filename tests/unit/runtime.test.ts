import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import type { RouteNode, RoutesFile } from '../../src/schema/types';
import { buildMenu, documentTitle, openKeysFor } from '../../src/runtime/menu';
import { canAccess, denialFor } from '../../src/runtime/access';
import { csvToRows, isValidIdCard, parseCsv } from '../../src/runtime/validators';
import { toFormilyPath, toFormilySchema } from '../../src/runtime/formSchema';
import { toCsv, toQuery } from '../../src/runtime/tableColumns';
import { formatMoney, formatValue } from '../../src/runtime/format';
import { normalizeBasePath, routerBasename } from '../../src/config';

const routesFile = JSON.parse(readFileSync('schemas/routes.json', 'utf8')) as RoutesFile;
const names = (m: ReturnType<typeof buildMenu>): string[] => m.flatMap((e) => [e.name, ...(e.children ? names(e.children) : [])]);
const paths = (m: ReturnType<typeof buildMenu>): string[] => m.flatMap((e) => [e.path, ...(e.children ? paths(e.children) : [])]);

describe('menu from the route schema', () => {
  const admin = { userType: 'admin' as const, servicePacks: ['attendance'] };
  const operator = { userType: 'operator' as const, servicePacks: [] };

  it('leaves out hidden and public routes', () => {
    const p = paths(buildMenu(routesFile.routes, admin));
    expect(p).toContain('/order/list');
    expect(p).not.toContain('/order/detail/:id');
    expect(p).not.toContain('/login');
    expect(p).not.toContain('/mine/business');
  });

  it('shows the attendance entry only with the service pack, bank accounts only to admins', () => {
    const a = paths(buildMenu(routesFile.routes, admin));
    const o = paths(buildMenu(routesFile.routes, operator));
    expect(a).toContain('/insure/attendance');
    expect(o).not.toContain('/insure/attendance');
    expect(a).toContain('/setting/bank-accounts');
    expect(o).not.toContain('/setting/bank-accounts');
  });

  it('drops a group whose children are all unavailable', () => {
    const routes: RouteNode[] = [
      { path: '/g', title: 'G', childRoutes: [{ path: '/g/a', title: 'A', hidden: true, page: { kind: 'table', schema: 'orders' } }] },
      { path: '/b', title: 'B', page: { kind: 'table', schema: 'orders' } },
    ];
    expect(names(buildMenu(routes, admin))).toEqual(['B']);
  });

  it('opens the groups on the way to the current page and titles pages with the brand', () => {
    expect(openKeysFor(routesFile.routes, '/order/list')).toEqual(['/order']);
    expect(documentTitle('订单列表', routesFile.brand)).toBe(`订单列表 ${routesFile.brand.trim()}`);
    expect(documentTitle('订单列表', routesFile.brand).endsWith(routesFile.brand.trim())).toBe(true);
  });

  it('explains why a route is closed', () => {
    const r: RouteNode = { path: '/x', title: 'X', needServicePack: true, servicePackName: 'attendance', page: { kind: 'form', schema: 'f' } };
    expect(denialFor(r, operator)).toEqual({ reason: 'servicePack', servicePackName: 'attendance' });
    expect(canAccess(r, admin)).toBe(true);
    expect(denialFor({ ...r, needServicePack: false, userType: ['admin'] }, operator)).toEqual({ reason: 'userType', allowed: ['admin'] });
  });
});

describe('input checks', () => {
  it('validates mainland ID numbers by checksum and date', () => {
    expect(isValidIdCard('11010519491231002X')).toBe(true);
    expect(isValidIdCard('110105194912310021')).toBe(false); // wrong check digit
    expect(isValidIdCard('11010519491331002X')).toBe(false); // month 13
    expect(isValidIdCard('1101051949123100')).toBe(false);
  });

  it('parses CSV with quotes, CRLF and a BOM, and maps roster headers', () => {
    expect(parseCsv('\uFEFFa,"b,c"\r\n"x""y",2\r\n\r\n')).toEqual([['a', 'b,c'], ['x"y', '2']]);
    const cols = [{ name: 'name', title: '姓名' }, { name: 'idCard', title: '身份证号' }];
    expect(csvToRows('身份证号,姓名\n11010519491231002X,张三\n', cols)).toEqual({ rows: [{ name: '张三', idCard: '11010519491231002X' }] });
    expect(csvToRows('姓名\n张三', cols).error).toMatch(/身份证号/);
    expect(csvToRows('张三,11010519491231002X', cols).rows).toEqual([{ name: '张三', idCard: '11010519491231002X' }]);
    expect(csvToRows('', cols).error).toBeTruthy();
  });
});

describe('form schema to Formily', () => {
  it('maps field types, requiredness and patterns', () => {
    const s = toFormilySchema({
      id: 'f', title: 'F', submit: { api: '/api/x', method: 'POST' },
      fields: [
        { name: 'phone', title: '手机号', type: 'phone', required: true },
        { name: 'amount', title: '金额', type: 'money', min: 0 },
        { name: 'kind', title: '类型', type: 'enum', options: [{ label: '普票', value: 'normal' }] },
        { name: 'rows', title: '人员', type: 'rows', required: true, columns: [{ name: 'name', title: '姓名', type: 'string', required: true }] },
      ],
    });
    const p = s.properties as Record<string, Record<string, unknown>>;
    const check = (name: string, v: unknown) => (p[name]['x-validator'] as Array<(x: unknown) => string>)[0](v);
    // Required is a Chinese message of the shared rules, never Formily's English default.
    expect(p.phone.required).toBeUndefined();
    expect(p.phone['x-decorator-props']).toEqual({ asterisk: true });
    expect(check('phone', '')).toBe('请填写手机号');
    expect(check('phone', '12345')).toBe('请输入正确的 11 位手机号');
    expect(check('phone', '13800000000')).toBe('');
    expect(check('amount', -1)).toBe('金额不能小于 0');
    expect(check('amount', 1.234)).toBe('金额最多保留 2 位小数');
    expect(check('kind', 'special')).toBe('请选择正确的类型');
    expect(check('rows', [])).toBe('请至少添加 1 条人员');
    expect(p.phone['x-component']).toBe('Input');
    expect(p.amount['x-component']).toBe('NumberPicker');
    expect(p.kind.enum).toEqual([{ label: '普票', value: 'normal' }]);
    expect(p.rows['x-component']).toBe('ArrayTable');
    expect(p.rows.type).toBe('array');
    expect(Object.keys(p)).toEqual(['phone', 'amount', 'kind', 'rows__import', 'rows']);
    expect(p.rows__import['x-component']).toBe('RowsImport');
    expect(p.rows__import['x-component-props']).toEqual({ target: 'rows', columns: [{ name: 'name', title: '姓名' }] });
  });

  it('turns gateway field paths into Formily paths', () => {
    expect(toFormilyPath('rows[3].idCard')).toBe('rows.3.idCard');
    expect(toFormilyPath('phone')).toBe('phone');
  });
});

describe('table queries and export', () => {
  const cols = [
    { title: '订单号', dataIndex: 'orderNo', search: true },
    { title: '创建时间', dataIndex: 'createdAt', valueType: 'dateTime' as const, search: true },
    { title: '金额', dataIndex: 'amount', valueType: 'money' as const },
  ];
  it('sends pagination, trimmed filters, date ranges and sort', () => {
    expect(
      toQuery(cols, { current: 2, pageSize: 50, orderNo: ' OD1 ', createdAt: ['2026-01-01 00:00:00', '2026-02-01 00:00:00'], amount: '5' }, { amount: 'descend' }),
    ).toEqual({ current: 2, pageSize: 50, orderNo: 'OD1', createdAtRange: '2026-01-01,2026-02-01', sortField: 'amount', sortOrder: 'descend' });
  });
  it('writes CSV with BOM and quoting', () => {
    expect(toCsv(['a', 'b'], [['1,2', 'x"y']])).toBe('\uFEFFa,b\r\n"1,2","x""y"\r\n');
    expect(formatMoney(1234.5)).toBe('¥1,234.50');
    expect(formatValue('paid', 'enum', [{ label: '已支付', value: 'paid' }])).toBe('已支付');
  });
});

describe('base path setting', () => {
  it('normalises the global base path', () => {
    expect(normalizeBasePath(undefined)).toBe('/');
    expect(normalizeBasePath('console')).toBe('/console/');
    expect(normalizeBasePath('/a//b')).toBe('/a/b/');
    expect(routerBasename('/console/')).toBe('/console');
    expect(routerBasename('/')).toBe('/');
  });
});
