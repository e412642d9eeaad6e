import ExcelJS from 'exceljs';
import * as XLSX from '@e965/xlsx';
import { parse as parseCsv } from 'csv-parse/sync';
import { decodeText } from './text-decode.ts';
import { requiredMatches } from './roster-map.ts';
import { MAX_ROWS, SheetError, tooManyRowsMessage, type CellIssue, type SheetColumn, type SheetTable } from './types.ts';

export interface ReadOptions {
  /** With columns, a title row above the header is recognised and skipped. */
  columns?: readonly SheetColumn[];
  /** Refuse files with more data rows (default MAX_ROWS). */
  maxRows?: number;
}

const PRECISION_LOST = '该单元格是数字格式，超过 15 位的数字已被 Excel 截断，请将该列设为文本格式后重新填写';

const pad = (n: number) => String(n).padStart(2, '0');

/** Date → 'YYYY-MM-DD' (plus ' HH:mm:ss' when it has a time); exceljs dates are UTC. */
function dateText(d: Date, utc: boolean): string {
  if (Number.isNaN(d.getTime())) return '';
  const [y, m, day, h, mi, s] = utc
    ? [d.getUTCFullYear(), d.getUTCMonth() + 1, d.getUTCDate(), d.getUTCHours(), d.getUTCMinutes(), d.getUTCSeconds()]
    : [d.getFullYear(), d.getMonth() + 1, d.getDate(), d.getHours(), d.getMinutes(), d.getSeconds()];
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

/** Text of an exceljs cell value: rich text, formula results, hyperlinks, dates, numbers. */
function excelValueText(v: ExcelJS.CellValue, issue: () => void): string {
  if (v == null) return '';
  if (typeof v === 'string') return v;
  if (typeof v === 'number') {
    const r = numberText(v);
    if (r.lost) issue();
    return r.text;
  }
  if (typeof v === 'boolean') return v ? 'TRUE' : 'FALSE';
  if (v instanceof Date) return dateText(v, true);
  if (typeof v === 'object') {
    if ('richText' in v && Array.isArray(v.richText)) return v.richText.map((t) => t.text).join('');
    if ('formula' in v || 'sharedFormula' in v) return excelValueText((v as ExcelJS.CellFormulaValue).result as ExcelJS.CellValue, issue);
    if ('text' in v && 'hyperlink' in v) return excelValueText(v.text as ExcelJS.CellValue, issue);
    if ('error' in v) return '';
  }
  return String(v);
}

/** A value such as '1.10101E+17': Excel already lost the digits when it saved the CSV. */
const SCIENTIFIC = /^\d(\.\d+)?e\+\d+$/i;

type RawRow = { row: number; cells: string[] };

function cleanRow(cells: string[]): string[] {
  const out = cells.map((c) => (c ?? '').replace(/\u00a0/g, ' ').trim());
  while (out.length && out[out.length - 1] === '') out.pop();
  return out;
}

function readXlsxRows(wb: ExcelJS.Workbook, issues: CellIssue[], maxRows: number): RawRow[] {
  const ws = wb.worksheets.find((w) => w.state !== 'hidden' && w.state !== 'veryHidden') ?? wb.worksheets[0];
  if (!ws) return [];
  if (ws.actualRowCount - 1 > maxRows) throw new SheetError('TOO_MANY_ROWS', tooManyRowsMessage(ws.actualRowCount - 1, maxRows));
  const rows: RawRow[] = [];
  ws.eachRow({ includeEmpty: false }, (r, rowNumber) => {
    const cells: string[] = [];
    r.eachCell({ includeEmpty: false }, (cell, colNumber) => {
      cells[colNumber - 1] = excelValueText(cell.value, () => issues.push({ row: rowNumber, col: colNumber - 1, message: PRECISION_LOST }));
    });
    for (let i = 0; i < cells.length; i++) cells[i] ??= '';
    rows.push({ row: rowNumber, cells });
  });
  return rows;
}

function readXlsRows(buffer: Buffer, issues: CellIssue[], maxRows: number): RawRow[] {
  // Read only: SheetJS is used for legacy .xls and never writes.
  const wb = XLSX.read(buffer, { type: 'buffer', cellDates: true, dense: true });
  const name = wb.SheetNames.find((n) => !wb.Workbook?.Sheets?.find((s) => s.name === n)?.Hidden) ?? wb.SheetNames[0];
  const ws = name ? wb.Sheets[name] : undefined;
  if (!ws) return [];
  const data = (ws['!data'] ?? []) as Array<Array<XLSX.CellObject | undefined> | undefined>;
  if (data.length - 1 > maxRows) throw new SheetError('TOO_MANY_ROWS', tooManyRowsMessage(data.length - 1, maxRows));
  const rows: RawRow[] = [];
  data.forEach((r, i) => {
    if (!r) return;
    const cells = Array.from(r, (c, j) => {
      if (!c || c.v == null || c.t === 'e' || c.t === 'z') return '';
      if (c.t === 'n' && typeof c.v === 'number') {
        const t = numberText(c.v);
        if (t.lost) issues.push({ row: i + 1, col: j, message: PRECISION_LOST });
        return t.text;
      }
      if (c.v instanceof Date) return dateText(c.v, false);
      if (c.t === 'b') return c.v ? 'TRUE' : 'FALSE';
      return String(c.v);
    });
    rows.push({ row: i + 1, cells });
  });
  return rows;
}

function readCsvRows(buffer: Buffer): RawRow[] {
  const { text } = decodeText(buffer);
  const firstLine = text.slice(0, text.search(/\r?\n|$/));
  // Excel's "Unicode text" export is tab-separated; Chinese Windows may also use ';' rarely.
  const delimiter = firstLine.includes('\t') && !firstLine.includes(',') ? '\t' : ',';
  const records = parseCsv(text, { delimiter, relax_column_count: true, relax_quotes: true, skip_empty_lines: false, bom: true }) as string[][];
  // Excel shows one CSV record per sheet row (even with line breaks inside quotes).
  return records.map((cells, i) => ({ row: i + 1, cells }));
}

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
    if (e === 'xlsx') {
      const wb = new ExcelJS.Workbook();
      await wb.xlsx.load(buffer as unknown as ArrayBuffer);
      raw = readXlsxRows(wb, issues, maxRows);
    } else if (e === 'xls') raw = readXlsRows(buffer, issues, maxRows);
    else if (e === 'csv') raw = readCsvRows(buffer);
    else throw new SheetError('UNSUPPORTED', '文件类型不支持，仅支持：xlsx、xls、csv');
  } catch (err) {
    if (err instanceof SheetError) throw err;
    throw new SheetError('UNREADABLE', '文件无法读取，请确认文件未损坏且为 Excel 或 CSV 格式');
  }

  const rows = raw.map((r) => ({ row: r.row, cells: cleanRow(r.cells) })).filter((r) => r.cells.some((c) => c !== ''));
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
