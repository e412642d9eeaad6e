import type * as XLSXTypes from '@e965/xlsx';
import { requiredMatches } from './roster-map.ts';
import { MAX_ROWS, SheetError, tooManyRowsMessage, type CellIssue, type SheetColumn, type SheetTable } from './types.ts';

export interface ReadOptions {
  /** With columns, a title row above the header is recognised and skipped. */
  columns?: readonly SheetColumn[];
  /** Refuse files with more data rows (default MAX_ROWS). */
  maxRows?: number;
}

const PRECISION_LOST = '该单元格是数字格式，超过 15 位的数字已被 Excel 截断，请将该列设为文本格式后重新填写';
/** Rows read beyond maxRows, for title and blank rows above the header. */
const SLACK_ROWS = 10;

const pad = (n: number) => String(n).padStart(2, '0');

/**
 * Date → 'YYYY-MM-DD' (plus ' HH:mm:ss' when it has a time), to the nearest second as Excel shows it
 * (SheetJS's dates of a time of day can fall a millisecond short); spreadsheet dates come as UTC.
 */
function dateText(value: Date): string {
  if (Number.isNaN(value.getTime())) return '';
  const d = new Date(Math.round(value.getTime() / 1000) * 1000);
  const [y, m, day, h, mi, s] = [d.getUTCFullYear(), d.getUTCMonth() + 1, d.getUTCDate(), d.getUTCHours(), d.getUTCMinutes(), d.getUTCSeconds()];
  const date = `${y}-${pad(m)}-${pad(day)}`;
  return h || mi || s ? `${date} ${pad(h)}:${pad(mi)}:${pad(s)}` : date;
}

/** Number → plain decimal text, never with an exponent; flags integers beyond double precision. */
function numberText(n: number): { text: string; lost: boolean } {
  if (!Number.isFinite(n)) return { text: '', lost: false };
  if (Number.isInteger(n)) {
    return { text: BigInt(n).toString(), lost: Math.abs(n) > Number.MAX_SAFE_INTEGER || Math.abs(n) >= 1e15 };
  }
  // Excel shows at most 15 significant digits: drop binary noise such as 0.30000000000000004.
  const v = Number(n.toPrecision(15));
  return { text: v.toLocaleString('en-US', { useGrouping: false, maximumFractionDigits: 20 }), lost: false };
}

type RawRow = { row: number; cells: string[] };

/** A row's cells trimmed (non-breaking spaces as spaces), without its trailing empty ones; in place. */
function cleanRow(cells: string[]): string[] {
  for (let i = 0; i < cells.length; i++) {
    const c = cells[i];
    cells[i] = c == null ? '' : c.includes('\u00a0') ? c.replace(/\u00a0/g, ' ').trim() : c.trim();
  }
  while (cells.length && cells[cells.length - 1] === '') cells.pop();
  return cells;
}

const MAGIC = { xlsx: Buffer.from('504b0304', 'hex'), xls: Buffer.from('d0cf11e0', 'hex') };
const UNREADABLE = '文件无法读取，请确认文件未损坏且为 Excel 或 CSV 格式';

type SheetCell = Pick<XLSXTypes.CellObject, 't' | 'v'>;
type TextRows = Array<string[] | undefined>;

/** A cell's value as the user sees it (row 1-based, col 0-based); a number Excel cut to 15 digits is an issue of its cell. */
function cellText(c: SheetCell, row: number, col: number, issues: CellIssue[]): string {
  if (c.v == null || c.t === 'e' || c.t === 'z') return '';
  if (c.t === 'n' && typeof c.v === 'number') {
    const t = numberText(c.v);
    if (t.lost) issues.push({ row, col, message: PRECISION_LOST });
    return t.text;
  }
  if (c.v instanceof Date) return dateText(c.v);
  if (c.t === 'b') return c.v ? 'TRUE' : 'FALSE';
  return String(c.v);
}

/**
 * The first visible sheet's cells as text (holes where it has none): an .xlsx through the streaming reader
 * (xlsx-sheet.ts), which gives SheetJS's cells at a third of its CPU, each turned into text as it is read;
 * SheetJS (read only: it never writes here) for .xls and for any .xlsx that reader declines or cannot read.
 * At most `sheetRows` rows are read.
 */
async function workbookText(buffer: Buffer, ext: 'xlsx' | 'xls', sheetRows: number, issues: CellIssue[]): Promise<{ data: TextRows; lastRow: number }> {
  const text = (c: SheetCell, row: number, col: number) => cellText(c, row, col, issues);
  if (ext === 'xlsx') {
    const { readXlsxSheet } = await import('./xlsx-sheet.ts');
    const found = issues.length;
    const sheet = await readXlsxSheet(buffer, { sheetRows, value: text }).catch(() => null);
    if (sheet) return { data: sheet.data as TextRows, lastRow: sheet.lastRow ?? 0 };
    issues.length = found; // read again below
  }
  const XLSX: typeof XLSXTypes = await import('@e965/xlsx');
  const wb = XLSX.read(buffer, { type: 'buffer', dense: true, cellDates: true, cellText: false, cellHTML: false, cellNF: false, cellStyles: false, sheetRows });
  const name = wb.SheetNames.find((n) => !wb.Workbook?.Sheets?.find((s) => s.name === n)?.Hidden) ?? wb.SheetNames[0];
  const ws = name ? wb.Sheets[name] : undefined;
  if (!ws) return { data: [], lastRow: 0 };
  const data = (ws['!data'] ?? []) as Array<Array<SheetCell | undefined> | undefined>;
  return {
    data: data.map((r, i) => r && Array.from(r, (c, j) => (c ? cellText(c, i + 1, j, issues) : ''))),
    lastRow: ws['!fullref'] ? XLSX.utils.decode_range(ws['!fullref']).e.r + 1 : 0,
  };
}

/**
 * .xlsx and legacy .xls: cell values as the user sees them (rich text as plain text, formulas as their
 * result), at most maxRows + SLACK_ROWS rows parsed, so a sheet of a million rows costs no more than the limit.
 */
async function readWorkbookRows(buffer: Buffer, ext: 'xlsx' | 'xls', issues: CellIssue[], maxRows: number): Promise<RawRow[]> {
  // SheetJS reads anything (text as a sheet too): only the container the extension promises.
  if (!buffer.subarray(0, 4).equals(MAGIC[ext])) throw new SheetError('UNREADABLE', UNREADABLE);
  const limit = maxRows + SLACK_ROWS;
  const { data, lastRow } = await workbookText(buffer, ext, limit + 1, issues);
  if (data.length > limit) {
    // The rows below a header in the first row, as the sheet declares them.
    const full = lastRow - 1;
    throw new SheetError('TOO_MANY_ROWS', full > limit ? tooManyRowsMessage(full, maxRows) : tooManyRowsMessage(`超过 ${maxRows}`, maxRows));
  }
  const rows: RawRow[] = [];
  data.forEach((cells, i) => {
    if (!cells) return;
    for (let j = 0; j < cells.length; j++) cells[j] ??= ''; // the holes of cells the sheet has not
    rows.push({ row: i + 1, cells });
  });
  return rows;
}

async function readCsvRows(buffer: Buffer): Promise<RawRow[]> {
  const [{ decodeText }, { parse: parseCsv }] = await Promise.all([import('./text-decode.ts'), import('csv-parse/sync')]);
  const { text } = decodeText(buffer);
  const firstLine = text.slice(0, text.search(/\r?\n|$/));
  // Excel's "Unicode text" export is tab-separated; Chinese Windows may also use ';' rarely.
  const delimiter = firstLine.includes('\t') && !firstLine.includes(',') ? '\t' : ',';
  const records = parseCsv(text, { delimiter, relax_column_count: true, relax_quotes: true, skip_empty_lines: false, bom: true }) as string[][];
  // Excel shows one CSV record per sheet row (even with line breaks inside quotes).
  return records.map((cells, i) => ({ row: i + 1, cells }));
}


/** A value such as '1.10101E+17': Excel already lost the digits when it saved the CSV. */
const SCIENTIFIC = /^\d(\.\d+)?e\+\d+$/i;

/**
 * Read the first sheet of an .xlsx/.xls/.csv file into trimmed strings. Fully blank rows are
 * skipped; the header is the first non-blank row, or the next one when (with `columns`)
 * the first looks like a title row (maps fewer than half the required columns and the next maps more).
 */
export async function readSheet(buffer: Buffer, ext: string, opts: ReadOptions = {}): Promise<SheetTable> {
  const maxRows = opts.maxRows ?? MAX_ROWS;
  const issues: CellIssue[] = [];
  let raw: RawRow[];
  const e = ext.toLowerCase();
  try {
    if (e === 'xlsx' || e === 'xls') raw = await readWorkbookRows(buffer, e, issues, maxRows);
    else if (e === 'csv') raw = await readCsvRows(buffer);
    else throw new SheetError('UNSUPPORTED', '文件类型不支持，仅支持：xlsx、xls、csv');
  } catch (err) {
    if (err instanceof SheetError) throw err;
    throw new SheetError('UNREADABLE', UNREADABLE);
  }

  const rows = raw.filter((r) => cleanRow(r.cells).some((c) => c !== ''));
  if (rows.length === 0) throw new SheetError('EMPTY', '文件中没有数据');
  let h = 0;
  const cols = opts.columns;
  if (cols && rows.length > 1) {
    const required = cols.filter((c) => c.required).length;
    const first = requiredMatches(rows[0].cells, cols);
    if (first < required / 2 && requiredMatches(rows[1].cells, cols) > first) h = 1;
  }
  const data = rows.slice(h + 1);
  if (data.length > maxRows) throw new SheetError('TOO_MANY_ROWS', tooManyRowsMessage(data.length, maxRows));
  const headerRow = rows[h].row;
  if (e === 'csv') {
    for (const r of data) r.cells.forEach((c, col) => SCIENTIFIC.test(c) && issues.push({ row: r.row, col, message: PRECISION_LOST }));
  }
  return {
    headers: rows[h].cells,
    rows: data.map((r) => r.cells),
    headerRow,
    rowNumbers: data.map((r) => r.row),
    issues: issues.filter((i) => i.row > headerRow),
  };
}
