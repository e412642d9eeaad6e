export { ConsoleTable, type ConsoleTableProps, type ConsoleRequestData, type TableAction } from './ConsoleTable';
export { applyColumnsState, moveColumn, type ColumnState, type ColumnsStateMap, type ColumnsStateControl } from './columnsState';
export { buildColumns, applyWidths, columnKey, type ColumnWidths, type BuildColumnsOptions } from './columns';
export { ResizableTitle, KEYBOARD_RESIZE_STEP, RESIZE_HANDLE_LABEL, type ResizableTitleProps } from './ResizableTitle';
export { useCellTip, isOverflowing, type CellTipApi } from './CellTip';
export { useWindowSize, FALLBACK_WINDOW_SIZE, type WindowSize } from './useWindowSize';
export {
  SCROLL_Y_OFFSET,
  NO_SCROLL_ROW_LIMIT,
  MAX_WIDTH_OFFSET,
  SELECTION_COLUMN_WIDTH,
  DEFAULT_COLUMN_WIDTH,
  MIN_COLUMN_WIDTH,
  LAYOUT_HEADER_HEIGHT,
  suggestedColumnWidth,
  actionColumnWidth,
  DEFAULT_PAGE_SIZE,
  PAGE_SIZE_OPTIONS,
  PAGINATION_LABELS,
  scrollY,
  tableWidthPlan,
  columnWidth,
  tooltipPlacement,
  totalLabel,
  paginationConfig,
  rowsOnPage,
  type ScrollYInput,
  type WidthColumn,
  type WidthPlanInput,
  type WidthPlan,
  type TooltipPlacement,
  type PaginationInput,
  type ConsolePagination,
} from './sizing';
export { readListState, writeListState, stateFromRequest, listStateKey, linkKeepingListState, type ListUrlState, type UrlStateColumn } from './urlState';
