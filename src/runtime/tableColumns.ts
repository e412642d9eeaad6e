import type { TableColumn } from '../schema/types';
import type { ListValueType } from './table/listColumn';

/** A list column's valueEnum from schema options: { value: { text, status } }. */
export function toValueEnum(options: TableColumn['options']): Record<string, { text: string; status?: string }> | undefined {
  if (!options) return undefined;
  return Object.fromEntries(options.map((o) => [o.value, { text: o.label, status: o.status }]));
}

/** A list column's value type for a schema value type (phone/idCard/text render as text). */
export function listValueType(vt: TableColumn['valueType']): ListValueType {
  switch (vt) {
    case 'money':
      return 'money';
    case 'date':
      return 'date';
    case 'dateTime':
      return 'dateTime';
    case 'dateRange':
      return 'dateRange';
    case 'digit':
      return 'digit';
    case 'enum':
      return 'select';
    default:
      return 'text';
  }
}

/**
 * Turns a list's request params into the gateway's query: pagination, text/enum filters as they are,
 * date filters as `<field>Range=from,to`, sort as sortField/sortOrder.
 */
export function toQuery(
  columns: TableColumn[],
  params: Record<string, unknown>,
  sort: Record<string, 'ascend' | 'descend' | null> = {},
): Record<string, string | number> {
  const q: Record<string, string | number> = {
    current: Number(params.current) || 1,
    pageSize: Number(params.pageSize) || 20,
  };
  for (const c of columns) {
    if (!c.search) continue;
    const v = params[c.dataIndex];
    if (v === undefined || v === null || v === '') continue;
    if (Array.isArray(v)) {
      if (v.length === 2 && v[0] && v[1]) q[`${c.dataIndex}Range`] = `${String(v[0]).slice(0, 10)},${String(v[1]).slice(0, 10)}`;
    } else {
      q[c.dataIndex] = String(v).trim();
    }
  }
  const [field, order] = Object.entries(sort).find(([, o]) => o) ?? [];
  if (field && order) {
    q.sortField = field;
    q.sortOrder = order;
  }
  return q;
}

/** Whether a searchable column filters by a date range. */
export function isDateColumn(c: TableColumn): boolean {
  return c.valueType === 'date' || c.valueType === 'dateTime' || c.valueType === 'dateRange';
}

/** CSV text (UTF-8 BOM, quoted where needed) for an export of rows with already formatted cells. */
export function toCsv(header: string[], rows: string[][]): string {
  const esc = (s: string) => (/[",\n\r]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s);
  return `\uFEFF${[header, ...rows].map((r) => r.map(esc).join(',')).join('\r\n')}\r\n`;
}
