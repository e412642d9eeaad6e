import type { ComponentType, CSSProperties, KeyboardEvent, ReactNode } from 'react';
import { CaretDownOutlined, CaretUpOutlined } from '@ant-design/icons';

export type SortOrder = 'ascend' | 'descend' | null;

/** The order after a click on a sortable header: ascending, descending, none (antd's default cycle). */
export function nextSortOrder(order: SortOrder): SortOrder {
  return order === null ? 'ascend' : order === 'ascend' ? 'descend' : null;
}

const SORT_HINT: Record<'ascend' | 'descend' | 'none', string> = { none: '点击升序', ascend: '点击降序', descend: '取消排序' };
const ARIA_SORT = { ascend: 'ascending', descend: 'descending' } as const;

interface HeaderColumn {
  title?: unknown;
}

export interface HeaderCellProps {
  /** The header cell component (the console's ResizableTitle) or a plain th. */
  Th: ComponentType<Record<string, unknown>> | 'th';
  column: HeaderColumn;
  /** What the column's onHeaderCell gave (width and onResize for ResizableTitle, classes). */
  headerProps: Record<string, unknown> & { className?: string; style?: CSSProperties };
  className: string;
  style: CSSProperties;
  order: SortOrder;
  /** Set for a sortable column: a click or Enter on the header changes the sort. */
  onSort?: () => void;
}

/** A header cell in antd's markup, with antd's sorter (carets, classes, aria-sort) when the column sorts. */
export function HeaderCell({ Th, column, headerProps, className, style, order, onSort }: HeaderCellProps) {
  const title = (typeof column.title === 'function' ? (column.title as (p: object) => ReactNode)({}) : column.title) as ReactNode;
  const classes = [className, headerProps.className, onSort && 'ant-table-column-has-sorters', order && 'ant-table-column-sort'].filter(Boolean).join(' ');
  const merged = { ...headerProps, className: classes, style: { ...headerProps.style, ...style } };
  if (!onSort) return <Th {...merged}>{title}</Th>;
  return (
    <Th
      {...merged}
      tabIndex={0}
      title={SORT_HINT[order ?? 'none']}
      aria-sort={order ? ARIA_SORT[order] : undefined}
      onClick={onSort}
      onKeyDown={(e: KeyboardEvent) => {
        if (e.key === 'Enter') onSort();
      }}
    >
      <div className="ant-table-column-sorters">
        <span className="ant-table-column-title">{title}</span>
        <span className="ant-table-column-sorter ant-table-column-sorter-full">
          <span className="ant-table-column-sorter-inner" aria-hidden="true">
            <CaretUpOutlined className={order === 'ascend' ? 'ant-table-column-sorter-up active' : 'ant-table-column-sorter-up'} />
            <CaretDownOutlined className={order === 'descend' ? 'ant-table-column-sorter-down active' : 'ant-table-column-sorter-down'} />
          </span>
        </span>
      </div>
    </Th>
  );
}
