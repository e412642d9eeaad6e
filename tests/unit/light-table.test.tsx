// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import type { ListColumn } from '../../src/runtime/table/listColumn';
import { ConsoleTable } from '../../src/runtime/table';
import { nextSortOrder } from '../../src/runtime/table/LightHeaderCell';
import { setWindowSize, useAntdDom } from './dom';

useAntdDom();

interface Row {
  id: number;
  name: string;
  amount: number;
}
const rows: Row[] = Array.from({ length: 45 }, (_, i) => ({ id: i + 1, name: `投保人${i + 1}`, amount: (i + 1) * 10 }));
const columns: ListColumn<Row>[] = [
  { title: '姓名', dataIndex: 'name', width: 300 },
  { title: '金额', dataIndex: 'amount', width: 300, sorter: true },
  { title: '操作', key: 'actions', valueType: 'option', fixed: 'right', width: 100, render: () => [<a key="v">查看</a>] },
];

type Seen = { current?: number; pageSize?: number; sort: Record<string, string | null> };

/** A request-driven table over `rows`, sorted by amount as asked; returns what each request asked for. */
function renderServerTable(extra: Partial<Parameters<typeof ConsoleTable<Row>>[0]> = {}) {
  const seen: Seen[] = [];
  const view = render(
    <ConsoleTable<Row>
      rowKey="id"
      search={false}
      columns={columns}
      request={async (params, sort) => {
        seen.push({ current: params.current, pageSize: params.pageSize, sort: { ...(sort as Record<string, string | null>) } });
        const sorted = [...rows];
        if (sort.amount === 'descend') sorted.reverse();
        const start = ((params.current ?? 1) - 1) * (params.pageSize ?? 30);
        return { data: sorted.slice(start, start + (params.pageSize ?? 30)), total: rows.length, success: true };
      }}
      {...extra}
    />,
  );
  return { seen, ...view };
}

const amountHeader = () => document.querySelector<HTMLElement>('.ant-table-thead th.ant-table-column-has-sorters')!;
const firstRowText = () => document.querySelector('.ant-table-tbody tr.ant-table-row')?.textContent ?? '';

describe('the console-drawn list table (LightTable)', () => {
  it('cycles a sortable header through ascending, descending and none, asking the gateway each time from page 1', async () => {
    setWindowSize(1280, 900);
    const { seen } = renderServerTable();
    await waitFor(() => expect(screen.getByText('共 45 条')).toBeTruthy());
    fireEvent.click(screen.getByTitle('Next Page'));
    await waitFor(() => expect(seen[seen.length - 1].current).toBe(2));

    fireEvent.click(amountHeader());
    await waitFor(() => expect(seen[seen.length - 1]).toMatchObject({ current: 1, sort: { amount: 'ascend' } }));
    expect(amountHeader().getAttribute('aria-sort')).toBe('ascending');
    expect(amountHeader().querySelector('.ant-table-column-sorter-up')?.classList.contains('active')).toBe(true);
    // The sorted column's cells carry antd's sorted-column class.
    await waitFor(() => expect(firstRowText()).toContain('投保人1'));
    expect(document.querySelectorAll('.ant-table-tbody td.ant-table-column-sort').length).toBe(30);

    fireEvent.keyDown(amountHeader(), { key: 'Enter' });
    await waitFor(() => expect(seen[seen.length - 1].sort).toEqual({ amount: 'descend' }));
    await waitFor(() => expect(firstRowText()).toContain('投保人45'));
    expect(amountHeader().getAttribute('aria-sort')).toBe('descending');

    fireEvent.click(amountHeader());
    await waitFor(() => expect(seen[seen.length - 1].sort.amount ?? null).toBeNull());
    expect(amountHeader().hasAttribute('aria-sort')).toBe(false);
    expect(nextSortOrder(null)).toBe('ascend');
  });

  it('draws rows with their keys, and the 操作 column fixed on the right only while the table scrolls sideways', async () => {
    setWindowSize(1280, 900);
    const wide = renderServerTable();
    await waitFor(() => expect(screen.getByText('共 45 条')).toBeTruthy());
    expect(document.querySelector('.ant-table-tbody tr.ant-table-row')?.getAttribute('data-row-key')).toBe('1');
    // The pager sits at the end of the row, as antd's Table puts it.
    expect(document.querySelector('.ant-table-pagination')?.classList.contains('ant-pagination-end')).toBe(true);
    expect(document.querySelectorAll('.ant-table-cell-fix-right').length).toBe(0);
    wide.unmount();

    setWindowSize(700, 900);
    renderServerTable();
    await waitFor(() => expect(screen.getByText('共 45 条')).toBeTruthy());
    const fixedCells = [...document.querySelectorAll<HTMLElement>('.ant-table-cell-fix-right')];
    // The header cell and one cell per row, stuck to the right edge.
    expect(fixedCells.length).toBe(31);
    expect(fixedCells.every((c) => c.style.position === 'sticky' && c.style.right === '0px')).toBe(true);
    expect(fixedCells[0].classList.contains('ant-table-cell-fix-right-first')).toBe(true);
    expect(document.querySelector<HTMLElement>('.ant-table-body table')?.style.width).toBe('700px');
  });

  it('places columns fixed on the left by the widths before them', async () => {
    setWindowSize(600, 900);
    const left: ListColumn<Row>[] = [
      { title: '编号', dataIndex: 'id', width: 80, fixed: 'left' },
      { title: '姓名', dataIndex: 'name', width: 120, fixed: 'left' },
      ...columns.slice(1),
    ];
    render(<ConsoleTable<Row> rowKey="id" search={false} columns={left} dataSource={rows.slice(0, 3)} />);
    await waitFor(() => expect(screen.getByText('共 3 条')).toBeTruthy());
    const th = [...document.querySelectorAll<HTMLElement>('.ant-table-thead th')];
    expect(th[0].style.left).toBe('0px');
    expect(th[1].style.left).toBe('80px');
    expect(th[1].classList.contains('ant-table-cell-fix-left-last')).toBe(true);
    expect(th[2].classList.contains('ant-table-cell-fix-left')).toBe(false);
  });

  it('shows the empty text and no pager for an empty list', async () => {
    setWindowSize(1280, 900);
    render(<ConsoleTable<Row> rowKey="id" search={false} columns={columns} request={async () => ({ data: [], total: 0, success: true })} locale={{ emptyText: '还没有订单' }} />);
    await waitFor(() => expect(screen.getByText('还没有订单')).toBeTruthy());
    expect(document.querySelector('.ant-table-placeholder')).not.toBeNull();
    expect(document.querySelector('.ant-pagination')).toBeNull();
  });

  it('leaves a table with row selection to antd', async () => {
    setWindowSize(1280, 900);
    render(<ConsoleTable<Row> rowKey="id" search={false} columns={columns} dataSource={rows.slice(0, 3)} rowSelection={{}} />);
    await waitFor(() => expect(screen.getByText('共 3 条')).toBeTruthy());
    expect(document.querySelectorAll('.ant-table-tbody .ant-checkbox-input').length).toBe(3);
  });
});
