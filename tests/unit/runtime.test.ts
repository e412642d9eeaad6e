import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import type { RouteNode, RoutesFile } from '../../src/schema/types';
import { buildMenu, documentTitle, openKeysFor, selectedKeyFor, withGroupsOpen } from '../../src/runtime/menu';
import { canAccess, denialFor, denialForTrail } from '../../src/runtime/access';
import { breadcrumbFor, firstAccessibleChild, groupRoutes, layoutOf, resolveRedirect, safeRedirect, trailFor } from '../../src/runtime/nav/tree';
import { findRoute, flattenRoutes } from '../../src/schema/routes';
import { SERVICE_PACK_LABELS, servicePackLabel } from '../../src/shared/labels';
import { Channel, channelLabel } from '../../src/shared/enums';
import { isValidIdCard } from '../../src/runtime/validators';
import { importedRows } from '../../src/runtime/upload/RowsImport';
import { idCardCheckChar, isValidDate } from '../../src/shared/checks';
import { toFormilyPath, toFormilySchema } from '../../src/runtime/formSchema';
import { toCsv, toQuery } from '../../src/runtime/tableColumns';
import { formatMoney, formatValue } from '../../src/runtime/format';
import { normalizeBasePath, routerBasename } from '../../src/config';

const routesFile = JSON.parse(readFileSync('schemas/routes.json', 'utf8')) as RoutesFile;
const names = (m: ReturnType<typeof buildMenu>): string[] => m.flatMap((e) => [e.name, ...(e.children ? names(e.children) : [])]);
const paths = (m: ReturnType<typeof buildMenu>): string[] => m.flatMap((e) => [e.path, ...(e.children ? paths(e.children) : [])]);

const M = '/main/online-insurance';
const CM = `${M}/cost-manage`;
const AI = `${M}/attendance-insurance`;
const AC = '/account/account-center/account-center';

describe('menu from the route schema', () => {
  const admin = { userType: 'admin' as const, servicePacks: ['attendance'] };
  const operator = { userType: 'operator' as const, servicePacks: [] };

  it('leaves out routes marked hide and public routes', () => {
    const p = paths(buildMenu(routesFile.routes, admin));
    expect(p).toContain(`${CM}/order-manage`);
    expect(p).not.toContain(`${CM}/order-manage/:id`);
    expect(p).not.toContain('/login/index');
    expect(p).not.toContain('/service/service-center/pay-manage/pay-apply-send');
    expect(p).toContain('/service/service-center/pay-manage/pay-notice');
  });

  it('shows attendance insurance only with the service pack, bank accounts only to admins', () => {
    const a = paths(buildMenu(routesFile.routes, admin));
    const o = paths(buildMenu(routesFile.routes, operator));
    expect(a).toContain(`${AI}/insure-person-manage`);
    expect(o).not.toContain(`${AI}/insure-person-manage`);
    expect(o).not.toContain(AI);
    expect(a).toContain(`${AC}/bank-manage`);
    expect(o).not.toContain(`${AC}/bank-manage`);
  });

  it('drops a group whose children are all unavailable', () => {
    const routes: RouteNode[] = [
      { path: '/g', title: 'G', childRoutes: [{ path: '/g/a', title: 'A', hide: true, page: { kind: 'table', schema: 'orders' } }] },
      { path: '/b', title: 'B', page: { kind: 'table', schema: 'orders' } },
    ];
    expect(names(buildMenu(routes, admin))).toEqual(['B']);
  });

  it('opens the groups on the way to the current page, highlights the list for a detail, titles pages with the brand', () => {
    expect(openKeysFor(routesFile.routes, `${CM}/order-manage/7`)).toEqual([M, CM]);
    expect(selectedKeyFor(routesFile.routes, `${CM}/order-manage/7`)).toBe(`${CM}/order-manage`);
    expect(selectedKeyFor(routesFile.routes, `${CM}/invoice-manage/apply`)).toBe(`${CM}/invoice-manage`);
    expect(documentTitle('订单管理', routesFile.brand)).toBe(`订单管理 ${routesFile.brand.trim()}`);
    // Groups the user opened stay open; the page's are added, and nothing changes when they already are.
    const open = ['/service', M];
    expect(withGroupsOpen(open, [M, CM])).toEqual(['/service', M, CM]);
    expect(withGroupsOpen(open, [M])).toBe(open);
  });

  it('explains why a route is closed, also for a group requirement', () => {
    const r: RouteNode = { path: '/x', title: 'X', needServicePack: true, servicePackName: 'attendance', page: { kind: 'form', schema: 'f' } };
    expect(denialFor(r, operator)).toEqual({ reason: 'servicePack', servicePackName: 'attendance' });
    expect(canAccess(r, admin)).toBe(true);
    expect(denialFor({ ...r, needServicePack: false, servicePackName: undefined, userType: ['admin'] }, operator)).toEqual({ reason: 'userType', allowed: ['admin'] });
    expect(denialForTrail(trailFor(routesFile.routes, `${AI}/insure-person-manage`), operator)).toEqual({ reason: 'servicePack', servicePackName: 'attendance' });
    expect(SERVICE_PACK_LABELS.attendance).toBe('考勤');
    expect(servicePackLabel('attendance')).toBe('考勤');
    expect(servicePackLabel('x-pack')).not.toContain('x-pack');
  });
});

describe('navigation helpers', () => {
  const admin = { userType: 'admin' as const, servicePacks: ['attendance'] };
  const operator = { userType: 'operator' as const, servicePacks: [] };
  const node = (p: string) => trailFor(routesFile.routes, p).at(-1)!;

  it('sections and groups open their first accessible child', () => {
    expect(firstAccessibleChild(node(M), admin)?.path).toBe(`${M}/form-insurance/upload-insurance-confidence`);
    expect(firstAccessibleChild(node(CM), admin)?.path).toBe(`${CM}/order-manage`);
    expect(firstAccessibleChild(node('/service/service-center/pay-manage'), admin)?.path).toBe('/service/service-center/pay-manage/pay-apply');
    expect(firstAccessibleChild(node(AC), operator)?.path).toBe(`${AC}/account-center`);
    expect(firstAccessibleChild(node(AI), operator)).toBeNull();
    expect(groupRoutes(routesFile.routes).map((g) => g.path)).toContain('/service/service-center/pay-manage');
  });

  it('builds the breadcrumb from the route tree', () => {
    expect(breadcrumbFor(routesFile.routes, `${CM}/order-manage/42`)).toEqual([
      { title: '签约投保', path: M },
      { title: '费用管理', path: CM },
      { title: '订单详情' },
    ]);
    expect(breadcrumbFor(routesFile.routes, '/service/service-center/pay-manage/pay-notice').map((c) => c.title)).toEqual(['服务中心', '理赔管理', '理赔须知']);
    expect(layoutOf(routesFile.routes, '/mine/home')).toBe('mine');
    expect(layoutOf(routesFile.routes, `${AC}/bank-manage`)).toBe('menu');
  });

  it('redirects old paths with their params and query', () => {
    const r = routesFile.redirects!;
    expect(resolveRedirect(r, '/order/detail/9')).toBe(`${CM}/order-manage/9`);
    expect(resolveRedirect(r, '/order/list', '?payStatus=unpaid')).toBe(`${CM}/order-manage?payStatus=unpaid`);
    expect(resolveRedirect(r, '/login')).toBe('/login/index');
    expect(resolveRedirect(r, '/mine/business')).toBe('/mine/home');
    expect(resolveRedirect(r, '/invoice/apply')).toBe(`${CM}/invoice-manage/apply`);
    expect(resolveRedirect(r, '/claim/detail/5')).toBe('/service/service-center/pay-manage/pay-apply?id=5');
    expect(resolveRedirect(r, '/nowhere')).toBeNull();
    for (const from of Object.keys(r)) expect(resolveRedirect(r, from.replace(/:id\??/, '3')), from).not.toBeNull();
  });

  it('accepts only in-app return targets', () => {
    expect(safeRedirect('/main/online-insurance?x=1')).toBe('/main/online-insurance?x=1');
    expect(safeRedirect('//evil.example')).toBeNull();
    expect(safeRedirect('https://evil.example')).toBeNull();
    expect(safeRedirect(null)).toBeNull();
  });

  it('every custom page named in routes.json is registered; every link of the custom pages is a route', async () => {
    const { CUSTOM_PAGES } = await import('../../src/runtime/pages/custom/registry');
    const { PATHS } = await import('../../src/runtime/pages/custom/paths');
    const used = flattenRoutes(routesFile.routes).flatMap((x) => (x.page?.kind === 'custom' ? [x.page.component] : []));
    expect(used.length).toBeGreaterThanOrEqual(8);
    for (const c of used) expect(CUSTOM_PAGES[c], c).toBeDefined();
    const links = Object.values(PATHS).map((v) => (typeof v === 'function' ? v(1) : v));
    for (const l of links) expect(findRoute(routesFile.routes, l), l).not.toBeNull();
  });

  it('describes the Channel enumeration with Chinese labels', () => {
    expect(Channel.Online).toBe('1');
    expect(Channel.Outline).toBe('2');
    expect(channelLabel('1')).toBe('线上');
    expect(channelLabel('2')).toBe('线下');
    expect(channelLabel('3')).toBeUndefined();
  });
});

describe('input checks', () => {
  it('validates mainland ID numbers by checksum and date', () => {
    expect(isValidIdCard('11010519491231002X')).toBe(true);
    expect(isValidIdCard('110105194912310021')).toBe(false); // wrong check digit
    expect(isValidIdCard('11010519491331002X')).toBe(false); // month 13
    expect(isValidIdCard('1101051949123100')).toBe(false);
    expect(isValidIdCard('11010519491231002x')).toBe(true); // a lower-case check character is the same number
    const withCheck = (first17: string) => first17 + idCardCheckChar(first17);
    expect(isValidIdCard(withCheck('11010520000229002'))).toBe(true); // 29 February of a leap year
    expect(isValidIdCard(withCheck('11010519000229002'))).toBe(false); // 1900 was not a leap year
    expect(isValidIdCard(withCheck('11010518991231002'))).toBe(false); // before 1900
    const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10).replace(/-/g, '');
    const today = new Date().toISOString().slice(0, 10).replace(/-/g, '');
    expect(isValidIdCard(withCheck(`110105${tomorrow}002`))).toBe(false); // born in the future
    expect(isValidIdCard(withCheck(`110105${today}002`))).toBe(true);
  });

  it('accepts only real calendar dates within the bounded years', () => {
    for (const ok of ['2024-02-29', '2000-02-29', '2023-12-31', '2023-04-30', '1900-01-01']) expect(isValidDate(ok), ok).toBe(true);
    for (const bad of ['2023-02-29', '1900-02-29', '2023-04-31', '2023-13-01', '2023-00-10', '2023-01-00', '2023-1-1', '20230101', '0000-01-01', '9999-12-31', ' 2023-01-01'])
      expect(isValidDate(bad), bad).toBe(false);
  });

  it("imports the rows the gateway's roster reader read: by column key, without the template's example row, problems listed by row", () => {
    const r = importedRows({
      columns: [{ key: 'name', label: '姓名' }, { key: 'idCard', label: '身份证号' }],
      rowNumbers: [2, 3, 4, 5],
      rows: [['张三', '11010519491231002X'], ['李四', '1.10101E+17'], ['王五', '110101199003074573'], ['赵六', '110101199003074573']],
      errors: [
        { row: 2, column: 'name', label: '姓名', message: '这是模板中的示例行，请删除后重新上传' },
        { row: 3, column: 'idCard', label: '身份证号', message: '身份证号不正确' },
      ],
      duplicates: [{ row: 5, firstRow: 4, message: '与第 4 行重复' }],
      unknownHeaders: [],
    });
    expect(r.rows).toEqual([{ name: '李四', idCard: '1.10101E+17' }, { name: '王五', idCard: '110101199003074573' }, { name: '赵六', idCard: '110101199003074573' }]);
    expect(r.skipped).toBe(1);
    expect(r.problems).toEqual(['第 3 行 身份证号：身份证号不正确', '第 5 行：与第 4 行重复']);
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
