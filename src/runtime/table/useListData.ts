import { useCallback, useLayoutEffect, useMemo, useRef, useState } from 'react';

/** A column's sort as the request gets it: { [dataIndex]: 'ascend' | 'descend' }. */
export type SortParams = Record<string, 'ascend' | 'descend' | null>;

/** What a list's `request` answers: a page of rows, the total, and whether the total is an estimate. */
export interface ListRequestData<T> {
  data?: T[];
  total?: number;
  success?: boolean;
  /** The total is an estimate: the pager reads 约 N 条 instead of 共 N 条. */
  estimated?: boolean;
  /** The gateway's own name for the same flag. */
  totalIsEstimate?: boolean;
}

/** Loads one page: the params (filters, `current`, `pageSize`), the sort and the column filters (none). */
export type ListRequest<T, U> = (params: U & { current?: number; pageSize?: number }, sort: SortParams, filter: Record<string, unknown>) => Promise<ListRequestData<T>>;

export interface PageInfo {
  current: number;
  pageSize: number;
  total: number;
}

/** What a page holding the table can do with it (`actionRef`): load the page shown again, or move. */
export interface TableAction {
  reload: () => void;
  pageInfo: PageInfo;
  setPageInfo: (page: Partial<Pick<PageInfo, 'current' | 'pageSize'>>) => void;
}

export interface ListDataInput<T, U> {
  request?: ListRequest<T, U>;
  params: U;
  sort: SortParams;
  current: number;
  pageSize: number;
  onLoad?: (rows: T[]) => void;
  /** The page shown is past the last one (its rows were removed): go to this page instead. */
  onPastEnd: (page: number) => void;
}

export interface ListData<T> {
  rows: T[];
  total: number;
  estimated: boolean;
  loading: boolean;
  /** Loads the page shown again, with the same params. */
  reload: () => void;
}

/**
 * The rows of the page shown, loaded with `request` whenever the params, the page or the sort change
 * (or on `reload`). An answer overtaken by a later request is dropped, so the rows always match the
 * params shown; a failed request leaves no rows.
 */
export function useListData<T, U>({ request, params, sort, current, pageSize, onLoad, onPastEnd }: ListDataInput<T, U>): ListData<T> {
  const [state, setState] = useState<{ rows: T[]; total: number; estimated: boolean; loading: boolean }>(() => ({ rows: [], total: 0, estimated: false, loading: !!request }));
  const [tick, setTick] = useState(0);
  const reload = useCallback(() => setTick((t) => t + 1), []);
  // What a load asks with is read from here; `key` says when the params or the sort really changed.
  const latest = useRef({ request, onLoad, onPastEnd, params, sort });
  latest.current = { request, onLoad, onPastEnd, params, sort };
  const seq = useRef(0);
  const key = useMemo(() => JSON.stringify([params, sort]), [params, sort]);
  const hasRequest = !!request;

  // Asked as soon as the table is in the document, before the browser lays it out and paints it: the
  // answer is on its way while the page around the rows is drawn (from a passive effect it was asked
  // only after that paint, a few hundred milliseconds later on a slow machine).
  useLayoutEffect(() => {
    const { request: fn, params: p, sort: s } = latest.current;
    if (!fn) return;
    const id = ++seq.current;
    setState((prev) => (prev.loading ? prev : { ...prev, loading: true }));
    fn({ ...p, current, pageSize }, s, {}).then(
      (r) => {
        if (id !== seq.current) return;
        const rows = r?.data ?? [];
        const total = typeof r?.total === 'number' ? r.total : rows.length;
        // The last page emptied (its rows deleted): show the last page that still has rows.
        if (rows.length === 0 && current > 1 && total > 0) {
          latest.current.onPastEnd(Math.max(1, Math.ceil(total / pageSize)));
          return;
        }
        setState({ rows, total, estimated: r?.estimated === true || r?.totalIsEstimate === true, loading: false });
        latest.current.onLoad?.(rows);
      },
      () => {
        if (id === seq.current) setState({ rows: [], total: 0, estimated: false, loading: false });
      },
    );
  }, [key, current, pageSize, tick, hasRequest]);

  return { ...state, reload };
}
