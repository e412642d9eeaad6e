/**
 * Export cell values, formatted as the console's table shows them: enum labels, 是/否, dates as
 * YYYY-MM-DD, times in the business time zone, money with 2 decimals (a number with a '#,##0.00'
 * format in a workbook; '¥1,234.50' text in CSV), masked values as they come from the list.
 */
import { localParts } from '../domain/util.ts';
import type { ExportColumn } from './lists.ts';
import { centsToYuan, yuanToCents } from '../../shared/money.ts';

export const MONEY_FORMAT = '#,##0.00';

const money2 = new Intl.NumberFormat('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
const digits = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });

const empty = (v: unknown) => v === undefined || v === null || v === '';

function dateTime(v: unknown): string {
  const d = new Date(String(v));
  if (Number.isNaN(d.getTime())) return String(v);
  const { date, time } = localParts(d);
  return `${date} ${time}`;
}

function scalar(col: ExportColumn, v: unknown): string | number | null {
  if (empty(v)) return null;
  switch (col.valueType) {
    case 'money': {
      const n = Number(v);
      return Number.isFinite(n) ? centsToYuan(yuanToCents(n)) : String(v);
    }
    case 'digit': {
      const n = Number(v);
      return Number.isFinite(n) ? n : String(v);
    }
    case 'date':
      return String(v).slice(0, 10);
    case 'dateTime':
      return dateTime(v);
    case 'boolean':
      return v === true || v === 'true' ? '是' : '否';
    case 'enum':
      return col.options?.find((o) => o.value === String(v))?.label ?? String(v);
    default:
      return String(v);
  }
}

/** Value of a workbook cell: numbers stay numbers (money gets MONEY_FORMAT), the rest is text. */
export function xlsxValue(col: ExportColumn, v: unknown): string | number | null {
  if (Array.isArray(v)) return v.map((x) => String(scalar(col, x) ?? '')).join('、');
  return scalar(col, v);
}

/** Text of a CSV cell, as the table shows it. */
export function csvText(col: ExportColumn, v: unknown): string {
  const x = xlsxValue(col, v);
  if (x === null) return '';
  if (typeof x === 'number') return col.valueType === 'money' ? `¥${money2.format(x)}` : digits.format(x);
  // A text cell must never start a spreadsheet formula when the CSV is opened in Excel.
  return /^[=+\-@\t\r]/.test(x) ? `'${x}` : x;
}
