import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadSchemaFiles } from '../../src/schema/load-node';
import { createMetaAjv } from '../../src/schema/meta';
import { formatIssues, validateSchemas } from '../../src/schema/validate';
import { matchesWhen } from '../../src/schema/when';
import type { SchemaIssue } from '../../src/schema/types';

const real = loadSchemaFiles(resolve(__dirname, '../..')).files;
const ORDER_DETAIL = 'schemas/details/order.json';
const ORDERS = 'schemas/tables/orders.json';

function mutate(fn: (files: Record<string, any>) => void): SchemaIssue[] {
  const files = structuredClone(real) as Record<string, any>;
  fn(files);
  return validateSchemas(files);
}

function expectIssue(issues: SchemaIssue[], file: string, path: string, reason: string) {
  const hit = issues.find((i) => i.file === file && i.path === path && i.reason.includes(reason));
  expect(hit, `expected ${file}: ${path}: ...${reason}... in\n${formatIssues(issues)}`).toBeTruthy();
}

describe('action conditions ("when")', () => {
  it('match every named field, a value or one of a list; "" stands for an empty value', () => {
    const invoiceable = { payStatus: 'paid', invoiced: 'false' };
    expect(matchesWhen(undefined, undefined)).toBe(true);
    expect(matchesWhen(invoiceable, { payStatus: 'paid', invoiced: false })).toBe(true);
    expect(matchesWhen(invoiceable, { payStatus: 'paid', invoiced: true })).toBe(false);
    expect(matchesWhen(invoiceable, { payStatus: 'unpaid', invoiced: false })).toBe(false);
    expect(matchesWhen(invoiceable, undefined)).toBe(false); // the record has not loaded yet
    expect(matchesWhen({ status: ['reported', 'reviewing'] }, { status: 'reviewing' })).toBe(true);
    expect(matchesWhen({ status: ['reported', 'reviewing'] }, { status: 'paid' })).toBe(false);
    expect(matchesWhen({ paidAt: '' }, { paidAt: null })).toBe(true);
    expect(matchesWhen({ paidAt: '' }, { paidAt: '2026-01-01T00:00:00Z' })).toBe(false);
  });

  it('the real schemas validate, and the order detail offers 申请开票 only for a paid, uninvoiced order', () => {
    expect(formatIssues(validateSchemas(real))).toBe('');
    const apply = (real[ORDER_DETAIL] as any).actions.find((a: any) => a.label === '申请开票');
    expect(apply.when).toEqual({ payStatus: 'paid', invoiced: 'false' });
  });

  it('refuses unknown fields, values the field cannot take, bad shapes, and "when" on a table toolbar', () => {
    const issues = mutate((f) => {
      f[ORDER_DETAIL].actions[1].when = { payStatus: 'payed', invoiced: 'no', nope: 'x' };
      f[ORDER_DETAIL].actions[0].when = { payStatus: [] };
      f[ORDERS].rowActions[0].when = { payStatus: 1 };
      f[ORDERS].rowActions[1] = { label: '再看', to: '/main/online-insurance/cost-manage/order-manage/:id', when: { orderStatus: ['completed', 'done'] } };
      f[ORDERS].toolbar = [{ label: '去开票', to: '/main/online-insurance/cost-manage/invoice-manage/apply', when: { payStatus: 'paid' } }];
    });
    expectIssue(issues, ORDER_DETAIL, '$.actions[1].when.payStatus', '"payed" is not a value of "payStatus"');
    expectIssue(issues, ORDER_DETAIL, '$.actions[1].when.invoiced', '"no" is not a value of "invoiced"');
    expectIssue(issues, ORDER_DETAIL, '$.actions[1].when.nope', 'unknown field "nope" of entity "order"');
    expectIssue(issues, ORDER_DETAIL, '$.actions[0].when.payStatus', 'must list at least one value');
    expectIssue(issues, ORDERS, '$.rowActions[0].when.payStatus', 'must be a string or a list of strings');
    expectIssue(issues, ORDERS, '$.rowActions[1].when.orderStatus', '"done" is not a value of "orderStatus"');
    expectIssue(issues, ORDERS, '$.toolbar[0].when', 'unknown key "when"');
  });

  it('the detail meta schema (editor support) knows "when"', async () => {
    const validate = createMetaAjv().getSchema('detail.schema.json')!;
    const order = structuredClone(real[ORDER_DETAIL]) as any;
    expect(validate(order), JSON.stringify(validate.errors)).toBe(true);
    order.actions[1].when = { payStatus: 3 };
    expect(validate(order)).toBe(false);
  });
});
