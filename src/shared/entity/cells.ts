/**
 * A field's value from the text of a spreadsheet cell or an editor input (roster files, the roster
 * editor, the attendance import): numbers for integer and money fields, true/false for booleans, an
 * enum's value from its value or its label, dates in any of the forms Excel and people write. Text
 * that does not convert stays text, so the field's own rule refuses it with its own message (the
 * browser and the gateway both call this before checkField, so they agree on every cell).
 */
import type { FieldSchema } from './types.ts';

const NUMBER = /^[+-]?\d+(\.\d+)?$/;
const TRUE = new Set(['是', 'true', 'TRUE', 'True', '1', 'Y', 'y', 'yes', 'YES']);
const FALSE = new Set(['否', 'false', 'FALSE', 'False', '0', 'N', 'n', 'no', 'NO']);
/** 2026-1-5, 2026/01/05, 2026.1.5, 2026年1月5日 (an optional time after it is dropped). */
const DATE = /^(\d{4})[-/.年](\d{1,2})[-/.月](\d{1,2})日?(?:[ T].*)?$/;

const pad = (s: string) => s.padStart(2, '0');

/** The value a cell's text stands for, for field `f`; blank text is undefined ("not given"). */
export function cellValue(f: FieldSchema, raw: unknown): unknown {
  if (raw === undefined || raw === null) return undefined;
  if (typeof raw !== 'string') return raw;
  const text = raw.trim();
  if (text === '') return undefined;
  switch (f.type) {
    case 'integer':
    case 'ref':
    case 'money': {
      // Thousands separators and a currency sign as Excel shows money: ¥1,234.50
      const plain = f.type === 'money' ? text.replace(/^[¥￥]/, '').replace(/,/g, '') : text.replace(/,/g, '');
      return NUMBER.test(plain) ? Number(plain) : text;
    }
    case 'boolean':
      return TRUE.has(text) ? true : FALSE.has(text) ? false : text;
    case 'enum':
      return f.options?.find((o) => o.value === text)?.value ?? f.options?.find((o) => o.label === text)?.value ?? text;
    case 'date': {
      const m = DATE.exec(text);
      return m ? `${m[1]}-${pad(m[2])}-${pad(m[3])}` : text;
    }
    default:
      return text;
  }
}

/** Every value of a row of cells, by field key (keys without a field stay text). */
export function rowValues(fields: Record<string, FieldSchema>, cells: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(cells)) out[key] = fields[key] ? cellValue(fields[key], v) : v;
  return out;
}

/** The text a value is shown as in a cell or an editor input (the inverse of cellValue for good values). */
export function cellText(f: FieldSchema, v: unknown): string {
  if (v === undefined || v === null) return '';
  if (f.type === 'boolean') return v === true ? '是' : v === false ? '否' : String(v);
  return String(v);
}
