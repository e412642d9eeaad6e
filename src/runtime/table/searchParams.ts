import type { AnyListColumn } from './listColumn';
import { CONTENT_PADDING, SIDER_FOLD_BELOW, SIDER_FOLDED_WIDTH, SIDER_WIDTH } from './sizing';

/** Request params from the search form: filter values by name (date ranges as [from, to] day strings). */
export type SearchValues = Record<string, unknown>;

export interface SearchColumn {
  /** Form field name: the column's key, else its dataIndex. */
  name: string;
  label: string;
  col: AnyListColumn;
}

/** The columns that are filters: not hidden from the search, not the 操作 column, with a name. */
export function searchColumns(columns: AnyListColumn[]): SearchColumn[] {
  const out: SearchColumn[] = [];
  for (const col of columns) {
    if (col.hideInSearch || col.search === false || col.valueType === 'option') continue;
    const name = col.key ?? (typeof col.dataIndex === 'string' || typeof col.dataIndex === 'number' ? col.dataIndex : undefined);
    if (name === undefined || name === '') continue;
    out.push({ name: String(name), label: typeof col.title === 'string' ? col.title : String(name), col });
  }
  return out;
}

/** The search box's width expected in a window this wide: the content beside the side menu, less its padding. */
export function searchBoxWidth(windowWidth: number): number {
  return windowWidth - (windowWidth >= SIDER_FOLD_BELOW ? SIDER_WIDTH : SIDER_FOLDED_WIDTH) - 2 * CONTENT_PADDING;
}

/** Filters per row for a form box this wide (as ProTable's search form placed them, with auto label widths). */
export function searchColumnCount(width: number): number {
  if (width <= 513) return 1;
  if (width <= 701) return 2;
  if (width <= 1352) return 3;
  return 4;
}

/** A picker's day (dayjs) or a day string as YYYY-MM-DD. */
function day(v: unknown): unknown {
  if (v && typeof v === 'object' && 'format' in v && typeof (v as { format: unknown }).format === 'function') {
    return (v as { format: (f: string) => string }).format('YYYY-MM-DD');
  }
  return v;
}

/**
 * The request params of the form's values: empty filters left out, date ranges as two day strings, and
 * a column's `search.transform` applied (a date column filtered by a range of its own name).
 */
export function toSearchParams(fields: SearchColumn[], values: Record<string, unknown>): SearchValues {
  const params: SearchValues = {};
  for (const f of fields) {
    let v = values[f.name];
    if (v === undefined || v === null || v === '') continue;
    if (Array.isArray(v)) {
      if (v.length < 2 || !v[0] || !v[1]) continue;
      v = v.map(day);
    }
    const search = f.col.search;
    const transform = search && typeof search === 'object' ? (search as { transform?: (value: unknown, name: string, all: unknown) => unknown }).transform : undefined;
    if (transform) Object.assign(params, transform(v, f.name, values));
    else params[f.name] = v;
  }
  return params;
}
