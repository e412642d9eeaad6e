import { useCallback, useEffect, useMemo, useRef, useState, type Key, type MutableRefObject, type ReactNode } from 'react';
import { Table, type TablePaginationConfig, type TableProps } from 'antd';
import type { AnyListColumn, ListColumn } from './listColumn';
import { ResizableTitle } from './ResizableTitle';
import { LightTable, lightTableCan } from './LightTable';
import { SearchForm } from './SearchForm';
import { TableToolbar, type Density } from './TableToolbar';
import { applyColumnsState, settableColumns, type ColumnsStateControl, type ColumnsStateMap } from './columnsState';
import { useListData, type ListRequest, type ListRequestData, type SortParams, type TableAction } from './useListData';
import { searchBoxWidth, searchColumns, toSearchParams, type SearchValues } from './searchParams';
import { useCellTip } from './CellTip';
import { applyWidths, buildColumns, columnKey, isShownInTable, type ColumnWidths } from './columns';
import { DEFAULT_PAGE_SIZE, LAYOUT_HEADER_HEIGHT, SELECTION_COLUMN_WIDTH, paginationConfig, rowsOnPage, scrollY, tableWidthPlan } from './sizing';
import { useWindowSize } from './useWindowSize';
import { paginationLabels, useTranslation, type Language } from '../i18n';

/** What `request` may resolve: a page of rows, the total and the gateway's "the total is an estimate" flag. */
export type ConsoleRequestData<T> = ListRequestData<T>;
export type { TableAction };

type Params = Record<string, unknown>;
type Row = Record<string, any>;

export interface ConsoleTableProps<T extends Row, U extends Params = Params> {
  columns?: ListColumn<T>[];
  rowKey?: string | ((record: T, index?: number) => Key);
  /** Loads a page; without it the table shows `dataSource` (paged here when longer than a page). */
  request?: ListRequest<T, U>;
  dataSource?: T[];
  /** Extra request params, merged over the search form's values. */
  params?: U;
  onLoad?: (rows: T[]) => void;
  /** `false`: no search form; otherwise the form starts folded unless `defaultCollapsed` is false. */
  search?: false | { defaultCollapsed?: boolean; labelWidth?: unknown };
  /** The search form's first values (from the URL). */
  form?: { initialValues?: Params };
  actionRef?: MutableRefObject<TableAction | undefined>;
  headerTitle?: ReactNode;
  /** The page's toolbar buttons. */
  toolBarRender?: () => ReactNode[];
  /** Controlled column settings (the export follows the columns shown). */
  columnsState?: ColumnsStateControl;
  /** Fixed vertical scroll height (px) used instead of "window height − 324" once there are more than 6 rows. */
  maxHeight?: number;
  /**
   * `false` turns paging off. An object is merged over the console pagination (e.g. `defaultPageSize`,
   * `total` for server-paged `dataSource`); its `onChange` is called as well.
   */
  pagination?: false | TablePaginationConfig;
  rowSelection?: TableProps<T>['rowSelection'];
  scroll?: TableProps<T>['scroll'];
  components?: TableProps<T>['components'];
  locale?: TableProps<T>['locale'];
}

interface PageState {
  current: number;
  pageSize: number;
}

/** The sort a table starts with: the column with a (default) sort order. */
function initialSort(columns: AnyListColumn[]): SortParams {
  const c = columns.find((x) => x.sorter && (x.sortOrder || x.defaultSortOrder));
  return c && typeof c.dataIndex === 'string' ? { [c.dataIndex]: (c.sortOrder ?? c.defaultSortOrder) as 'ascend' | 'descend' } : {};
}

/** The 操作 column's links in a row, 16 px apart (antd's Space, without its wrapper per link). */
const ACTIONS = { display: 'inline-flex', alignItems: 'center', flexWrap: 'wrap', gap: 16 } as const;

/** ListColumn as antd's table takes them: the 操作 column's links spaced, empty text cells as '-'. */
function toTableColumns<T>(columns: ListColumn<T>[]): NonNullable<TableProps<T>['columns']> {
  return columns
    .filter((c) => isShownInTable(c as AnyListColumn))
    .map((c, i) => {
      const { render, valueType, hideInSearch: _h, hideInTable: _t, search: _s, valueEnum: _v, request: _r, ...rest } = c;
      return {
        ...(rest as object),
        key: columnKey(c, i),
        sorter: c.sorter ? true : undefined,
        render: (value: unknown, record: T, index: number) => {
          const dom = (value === undefined || value === null || value === '' ? '-' : value) as ReactNode;
          const out = render ? render(dom, record, index) : dom;
          return valueType === 'option' && Array.isArray(out) ? <span style={ACTIONS}>{out}</span> : out;
        },
      };
    }) as NonNullable<TableProps<T>['columns']>;
}

/**
 * The console's list table: the search form (SearchForm), a toolbar (title, the page's buttons, 刷新,
 * 密度, 列设置), the table (LightTable, or antd's Table when it asks for more) with the spec's pagination
 * (30/50/100, quick jumper, 共 N 条), window-sized scrolling, fixed columns only while scrolling
 * sideways, resizable columns and truncated text with tooltips. Pages load through `request`
 * (useListData). Drawn by the console, not ProTable (docs/decisions.md, "A list is drawn by the console, not ProTable").
 */
export function ConsoleTable<T extends Row, U extends Params = Params>(props: ConsoleTableProps<T, U>) {
  const { maxHeight, request, pagination, columns: rawColumns, components, scroll, rowSelection, dataSource, onLoad, search, form, params, actionRef, rowKey, headerTitle, toolBarRender, locale } = props;
  const userPagination = pagination === false ? undefined : pagination;
  const { width: windowWidth, height: windowHeight } = useWindowSize();
  // Pagination labels follow the language (zh-CN by default; en-US has the spec's English labels).
  const { t, i18n } = useTranslation();
  const labels = useMemo(() => paginationLabels(i18n.language as Language), [i18n.language]);
  const totalText = useCallback(
    (n: number, est: boolean) => t(est ? 'pagination.totalEstimated' : 'pagination.total', { total: est ? n.toLocaleString('en-US') : n }),
    [t],
  );
  const [page, setPage] = useState<PageState>(() => ({
    current: userPagination?.current ?? userPagination?.defaultCurrent ?? 1,
    pageSize: userPagination?.pageSize ?? userPagination?.defaultPageSize ?? DEFAULT_PAGE_SIZE,
  }));
  const [widths, setWidths] = useState<ColumnWidths>({});
  const [density, setDensity] = useState<Density>('large');
  const [ownColumnsState, setOwnColumnsState] = useState<ColumnsStateMap>({});
  const columnsState = props.columnsState?.value ?? ownColumnsState;
  const setColumnsState = props.columnsState?.onChange ?? setOwnColumnsState;
  const allColumns = useMemo(() => (rawColumns ?? []) as ListColumn<T>[], [rawColumns]);
  const [sort, setSort] = useState<SortParams>(() => initialSort(allColumns as AnyListColumn[]));

  // The search form's values are the request's params; its first values (from the URL) those of the first load.
  const [searchParams, setSearchParams] = useState<SearchValues>(() =>
    search === false ? {} : toSearchParams(searchColumns(allColumns as AnyListColumn[]), (form?.initialValues ?? {}) as Params),
  );
  const mergedParams = useMemo(() => ({ ...searchParams, ...params }) as U, [searchParams, params]);
  const data = useListData<T, U>({
    request,
    params: mergedParams,
    sort,
    current: page.current,
    pageSize: page.pageSize,
    onLoad,
    onPastEnd: (current) => setPage((p) => ({ ...p, current })),
  });
  const searchKey = useRef(JSON.stringify(searchParams));
  const onSearch = useCallback(
    (next: SearchValues) => {
      const key = JSON.stringify(next);
      const same = key === searchKey.current;
      searchKey.current = key;
      setSearchParams(next);
      // A search starts again on page 1; the same search again reloads the page shown.
      setPage((p) => (p.current === 1 ? p : { ...p, current: 1 }));
      if (same && page.current === 1) data.reload();
    },
    [data.reload, page.current],
  );

  const total = userPagination?.total ?? (request ? data.total : (dataSource ?? []).length);
  useEffect(() => {
    if (!actionRef) return;
    actionRef.current = {
      reload: data.reload,
      pageInfo: { ...page, total },
      setPageInfo: (p) => setPage((prev) => ({ ...prev, ...p })),
    };
  });

  const userOnChange = userPagination?.onChange;
  const onPageChange = useCallback(
    (current: number, pageSize: number) => {
      // A new page size starts again on page 1.
      setPage((prev) => {
        const next = pageSize !== prev.pageSize ? { current: 1, pageSize } : { current, pageSize };
        return next.current === prev.current && next.pageSize === prev.pageSize ? prev : next;
      });
      userOnChange?.(current, pageSize);
    },
    [userOnChange],
  );
  const onTableChange = useCallback<NonNullable<TableProps<T>['onChange']>>((_p, _f, sorter, extra) => {
    if (extra.action !== 'sort') return;
    const s = Array.isArray(sorter) ? sorter[0] : sorter;
    const field = s?.field ?? s?.columnKey;
    setSort(s?.order && field !== undefined ? { [String(field)]: s.order } : {});
    setPage((p) => (p.current === 1 ? p : { ...p, current: 1 }));
  }, []);

  const rows = request ? data.rows : dataSource ?? [];
  const dataLength = request ? (data.loading && data.rows.length === 0 ? page.pageSize : data.rows.length) : rows.length;
  const rowCount = pagination === false ? dataLength : rowsOnPage(dataLength, page.current, page.pageSize);

  const selectionWidth = rowSelection ? (typeof rowSelection.columnWidth === 'number' ? rowSelection.columnWidth : SELECTION_COLUMN_WIDTH) : 0;
  const onResize = useCallback((key: string, width: number) => setWidths((w) => ({ ...w, [key]: width })), []);
  const [tip, tipNode] = useCellTip();

  const { tableColumns, scrollX, settings } = useMemo(() => {
    const cols = applyColumnsState(allColumns, columnsState);
    const shown = applyWidths(cols, widths).filter((c) => isShownInTable(c as AnyListColumn));
    const plan = tableWidthPlan({ windowWidth, columns: shown, selectionWidth });
    return {
      tableColumns: toTableColumns(buildColumns(cols, widths, plan, { onResize, tip })),
      scrollX: plan.scrollX,
      settings: settableColumns(allColumns).map(({ col, key }) => ({ key, title: col.title as ReactNode, fixed: !!col.fixed })),
    };
  }, [allColumns, columnsState, widths, windowWidth, selectionWidth, onResize, tip]);

  const y = scrollY({ windowHeight, rowCount, maxHeight });
  const mergedScroll = { ...(scrollX !== undefined ? { x: scrollX } : {}), ...(y !== undefined ? { y } : {}), ...scroll };
  const mergedPagination =
    pagination === false
      ? false
      : { ...paginationConfig({ ...page, onChange: onPageChange, estimated: data.estimated, labels, totalText }), total };
  const mergedComponents = { ...components, header: { ...components?.header, cell: ResizableTitle } } as TableProps<T>['components'];

  // The page's toolbar buttons, made again only when the page gives another toolBarRender.
  const actions = useMemo(() => toolBarRender?.(), [toolBarRender]);

  const tableProps: TableProps<T> = {
    columns: tableColumns,
    dataSource: rows,
    rowKey: rowKey as TableProps<T>['rowKey'],
    loading: request ? data.loading : false,
    pagination: mergedPagination,
    onChange: onTableChange,
    scroll: mergedScroll,
    components: mergedComponents,
    size: density,
    locale,
    rowSelection,
    // Columns keep their widths and cut their text with "…" (buildColumns).
    tableLayout: 'fixed',
    // A table wider than the page scrolls sideways: its scroll bar stays at the bottom of the window and
    // its header below the page header, so the columns past the fixed 操作 column are always within reach.
    sticky: scrollX !== undefined ? { offsetHeader: LAYOUT_HEADER_HEIGHT, offsetScroll: 0 } : undefined,
  };

  return (
    <>
      {search !== false ? (
        <SearchForm<T>
          columns={allColumns}
          initialValues={form?.initialValues}
          defaultCollapsed={search?.defaultCollapsed ?? true}
          width={searchBoxWidth(windowWidth)}
          onSearch={onSearch}
        />
      ) : null}
      <div style={CARD} className="console-table">
        <TableToolbar
          title={headerTitle}
          actions={actions}
          onReload={data.reload}
          density={density}
          onDensity={setDensity}
          columns={settings}
          columnsState={columnsState}
          onColumnsState={setColumnsState}
        />
        {lightTableCan(tableProps as TableProps<Row>) ? <LightTable {...(tableProps as TableProps<Row>)} /> : <Table<T> {...tableProps} />}
        {tipNode}
      </div>
    </>
  );
}

const CARD = { background: '#fff', borderRadius: 8, padding: '0 24px 8px' } as const;
