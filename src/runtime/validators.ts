/** Client-side checks that mirror the gateway's, so bad input is caught before it is sent. */

export { PHONE_RE, isValidIdCard } from '../shared/checks';

/** Splits CSV text (quotes, commas, CRLF) into rows of trimmed cells; blank lines are dropped. */
export function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  const src = text.replace(/^\uFEFF/, '');
  for (let i = 0; i < src.length; i++) {
    const c = src[i];
    if (quoted) {
      if (c === '"' && src[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (c === '"') quoted = false;
      else cell += c;
    } else if (c === '"') quoted = true;
    else if (c === ',' || c === '\t') {
      row.push(cell.trim());
      cell = '';
    } else if (c === '\n' || c === '\r') {
      if (c === '\r' && src[i + 1] === '\n') i++;
      row.push(cell.trim());
      if (row.some((x) => x !== '')) rows.push(row);
      row = [];
      cell = '';
    } else cell += c;
  }
  row.push(cell.trim());
  if (row.some((x) => x !== '')) rows.push(row);
  return rows;
}

export interface RosterColumn {
  name: string;
  title: string;
}

/**
 * Maps CSV rows to objects by header. The header may use the column titles (姓名) or names (name);
 * without a recognisable header the columns are taken in order. Reports missing required headers.
 */
export function csvToRows(
  text: string,
  columns: RosterColumn[],
): { rows: Record<string, string>[]; error?: string } {
  const table = parseCsv(text);
  if (table.length === 0) return { rows: [], error: '文件中没有数据' };
  const header = table[0];
  const index = columns.map((c) => header.findIndex((h) => h === c.title || h.toLowerCase() === c.name.toLowerCase()));
  const hasHeader = index.some((i) => i >= 0);
  if (hasHeader && index.some((i) => i < 0)) {
    const missing = columns.filter((_, k) => index[k] < 0).map((c) => c.title);
    return { rows: [], error: `表头缺少列：${missing.join('、')}` };
  }
  const body = hasHeader ? table.slice(1) : table;
  const rows = body.map((r) =>
    Object.fromEntries(columns.map((c, k) => [c.name, (hasHeader ? r[index[k]] : r[k]) ?? ''])),
  );
  if (rows.length === 0) return { rows, error: '文件中只有表头，没有人员数据' };
  return { rows };
}
