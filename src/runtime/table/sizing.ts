/**
 * Pure sizing and pagination rules for console tables (spec §3 "table pagination object", §9 "Tables").
 * No React and no DOM here, so every rule is unit-testable on its own.
 */

/** Vertical scroll height = window height minus this many px (header, search form, toolbar, pager). */
export const SCROLL_Y_OFFSET = 324;
/** With this many rows or fewer on the page there is no vertical limit. */
export const NO_SCROLL_ROW_LIMIT = 6;
/** Maximum table width = window width minus this many px (side menu, paddings). */
export const MAX_WIDTH_OFFSET = 282;
/** Width of antd's row-selection (checkbox) column: antd's default `selectionColumnWidth` is 32 px. */
export const SELECTION_COLUMN_WIDTH = 32;
/**
 * Width counted for a column that declares no (numeric) width. 120 px fits a typical 6–8 Chinese
 * characters or a date plus cell padding; it errs on the side of "needs horizontal scroll" rather than
 * squeezing data columns. Percent or other non-pixel widths are also counted with this value.
 */
export const DEFAULT_COLUMN_WIDTH = 120;
/** Minimum width a user can drag a column to. */
export const MIN_COLUMN_WIDTH = 60;
/** Height of the console's fixed page header: a horizontally scrolling table's sticky header stops below it. */
export const LAYOUT_HEADER_HEIGHT = 56;
/** Width of the menu layout's side menu, folded (icons only) below SIDER_FOLD_BELOW px of window. */
export const SIDER_WIDTH = 208;
export const SIDER_FOLDED_WIDTH = 64;
export const SIDER_FOLD_BELOW = 1200;
/** Padding of the menu layout's content box, each side. */
export const CONTENT_PADDING = 24;

/** Horizontal padding of a table cell (antd: 16 px each side). */
const CELL_PADDING = 32;
/** Room for a CJK character of 14 px text. */
const CJK_CHAR = 14;

/**
 * Width of a column that declares none, from what it shows, so a column is wide enough for its
 * values and the scroll rule below is decided on real widths: identifiers (links, copyable) show
 * whole, a date-time fits "YYYY-MM-DD HH:mm", a masked id card its 18 characters. Never narrower than
 * its title (plus the sort arrows when sortable).
 */
export function suggestedColumnWidth(c: { valueType?: string; copyable?: boolean; link?: string; title?: string; sorter?: boolean }): number {
  let width: number;
  if (c.link || c.copyable) width = 190;
  else
    switch (c.valueType) {
      case 'dateTime':
        width = 170;
        break;
      case 'idCard':
        width = 180;
        break;
      case 'phone':
        width = 130;
        break;
      case 'date':
      case 'money':
        width = 120;
        break;
      case 'enum':
        width = 110;
        break;
      case 'digit':
      case 'boolean':
        width = 90;
        break;
      default:
        width = DEFAULT_COLUMN_WIDTH;
    }
  const title = (c.title ?? '').length * CJK_CHAR + CELL_PADDING + (c.sorter ? 24 : 0);
  return Math.max(width, title);
}

/** Width of an 操作 column holding these link labels (8 px between links), at least 72 px. */
export function actionColumnWidth(labels: readonly string[]): number {
  const text = labels.reduce((sum, l) => sum + l.length * CJK_CHAR, 0);
  return Math.max(72, CELL_PADDING + text + 8 * Math.max(0, labels.length - 1));
}

export const DEFAULT_PAGE_SIZE = 30;
export const PAGE_SIZE_OPTIONS: string[] = ['30', '50', '100'];
/** The spec's pagination labels (antd Pagination `locale`), as §9 spells them: the zh-CN catalog of src/runtime/i18n uses them. */
export const PAGINATION_LABELS = {
  items_per_page: '/ page',
  jump_to: 'Go to',
  page: 'Page',
  prev_page: 'Previous Page',
  next_page: 'Next Page',
  page_size: 'Page Size',
} as const;

export interface ScrollYInput {
  windowHeight: number;
  /** Rows shown on the current page. */
  rowCount: number;
  maxHeight?: number;
}

/** Vertical scroll height, or undefined when the page holds 6 rows or fewer. */
export function scrollY({ windowHeight, rowCount, maxHeight }: ScrollYInput): number | undefined {
  if (rowCount <= NO_SCROLL_ROW_LIMIT) return undefined;
  if (maxHeight !== undefined && maxHeight !== null) return maxHeight;
  return Math.max(0, windowHeight - SCROLL_Y_OFFSET);
}

export interface WidthColumn {
  width?: number | string;
  fixed?: boolean | 'left' | 'right' | string;
}

export interface WidthPlanInput<C extends WidthColumn = WidthColumn> {
  windowWidth: number;
  /** The columns shown in the table (hidden ones already left out). */
  columns: readonly C[];
  /** Row-selection column width; pass SELECTION_COLUMN_WIDTH (or your own) when rows are selectable. */
  selectionWidth?: number;
}

export interface WidthPlan<C extends WidthColumn = WidthColumn> {
  maxWidth: number;
  /** Sum of the column widths plus the selection width. */
  totalWidth: number;
  /** Horizontal scroll width (= totalWidth) when the columns exceed maxWidth; undefined otherwise. */
  scrollX?: number;
  /** The columns: unchanged when scrolling, with `fixed` deleted when everything fits. */
  columns: C[];
}

/** Pixel width of a column: numbers and "120"/"120px" strings count as is, anything else as the default. */
export function columnWidth(width: number | string | undefined): number {
  if (typeof width === 'number' && Number.isFinite(width) && width > 0) return width;
  if (typeof width === 'string') {
    const m = /^\s*(\d+(?:\.\d+)?)\s*(px)?\s*$/.exec(width);
    if (m) return Number(m[1]);
  }
  return DEFAULT_COLUMN_WIDTH;
}

/**
 * Horizontal rule: scroll.x applies when the widths plus the selection width exceed window width − 282;
 * otherwise fixed-column settings are removed from every column (fixed columns would only waste space).
 */
export function tableWidthPlan<C extends WidthColumn>({ windowWidth, columns, selectionWidth = 0 }: WidthPlanInput<C>): WidthPlan<C> {
  const maxWidth = windowWidth - MAX_WIDTH_OFFSET;
  const totalWidth = columns.reduce((sum, c) => sum + columnWidth(c.width), 0) + selectionWidth;
  if (totalWidth > maxWidth) return { maxWidth, totalWidth, scrollX: totalWidth, columns: [...columns] };
  return {
    maxWidth,
    totalWidth,
    columns: columns.map((c) => {
      if (!('fixed' in c)) return c;
      const copy = { ...c };
      delete copy.fixed;
      return copy;
    }),
  };
}

export type TooltipPlacement = 'top' | 'topLeft' | 'topRight';

/** Tooltip placement for a column: first → topLeft, last → topRight, otherwise top (one column: topLeft). */
export function tooltipPlacement(index: number, count: number): TooltipPlacement {
  if (index <= 0) return 'topLeft';
  if (index >= count - 1) return 'topRight';
  return 'top';
}

/** The total label: '共 N 条', or '约 1,000,000 条' when the gateway only estimates the total. */
export function totalLabel(total: number, estimated = false): string {
  return estimated ? '约 ' + total.toLocaleString('en-US') + ' 条' : '共 ' + total + ' 条';
}

export interface PaginationInput {
  current: number;
  pageSize: number;
  total?: number;
  onChange: (page: number, pageSize: number) => void;
  /** The total is an estimate (gateway `totalIsEstimate: true`). */
  estimated?: boolean;
  /** Labels of the current language (src/runtime/i18n); default the spec's English labels. */
  labels?: PaginationLabels;
  /** Total label of the current language; default totalLabel (共 N 条). */
  totalText?: (total: number, estimated: boolean) => string;
}

export type PaginationLabels = Record<keyof typeof PAGINATION_LABELS, string>;

export interface ConsolePagination {
  current: number;
  pageSize: number;
  /** Present only when known (a list's total comes from its `request`). */
  total?: number;
  showQuickJumper: true;
  showSizeChanger: true;
  pageSizeOptions: string[];
  onChange: (page: number, pageSize: number) => void;
  locale: PaginationLabels;
  showTotal: (total: number) => string;
}

/** The spec's table pagination object (§3), with the §9 labels and page sizes. */
export function paginationConfig({ current, pageSize, total, onChange, estimated = false, labels = PAGINATION_LABELS, totalText = totalLabel }: PaginationInput): ConsolePagination {
  const config: ConsolePagination = {
    current,
    pageSize,
    showQuickJumper: true,
    showSizeChanger: true,
    pageSizeOptions: [...PAGE_SIZE_OPTIONS],
    onChange,
    locale: { ...labels },
    showTotal: (all: number) => totalText(all, estimated),
  };
  if (total !== undefined) config.total = total;
  return config;
}

/**
 * Rows antd shows on the current page. Server-paged data (length ≤ pageSize) is shown whole;
 * longer data is sliced by antd to the current page.
 */
export function rowsOnPage(dataLength: number, current: number, pageSize: number): number {
  if (dataLength <= pageSize) return dataLength;
  return Math.max(0, Math.min(pageSize, dataLength - (current - 1) * pageSize));
}
