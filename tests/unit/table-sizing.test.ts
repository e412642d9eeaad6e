import { describe, expect, it, vi } from 'vitest';
import {
  DEFAULT_COLUMN_WIDTH,
  DEFAULT_PAGE_SIZE,
  MAX_WIDTH_OFFSET,
  NO_SCROLL_ROW_LIMIT,
  PAGE_SIZE_OPTIONS,
  PAGINATION_LABELS,
  SCROLL_Y_OFFSET,
  SELECTION_COLUMN_WIDTH,
  columnWidth,
  paginationConfig,
  rowsOnPage,
  scrollY,
  tableWidthPlan,
  tooltipPlacement,
} from '../../src/runtime/table/sizing';
import { buildColumns } from '../../src/runtime/table/columns';
import type { ListColumn } from '../../src/runtime/table/listColumn';

describe('scrollY (vertical rule)', () => {
  it('has the spec constants', () => {
    expect(SCROLL_Y_OFFSET).toBe(324);
    expect(NO_SCROLL_ROW_LIMIT).toBe(6);
  });
  it('sets no vertical limit with 6 rows or fewer', () => {
    expect(scrollY({ windowHeight: 900, rowCount: 0 })).toBeUndefined();
    expect(scrollY({ windowHeight: 900, rowCount: 6 })).toBeUndefined();
    expect(scrollY({ windowHeight: 900, rowCount: 6, maxHeight: 300 })).toBeUndefined();
  });
  it('is window height − 324 from 7 rows on', () => {
    expect(scrollY({ windowHeight: 900, rowCount: 7 })).toBe(576);
    expect(scrollY({ windowHeight: 1000, rowCount: 30 })).toBe(676);
  });
  it('uses the maximum height when one is given', () => {
    expect(scrollY({ windowHeight: 900, rowCount: 7, maxHeight: 400 })).toBe(400);
  });
});

describe('tableWidthPlan (horizontal rule)', () => {
  const cols = [{ width: 300 }, { width: 300 }, { width: 100, fixed: 'right' as const }];
  it('has the spec constants', () => {
    expect(MAX_WIDTH_OFFSET).toBe(282);
    expect(SELECTION_COLUMN_WIDTH).toBe(32);
  });
  it('removes fixed from every column and sets no scroll.x when the columns fit', () => {
    // 700 ≤ 1000 − 282 = 718
    const plan = tableWidthPlan({ windowWidth: 1000, columns: cols });
    expect(plan.maxWidth).toBe(718);
    expect(plan.totalWidth).toBe(700);
    expect(plan.scrollX).toBeUndefined();
    expect(plan.columns.every((c) => !('fixed' in c))).toBe(true);
    expect(cols[2].fixed).toBe('right'); // input untouched
  });
  it('counts the row-selection width: the same columns overflow with selection', () => {
    const plan = tableWidthPlan({ windowWidth: 1000, columns: cols, selectionWidth: SELECTION_COLUMN_WIDTH });
    expect(plan.totalWidth).toBe(732);
    expect(plan.scrollX).toBe(732);
    expect(plan.columns[2].fixed).toBe('right');
  });
  it('keeps fixed and scrolls when the columns overflow', () => {
    const plan = tableWidthPlan({ windowWidth: 900, columns: cols });
    expect(plan.scrollX).toBe(700);
    expect(plan.columns[2].fixed).toBe('right');
  });
  it('does not scroll when the width equals the maximum exactly', () => {
    expect(tableWidthPlan({ windowWidth: 982, columns: cols }).scrollX).toBeUndefined();
  });
  it('counts columns without a pixel width with the default width', () => {
    expect(DEFAULT_COLUMN_WIDTH).toBe(120);
    expect(columnWidth(undefined)).toBe(120);
    expect(columnWidth('10%')).toBe(120);
    expect(columnWidth('150px')).toBe(150);
    expect(columnWidth(80)).toBe(80);
    expect(tableWidthPlan({ windowWidth: 2000, columns: [{}, { width: 80 }] }).totalWidth).toBe(200);
  });
});

describe('tooltipPlacement', () => {
  it('is topLeft first, topRight last, top otherwise', () => {
    expect(tooltipPlacement(0, 3)).toBe('topLeft');
    expect(tooltipPlacement(1, 3)).toBe('top');
    expect(tooltipPlacement(2, 3)).toBe('topRight');
    expect(tooltipPlacement(0, 1)).toBe('topLeft');
  });
});

describe('paginationConfig', () => {
  it('has the spec shape, page sizes and English labels', () => {
    const onChange = vi.fn();
    const p = paginationConfig({ current: 2, pageSize: DEFAULT_PAGE_SIZE, total: 45, onChange });
    expect(DEFAULT_PAGE_SIZE).toBe(30);
    expect(p).toMatchObject({ current: 2, pageSize: 30, total: 45, showQuickJumper: true, showSizeChanger: true, onChange });
    expect(p.pageSizeOptions).toEqual(['30', '50', '100']);
    expect(p.pageSizeOptions.map(Number)).toEqual([30, 50, 100]);
    expect(PAGE_SIZE_OPTIONS).toEqual(['30', '50', '100']);
    expect(p.locale).toEqual({
      items_per_page: '/ page',
      jump_to: 'Go to',
      page: 'Page',
      prev_page: 'Previous Page',
      next_page: 'Next Page',
      page_size: 'Page Size',
    });
    expect(PAGINATION_LABELS.items_per_page).toBe('/ page');
  });
  it('reads 共 N 条, or 约 with thousands separators for an estimated total', () => {
    const onChange = () => {};
    expect(paginationConfig({ current: 1, pageSize: 30, total: 45, onChange }).showTotal(45)).toBe('共 45 条');
    expect(paginationConfig({ current: 1, pageSize: 30, onChange, estimated: true }).showTotal(1000000)).toBe('约 1,000,000 条');
  });
  it('leaves total out when unknown, so ProTable keeps its own', () => {
    expect('total' in paginationConfig({ current: 1, pageSize: 30, onChange: () => {} })).toBe(false);
  });
});

describe('rowsOnPage', () => {
  it('counts server pages whole and slices longer local data', () => {
    expect(rowsOnPage(30, 2, 30)).toBe(30);
    expect(rowsOnPage(45, 1, 30)).toBe(30);
    expect(rowsOnPage(45, 2, 30)).toBe(15);
    expect(rowsOnPage(45, 3, 30)).toBe(0);
  });
});

describe('buildColumns', () => {
  type Row = { name: string; city: string };
  const columns: ListColumn<Row>[] = [
    { title: '姓名', dataIndex: 'name' },
    { title: '城市', dataIndex: 'city', ellipsis: false },
    { title: '隐藏', dataIndex: 'hidden', hideInTable: true },
    { title: '操作', key: 'actions', valueType: 'option', fixed: 'right' },
  ];
  it('drops fixed from the 操作 column when there is no horizontal scroll', () => {
    const out = buildColumns(columns, {}, { scrollX: undefined });
    expect(out[3].fixed).toBeUndefined();
  });
  it('keeps fixed right and fills widths when scrolling', () => {
    const out = buildColumns(columns, { name: 200 }, { scrollX: 560 });
    expect(out[3].fixed).toBe('right');
    expect(out[0].width).toBe(200);
    expect(out[1].width).toBe(DEFAULT_COLUMN_WIDTH);
    expect(out[2].width).toBeUndefined();
  });
  it('adds ellipsis to text columns only, respecting the opt-out', () => {
    const out = buildColumns(columns, {}, {});
    // antd's ellipsis class on cells and header, not `ellipsis` (which makes ProTable wrap each cell in a Typography.Text).
    const cls = (props: unknown) => (props as { className?: string } | undefined)?.className;
    expect(out[0].ellipsis).toBeUndefined();
    expect(cls(out[0].onCell!({} as Row, 0))).toBe('ant-table-cell-ellipsis');
    expect(cls(out[0].onHeaderCell!(out[0] as never))).toBe('ant-table-cell-ellipsis');
    // The text stays the cell's own (no wrapper per cell); a cut cell's tooltip is the table's (CellTip).
    expect(out[0].render).toBe(columns[0].render);
    const tip = { show: vi.fn(), hide: vi.fn() };
    const withTip = buildColumns(columns, {}, {}, { tip }) as Array<{ onCell?: (r: Row, i: number) => Record<string, unknown> }>;
    const cell = withTip[0].onCell!({} as Row, 0) as { className?: string; onMouseEnter: (e: unknown) => void; onMouseLeave: () => void };
    expect(cell.className).toBe('ant-table-cell-ellipsis');
    cell.onMouseEnter('event');
    expect(tip.show).toHaveBeenCalledWith('event', 'topLeft');
    cell.onMouseLeave();
    expect(tip.hide).toHaveBeenCalledTimes(1);
    expect(out[1].ellipsis).toBe(false);
    expect(out[1].onCell).toBeUndefined();
    expect(out[3].onCell).toBeUndefined();
  });
  it('wires resizing through onHeaderCell', () => {
    const onResize = vi.fn();
    const out = buildColumns(columns, { name: 150 }, {}, { onResize });
    const props = out[0].onHeaderCell!(out[0] as never) as { width?: number; onResize: (w: number) => void };
    expect(props.width).toBe(150);
    props.onResize(170);
    expect(onResize).toHaveBeenCalledWith('name', 170);
    expect(out[2].onHeaderCell).toBeUndefined();
  });
});

describe('column widths from what a column shows', () => {
  it('fits identifiers, date-times, id cards and phones whole', async () => {
    const { suggestedColumnWidth, actionColumnWidth } = await import('../../src/runtime/table/sizing');
    expect(suggestedColumnWidth({ title: '订单号', link: '/x/:id' })).toBe(190);
    expect(suggestedColumnWidth({ title: '税号', copyable: true })).toBe(190);
    expect(suggestedColumnWidth({ title: '创建时间', valueType: 'dateTime' })).toBe(170);
    expect(suggestedColumnWidth({ title: '身份证号', valueType: 'idCard' })).toBe(180);
    expect(suggestedColumnWidth({ title: '手机号', valueType: 'phone' })).toBe(130);
    expect(suggestedColumnWidth({ title: '人数', valueType: 'digit' })).toBe(90);
    expect(suggestedColumnWidth({ title: '产品名称' })).toBe(DEFAULT_COLUMN_WIDTH);
    // never narrower than its title (and the sort arrows)
    expect(suggestedColumnWidth({ title: '自动投保状态说明', valueType: 'enum', sorter: true })).toBe(8 * 14 + 32 + 24);
    expect(actionColumnWidth(['详情'])).toBe(72);
    expect(actionColumnWidth(['详情', '申请开票', '删除'])).toBe(32 + 8 * 14 + 16);
  });

  it('the order list fits at 1440 px without a fixed 操作 column, and scrolls at 1024 px', async () => {
    const { suggestedColumnWidth, actionColumnWidth } = await import('../../src/runtime/table/sizing');
    const cols = [
      { title: '订单号', link: '/o/:id' },
      { title: '产品名称' },
      { title: '人数', valueType: 'digit' },
      { title: '订单金额', valueType: 'money', sorter: true },
      { title: '支付状态', valueType: 'enum' },
      { title: '订单状态', valueType: 'enum' },
      { title: '创建时间', valueType: 'dateTime', sorter: true },
      { title: '支付时间', valueType: 'dateTime', sorter: true },
    ].map((c) => ({ width: suggestedColumnWidth(c) }));
    const columns: Array<{ width: number; fixed?: 'right' }> = [...cols, { width: actionColumnWidth(['详情']), fixed: 'right' }];
    const wide = tableWidthPlan({ windowWidth: 1440, columns });
    expect(wide.scrollX).toBeUndefined();
    expect(wide.columns.every((c) => !('fixed' in c))).toBe(true);
    const narrow = tableWidthPlan({ windowWidth: 1024, columns });
    expect(narrow.scrollX).toBe(narrow.totalWidth);
    expect(narrow.columns.at(-1)?.fixed).toBe('right');
  });
});
