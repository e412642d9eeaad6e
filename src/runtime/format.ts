import numeral from 'numeral';
import { formatMoney } from '../utils/number';
import type { EnumOption, ValueType } from '../schema/types';

/** Money everywhere it is shown: '¥' with thousands separators and 2 decimals (src/utils/number.ts). */
export { formatMoney };

export function formatDate(v: unknown, withTime = false): string {
  if (!v) return '-';
  const d = new Date(String(v));
  if (Number.isNaN(d.getTime())) return String(v);
  const pad = (x: number) => String(x).padStart(2, '0');
  const day = `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
  return withTime ? `${day} ${pad(d.getHours())}:${pad(d.getMinutes())}` : day;
}

/** Plain-text rendering of a value of a schema value type (used by details and CSV export). */
export function formatValue(v: unknown, valueType: ValueType | undefined, options?: EnumOption[]): string {
  if (Array.isArray(v)) return v.map((x) => formatValue(x, valueType, options)).join('、') || '-';
  switch (valueType) {
    case 'money':
      return formatMoney(v);
    case 'date':
      return formatDate(v);
    case 'dateTime':
      return formatDate(v, true);
    case 'digit':
      return v === null || v === undefined || v === '' ? '-' : numeral(Number(v)).format('0,0');
    case 'boolean':
      return v ? '是' : '否';
    case 'enum':
      return options?.find((o) => o.value === String(v))?.label ?? (v === null || v === undefined ? '-' : String(v));
    default:
      return v === null || v === undefined || v === '' ? '-' : String(v);
  }
}
