import { useCallback, useMemo, useRef, useState, type MutableRefObject } from 'react';
import type { TablePaginationConfig } from 'antd';
import { ProTable, type ActionType, type ParamsType, type ProColumns, type ProTableProps, type RequestData } from '@ant-design/pro-components';
import { ResizableTitle } from './ResizableTitle';
import { LightTable, lightTableCan } from './LightTable';
import { SearchForm } from './SearchForm';
import { searchBoxWidth, searchColumns, toSearchParams, type SearchValues } from './searchParams';
import { applyWidths, buildColumns, isShownInTable, type ColumnWidths } from './columns';
import { DEFAULT_PAGE_SIZE, LAYOUT_HEADER_HEIGHT, SELECTION_COLUMN_WIDTH, paginationConfig, rowsOnPage, scrollY, tableWidthPlan } from './sizing';
import { useWindowSize } from './useWindowSize';
import { paginationLabels, useTranslation, type Language } from '../i18n';

/** What `request` may resolve: ProTable's result plus the gateway's "the total is an estimate" flag. */
export type ConsoleRequestData<T> = Partial<RequestData<T>> & {
  /** The total is an estimate: the pager reads 约 N 条 instead of 共 N 条. */
  estimated?: boolean;
  /** The gateway's own name for the same flag. */
  totalIsEstimate?: boolean;
};

type RequestFn<T, U> = NonNullable<ProTableProps<T, U>['request']>;

export type ConsoleTableProps<T extends Record<string, any>, U extends ParamsType = ParamsType> = Omit<
  ProTableProps<T, U>,
  'request' | 'pagination'
> & {
  /** Fixed vertical scroll height (px) used instead of "window height − 324" once there are more than 6 rows. */
  maxHeight?: number;
  request?: (...args: Parameters<RequestFn<T, U>>) => Promise<ConsoleRequestData<T>>;
  /**
   * `false` turns paging off. An object is merged over the console pagination (e.g. `defaultPageSize`,
   * `total` for server-paged `dataSource`); its `onChange` is called as well.
   */
  pagination?: false | TablePaginationConfig;
};

interface PageState {
  current: number;
  pageSize: number;
}

/**
 * The console's list table: ProTable with the spec's pagination (30/50/100, quick jumper, 共 N 条),
 * window-sized scrolling, fixed columns only while scrolling horizontally, resizable columns and
 * truncated text with tooltips. ProTable loads the pages and draws the toolbar; the search form
 * (SearchForm) and the table (LightTable, or antd's Table when it asks for more) are the console's.
 * Everything else is passed to ProTable unchanged.
 */
export function ConsoleTable<T extends Record<string, any>, U extends ParamsType = ParamsType>(props: ConsoleTableProps<T, U>) {
  const { maxHeight, request, pagination, columns, components, scroll, rowSelection, dataSource, onLoad, search, form, params, actionRef: userActionRef, ...rest } = props;
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
  // Rows of the page last loaded; before the first load a page is expected to be full (the usual case). A
  // table laid out for no rows switched to a scrolling body with a fixed header once they came, and antd
  // built the table a second time (about 100 ms of the first list page).
  const [loadedRows, setLoadedRows] = useState<number>();
  const [estimated, setEstimated] = useState(false);

  // The search form is the console's (SearchForm); ProTable gets its values as params. Its first values
  // (from the URL) are the params of the first load.
  const ownActionRef = useRef<ActionType>();
  const actionRef = (userActionRef && typeof userActionRef === 'object' ? userActionRef : ownActionRef) as MutableRefObject<ActionType | undefined>;
  const [searchParams, setSearchParams] = useState<SearchValues>(() =>
    search === false ? {} : toSearchParams(searchColumns((columns ?? []) as ProColumns<never>[]), (form?.initialValues ?? {}) as Record<string, unknown>),
  );
  const searchKey = useRef(JSON.stringify(searchParams));
  const onSearch = useCallback((next: SearchValues) => {
    const key = JSON.stringify(next);
    const same = key === searchKey.current;
    searchKey.current = key;
    setSearchParams(next);
    // A search starts again on page 1; the same search again reloads the page shown.
    const action = actionRef.current;
    if (action?.pageInfo && action.pageInfo.current !== 1) action.setPageInfo?.({ current: 1 });
    else if (same) void action?.reload();
  }, [actionRef]);
  const mergedParams = useMemo(() => ({ ...searchParams, ...params }) as U, [searchParams, params]);

  // Latest request in a ref, so the wrapper keeps one identity across renders.
  const requestRef = useRef(request);
  requestRef.current = request;
  const hasRequest = !!request;
  const wrappedRequest = useCallback<RequestFn<T, U>>(async (params, sort, filter) => {
    const fn = requestRef.current;
    if (!fn) return { data: [], success: true, total: 0 };
    const result = await fn(params, sort, filter);
    setEstimated(result?.estimated === true || result?.totalIsEstimate === true);
    return result;
  }, []);

  const handleLoad = useCallback(
    (data: T[]) => {
      setLoadedRows(data.length);
      onLoad?.(data);
    },
    [onLoad],
  );

  const userOnChange = userPagination?.onChange;
  const onPageChange = useCallback(
    (current: number, pageSize: number) => {
      // A new page size starts again on page 1 (as ProTable does for request-driven tables).
      setPage((prev) => {
        const next = pageSize !== prev.pageSize ? { current: 1, pageSize } : { current, pageSize };
        // ProTable also reports unchanged page info (e.g. after each load); keep the state then.
        return next.current === prev.current && next.pageSize === prev.pageSize ? prev : next;
      });
      userOnChange?.(current, pageSize);
    },
    [userOnChange],
  );

  const dataLength = dataSource ? dataSource.length : loadedRows ?? page.pageSize;
  const rowCount = pagination === false ? dataLength : rowsOnPage(dataLength, page.current, page.pageSize);

  const selectionWidth = rowSelection
    ? typeof rowSelection.columnWidth === 'number'
      ? rowSelection.columnWidth
      : SELECTION_COLUMN_WIDTH
    : 0;

  const onResize = useCallback((key: string, width: number) => setWidths((w) => ({ ...w, [key]: width })), []);

  const { finalColumns, scrollX } = useMemo(() => {
    const cols = (columns ?? []) as ProColumns<T>[];
    const shown = applyWidths(cols, widths).filter((c) => isShownInTable(c as ProColumns<never>));
    const plan = tableWidthPlan({ windowWidth, columns: shown, selectionWidth });
    return { finalColumns: buildColumns(cols, widths, plan, { onResize }), scrollX: plan.scrollX };
  }, [columns, widths, windowWidth, selectionWidth, onResize]);

  const y = scrollY({ windowHeight, rowCount, maxHeight });
  const mergedScroll = { ...(scrollX !== undefined ? { x: scrollX } : {}), ...(y !== undefined ? { y } : {}), ...scroll };

  const mergedPagination =
    pagination === false
      ? false
      : {
          ...paginationConfig({ ...page, onChange: onPageChange, estimated, labels, totalText }),
          ...(userPagination?.total !== undefined ? { total: userPagination.total } : {}),
        };

  const mergedComponents = {
    ...components,
    header: { ...components?.header, cell: ResizableTitle },
  } as ProTableProps<T, U>['components'];

  // A table wider than the page scrolls sideways: its scroll bar stays at the bottom of the window and its
  // header below the page header, so the columns past the fixed 操作 column are always within reach.
  const sticky = scrollX !== undefined ? { offsetHeader: LAYOUT_HEADER_HEIGHT, offsetScroll: 0 } : undefined;

  // The table itself is the console's LightTable when it can draw it (ProTable keeps the search form, the
  // toolbar, the column settings and the loading of pages); antd's Table otherwise.
  const rowKey = rest.rowKey;
  const tableViewRender = useCallback<NonNullable<ProTableProps<T, U>['tableViewRender']>>(
    (tableProps, defaultDom) =>
      lightTableCan(tableProps as never) ? <LightTable {...(tableProps as object)} rowKey={rowKey as never} /> : defaultDom,
    [rowKey],
  );

  const searchConfig = search === false ? undefined : search;
  return (
    <>
    {search !== false ? (
      <SearchForm<T>
        columns={(columns ?? []) as ProColumns<T>[]}
        initialValues={form?.initialValues}
        defaultCollapsed={searchConfig?.defaultCollapsed ?? true}
        width={searchBoxWidth(windowWidth)}
        onSearch={onSearch}
      />
    ) : null}
    <ProTable<T, U>
      tableViewRender={tableViewRender}
      search={false}
      params={mergedParams}
      actionRef={actionRef}
      sticky={sticky}
      // Columns keep their widths and cut their text with "…" (buildColumns): antd lays a table out this
      // way on its own only for columns with `ellipsis`, which ProTable answers with a Typography per cell.
      tableLayout="fixed"
      {...rest}
      columns={finalColumns}
      dataSource={dataSource}
      request={hasRequest ? wrappedRequest : undefined}
      onLoad={handleLoad}
      rowSelection={rowSelection}
      pagination={mergedPagination}
      scroll={mergedScroll}
      components={mergedComponents}
    />
    </>
  );
}
