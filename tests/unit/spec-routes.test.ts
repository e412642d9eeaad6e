import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { RouteNode, RoutesFile } from '../../src/schema/types';
import { allRoutes } from '../../src/schema/routes';

// The specification lives beside the repository: <repo>/../shared/spec/console-spec.md (CI, /work/main),
// else at /work/shared/spec/console-spec.md (worktrees elsewhere).
const candidates = [resolve(process.cwd(), '../shared/spec/console-spec.md'), '/work/shared/spec/console-spec.md'];
const specFile = candidates.find((p) => existsSync(p));
const routesFile = JSON.parse(readFileSync(resolve(process.cwd(), 'schemas/routes.json'), 'utf8')) as RoutesFile;
const all = allRoutes(routesFile.routes);
const byPath = new Map(all.map((r) => [r.path, r]));

/** The spec's English titles and the Chinese ones the console shows. */
const TITLES: Record<string, string> = {
  Login: '登录',
  'Set password': '设置密码',
  Agreement: '服务协议',
  Workbench: '工作台',
  'Signing and insuring (section)': '签约投保',
  'Upload insurance information': '上传投保信息',
  'Historical form query': '历史表单查询',
  'Historical form detail': '历史表单详情',
  'Insured person management': '参保人员管理',
  'Insurance records': '投保记录',
  'Order management': '订单管理',
  'Order detail': '订单详情',
  'Invoice management': '发票管理',
  'Invoice detail': '发票详情',
  'Apply for invoice (optional id)': '申请开票',
  'Apply for invoice refund (optional id)': '申请退票',
  'Claim applications': '理赔申请',
  'Initiate application': '发起申请',
  'Claim notice': '理赔须知',
  'Account center': '账户中心',
  'Bank account management': '银行账户管理',
  'Basic settings': '基础设置',
};

/** The spec's route entry keys, plus the three the console needs (see RouteNode in src/schema/types.ts). */
const SPEC_KEYS = ['key', 'title', 'icon', 'path', 'hide', 'needServicePack', 'servicePackName', 'userType', 'navStyle', 'href', 'childRoutes'];
const EXTRA_KEYS = ['page', 'public', 'layout'];

interface SpecRow {
  path: string;
  title: string;
  menu: 'shown' | 'hidden';
}

/** Rows of the "| Path | Title | Menu |" table in section 2. */
function specRoutes(text: string): SpecRow[] {
  const section = text.split(/^## /m).find((s) => s.startsWith('2. Screens and routes'));
  if (!section) throw new Error('section 2 "Screens and routes" not found in the spec');
  return section
    .split('\n')
    .filter((l) => /^\|\s*\//.test(l))
    .map((l) => {
      const [path, title, menu] = l.split('|').slice(1, 4).map((c) => c.trim());
      return { path: path.replace(/\{(\w+)\?\}/g, ':$1?').replace(/\{(\w+)\}/g, ':$1'), title, menu: menu as SpecRow['menu'] };
    });
}

describe.skipIf(!specFile)('routes.json against the specification, section 2', () => {
  const rows = specFile ? specRoutes(readFileSync(specFile, 'utf8')) : [];

  it('the spec table has its 22 routes', () => {
    expect(rows).toHaveLength(22);
    expect(rows.every((r) => r.menu === 'shown' || r.menu === 'hidden')).toBe(true);
  });

  it('every spec path exists exactly, with its menu visibility and title', () => {
    for (const row of rows) {
      const r = byPath.get(row.path);
      expect(r, `route ${row.path} missing from routes.json`).toBeDefined();
      expect(Boolean(r!.hide), `${row.path} hide`).toBe(row.menu === 'hidden');
      expect(TITLES[row.title], `no Chinese title known for "${row.title}"`).toBeDefined();
      expect(r!.title, `${row.path} title`).toBe(TITLES[row.title]);
    }
  });

  it('a route the spec calls a section is a group of child routes', () => {
    const sections = rows.filter((r) => /\(section\)/.test(r.title));
    expect(sections.map((r) => r.path)).toEqual(['/main/online-insurance']);
    for (const row of sections) expect(byPath.get(row.path)?.childRoutes?.length, row.path).toBeGreaterThan(0);
  });

  // Routes beyond the spec's (a scaffolded entity's pages, say) are allowed: adding one needs no code edit.

  it('route entries use only the allowed keys', () => {
    const allowed = new Set([...SPEC_KEYS, ...EXTRA_KEYS]);
    for (const r of all) for (const k of Object.keys(r)) expect(allowed.has(k), `${r.path}: key "${k}"`).toBe(true);
  });

  it('/service/service-center/pay-manage is titled 理赔管理 inside 服务中心', () => {
    const center = byPath.get('/service/service-center') as RouteNode;
    expect(center.title).toBe('服务中心');
    const pm = center.childRoutes?.find((c) => c.path === '/service/service-center/pay-manage');
    expect(pm?.title).toBe('理赔管理');
  });

  it('the default landing is /mine/home; login, agreement and set-password need no sign-in', () => {
    expect(routesFile.defaultPath).toBe('/mine/home');
    const pub = all.filter((r) => r.public).map((r) => r.path).sort();
    expect(pub).toEqual(['/agreement/service', '/login/index', '/login/settingPassword']);
  });

  it('attendance insurance needs the attendance service pack', () => {
    const a = byPath.get('/main/online-insurance/attendance-insurance/insure-person-manage')!;
    expect(a.needServicePack).toBe(true);
    expect(a.servicePackName).toBe('attendance');
  });
});
