import type { ReactNode } from 'react';
import type { TableColumnType } from 'antd';

/** An option of a select filter or an option column: its label, and a status for the badge it shows. */
export interface ValueEnumEntry {
  text: ReactNode;
  status?: string;
  color?: string;
}

/**
 * The value type of a list column: how its filter is entered (text, select, number, date range) and how
 * its cells read; `option` is the 操作 column.
 */
export type ListValueType = 'text' | 'select' | 'date' | 'dateTime' | 'dateRange' | 'digit' | 'money' | 'option';

/**
 * A column of a list (ConsoleTable): antd's table column, with what a list adds — its value type, its
 * options, whether it shows in the table and in the search form, and how its filter becomes params.
 * `render` gets the cell's text ('-' when empty) first, then the row.
 */
export interface ListColumn<T = Record<string, unknown>> extends Omit<TableColumnType<T>, 'render' | 'title' | 'sorter' | 'ellipsis'> {
  title?: ReactNode;
  render?: (text: ReactNode, record: T, index: number) => ReactNode;
  /** Sorted by the gateway (the table only asks). */
  sorter?: boolean;
  /** `false`: the text wraps instead of being cut with "…". */
  ellipsis?: boolean;
  valueType?: ListValueType;
  valueEnum?: Record<string, ValueEnumEntry>;
  /** Options of a select filter, loaded when the filter shows. */
  request?: () => Promise<Array<{ label: ReactNode; value: string | number }>>;
  hideInTable?: boolean;
  hideInSearch?: boolean;
  /** `false`: no filter; `transform` turns the filter's value into request params. */
  search?: false | { transform?: (value: unknown) => Record<string, unknown> };
}

/** A column of any row type (helpers that read only its settings). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyListColumn = ListColumn<any>;
