// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import dayjs from 'dayjs';
import type { AnyListColumn, ListColumn } from '../../src/runtime/table/listColumn';
import { ConsoleTable } from '../../src/runtime/table';
import { searchBoxWidth, searchColumnCount, searchColumns, toSearchParams } from '../../src/runtime/table/searchParams';
import { setWindowSize, useAntdDom } from './dom';

useAntdDom();

interface Row {
  id: number;
  orderNo: string;
}

const columns: ListColumn<Row>[] = [
  { title: '订单号', dataIndex: 'orderNo', width: 200, hideInSearch: true },
  { title: '订单号', dataIndex: 'orderNo', hideInTable: true },
  { title: '保险方案', dataIndex: 'productName', hideInTable: true },
  { title: '支付状态', dataIndex: 'payStatus', hideInTable: true, valueType: 'select', valueEnum: { unpaid: { text: '待支付' }, paid: { text: '已支付' } } },
  { title: '创建时间', dataIndex: 'createdAt', key: 'createdAt__range', hideInTable: true, valueType: 'dateRange', search: { transform: (v) => ({ createdAt: v }) } },
  { title: '操作', key: 'actions', valueType: 'option', render: () => [] },
];

describe('the search form of a list', () => {
  it('takes the filters from the columns and turns their values into request params', () => {
    const fields = searchColumns(columns as AnyListColumn[]);
    expect(fields.map((f) => f.name)).toEqual(['orderNo', 'productName', 'payStatus', 'createdAt__range']);
    const params = toSearchParams(fields, {
      orderNo: 'OD1',
      productName: '',
      payStatus: undefined,
      createdAt__range: [dayjs('2026-11-01T10:00:00'), dayjs('2026-11-27T10:00:00')],
    });
    // Empty filters are left out; a date range is two days, under the column's own name.
    expect(params).toEqual({ orderNo: 'OD1', createdAt: ['2026-11-01', '2026-11-27'] });
    expect(toSearchParams(fields, { createdAt__range: [dayjs('2026-11-01'), null] })).toEqual({});
  });

  it('lays out as many filters per row as ProTable did for the box width', () => {
    expect([400, 600, 900, 1184, 1351, 1392].map(searchColumnCount)).toEqual([1, 2, 3, 3, 3, 4]);
    // 1440 px with the side menu: 1184 px; 1024 px with the menu folded: 912 px.
    expect(searchBoxWidth(1440)).toBe(1184);
    expect(searchBoxWidth(1024)).toBe(912);
  });

  it('keeps one filter in view in a narrow window', async () => {
    setWindowSize(500);
    render(<ConsoleTable<Row> rowKey="id" columns={columns} request={async () => ({ data: [], total: 0, success: true })} />);
    await waitFor(() => expect(screen.getByTestId('list-search-toggle')).toBeTruthy());
    expect(document.querySelectorAll('[data-testid=list-search] .ant-form-item-label').length).toBe(1);
    expect(screen.getByLabelText('订单号', { selector: 'input' })).toBeTruthy();
  });

  it('searches from page 1 with the values entered, folds the filters past the first row, and 重置 clears them', async () => {
    setWindowSize(1440);
    const seen: Array<Record<string, unknown>> = [];
    render(
      <ConsoleTable<Row>
        rowKey="id"
        columns={columns}
        form={{ initialValues: { productName: '雇主' } }}
        request={async (params) => {
          seen.push({ ...params });
          return { data: [{ id: 1, orderNo: 'OD1' }], total: 1, success: true };
        }}
      />,
    );
    // The first load already has the form's first values.
    await waitFor(() => expect(seen.length).toBe(1));
    expect(seen[0]).toMatchObject({ productName: '雇主', current: 1 });
    // Three filters a row at 1440 px: two filters and the buttons; the rest behind 展开.
    expect(screen.queryByLabelText('支付状态')).toBeNull();
    fireEvent.click(screen.getByTestId('list-search-toggle'));
    await waitFor(() => expect(screen.getAllByLabelText('支付状态').length).toBeGreaterThan(0));
    expect(screen.getByTestId('list-search-toggle').textContent).toContain('收起');

    fireEvent.change(screen.getByLabelText('订单号', { selector: 'input' }), { target: { value: 'OD2026' } });
    fireEvent.click(screen.getByRole('button', { name: /查\s*询/ }));
    await waitFor(() => expect(seen.length).toBe(2));
    expect(seen[1]).toMatchObject({ orderNo: 'OD2026', productName: '雇主', current: 1 });

    // The same search again reloads (a user asks for fresh rows).
    fireEvent.click(screen.getByRole('button', { name: /查\s*询/ }));
    await waitFor(() => expect(seen.length).toBe(3));

    fireEvent.click(screen.getByRole('button', { name: /重\s*置/ }));
    await waitFor(() => expect(seen.length).toBe(4));
    expect(seen[3].orderNo).toBeUndefined();
    expect(seen[3].productName).toBeUndefined();
    expect((screen.getByLabelText('订单号', { selector: 'input' }) as HTMLInputElement).value).toBe('');
  });
});
