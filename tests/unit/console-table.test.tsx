// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import type { ListColumn } from '../../src/runtime/table/listColumn';
import { ConsoleTable } from '../../src/runtime/table';
import { setWindowSize, useAntdDom } from './dom';

useAntdDom();

interface Row {
  id: number;
  name: string;
  city: string;
}
const rows: Row[] = Array.from({ length: 45 }, (_, i) => ({ id: i + 1, name: `投保人${i + 1}`, city: '上海' }));
const columns: ListColumn<Row>[] = [
  { title: '姓名', dataIndex: 'name', width: 300 },
  { title: '城市', dataIndex: 'city', width: 300 },
  { title: '操作', key: 'actions', valueType: 'option', fixed: 'right', width: 100, render: () => [<a key="v">查看</a>] },
];

/** antd puts scroll.y on the body wrapper as max-height; scroll.x as the inner table's width. */
function bodyMaxHeight(container: HTMLElement): string {
  const body = container.querySelector<HTMLElement>('.ant-table-body');
  return body?.style.maxHeight ?? '';
}
function tableWidth(container: HTMLElement): string {
  const table = container.querySelector<HTMLElement>('.ant-table-body table, .ant-table-content table');
  return table?.style.width ?? '';
}

describe('ConsoleTable', () => {
  it('pages 45 rows from request with the spec pagination (共 45 条, 30/50/100)', async () => {
    setWindowSize(1280, 900);
    const seen: Array<{ current?: number; pageSize?: number }> = [];
    render(
      <ConsoleTable<Row>
        rowKey="id"
        search={false}
        columns={columns}
        request={async (params) => {
          seen.push({ current: params.current, pageSize: params.pageSize });
          const start = ((params.current ?? 1) - 1) * (params.pageSize ?? 30);
          return { data: rows.slice(start, start + (params.pageSize ?? 30)), total: rows.length, success: true };
        }}
      />,
    );
    await waitFor(() => expect(screen.getByText('共 45 条')).toBeTruthy());
    expect(seen[0]).toEqual({ current: 1, pageSize: 30 });
    expect(screen.getByText('投保人30')).toBeTruthy();
    expect(screen.queryByText('投保人31')).toBeNull();
    expect(document.querySelector('.ant-pagination-options-quick-jumper')?.textContent).toContain('Go to');
    // Open the page-size changer and check the options.
    const sizeSelect = document.querySelector('.ant-pagination-options .ant-select-selector') as HTMLElement;
    expect(sizeSelect.textContent).toContain('30 / page');
    fireEvent.mouseDown(sizeSelect);
    await waitFor(() => expect(screen.getAllByText('50 / page').length).toBeGreaterThan(0));
    expect(screen.getAllByText('30 / page').length).toBeGreaterThan(0);
    expect(screen.getAllByText('100 / page').length).toBeGreaterThan(0);
    // Next page fetches page 2 with the same size.
    fireEvent.click(screen.getByTitle('Next Page'));
    await waitFor(() => expect(screen.getByText('投保人45')).toBeTruthy());
    expect(seen[seen.length - 1]).toEqual({ current: 2, pageSize: 30 });
    // A new page size starts again on page 1.
    fireEvent.mouseDown(document.querySelector('.ant-pagination-options .ant-select-selector') as HTMLElement);
    const option50 = await waitFor(() => {
      const el = document.querySelector<HTMLElement>('.ant-select-item-option[title="50 / page"]');
      expect(el).not.toBeNull();
      return el!;
    });
    fireEvent.click(option50);
    await waitFor(() => expect(seen[seen.length - 1]).toEqual({ current: 1, pageSize: 50 }));
    await waitFor(() => expect(screen.getByText('投保人1')).toBeTruthy());
    expect(screen.getByText('投保人45')).toBeTruthy();
  });

  it('shows 约 N 条 when the request says the total is an estimate', async () => {
    setWindowSize(1280, 900);
    render(
      <ConsoleTable<Row>
        rowKey="id"
        search={false}
        columns={columns}
        request={async () => ({ data: rows.slice(0, 30), total: 1000000, success: true, estimated: true })}
      />,
    );
    await waitFor(() => expect(screen.getByText('约 1,000,000 条')).toBeTruthy());
  });

  it('recomputes the scroll when the window is resized', async () => {
    setWindowSize(1280, 900);
    const { container } = render(<ConsoleTable<Row> rowKey="id" search={false} columns={columns} dataSource={rows} />);
    await waitFor(() => expect(screen.getByText('共 45 条')).toBeTruthy());
    // 30 rows on the page → scroll.y = 900 − 324; 700 px of columns fit in 1280 − 282 → no scroll.x.
    expect(bodyMaxHeight(container)).toBe('576px');
    expect(tableWidth(container)).toBe('');

    act(() => setWindowSize(900, 700));
    await waitFor(() => expect(bodyMaxHeight(container)).toBe('376px'));
    // 700 px > 900 − 282 → horizontal scroll at the column sum (fixed columns: see buildColumns tests;
    // jsdom has no position: sticky, so rc-table renders no fixed-cell classes here).
    expect(tableWidth(container)).toBe('700px');
  });

  it('has no vertical limit with 6 rows or fewer, and maxHeight wins otherwise', async () => {
    setWindowSize(1280, 900);
    const { container, unmount } = render(<ConsoleTable<Row> rowKey="id" search={false} columns={columns} dataSource={rows.slice(0, 6)} />);
    await waitFor(() => expect(screen.getByText('共 6 条')).toBeTruthy());
    expect(container.querySelector('.ant-table-body')).toBeNull();
    unmount();
    const second = render(<ConsoleTable<Row> rowKey="id" search={false} columns={columns} dataSource={rows} maxHeight={320} />);
    await waitFor(() => expect(bodyMaxHeight(second.container)).toBe('320px'));
  });

  it('resizes a column with the keyboard on the 调整列宽 handle', async () => {
    setWindowSize(1280, 900);
    const { container } = render(<ConsoleTable<Row> rowKey="id" search={false} columns={columns} dataSource={rows.slice(0, 3)} />);
    await waitFor(() => expect(screen.getByText('共 3 条')).toBeTruthy());
    const handles = screen.getAllByRole('separator', { name: '调整列宽' });
    expect(handles.length).toBe(3);
    expect(handles[0].getAttribute('aria-valuenow')).toBe('300');
    handles[0].focus();
    fireEvent.keyDown(handles[0], { key: 'ArrowRight' });
    await waitFor(() => expect(screen.getAllByRole('separator', { name: '调整列宽' })[0].getAttribute('aria-valuenow')).toBe('310'));
    const col = container.querySelector<HTMLElement>('colgroup col');
    expect(col?.style.width).toBe('310px');
    fireEvent.keyDown(screen.getAllByRole('separator', { name: '调整列宽' })[0], { key: 'ArrowLeft' });
    fireEvent.keyDown(screen.getAllByRole('separator', { name: '调整列宽' })[0], { key: 'ArrowLeft' });
    await waitFor(() => expect(screen.getAllByRole('separator', { name: '调整列宽' })[0].getAttribute('aria-valuenow')).toBe('290'));
  });

  it('counts the selection column: fits without it, scrolls with it', async () => {
    setWindowSize(982 + 20, 900); // max width 720: 700 fits, 700 + 32 does not
    const { container, unmount } = render(<ConsoleTable<Row> rowKey="id" search={false} columns={columns} dataSource={rows.slice(0, 3)} />);
    await waitFor(() => expect(screen.getByText('共 3 条')).toBeTruthy());
    expect(tableWidth(container)).toBe('');
    unmount();
    const second = render(<ConsoleTable<Row> rowKey="id" search={false} columns={columns} dataSource={rows.slice(0, 3)} rowSelection={{}} />);
    await waitFor(() => expect(tableWidth(second.container)).toBe('732px'));
  });

  it('shows the full text in a tooltip only when the cell text overflows', async () => {
    setWindowSize(1280, 900);
    const long = { id: 1, name: '一个非常非常长的投保人姓名需要被截断显示', city: '上海' };
    render(<ConsoleTable<Row> rowKey="id" search={false} columns={columns} dataSource={[long]} />);
    const cityCell = (await screen.findByText('上海')).closest<HTMLElement>('td')!;
    fireEvent.mouseEnter(cityCell);
    await new Promise((r) => setTimeout(r, 150));
    expect(document.querySelector('.ant-tooltip')).toBeNull();

    // The cell is the text's own box: no wrapper per cell.
    const nameCell = screen.getByText(long.name) as HTMLElement;
    expect(nameCell.tagName).toBe('TD');
    expect(nameCell.className).toContain('ant-table-cell-ellipsis');
    Object.defineProperty(nameCell, 'scrollWidth', { configurable: true, value: 500 });
    Object.defineProperty(nameCell, 'clientWidth', { configurable: true, value: 300 });
    fireEvent.mouseEnter(nameCell);
    await waitFor(() => expect(document.querySelector('.ant-tooltip')?.textContent).toBe(long.name));
    // First column → topLeft.
    expect(document.querySelector('.ant-tooltip')?.className).toContain('ant-tooltip-placement-topLeft');
    fireEvent.mouseLeave(nameCell);
    await waitFor(() => expect(document.querySelector('.ant-tooltip:not(.ant-tooltip-hidden)')).toBeNull());
  });

  it('resizes a column by dragging the handle, never below 60 px', async () => {
    setWindowSize(1280, 900);
    render(<ConsoleTable<Row> rowKey="id" search={false} columns={columns} dataSource={rows.slice(0, 3)} />);
    await waitFor(() => expect(screen.getByText('共 3 条')).toBeTruthy());
    const handle = () => screen.getAllByRole('separator', { name: '调整列宽' })[1];
    fireEvent.pointerDown(handle(), { button: 0, clientX: 500, pointerId: 1 });
    fireEvent.pointerMove(handle(), { clientX: 540, pointerId: 1 });
    fireEvent.pointerUp(handle(), { clientX: 545, pointerId: 1 });
    await waitFor(() => expect(handle().getAttribute('aria-valuenow')).toBe('345'));
    fireEvent.pointerDown(handle(), { button: 0, clientX: 500, pointerId: 2 });
    fireEvent.pointerUp(handle(), { clientX: 0, pointerId: 2 });
    await waitFor(() => expect(handle().getAttribute('aria-valuenow')).toBe('60'));
  });
});
