import { SheetError, type SheetColumn } from './types.ts';

export interface ColumnMapping {
  /** Column key → 0-based index in the sheet row. */
  index: Record<string, number>;
  /** Required columns whose header was not found. */
  missing: SheetColumn[];
  /** Non-empty header texts that matched no column (ignored on import). */
  unknown: string[];
}

/**
 * Normalise a header text for matching: NFKC (full-width → half-width), lower case, without
 * parenthesised notes ('身份证号（必填）'), '*' required markers, whitespace and separators.
 */
export function normalizeHeader(text: string): string {
  return String(text ?? '')
    .normalize('NFKC')
    .toLowerCase()
    .replace(/\([^)]*\)|\[[^\]]*\]|【[^】]*】|〔[^〕]*〕|<[^>]*>/g, '')
    .replace(/[\s*:：_\-.·•、/]+/g, '');
}

/** Map sheet headers to columns by header text; column order does not matter. */
export function mapColumns(headers: readonly string[], columns: readonly SheetColumn[]): ColumnMapping {
  const names = new Map<string, SheetColumn>();
  for (const c of columns) {
    for (const n of [c.label, c.key, ...(c.aliases ?? [])]) {
      const k = normalizeHeader(n);
      if (k && !names.has(k)) names.set(k, c);
    }
  }
  const index: Record<string, number> = {};
  const unknown: string[] = [];
  headers.forEach((h, i) => {
    const col = names.get(normalizeHeader(h));
    if (col && !(col.key in index)) index[col.key] = i;
    else if (String(h ?? '').trim()) unknown.push(String(h).trim());
  });
  const missing = columns.filter((c) => c.required && !(c.key in index));
  return { index, missing, unknown };
}

/** How many required columns a candidate header row maps (to tell a title row from the header row). */
export function requiredMatches(headers: readonly string[], columns: readonly SheetColumn[]): number {
  const { index } = mapColumns(headers, columns);
  return columns.filter((c) => c.required && c.key in index).length;
}

export function missingHeaderMessage(missing: readonly SheetColumn[]): string {
  return `表头缺少列：${missing.map((c) => c.label).join('、')}`;
}

/** Map and refuse a sheet whose header misses required columns (it must never be imported as data). */
export function requireColumns(headers: readonly string[], columns: readonly SheetColumn[]): ColumnMapping {
  const m = mapColumns(headers, columns);
  if (m.missing.length) throw new SheetError('HEADER_MISSING', missingHeaderMessage(m.missing));
  return m;
}
