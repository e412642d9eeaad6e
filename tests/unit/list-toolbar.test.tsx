// @vitest-environment jsdom
import { createRef } from 'react';
import { describe, expect, it } from 'vitest';
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import type { ListColumn } from '../../src/runtime/table/listColumn';
import { ConsoleTable, applyColumnsState, moveColumn, type ColumnsStateMap, type ConsoleTableProps, type TableAction } from '../../src/runtime/table';
import { setWindowSize, useAntdDom } from './dom';

useAntdDom();

interface Row {
  id: number;
  name: string;
  city: string;
  plan: string;
}
const rows: Row[] = Array.from({ length: 45 }, (_, i) => ({ id: i + 1, name: `投保人${i + 1}`, city: '上海', plan: '雇主责任险' }));
const columns: ListColumn<Row>[] = [
  { title: '姓名', dataIndex: 'name', width: 200 },
  { title: '城市', dataIndex: 'city', width: 200 },
  { title: '保险方案', dataIndex: 'plan', width: 200 },
  { title: '状态', dataIndex: 'status', valueType: 'select', hideInTable: true },
  { title: '操作', key: 'actions', valueType: 'option', fixed: 'right', width: 100, render: () => [<a key="v">查看</a>, <a key="e">编辑</a>] },
];
const headers = () => Array.from(document.querySelectorAll('.ant-table-thead th')).map((th) => th.textContent?.trim());

/** The list over `request` in a 1440 × 900 window, without a search form. */
function renderList(request: NonNullable<ConsoleTableProps<Row>['request']>, extra: Partial<ConsoleTableProps<Row>> = {}) {
  setWindowSize(1440, 900);
  return render(<ConsoleTable<Row> rowKey="id" search={false} columns={columns} request={request} {...extra} />);
}

describe('the list toolbar: 刷新, 密度 and 列设置', () => {
  it('hides, moves and resets columns; the settings are the { show, order } the export reads', async () => {
    setWindowSize(1440, 900);
    let state: ColumnsStateMap = {};
    const view = render(<ConsoleTable<Row> rowKey="id" search={false} headerTitle="人员列表" columns={columns} dataSource={rows} columnsState={{ value: state, onChange: (v) => (state = v) }} />);
    const rerender = () => view.rerender(<ConsoleTable<Row> rowKey="id" search={false} headerTitle="人员列表" columns={columns} dataSource={rows} columnsState={{ value: state, onChange: (v) => (state = v) }} />);
    expect(screen.getByText('人员列表')).toBeTruthy();
    expect(headers()).toEqual(['姓名', '城市', '保险方案', '操作']);
    // 操作's links side by side, 16 px apart.
    const links = [...document.querySelectorAll('.ant-table-tbody tr:first-child td:last-child a')];
    expect(links.map((a) => a.textContent)).toEqual(['查看', '编辑']);
    expect((links[0].parentElement as HTMLElement).style.gap).toBe('16px');

    fireEvent.click(screen.getByRole('button', { name: '列设置' }));
    const panel = await screen.findByTestId('column-settings');
    // The search form's own filter columns are not listed; the fixed 操作 column cannot be moved.
    expect(within(panel).queryByText('状态')).toBeNull();
    expect(within(panel).queryByRole('button', { name: '上移 操作' })).toBeNull();
    fireEvent.click(within(panel).getByRole('checkbox', { name: '城市' }));
    expect(state).toEqual({ city: { show: false } });
    rerender();
    expect(headers()).toEqual(['姓名', '保险方案', '操作']);

    // One move up passes 姓名, the shown column above; 城市 (hidden) keeps its place.
    fireEvent.click(within(screen.getByTestId('column-settings')).getByRole('button', { name: '上移 保险方案' }));
    expect(state).toEqual({ name: { order: 2 }, city: { show: false, order: 1 }, plan: { order: 0 } });
    rerender();
    expect(headers()).toEqual(['保险方案', '姓名', '操作']);

    fireEvent.click(within(screen.getByTestId('column-settings')).getByRole('button', { name: /重\s*置/ }));
    expect(state).toEqual({});
    rerender();
    expect(headers()).toEqual(['姓名', '城市', '保险方案', '操作']);
  });

  it('sets the row density and reloads the page shown', async () => {
    const asked: number[] = [];
    renderList(async (params) => {
      asked.push(params.current ?? 0);
      return { data: rows.slice(0, 30), total: 45, success: true };
    });
    await waitFor(() => expect(screen.getByText('共 45 条')).toBeTruthy());
    expect(document.querySelector('.ant-table')?.className).not.toContain('ant-table-small');
    fireEvent.click(screen.getByRole('button', { name: '密度' }));
    fireEvent.click(await screen.findByText('紧凑'));
    await waitFor(() => expect(document.querySelector('.ant-table')?.className).toContain('ant-table-small'));
    expect(asked).toEqual([1]);
    fireEvent.click(screen.getByRole('button', { name: '刷新' }));
    await waitFor(() => expect(asked).toEqual([1, 1]));
  });
});

describe('the pages of a list (useListData)', () => {
  it('drops an answer overtaken by a later request: the rows match the page asked last', async () => {
    const pending: Array<(v: { data: Row[]; total: number }) => void> = [];
    const asked: number[] = [];
    renderList((params) => {
      asked.push(params.current ?? 0);
      return new Promise((resolve) => pending.push(resolve));
    });
    await waitFor(() => expect(asked).toEqual([1]));
    await act(async () => pending[0]({ data: rows.slice(0, 30), total: 45 }));
    fireEvent.click(screen.getByTitle('Next Page'));
    await waitFor(() => expect(asked).toEqual([1, 2]));
    fireEvent.click(screen.getByTitle('Previous Page'));
    await waitFor(() => expect(asked).toEqual([1, 2, 1]));
    // Page 1's second answer comes first, then page 2's late one: page 1's rows stay.
    await act(async () => pending[2]({ data: rows.slice(0, 30), total: 45 }));
    await act(async () => pending[1]({ data: rows.slice(30), total: 45 }));
    expect(screen.getByText('投保人1')).toBeTruthy();
    expect(screen.queryByText('投保人31')).toBeNull();
  });

  it('steps back to the last page with rows when the page shown was emptied, and moves through actionRef', async () => {
    let data = rows;
    const asked: number[] = [];
    const ref = createRef<TableAction>() as { current: TableAction | undefined };
    renderList(
      async (params) => {
        asked.push(params.current ?? 0);
        const start = ((params.current ?? 1) - 1) * 30;
        return { data: data.slice(start, start + 30), total: data.length, success: true };
      },
      { actionRef: ref },
    );
    await waitFor(() => expect(screen.getByText('共 45 条')).toBeTruthy());
    act(() => ref.current!.setPageInfo({ current: 2 }));
    await waitFor(() => expect(screen.getByText('投保人45')).toBeTruthy());
    expect(ref.current!.pageInfo).toMatchObject({ current: 2, pageSize: 30, total: 45 });
    // The 15 rows of page 2 are deleted elsewhere: a reload finds page 2 empty and shows page 1.
    data = rows.slice(0, 30);
    act(() => ref.current!.reload());
    await waitFor(() => expect(screen.getByText('共 30 条')).toBeTruthy());
    expect(asked).toEqual([1, 2, 2, 1]);
    expect(screen.getByText('投保人1')).toBeTruthy();
  });
});

describe('column settings as data', () => {
  it('apply hides and orders; a move swaps a column with its neighbour among the movable ones', () => {
    const cols = [{ dataIndex: 'a' }, { dataIndex: 'b' }, { dataIndex: 'c' }, { key: 'op', fixed: 'right' as const }];
    expect(applyColumnsState(cols, { b: { show: false } }).map((c) => [c.dataIndex ?? c.key, !!(c as { hideInTable?: boolean }).hideInTable])).toEqual([
      ['a', false],
      ['b', true],
      ['c', false],
      ['op', false],
    ]);
    const moved = moveColumn(['a', 'b', 'c'], {}, 'c', -1);
    expect(moved).toEqual({ a: { order: 0 }, c: { order: 1 }, b: { order: 2 } });
    expect(applyColumnsState(cols, moved).map((c) => c.dataIndex ?? c.key)).toEqual(['a', 'c', 'b', 'op']);
    // Past either end nothing moves.
    expect(moveColumn(['a', 'b', 'c'], moved, 'a', -1)).toBe(moved);
    // A hidden column is passed over: c moves above a, b (hidden) stays between.
    expect(moveColumn(['a', 'b', 'c'], { b: { show: false } }, 'c', -1)).toEqual({ a: { order: 2 }, b: { show: false, order: 1 }, c: { order: 0 } });
  });
});
