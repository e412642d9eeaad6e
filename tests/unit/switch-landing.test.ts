import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import type { RoutesFile } from '../../src/schema/types';
import type { AccessContext } from '../../src/runtime/access';
import { landingAfterSwitch } from '../../src/runtime/nav/switchLanding';
import { listPathOf } from '../../src/runtime/pages/listPath';

const routesFile = JSON.parse(readFileSync('schemas/routes.json', 'utf8')) as RoutesFile;
const M = '/main/online-insurance';
const CM = `${M}/cost-manage`;
const HOME = routesFile.defaultPath;
const withPack: AccessContext = { userType: 'admin', servicePacks: ['attendance'] };
const operatorNoPack: AccessContext = { userType: 'operator', servicePacks: [] };
const land = (path: string, ctx: AccessContext = operatorNoPack) => {
  const [pathname, search = ''] = path.split('?');
  return landingAfterSwitch(routesFile.routes, HOME, pathname, search ? `?${search}` : '', ctx);
};

describe('where a business switch lands', () => {
  it('stays on a list or form the new business may open, with its query', () => {
    expect(land(`${CM}/order-manage?payStatus=unpaid`)).toBe(`${CM}/order-manage?payStatus=unpaid`);
    expect(land(`${M}/insured-record`)).toBe(`${M}/insured-record`);
  });
  it('leaves a page the new business may not open for the default landing', () => {
    expect(land(`${M}/attendance-insurance/insure-person-manage`)).toBe(HOME);
    expect(land(`${M}/attendance-insurance/insure-person-manage`, withPack)).toBe(`${M}/attendance-insurance/insure-person-manage`);
    expect(land('/account/account-center/account-center/bank-manage')).toBe(HOME);
  });
  it("goes from the previous business's record to its list", () => {
    expect(land(`${CM}/order-manage/17`)).toBe(`${CM}/order-manage`);
    expect(land(`${CM}/invoice-manage/detail/3`)).toBe(`${CM}/invoice-manage`);
    expect(land(`${M}/form-insurance/query-history-form/9`)).toBe(`${M}/form-insurance/query-history-form`);
    expect(land(`${M}/insured-record?id=4&status=effective`)).toBe(`${M}/insured-record?status=effective`);
    expect(land(`${CM}/invoice-manage/apply/5`)).toBe(`${CM}/invoice-manage/apply`);
  });
  it('sends an unknown path to the default landing', () => {
    expect(land('/no/such/page')).toBe(HOME);
  });
});

describe('the list of a detail', () => {
  it('drops the id segment, a detail segment before it, or a drawer id', () => {
    expect(listPathOf(`${CM}/order-manage/7`, '')).toBe(`${CM}/order-manage`);
    expect(listPathOf(`${CM}/invoice-manage/detail/7`, '')).toBe(`${CM}/invoice-manage`);
    expect(listPathOf(`${CM}/invoice-manage`, '?tab=refunds&id=2')).toBe(`${CM}/invoice-manage?tab=refunds`);
  });
});
