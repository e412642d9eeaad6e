import { columnKey } from './columns';

/** What the user set for one column in the column settings: shown or not, and its place. */
export interface ColumnState {
  show?: boolean;
  /** Place among the columns (0 first); columns without one keep their own place. */
  order?: number;
}

/** Column settings by column key (`columnKey`: the column's key, else its dataIndex). */
export type ColumnsStateMap = Record<string, ColumnState>;

/** A controlled column-settings value (the export follows the columns shown). */
export interface ColumnsStateControl {
  value: ColumnsStateMap;
  onChange: (value: ColumnsStateMap) => void;
}

interface Keyed {
  key?: unknown;
  dataIndex?: unknown;
  hideInTable?: boolean;
}

/** Items in the settings' order: by their set `order`, else by their own position (ties keep it). */
export function inSetOrder<T>(items: readonly T[], keyOf: (item: T, index: number) => string, state: ColumnsStateMap): T[] {
  return items
    .map((item, i) => ({ item, order: state[keyOf(item, i)]?.order ?? i, i }))
    .sort((a, b) => a.order - b.order || a.i - b.i)
    .map((x) => x.item);
}

/** Columns the settings list: those the table can show (not the search form's own filter columns). */
export function settableColumns<C extends Keyed>(columns: C[]): Array<{ col: C; key: string }> {
  return columns.map((col, i) => ({ col, key: columnKey(col, i) })).filter(({ col }) => !col.hideInTable);
}

/**
 * The columns as the settings say: hidden ones marked `hideInTable`, the rest in their set order
 * (a column without an order keeps its position among the others).
 */
export function applyColumnsState<C extends Keyed>(columns: C[], state: ColumnsStateMap): C[] {
  const marked = columns.map((col, i) => (state[columnKey(col, i)]?.show === false ? { ...col, hideInTable: true } : col));
  return inSetOrder(marked, columnKey, state);
}

/**
 * The settings after moving one column a place up (-1) or down (+1) among the listed columns: past the
 * next shown one (a hidden column in between keeps its place, so the move is always seen).
 */
export function moveColumn(keys: string[], state: ColumnsStateMap, key: string, step: -1 | 1): ColumnsStateMap {
  const ordered = inSetOrder(keys, (k) => k, state);
  const at = ordered.indexOf(key);
  let to = at + step;
  while (to >= 0 && to < ordered.length && state[ordered[to]]?.show === false) to += step;
  if (at < 0 || to < 0 || to >= ordered.length) return state;
  [ordered[at], ordered[to]] = [ordered[to], ordered[at]];
  const next: ColumnsStateMap = { ...state };
  ordered.forEach((k, order) => (next[k] = { ...next[k], order }));
  return next;
}
