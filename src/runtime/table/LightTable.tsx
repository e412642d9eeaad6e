import { useCallback, useLayoutEffect, useMemo, useRef, useState, type ComponentType, type CSSProperties, type Key, type ReactNode } from 'react';
import { Empty, Pagination, Spin, theme, type TableProps } from 'antd';
import { HeaderCell, nextSortOrder, type SortOrder } from './LightHeaderCell';
import { columnKey, isRenderedCellObject } from './columns';

type Row = Record<string, unknown>;
type Column = NonNullable<TableProps<Row>['columns']>[number] & {
  dataIndex?: string | number | readonly (string | number)[];
  sorter?: unknown;
  defaultSortOrder?: SortOrder;
  sortOrder?: SortOrder;
  fixed?: 'left' | 'right' | boolean;
  ellipsis?: unknown;
};
type Pager = Exclude<TableProps<Row>['pagination'], false | undefined>;

/** Props the light table draws; a table asking for more (row selection, expansion, summaries, grouped headers) is antd's. */
export function lightTableCan(props: TableProps<Row>): boolean {
  const cols = (props.columns ?? []) as Column[];
  return (
    !props.rowSelection &&
    !props.expandable &&
    !props.summary &&
    !cols.some((c) => 'children' in c && Array.isArray(c.children)) &&
    // A fixed column is placed by the widths of the fixed ones beside it: they must be numbers.
    !cols.some((c) => c.fixed && typeof c.width !== 'number')
  );
}

type Side = 'left' | 'right';
const sideOf = (c: Column): Side | undefined => (c.fixed === 'right' ? 'right' : c.fixed === 'left' || c.fixed === true ? 'left' : undefined);

/** Sticky placement of the fixed columns: offsets from their edge, and antd's classes (last left, first right). */
function fixedPlacement(columns: Column[], scrolling: boolean): Array<{ style?: CSSProperties; className?: string }> {
  const sides = columns.map((c) => (scrolling ? sideOf(c) : undefined));
  const lastLeft = sides.lastIndexOf('left');
  const firstRight = sides.indexOf('right');
  const out: Array<{ style?: CSSProperties; className?: string }> = columns.map(() => ({}));
  let left = 0;
  sides.forEach((side, i) => {
    if (side !== 'left') return;
    out[i] = { style: { position: 'sticky', left }, className: join('ant-table-cell-fix-left', i === lastLeft && 'ant-table-cell-fix-left-last') };
    left += columns[i].width as number;
  });
  let right = 0;
  for (let i = sides.length - 1; i >= 0; i--) {
    if (sides[i] !== 'right') continue;
    out[i] = { style: { position: 'sticky', right }, className: join('ant-table-cell-fix-right', i === firstRight && 'ant-table-cell-fix-right-first') };
    right += columns[i].width as number;
  }
  return out;
}

function valueAt(record: Row, dataIndex: Column['dataIndex']): unknown {
  if (dataIndex === undefined || dataIndex === null || dataIndex === '') return undefined;
  if (!Array.isArray(dataIndex)) return record[dataIndex as string];
  let v: unknown = record;
  for (const k of dataIndex) v = v == null ? undefined : (v as Row)[k as string];
  return v;
}

/** A cell's content: what the column's render returns (antd's { children, props } form too), else the value. */
function cellContent(col: Column, record: Row, index: number): { children: ReactNode; props?: Record<string, unknown> } {
  const value = valueAt(record, col.dataIndex);
  if (!col.render) return { children: value as ReactNode };
  const out = col.render(value, record, index) as unknown;
  if (isRenderedCellObject(out)) {
    const o = out as { children?: ReactNode; props?: Record<string, unknown> };
    return { children: o.children, props: o.props };
  }
  return { children: out as ReactNode };
}

/** The window-bottom copy of a sideways-scrolling body's scroll bar (hidden until the body's own is out of view). */
const STICKY_BAR: CSSProperties = { display: 'none', position: 'sticky', bottom: 0, zIndex: 4, overflowX: 'auto', overflowY: 'hidden', background: '#fff' };

const join = (...c: Array<string | false | undefined | null>) => c.filter(Boolean).join(' ');

/**
 * The list's table drawn by the console: antd's table markup and classes (so antd's stylesheet, the
 * tests and the screenshots see the same table) for what a console list shows — columns with widths,
 * server-side sort, text cut with "…", the 操作 column fixed on the right while the table scrolls
 * sideways, a body that scrolls under its header, antd's Pagination. rc-table measures its cells and
 * checks its scroll position at mount (forced layouts) and wraps every cell in components of its own;
 * this table does neither (docs/decisions.md, "A list is drawn by the console, not ProTable").
 * Given antd Table's props (ConsoleTable draws antd's Table instead when `lightTableCan` says no).
 */
export function LightTable({
  columns: rawColumns,
  dataSource,
  rowKey,
  loading,
  pagination,
  onChange,
  scroll,
  components,
  size,
  locale,
  className,
  style,
}: TableProps<Row>) {
  const { hashId } = theme.useToken();
  const columns = (rawColumns ?? []) as Column[];
  const keys = columns.map(columnKey);
  const [sort, setSort] = useState<{ key: string; order: SortOrder } | undefined>(() => {
    const i = columns.findIndex((c) => c.sortOrder ?? c.defaultSortOrder);
    return i < 0 ? undefined : { key: columnKey(columns[i], i), order: (columns[i].sortOrder ?? columns[i].defaultSortOrder) as SortOrder };
  });
  // The column the rows are sorted by: its cells carry antd's sorted-column class.
  const sortedIndex = sort ? keys.indexOf(sort.key) : -1;
  const bodyRef = useRef<HTMLDivElement>(null);
  const rootRef = useRef<HTMLDivElement>(null);
  const barRef = useRef<HTMLDivElement>(null);

  // The shadows beside the fixed 操作 column and the window-bottom scroll bar follow the scroll position
  // and the sizes; classes and styles are set directly, without a render.
  // The shadows' state, also given to the render: a class added after the cells were first styled starts
  // antd's 0.3 s box-shadow transition, repainting the fixed column in every frame of the first page.
  const pinged = useRef({ left: false, right: scroll?.x !== undefined });
  const ping = useCallback(() => {
    const body = bodyRef.current;
    const root = rootRef.current;
    if (!body || !root) return;
    const max = body.scrollWidth - body.clientWidth;
    const right = max > 0 && body.scrollLeft < max - 1;
    const left = body.scrollLeft > 0;
    root.classList.toggle('ant-table-ping-right', right);
    root.classList.toggle('ant-table-ping-left', left);
    pinged.current = { left, right };
    const bar = barRef.current;
    if (!bar) return;
    // The body's own scroll bar is below the window: a copy stays at the window's bottom edge.
    const below = max > 0 && body.getBoundingClientRect().bottom > window.innerHeight;
    bar.style.display = below ? 'block' : 'none';
    (bar.firstChild as HTMLElement).style.width = `${body.scrollWidth}px`;
    if (below && bar.scrollLeft !== body.scrollLeft) bar.scrollLeft = body.scrollLeft;
  }, []);
  // A sideways-scrolling table is expected to show the right shadow at first (its columns are wider than
  // the page by the width plan). The first check is the ResizeObserver's first report (after the first
  // layout, none forced here); the table's width changing (a resized column, the window) checks again.
  const scrollX = scroll?.x;
  const laidOut = useRef(false);
  useLayoutEffect(() => {
    if (laidOut.current) ping();
    laidOut.current = true;
  }, [ping, scrollX]);
  useLayoutEffect(() => {
    const body = bodyRef.current;
    if (!body || typeof ResizeObserver === 'undefined') return;
    const ro = new ResizeObserver(ping);
    ro.observe(body);
    window.addEventListener('scroll', ping, { passive: true });
    window.addEventListener('resize', ping, { passive: true });
    return () => {
      ro.disconnect();
      window.removeEventListener('scroll', ping);
      window.removeEventListener('resize', ping);
    };
  }, [ping]);
  const onBarScroll = useCallback(() => {
    const body = bodyRef.current;
    const bar = barRef.current;
    if (body && bar && body.scrollLeft !== bar.scrollLeft) body.scrollLeft = bar.scrollLeft;
  }, []);

  const pager = pagination === false || pagination === undefined ? undefined : (pagination as Pager);
  const all = (dataSource ?? []) as Row[];
  const pageSize = pager?.pageSize ?? 10;
  const current = pager?.current ?? 1;
  // A pager without a total (rows given whole) counts the rows, as antd's Table does.
  const total = pager?.total && pager.total > 0 ? pager.total : all.length;
  // Rows given for more than one page (a local list) are shown a page at a time, as antd does.
  const rows = pager && all.length > pageSize ? all.slice((current - 1) * pageSize, current * pageSize) : all;

  const onSort = (col: Column, i: number) => {
    const key = keys[i];
    const order = nextSortOrder(sort?.key === key ? sort.order : null);
    setSort(order ? { key, order } : undefined);
    // A new sort starts again on page 1 (antd's Table does the same).
    if (pager && current !== 1) pager.onChange?.(1, pageSize);
    onChange?.(
      { current: 1, pageSize } as never,
      {},
      { column: order ? (col as never) : undefined, columnKey: key, field: col.dataIndex as never, order: order ?? undefined } as never,
      { action: 'sort', currentDataSource: all } as never,
    );
  };

  const x = scroll?.x;
  const y = scroll?.y;
  const scrolling = x !== undefined;
  const tableStyle: CSSProperties = scrolling ? { tableLayout: 'fixed', width: x === true ? 'max-content' : x, minWidth: '100%' } : { tableLayout: 'fixed' };
  const bodyStyle: CSSProperties = { overflowX: scrolling ? 'auto' : 'hidden', ...(y !== undefined ? { maxHeight: y, overflowY: 'auto' } : {}) };
  const Th = (components?.header?.cell ?? 'th') as ComponentType<Record<string, unknown>> | 'th';
  const fixed = fixedPlacement(columns, scrolling);
  const fixStyle = (i: number) => fixed[i].style;
  const fixClass = (i: number) => fixed[i].className;
  const hasFixRight = fixed.some((f) => f.style?.right !== undefined);
  const hasFixLeft = fixed.some((f) => f.style?.left !== undefined);
  const rowKeyOf = (r: Row, i: number): Key => (typeof rowKey === 'function' ? rowKey(r, i) : ((r[(rowKey as string) ?? 'key'] as Key) ?? i));
  const emptyText = locale?.emptyText;
  const empty = typeof emptyText === 'function' ? emptyText() : emptyText ?? <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} />;
  const sizeClass = size === 'small' ? 'ant-table-small' : size === 'middle' ? 'ant-table-middle' : undefined;

  // The header row is drawn again only when the columns, the sort or the sideways scrolling change, not
  // when rows arrive (its resizable titles were a third of a first page's second render).
  const onSortRef = useRef(onSort);
  onSortRef.current = onSort;
  const sortOrder = sort?.order ?? null;
  const head = useMemo(
    () => (
      <thead className="ant-table-thead">
        <tr>
          {columns.map((c, i) => {
            const headerProps = (c.onHeaderCell?.(c as never) ?? {}) as Record<string, unknown>;
            return (
              <HeaderCell
                key={keys[i]}
                Th={Th}
                column={c}
                headerProps={headerProps}
                className={join('ant-table-cell', c.className, fixClass(i))}
                style={{ position: 'sticky', top: 0, zIndex: fixStyle(i) ? 3 : 2, ...fixStyle(i), textAlign: c.align }}
                order={i === sortedIndex ? sortOrder : null}
                onSort={c.sorter ? () => onSortRef.current(c, i) : undefined}
              />
            );
          })}
        </tr>
      </thead>
    ),
    // keys, fixStyle and fixClass follow the columns and the scrolling.
    [rawColumns, sortedIndex, sortOrder, scrolling, Th],
  );

  return (
    <div className={join('ant-table-wrapper', hashId, className)} style={style}>
      {/* A first load (no rows yet) shows its spinner in the empty body: the blur's fade in and out over
          the table would repaint it twice while the first page comes. */}
      <Spin spinning={!!loading && rows.length > 0}>
        <div
          ref={rootRef}
          className={join('ant-table', pinged.current.right && 'ant-table-ping-right', pinged.current.left && 'ant-table-ping-left', sizeClass, y !== undefined && 'ant-table-fixed-header', hasFixRight && 'ant-table-has-fix-right', hasFixLeft && 'ant-table-has-fix-left', scrolling && 'ant-table-scroll-horizontal')}
        >
          <div className="ant-table-container">
            <div ref={bodyRef} className={y !== undefined ? 'ant-table-body' : 'ant-table-content'} style={bodyStyle} onScroll={ping}>
              <table style={tableStyle}>
                <colgroup>
                  {columns.map((c, i) => (
                    <col key={keys[i]} style={c.width !== undefined ? { width: c.width } : undefined} />
                  ))}
                </colgroup>
                {head}
                <tbody className="ant-table-tbody">
                  {rows.length === 0 ? (
                    <tr className="ant-table-placeholder">
                      <td className="ant-table-cell" colSpan={columns.length || 1}>
                        {loading ? <Spin /> : empty}
                      </td>
                    </tr>
                  ) : (
                    rows.map((r, ri) => {
                      const rk = rowKeyOf(r, ri);
                      return (
                        <tr key={rk} className="ant-table-row ant-table-row-level-0" data-row-key={String(rk)}>
                          {columns.map((c, i) => {
                            const cellProps = (c.onCell?.(r, ri) ?? {}) as Record<string, unknown> & { className?: string; style?: CSSProperties };
                            const { children, props } = cellContent(c, r, ri);
                            return (
                              <td
                                key={keys[i]}
                                {...cellProps}
                                {...props}
                                className={join('ant-table-cell', c.className, cellProps.className, !!c.sorter && i === sortedIndex && 'ant-table-column-sort', fixClass(i))}
                                style={{ ...cellProps.style, ...fixStyle(i), textAlign: c.align }}
                              >
                                {children}
                              </td>
                            );
                          })}
                        </tr>
                      );
                    })
                  )}
                </tbody>
              </table>
            </div>
            {scrolling && (
              <div ref={barRef} className="console-table-sticky-scroll" style={STICKY_BAR} onScroll={onBarScroll} aria-hidden="true">
                <div style={{ height: 1 }} />
              </div>
            )}
          </div>
        </div>
        {pager && total > 0 && (
          <Pagination
            {...pager}
            // At the end of the row, as antd's Table places it (bottomRight).
            align={pager.align ?? 'end'}
            className={join('ant-table-pagination', pager.className)}
            size={pager.size ?? (size === 'small' || size === 'middle' ? 'small' : undefined)}
            total={total}
          />
        )}
      </Spin>
    </div>
  );
}
