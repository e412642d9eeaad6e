/**
 * List state (page, page size, filters, sort) ↔ URL query string, so going to a detail and back, a
 * reload or a link (e.g. from the workbench) opens the same list view.
 *
 * The URL uses the names of the gateway's list query:
 *   ?status=unpaid&current=2&pageSize=30&sortField=createdAt&sortOrder=descend
 * and a date range as `<field>=YYYY-MM-DD,YYYY-MM-DD` (`<field>Range=…` is read as well).
 * Other query parameters (?tab=, ?id= of a drawer) are left alone. No React and no DOM here.
 */

export type SortOrder = 'ascend' | 'descend';
export type FilterValue = string | [string, string];

export interface ListUrlState {
  current: number;
  pageSize: number;
  /** Search-form values by field: text/enum as a string, date ranges as [from, to] (YYYY-MM-DD). */
  filters: Record<string, FilterValue>;
  sortField?: string;
  sortOrder?: SortOrder;
}

/** What the mapping needs to know of a table column (a subset of the schema's TableColumn). */
export interface UrlStateColumn {
  dataIndex: string;
  search?: boolean;
  sorter?: boolean;
  valueType?: string;
  options?: ReadonlyArray<{ value: string | number }>;
}

/** Query parameters owned by the list besides the filter fields. */
export const LIST_PARAMS = ['current', 'pageSize', 'sortField', 'sortOrder'] as const;
/** Largest page size accepted from a URL (the pager offers 30/50/100). */
export const MAX_URL_PAGE_SIZE = 100;

const DAY = /^\d{4}-\d{2}-\d{2}$/;

function isDateColumn(c: UrlStateColumn): boolean {
  return c.valueType === 'date' || c.valueType === 'dateTime' || c.valueType === 'dateRange';
}

function positiveInt(v: string | null, max = Number.MAX_SAFE_INTEGER): number | undefined {
  if (v === null || !/^\d+$/.test(v.trim())) return undefined;
  const n = Number(v);
  return n >= 1 && n <= max ? n : undefined;
}

function parseRange(v: string | null): [string, string] | undefined {
  if (!v) return undefined;
  const [from, to, ...rest] = v.split(',').map((s) => s.trim());
  if (rest.length || !from || !to || !DAY.test(from) || !DAY.test(to)) return undefined;
  return from <= to ? [from, to] : [to, from];
}

function toParams(search: string | URLSearchParams): URLSearchParams {
  return typeof search === 'string' ? new URLSearchParams(search) : new URLSearchParams(search);
}

/** The default state: page 1, the table's page size, no filter, no sort. */
export function defaultListState(pageSize: number): ListUrlState {
  return { current: 1, pageSize, filters: {} };
}

/**
 * Reads the list state from a query string. Unknown fields, bad numbers, enum values that are not
 * options, malformed date ranges and sorts on unsortable columns are ignored (the default is used).
 */
export function readListState(search: string | URLSearchParams, columns: readonly UrlStateColumn[], defaultPageSize: number): ListUrlState {
  const q = toParams(search);
  const state = defaultListState(defaultPageSize);
  state.current = positiveInt(q.get('current')) ?? 1;
  state.pageSize = positiveInt(q.get('pageSize'), MAX_URL_PAGE_SIZE) ?? defaultPageSize;
  for (const c of columns) {
    if (!c.search) continue;
    if (isDateColumn(c)) {
      const range = parseRange(q.get(c.dataIndex)) ?? parseRange(q.get(`${c.dataIndex}Range`));
      if (range) state.filters[c.dataIndex] = range;
      continue;
    }
    const v = q.get(c.dataIndex)?.trim();
    if (!v) continue;
    if (c.options && !c.options.some((o) => String(o.value) === v)) continue;
    state.filters[c.dataIndex] = v;
  }
  const field = q.get('sortField');
  const order = q.get('sortOrder');
  if (field && (order === 'ascend' || order === 'descend') && columns.some((c) => c.sorter && c.dataIndex === field)) {
    state.sortField = field;
    state.sortOrder = order;
  }
  return state;
}

function isDefault(state: ListUrlState, defaultPageSize: number): boolean {
  return state.current === 1 && state.pageSize === defaultPageSize && Object.keys(state.filters).length === 0 && !state.sortField;
}

/**
 * The query string with the list state written into it: every list parameter of `columns` is
 * replaced, other parameters are kept. The default state writes nothing (a clean URL); any other
 * state writes page and page size as well.
 */
export function writeListState(
  search: string | URLSearchParams,
  state: ListUrlState,
  columns: readonly UrlStateColumn[],
  defaultPageSize: number,
): URLSearchParams {
  const q = toParams(search);
  for (const k of LIST_PARAMS) q.delete(k);
  for (const c of columns) {
    if (!c.search) continue;
    q.delete(c.dataIndex);
    q.delete(`${c.dataIndex}Range`);
  }
  if (isDefault(state, defaultPageSize)) return q;
  for (const c of columns) {
    const v = state.filters[c.dataIndex];
    if (!c.search || v === undefined) continue;
    q.set(c.dataIndex, Array.isArray(v) ? `${v[0]},${v[1]}` : v);
  }
  q.set('current', String(state.current));
  q.set('pageSize', String(state.pageSize));
  if (state.sortField && state.sortOrder) {
    q.set('sortField', state.sortField);
    q.set('sortOrder', state.sortOrder);
  }
  return q;
}

/**
 * The list state of one list request: its params (page, page size and the search-form values,
 * date ranges as two date or date-time strings) and its sort ({ field: 'ascend' | 'descend' | null }).
 */
export function stateFromRequest(
  params: Record<string, unknown>,
  sort: Record<string, SortOrder | null | undefined> | undefined,
  columns: readonly UrlStateColumn[],
  defaultPageSize: number,
): ListUrlState {
  const state = defaultListState(defaultPageSize);
  state.current = positiveInt(params.current === undefined ? null : String(params.current)) ?? 1;
  state.pageSize = positiveInt(params.pageSize === undefined ? null : String(params.pageSize)) ?? defaultPageSize;
  for (const c of columns) {
    if (!c.search) continue;
    const v = params[c.dataIndex];
    if (v === undefined || v === null || v === '') continue;
    if (Array.isArray(v)) {
      const range = parseRange(v.length === 2 && v[0] && v[1] ? `${String(v[0]).slice(0, 10)},${String(v[1]).slice(0, 10)}` : null);
      if (range) state.filters[c.dataIndex] = range;
    } else {
      const s = String(v).trim();
      if (s) state.filters[c.dataIndex] = s;
    }
  }
  const [field, order] = Object.entries(sort ?? {}).find(([, o]) => o === 'ascend' || o === 'descend') ?? [];
  if (field && order) {
    state.sortField = field;
    state.sortOrder = order;
  }
  return state;
}

/**
 * Name of the search-form field of a date or date-time column: the list page searches it with an
 * extra date-range field of this name (a column whose own type is a range is searched as it is).
 */
export function rangeFieldName(dataIndex: string): string {
  return `${dataIndex}__range`;
}

/** Search-form values of a state, by form field name (date ranges as [from, to] strings). */
export function toFormValues(state: ListUrlState, columns: readonly UrlStateColumn[]): Record<string, FilterValue> {
  const values: Record<string, FilterValue> = {};
  for (const c of columns) {
    const v = state.filters[c.dataIndex];
    if (!c.search || v === undefined) continue;
    const name = Array.isArray(v) && isDateColumn(c) && c.valueType !== 'dateRange' ? rangeFieldName(c.dataIndex) : c.dataIndex;
    values[name] = Array.isArray(v) ? [v[0], v[1]] : v;
  }
  return values;
}

/** One string per distinct list state (compares a URL's state with the one last written). */
export function listStateKey(state: ListUrlState): string {
  const filters = Object.keys(state.filters)
    .sort()
    .map((k) => {
      const v = state.filters[k];
      return `${k}=${Array.isArray(v) ? v.join(',') : v}`;
    });
  return [state.current, state.pageSize, state.sortField ?? '', state.sortOrder ?? '', ...filters].join('&');
}

/**
 * A link from a row: a target on the current path that only sets query parameters (e.g. a drawer's
 * `?id=7`) keeps the current query (the list state) and adds its own; any other target is unchanged.
 */
export function linkKeepingListState(to: string, current: { pathname: string; search: string }): string {
  const i = to.indexOf('?');
  const path = i < 0 ? to : to.slice(0, i);
  if (i < 0 || (path && path !== current.pathname)) return to;
  const q = new URLSearchParams(current.search);
  for (const [k, v] of new URLSearchParams(to.slice(i + 1))) q.set(k, v);
  return `${current.pathname}?${q.toString()}`;
}
