import { describe, expect, it } from 'vitest';
import {
  linkKeepingListState,
  listStateKey,
  readListState,
  stateFromRequest,
  toFormValues,
  writeListState,
  type UrlStateColumn,
} from '../../src/runtime/table/urlState';
import { getTable } from '../../src/schema/registry';

const columns: UrlStateColumn[] = [
  { dataIndex: 'orderNo', search: true, sorter: false },
  { dataIndex: 'status', search: true, options: [{ value: 'unpaid' }, { value: 'paid' }] },
  { dataIndex: 'amount', sorter: true, valueType: 'money' },
  { dataIndex: 'createdAt', search: true, sorter: true, valueType: 'dateTime' },
  { dataIndex: 'note' },
];

describe('readListState', () => {
  it('reads the contract format: filters, page, page size, sort, date range', () => {
    const s = readListState('?status=unpaid&current=3&pageSize=50&sortField=createdAt&sortOrder=descend&createdAt=2026-01-01,2026-01-31', columns, 30);
    expect(s).toEqual({
      current: 3,
      pageSize: 50,
      filters: { status: 'unpaid', createdAt: ['2026-01-01', '2026-01-31'] },
      sortField: 'createdAt',
      sortOrder: 'descend',
    });
  });
  it('gives the default state for an empty query', () => {
    expect(readListState('', columns, 30)).toEqual({ current: 1, pageSize: 30, filters: {} });
  });
  it('ignores what the table cannot show: bad numbers, unknown enum values, unsortable or unknown fields', () => {
    const s = readListState('current=-2&pageSize=5000&status=lost&note=x&sortField=orderNo&sortOrder=ascend&createdAt=2026-13,2026', columns, 30);
    expect(s).toEqual({ current: 1, pageSize: 30, filters: {} });
    expect(readListState('sortField=amount&sortOrder=sideways', columns, 30).sortField).toBeUndefined();
    expect(readListState('current=2.5', columns, 30).current).toBe(1);
  });
  it('reads <field>Range as well, and orders a reversed range', () => {
    expect(readListState('createdAtRange=2026-02-01,2026-01-01', columns, 30).filters.createdAt).toEqual(['2026-01-01', '2026-02-01']);
  });
  it('trims text filters', () => {
    expect(readListState('orderNo=%20OD1%20', columns, 30).filters).toEqual({ orderNo: 'OD1' });
  });
});

describe('writeListState', () => {
  it('writes the contract format and keeps other parameters (tab, id)', () => {
    const q = writeListState(
      '?tab=refunds&status=paid&id=7',
      { current: 2, pageSize: 30, filters: { orderNo: 'OD1', createdAt: ['2026-01-01', '2026-01-31'] }, sortField: 'amount', sortOrder: 'ascend' },
      columns,
      30,
    );
    expect(Object.fromEntries(q)).toEqual({
      tab: 'refunds',
      id: '7',
      orderNo: 'OD1',
      createdAt: '2026-01-01,2026-01-31',
      current: '2',
      pageSize: '30',
      sortField: 'amount',
      sortOrder: 'ascend',
    });
  });
  it('writes nothing for the default state and removes the old list parameters', () => {
    const q = writeListState('?tab=refunds&status=paid&current=4&pageSize=50&createdAtRange=2026-01-01,2026-01-02', { current: 1, pageSize: 30, filters: {} }, columns, 30);
    expect(q.toString()).toBe('tab=refunds');
  });
  it('round-trips through readListState', () => {
    const state = { current: 5, pageSize: 100, filters: { status: 'unpaid', createdAt: ['2026-03-01', '2026-03-31'] as [string, string] }, sortField: 'createdAt', sortOrder: 'descend' as const };
    expect(readListState(writeListState('', state, columns, 30), columns, 30)).toEqual(state);
  });
});

describe('stateFromRequest', () => {
  it('maps ProTable params and sort (date-time ranges cut to days, empty values dropped)', () => {
    const s = stateFromRequest(
      { current: 2, pageSize: 50, orderNo: '  ', status: 'paid', createdAt: ['2026-01-01 00:00:00', '2026-01-31 23:59:59'], _timestamp: 1 },
      { amount: null, createdAt: 'ascend' },
      columns,
      30,
    );
    expect(s).toEqual({ current: 2, pageSize: 50, filters: { status: 'paid', createdAt: ['2026-01-01', '2026-01-31'] }, sortField: 'createdAt', sortOrder: 'ascend' });
  });
  it('has the same key as the URL it writes, so a written URL is not taken for an outside change', () => {
    const s = stateFromRequest({ current: 1, pageSize: 30, status: 'unpaid' }, {}, columns, 30);
    const url = writeListState('', s, columns, 30);
    expect(url.toString()).toBe('status=unpaid&current=1&pageSize=30');
    expect(listStateKey(readListState(url, columns, 30))).toBe(listStateKey(s));
    expect(listStateKey(readListState('', columns, 30))).toBe(listStateKey(stateFromRequest({}, undefined, columns, 30)));
  });
});

describe('toFormValues', () => {
  it('names a date filter by its range field, other filters by their field', () => {
    const cols: UrlStateColumn[] = [...columns, { dataIndex: 'period', search: true, valueType: 'dateRange' }];
    const state = readListState('status=paid&createdAt=2026-01-01,2026-01-31&period=2026-02-01,2026-02-28&orderNo=OD1', cols, 30);
    expect(toFormValues(state, cols)).toEqual({
      orderNo: 'OD1',
      status: 'paid',
      createdAt__range: ['2026-01-01', '2026-01-31'],
      period: ['2026-02-01', '2026-02-28'],
    });
  });
});

describe('linkKeepingListState', () => {
  const here = { pathname: '/service/pay-apply', search: '?status=paid&current=3&pageSize=30' };
  it('keeps the list query for a drawer link on the same page', () => {
    expect(linkKeepingListState('/service/pay-apply?id=7', here)).toBe('/service/pay-apply?status=paid&current=3&pageSize=30&id=7');
    expect(linkKeepingListState('?id=8', here)).toBe('/service/pay-apply?status=paid&current=3&pageSize=30&id=8');
  });
  it('leaves links to other pages alone', () => {
    expect(linkKeepingListState('/orders/7', here)).toBe('/orders/7');
    expect(linkKeepingListState('/other?id=7', here)).toBe('/other?id=7');
  });
});

describe('the schema tables', () => {
  it('every searchable column of every list round-trips through the URL', () => {
    for (const id of ['orders', 'invoices', 'invoice-refunds', 'claims', 'insure-records', 'insured-persons', 'insure-batches']) {
      const t = getTable(id);
      for (const c of t.columns.filter((x) => x.search)) {
        const date = ['date', 'dateTime', 'dateRange'].includes(c.valueType ?? '');
        const value = date ? (['2026-01-01', '2026-01-31'] as [string, string]) : String(c.options?.[0]?.value ?? 'x');
        const state = { current: 2, pageSize: 50, filters: { [c.dataIndex]: value } };
        expect(readListState(writeListState('', state, t.columns, 30), t.columns, 30), `${id}.${c.dataIndex}`).toEqual(state);
      }
    }
  });
});
