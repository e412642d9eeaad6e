import { isValidElement, type MouseEvent, type ReactNode } from 'react';
import type { AnyListColumn, ListColumn } from './listColumn';
import type { CellTipApi } from './CellTip';
import type { ResizableTitleProps } from './ResizableTitle';
import { DEFAULT_COLUMN_WIDTH, MIN_COLUMN_WIDTH, tooltipPlacement, type WidthPlan } from './sizing';

/** Column widths the user has set by resizing, keyed by `columnKey`. */
export type ColumnWidths = Record<string, number>;

/** antd's class of a column whose text is cut with "…" (cells and header). */
export const ELLIPSIS_CLASS = 'ant-table-cell-ellipsis';

/** Cell props with antd's ellipsis class added to their className. */
function withEllipsisClass<P extends { className?: string }>(props: P | undefined): P {
  return { ...props, className: props?.className ? `${props.className} ${ELLIPSIS_CLASS}` : ELLIPSIS_CLASS } as P;
}

/** Value types whose cells are not text and so get no ellipsis/tooltip. */
const NON_TEXT_VALUE_TYPES = new Set(['option', 'index', 'indexBorder']);

/** Stable key of a column: its `key`, else its dataIndex (arrays joined with "."), else its position. */
export function columnKey(col: { key?: unknown; dataIndex?: unknown }, index: number): string {
  if (col.key !== undefined && col.key !== null && col.key !== '') return String(col.key);
  const di = col.dataIndex;
  if (Array.isArray(di)) return di.join('.');
  if (di !== undefined && di !== null && di !== '') return String(di);
  return `__col_${index}`;
}

/** Columns that take part in the table layout (hidden ones are there only for the search form). */
export function isShownInTable(col: AnyListColumn): boolean {
  return !col.hideInTable;
}

/** Columns with user-resized widths applied (input to `tableWidthPlan`). */
export function applyWidths<T>(columns: ListColumn<T>[], widths: ColumnWidths): ListColumn<T>[] {
  return columns.map((c, i) => {
    const w = widths[columnKey(c, i)];
    return w === undefined ? c : { ...c, width: w };
  });
}

/** Render output that is a merged-cell object ({ children, props }) must be returned as is. */
export function isRenderedCellObject(out: unknown): boolean {
  return typeof out === 'object' && out !== null && !Array.isArray(out) && !isValidElement(out) && ('children' in out || 'props' in out);
}

function wantsEllipsis(col: AnyListColumn): boolean {
  if (col.ellipsis === false) return false;
  if (typeof col.valueType === 'string' && NON_TEXT_VALUE_TYPES.has(col.valueType)) return false;
  return !('children' in col && Array.isArray(col.children) && col.children.length > 0);
}

export interface BuildColumnsOptions {
  /** Called when the user resizes a column; without it headers are not resizable. */
  onResize?: (key: string, width: number) => void;
  /** The table's tooltip for cut-off cells (useCellTip); without it a cut cell shows no tooltip. */
  tip?: CellTipApi;
}

/**
 * Final list columns:
 * - widths: user-resized widths win; when horizontal scroll applies, columns without a width get
 *   DEFAULT_COLUMN_WIDTH so the real table width equals `plan.scrollX`;
 * - no horizontal scroll → every `fixed` is removed (the 操作 column is fixed right only while scrolling);
 * - text columns are truncated with an ellipsis and a tooltip (opt out with `ellipsis: false`): antd's
 *   ellipsis class on its cells and header, and the table's one tooltip (`options.tip`, CellTip.tsx)
 *   shown over a cell whose text is cut;
 * - header cells get ResizableTitle props through `onHeaderCell`.
 */
export function buildColumns<T>(
  columns: ListColumn<T>[],
  widths: ColumnWidths,
  plan: Pick<WidthPlan, 'scrollX'>,
  options: BuildColumnsOptions = {},
): ListColumn<T>[] {
  const scrolling = plan.scrollX !== undefined;
  const shown = columns.filter((c) => isShownInTable(c as AnyListColumn));
  const count = shown.length;
  return columns.map((col, i) => {
    const key = columnKey(col, i);
    const next: ListColumn<T> = { ...col };
    const visible = isShownInTable(col as AnyListColumn);
    const resized = widths[key];
    if (resized !== undefined) next.width = resized;
    else if (scrolling && visible && next.width === undefined) next.width = DEFAULT_COLUMN_WIDTH;
    if (!scrolling) delete next.fixed;

    const ellipsis = visible && wantsEllipsis(col as AnyListColumn);
    if (ellipsis) {
      const placement = tooltipPlacement(shown.indexOf(col), count);
      // antd's ellipsis class on the cells and the header (the table is laid out `fixed`, see ConsoleTable)
      // rather than antd's `ellipsis`, and the table's tooltip on the pointer's way in. A fixed column's cell
      // lets its content overflow (antd's shadow): its text is cut in antd's inner span instead.
      delete next.ellipsis;
      const userCell = col.onCell;
      const tip = options.tip;
      const enter = (e: MouseEvent<HTMLElement>) => tip?.show(e, placement);
      const leave = () => tip?.hide();
      next.onCell = (record, index) => {
        const props = withEllipsisClass(userCell?.(record, index));
        if (!tip) return props;
        const own = props as { onMouseEnter?: (e: MouseEvent<HTMLElement>) => void; onMouseLeave?: (e: MouseEvent<HTMLElement>) => void };
        if (!own.onMouseEnter && !own.onMouseLeave) return { ...props, onMouseEnter: enter, onMouseLeave: leave };
        return {
          ...props,
          onMouseEnter: (e: MouseEvent<HTMLElement>) => {
            own.onMouseEnter?.(e);
            enter(e);
          },
          onMouseLeave: (e: MouseEvent<HTMLElement>) => {
            own.onMouseLeave?.(e);
            leave();
          },
        };
      };
      if (next.fixed) {
        const original = col.render;
        next.render = (text, record, index) => {
          const out = original ? original(text, record, index) : text;
          return isRenderedCellObject(out) ? out : <span className="ant-table-cell-content">{out as ReactNode}</span>;
        };
      }
    }

    const onResize = options.onResize;
    if (visible && (onResize || ellipsis)) {
      const userHeaderCell = col.onHeaderCell;
      const width = next.width;
      next.onHeaderCell = (column) => {
        const base = userHeaderCell ? userHeaderCell(column) : {};
        const extra: ResizableTitleProps | undefined = onResize && {
          width: typeof width === 'number' ? width : undefined,
          minWidth: MIN_COLUMN_WIDTH,
          onResize: (w: number) => onResize(key, w),
        };
        return (ellipsis ? withEllipsisClass({ ...base, ...extra }) : { ...base, ...extra }) as ReturnType<NonNullable<ListColumn<T>['onHeaderCell']>>;
      };
    }
    return next;
  });
}
