import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadSchemaFiles, validateSchemaDir } from '../../src/schema/load-node';
import { buildPath, fillPath, findRoute, flattenRoutes, matchRoute, templateTargetsRoute } from '../../src/schema/routes';
import type { RouteNode, RoutesFile, SchemaIssue } from '../../src/schema/types';
import { formatIssues, validateSchemas } from '../../src/schema/validate';

const ROOT = resolve(__dirname, '../..');
const loaded = loadSchemaFiles(ROOT);
const real = loaded.files;
const routesFile = real['schemas/routes.json'] as RoutesFile;
const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

/** Deep copy of the real files, mutated by `fn`, then validated. */
function mutate(fn: (files: Record<string, any>) => void): SchemaIssue[] {
  const files = structuredClone(real) as Record<string, any>;
  fn(files);
  return validateSchemas(files);
}

function findByPath(routes: RouteNode[], path: string): RouteNode {
  for (const r of routes) {
    if (r.path === path) return r;
    if (r.childRoutes) {
      try {
        return findByPath(r.childRoutes, path);
      } catch {
        /* keep looking */
      }
    }
  }
  throw new Error(`no route ${path}`);
}

function expectIssue(issues: SchemaIssue[], file: string, path: string, reason: string) {
  const hit = issues.find((i) => i.file === file && i.path === path && i.reason.includes(reason));
  expect(hit, `expected ${file}: ${path}: ...${reason}... in\n${formatIssues(issues)}`).toBeTruthy();
}

describe('real schemas', () => {
  it('load without syntax errors and validate cleanly', () => {
    expect(loaded.issues).toEqual([]);
    expect(Object.keys(real).length).toBeGreaterThan(20);
    const issues = validateSchemas(real);
    expect(formatIssues(issues)).toBe('');
  });

  // The spec's routes are checked against the spec itself (spec-routes.test.ts): adding a route needs no code edit.
  it('the section /main/online-insurance is a group, default path /mine/home and the brand', () => {
    expect(findByPath(routesFile.routes, '/main/online-insurance').childRoutes?.length).toBeGreaterThan(0);
    expect(routesFile.defaultPath).toBe('/mine/home');
    expect(routesFile.brand).toBe('· 保险服务企业版');
  });

  it('marks login, agreement and set-password public without layout', () => {
    const pub = ['/login/index', '/agreement/service', '/login/settingPassword'];
    for (const p of pub) {
      const r = findByPath(routesFile.routes, p);
      expect(r.public, p).toBe(true);
      expect(r.navStyle, p).toBe('none');
      expect(r.hide, p).toBe(true);
      expect(r.layout, p).toBe('basic');
    }
    const others = flattenRoutes(routesFile.routes).filter((r) => !pub.includes(r.path));
    expect(others.every((r) => !r.public)).toBe(true);
  });

  it('attendance needs the attendance service pack; bank accounts are admin only', () => {
    for (const p of ['/main/online-insurance/attendance-insurance', '/main/online-insurance/attendance-insurance/insure-person-manage']) {
      const a = findByPath(routesFile.routes, p);
      expect(a.needServicePack, p).toBe(true);
      expect(a.servicePackName, p).toBe('attendance');
    }
    expect(findByPath(routesFile.routes, '/account/account-center/account-center/bank-manage').userType).toEqual(['admin']);
  });

  it('old paths redirect to routes that exist', () => {
    const r = routesFile.redirects ?? {};
    expect(r['/login']).toBe('/login/index');
    expect(r['/order/detail/:id']).toBe('/main/online-insurance/cost-manage/order-manage/:id');
    expect(r['/mine/business']).toBe('/mine/home');
    expect(Object.keys(r).length).toBeGreaterThanOrEqual(25);
  });

  it('CLI-equivalent directory validation passes', () => {
    expect(validateSchemaDir(ROOT).issues).toEqual([]);
  });
});

describe('route helpers', () => {
  it('matchRoute extracts params and rejects mismatches', () => {
    expect(matchRoute('/order/detail/:id', '/order/detail/42')).toEqual({ id: '42' });
    expect(matchRoute('/order/detail/:id', '/order/detail/42/')).toEqual({ id: '42' });
    expect(matchRoute('/order/detail/:id', '/order/detail')).toBeNull();
    expect(matchRoute('/order/list', '/order/list?x=1')).toEqual({});
    expect(matchRoute('/order/list', '/order/lists')).toBeNull();
    expect(matchRoute('/x/apply/:id?', '/x/apply')).toEqual({});
    expect(matchRoute('/x/apply/:id?', '/x/apply/9')).toEqual({ id: '9' });
    expect(matchRoute('/x/apply/:id?', '/x/apply/9/1')).toBeNull();
    expect(buildPath('/x/apply/:id?', {})).toBe('/x/apply');
    expect(buildPath('/x/:id/y', { id: '7' })).toBe('/x/7/y');
  });

  it('findRoute prefers literal routes; templates and fillPath work', () => {
    const CM = '/main/online-insurance/cost-manage';
    expect(findRoute(routesFile.routes, `${CM}/invoice-manage/apply-refund`)?.route.title).toBe('申请退票');
    expect(findRoute(routesFile.routes, `${CM}/order-manage/7`)?.params).toEqual({ id: '7' });
    expect(findRoute(routesFile.routes, `${CM}/invoice-manage/detail/3`)?.route.title).toBe('发票详情');
    expect(templateTargetsRoute(`${CM}/invoice-manage/apply`, `${CM}/invoice-manage/apply/:id?`)).toBe(true);
    expect(templateTargetsRoute('/x/pay-apply?id=:id', '/x/pay-apply')).toBe(true);
    expect(templateTargetsRoute('/order/detail/:id', '/order/detail/:id')).toBe(true);
    expect(templateTargetsRoute('/order/:id', '/order/list')).toBe(false);
    expect(fillPath('/order/detail/:id', { id: 'a b' })).toBe('/order/detail/a%20b');
  });
});

describe('validator catches mistakes', () => {
  const R = 'schemas/routes.json';

  it('missing title on a route', () => {
    const issues = mutate((f) => {
      delete f[R].routes[5].childRoutes[0].title;
    });
    expectIssue(issues, R, '$.routes[5].childRoutes[0].title', 'missing required key "title"');
  });

  it('route keys outside the spec list (plus page, public, layout) are refused', () => {
    const issues = mutate((f) => {
      f[R].routes[3].hidden = true;
      f[R].routes[4].childRoutes[0].layout = 'menu';
      delete f[R].routes[6].layout;
    });
    expectIssue(issues, R, '$.routes[3].hidden', 'did you mean "hide"');
    expectIssue(issues, R, '$.routes[4].childRoutes[0].layout', 'only top-level routes');
    expectIssue(issues, R, '$.routes[6].layout', 'needs "layout"');
  });

  it('optional params only at the end; redirects must resolve', () => {
    const issues = mutate((f) => {
      f[R].routes[3].path = '/mine/:x?/home';
      f[R].redirects['/old/:id'] = '/main/online-insurance/cost-manage/order-manage/:orderId';
      f[R].redirects['/old2'] = '/nowhere';
    });
    expectIssue(issues, R, '$.routes[3].path', 'only the last segment may be optional');
    expectIssue(issues, R, '$.redirects["/old/:id"]', 'needs param :orderId');
    expectIssue(issues, R, '$.redirects["/old2"]', 'not a route path');
  });

  it('custom pages name the schema files they render', () => {
    const issues = mutate((f) => {
      f[R].routes[4].childRoutes[3].childRoutes[2].page.schemas = [{ kind: 'table', schema: 'invoices' }];
    });
    expectIssue(issues, 'schemas/tables/invoice-refunds.json', '$', 'not referenced by any route');
    const bad = mutate((f) => {
      f[R].routes[4].childRoutes[3].childRoutes[2].page.schema = 'invoices';
    });
    expectIssue(bad, R, '$.routes[4].childRoutes[3].childRoutes[2].page.schema', 'unknown key');
  });

  it('missing title on a table', () => {
    const issues = mutate((f) => {
      delete f['schemas/tables/orders.json'].title;
    });
    expectIssue(issues, 'schemas/tables/orders.json', '$.title', 'missing required key');
  });

  it('unknown (typo) key with suggestion', () => {
    const issues = mutate((f) => {
      const col = f['schemas/tables/orders.json'].columns[0];
      col.copyabel = true;
      f['schemas/entities/order.json'].fields.amount.serach = 'range';
    });
    expectIssue(issues, 'schemas/tables/orders.json', '$.columns[0].copyabel', 'did you mean "copyable"');
    expectIssue(issues, 'schemas/entities/order.json', '$.fields.amount.serach', 'did you mean "search"');
  });

  it('bad icon', () => {
    const issues = mutate((f) => {
      f[R].routes[3].icon = 'HomeOutline';
    });
    expectIssue(issues, R, '$.routes[3].icon', 'invalid icon "HomeOutline"');
  });

  it('broken schema reference and wrong kind', () => {
    let issues = mutate((f) => {
      f[R].routes[4].childRoutes[0].childRoutes[1].page.schema = 'insure-batchez';
    });
    expectIssue(issues, R, '$.routes[4].childRoutes[0].childRoutes[1].page.schema', 'schemas/tables/insure-batchez.json');
    issues = mutate((f) => {
      f[R].routes[4].childRoutes[0].childRoutes[1].page.kind = 'form';
    });
    expectIssue(issues, R, '$.routes[4].childRoutes[0].childRoutes[1].page.schema', 'wrong kind');
  });

  it('duplicate route path', () => {
    const issues = mutate((f) => {
      f[R].routes[4].childRoutes[3].childRoutes[1].path = '/main/online-insurance/cost-manage/order-manage';
    });
    expectIssue(issues, R, '$.routes[4].childRoutes[3].childRoutes[1].path', 'duplicate route path "/main/online-insurance/cost-manage/order-manage"');
  });

  it('child path outside parent and relative path', () => {
    let issues = mutate((f) => {
      f[R].routes[6].childRoutes[0].path = '/account/account-center';
    });
    expectIssue(issues, R, '$.routes[6].childRoutes[0].path', 'must start with parent path');
    issues = mutate((f) => {
      f[R].routes[3].path = 'mine/home';
    });
    expectIssue(issues, R, '$.routes[3].path', 'must be absolute');
  });

  it('needServicePack without servicePackName', () => {
    const issues = mutate((f) => {
      delete f[R].routes[4].childRoutes[1].servicePackName;
    });
    expectIssue(issues, R, '$.routes[4].childRoutes[1].servicePackName', 'servicePackName is missing');
  });

  it('bad regex pattern', () => {
    const issues = mutate((f) => {
      f['schemas/entities/login.json'].fields.phone.pattern = '^1[3-9\\d{9}$';
    });
    expectIssue(issues, 'schemas/entities/login.json', '$.fields.phone.pattern', 'not a valid RegExp');
  });

  it('defaultPath, href and unreferenced files; the number of routes is free', () => {
    const issues = mutate((f) => {
      f[R].routes.splice(6, 1); // drop the account center -> businesses table unused
      f[R].defaultPath = '/mine/nowhere';
      f[R].routes[3].href = 'ftp://x';
    });
    expect(issues.filter((i) => i.path === '$.routes')).toEqual([]);
    expectIssue(issues, R, '$.defaultPath', 'not the path of any leaf route');
    expectIssue(issues, R, '$.routes[3].href', 'http(s) URL');
    expectIssue(issues, R, '$.routes[3]', 'both "page" and "href"');
    expectIssue(issues, 'schemas/tables/businesses.json', '$', 'not referenced by any route');
  });

  it('enum options, field types, duplicates, id and link targets', () => {
    const T = 'schemas/tables/orders.json';
    const E = 'schemas/entities/order.json';
    const issues = mutate((f) => {
      const t = f[T];
      f[E].fields.payStatus.options = [];
      f[E].fields.amount.type = 'currency';
      t.columns[1] = 'orderNo';
      t.columns[0].link = '/main/online-insurance/cost-manage/order-manage/:id/extra';
      t.id = 'order-list';
      f['schemas/forms/claim-report.json'].fields[1] = 'personName';
      f['schemas/entities/invoice.json'].fields.type.options[1].value = 'normal';
      f['schemas/tables/invoices.json'].toolbar[0].to = '/main/online-insurance/cost-manage/invoice-manage/apply-now';
    });
    expectIssue(issues, E, '$.fields.payStatus.options', 'non-empty array');
    expectIssue(issues, E, '$.fields.amount.type', 'invalid field type "currency"');
    expectIssue(issues, T, '$.columns[1]', 'duplicate field "orderNo"');
    expectIssue(issues, T, '$.columns[0].link', 'does not match any page route');
    expectIssue(issues, T, '$.id', 'must equal the file name "orders"');
    expectIssue(issues, 'schemas/forms/claim-report.json', '$.fields[1]', 'duplicate field "personName"');
    expectIssue(issues, 'schemas/entities/invoice.json', '$.fields.type.options[1].value', 'duplicate option value');
    expectIssue(issues, 'schemas/tables/invoices.json', '$.toolbar[0].to', 'does not match any page route');
  });

  it('day counts only on a default sort field that is a datetime and never empty', () => {
    const issues = mutate((f) => {
      f['schemas/entities/claim.json'].defaultSort = { field: 'accidentDate', order: 'descend', dayCounts: true };
      f['schemas/entities/claim.json'].fields.accidentDate.sort = true;
      f['schemas/entities/invoice.json'].defaultSort.dayCounts = 'yes';
    });
    expectIssue(issues, 'schemas/entities/claim.json', '$.defaultSort.dayCounts', 'type "datetime" that is required or has a default');
    expectIssue(issues, 'schemas/entities/invoice.json', '$.defaultSort.dayCounts', '');
    expect(issues.filter((i) => i.file === 'schemas/entities/order.json')).toEqual([]);
  });

  it('entity references: unknown entity, unknown field, and types/rules repeated in a page', () => {
    const issues = mutate((f) => {
      f['schemas/tables/claims.json'].entity = 'claimz';
      f['schemas/tables/orders.json'].columns[2] = 'orderNumber';
      f['schemas/tables/orders.json'].columns[3] = { field: 'amount', title: '金额', valueType: 'money', width: 120 };
      f['schemas/forms/claim-report.json'].fields[2] = { field: 'accidentDate', type: 'datetime', pattern: '^x$' };
      f['schemas/forms/claim-report.json'].fields[3] = 'claimNo';
      f['schemas/details/order.json'].sections[0].fields[0] = { field: 'orderNo', label: '单号' };
      f['schemas/entities/insure-record.json'].fields.batchId.entity = 'insure-batchez';
      f['schemas/entities/insure-batch-row.json'].fields.name = 'insured-person.nam';
      f['schemas/tables/orders.json'].columns[1] = { field: 'productName', optionsApi: '/api/plans' }; // a contains-search field
      f['schemas/tables/insured-persons.json'].columns[4] = { field: 'planName', optionsApi: 'plans' };
    });
    expectIssue(issues, 'schemas/tables/claims.json', '$.entity', 'unknown entity "claimz"');
    expectIssue(issues, 'schemas/tables/orders.json', '$.columns[2]', 'unknown field "orderNumber" of entity "order"');
    expectIssue(issues, 'schemas/tables/orders.json', '$.columns[3].title', 'repeats entity field "amount"');
    expectIssue(issues, 'schemas/tables/orders.json', '$.columns[3].valueType', 'repeats entity field "amount"');
    expectIssue(issues, 'schemas/forms/claim-report.json', '$.fields[2].type', 'repeats entity field "accidentDate"');
    expectIssue(issues, 'schemas/forms/claim-report.json', '$.fields[2].pattern', 'repeats entity field "accidentDate"');
    expectIssue(issues, 'schemas/forms/claim-report.json', '$.fields[3]', 'unknown field "claimNo"');
    expectIssue(issues, 'schemas/details/order.json', '$.sections[0].fields[0].label', 'repeats entity field "orderNo"');
    expectIssue(issues, 'schemas/entities/insure-record.json', '$.fields.batchId.entity', 'needs an existing entity');
    expectIssue(issues, 'schemas/entities/insure-batch-row.json', '$.fields.name', 'unknown field reference "insured-person.nam"');
    expectIssue(issues, 'schemas/tables/orders.json', '$.columns[1].optionsApi', 'needs a string field with search "exact"');
    expectIssue(issues, 'schemas/tables/insured-persons.json', '$.columns[4].optionsApi', '');
  });

  it('wrong types are reported with the JSON path', () => {
    const issues = mutate((f) => {
      f[R].routes[3].hide = 'yes';
      f['schemas/entities/roster-submit.json'].fields.rows.required = 1;
    });
    expectIssue(issues, R, '$.routes[3].hide', 'must be a boolean');
    expectIssue(issues, 'schemas/entities/roster-submit.json', '$.fields.rows.required', 'must be a boolean');
  });

  it('JSON syntax errors are issues, not exceptions (loadSchemaFiles on a temp dir)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'schemas-test-'));
    dirs.push(dir);
    mkdirSync(join(dir, 'schemas', 'tables'), { recursive: true });
    writeFileSync(join(dir, 'schemas', 'routes.json'), JSON.stringify(routesFile));
    writeFileSync(join(dir, 'schemas', 'tables', 'orders.json'), '{ "id": "orders", ');
    const { files, issues } = loadSchemaFiles(dir);
    expect(Object.keys(files)).toEqual(['schemas/routes.json']);
    expect(issues).toHaveLength(1);
    expectIssue(issues, 'schemas/tables/orders.json', '$', 'invalid JSON at line 1, column 19: ');
    // validation continues with the parsable files; the unreadable file is not reported again as missing
    const all = validateSchemaDir(dir).issues;
    expectIssue(all, 'schemas/tables/orders.json', '$', 'invalid JSON');
    expect(all.filter((i) => i.path === '$.routes[4].childRoutes[3].childRoutes[0].page.schemas[0].schema')).toEqual([]);
    expectIssue(all, R, '$.routes[4].childRoutes[3].childRoutes[2].page.schemas[0].schema', 'page schema "invoices" not found');
  });
});

describe('browser registry (import.meta.glob, also supported by vitest)', () => {
  it('validates at start-up and exposes typed accessors', async () => {
    const reg = await import('../../src/schema/registry');
    expect(reg.routesFile.defaultPath).toBe('/mine/home');
    expect(reg.getTable('orders').api).toBe('/api/orders');
    expect(reg.getForm('login').submit.api).toBe('/api/auth/login');
    expect(reg.getDetail('agreement').content).toContain('用户服务协议');
    expect(() => reg.getTable('nope')).toThrow(/Unknown table schema "nope"/);
    expect(reg.flattenRoutes(reg.routesFile.routes)).toEqual(flattenRoutes(routesFile.routes));
  });
});

describe('toolbar actions that open a form in a dialog', () => {
  it('count as a use of the form and must name an existing one', () => {
    // bank-account.json is used only by the bank-accounts toolbar; dropping that use is reported.
    const unused = mutate((f) => {
      f['schemas/tables/bank-accounts.json'].toolbar = [];
    });
    expectIssue(unused, 'schemas/forms/bank-account.json', '$', 'not referenced');

    const missing = mutate((f) => {
      f['schemas/tables/bank-accounts.json'].toolbar[0].form = 'bank-acount';
    });
    expectIssue(missing, 'schemas/tables/bank-accounts.json', '$.toolbar[0].form', 'form schema "bank-acount" not found');
  });

  it('take exactly one of to, href and form', () => {
    const both = mutate((f) => {
      f['schemas/tables/bank-accounts.json'].toolbar[0].to = '/account/account-center/account-center/basic-setting';
    });
    expectIssue(both, 'schemas/tables/bank-accounts.json', '$.toolbar[0]', 'only one of "to", "href" and "form"');
  });
});
