import type ExcelJS from 'exceljs';
import { PassThrough, type Writable } from 'node:stream';
import { mapColumns } from './roster-map.ts';
import type { CellError, SheetColumn } from './types.ts';

/** exceljs writers: roster template, error report, list export. */

/**
 * exceljs, loaded when a workbook is first written: about 0.4 s of CPU that a gateway or parse process
 * that writes none (most parses have no error) no longer spends at start.
 */
export const loadExcelJS = (): Promise<typeof ExcelJS> => import('exceljs').then((m) => m.default);

const HEADER_FILL: ExcelJS.Fill = { type: 'pattern', pattern: 'solid', fgColor: { argb: 'FFE8EEF7' } };
const ERROR_FILL: ExcelJS.Fill = { type: 'pattern', pattern: 'solid', fgColor: { argb: 'FFFFC7CE' } };
const ERROR_FONT: Partial<ExcelJS.Font> = { color: { argb: 'FF9C0006' } };
export const ERROR_COLUMN_LABEL = '错误说明';

/** Columns whose values must stay text so Excel keeps every digit (IDs, phones, certificate numbers). */
export function isTextColumn(c: SheetColumn): boolean {
  return c.text ?? /id.?card|phone|mobile|tel|cert|身份证|证件|手机|电话|号码/i.test(`${c.key} ${c.label}`);
}

/** A valid worksheet name (≤ 31 characters, none of []:*?/\). */
export function sheetName(name: string | undefined, fallback = 'Sheet1'): string {
  const s = (name ?? '').replace(/[[\]:*?/\\]/g, ' ').trim().slice(0, 31);
  return s || fallback;
}

async function toBuffer(wb: ExcelJS.Workbook): Promise<Buffer> {
  return Buffer.from(await wb.xlsx.writeBuffer());
}

/**
 * Roster template: '*'-marked required headers (bold, frozen), one example row, header cell
 * notes, text format ('@') for ID/phone columns, and a 「填写说明」 sheet.
 */
export async function templateWorkbook({ title, columns }: { title?: string; columns: readonly SheetColumn[] }): Promise<Buffer> {
  const wb = new (await loadExcelJS()).Workbook();
  wb.creator = 'insure-business-console';
  const ws = wb.addWorksheet(sheetName(title, '名单'), { views: [{ state: 'frozen', ySplit: 1 }] });
  columns.forEach((c, i) => {
    const col = ws.getColumn(i + 1);
    col.width = c.width ?? Math.max(12, c.label.length * 2 + 4);
    if (isTextColumn(c)) col.numFmt = '@';
    const h = ws.getCell(1, i + 1);
    h.value = c.required ? `*${c.label}` : c.label;
    h.font = { bold: true, color: c.required ? { argb: 'FFC00000' } : undefined };
    h.fill = HEADER_FILL;
    h.alignment = { vertical: 'middle', horizontal: 'center' };
    const note = [c.required ? '必填' : '选填', c.note].filter(Boolean).join('：');
    h.note = note;
    const ex = ws.getCell(2, i + 1);
    ex.value = c.example ?? '';
    ex.font = { italic: true, color: { argb: 'FF808080' } };
    if (isTextColumn(c)) ex.numFmt = '@';
  });
  ws.getRow(1).height = 22;

  const help = wb.addWorksheet('填写说明');
  help.columns = [
    { header: '列名', key: 'label', width: 16 },
    { header: '是否必填', key: 'required', width: 10 },
    { header: '填写说明', key: 'note', width: 60 },
  ];
  help.getRow(1).font = { bold: true };
  for (const c of columns) help.addRow({ label: c.label, required: c.required ? '必填' : '选填', note: c.note ?? '' });
  help.addRow({});
  help.addRow({ label: '注意', note: '第 2 行为示例，导入前请删除；标 * 的列必须填写；请勿修改表头。' });
  return toBuffer(wb);
}

export interface ErrorWorkbookInput {
  columns: readonly SheetColumn[];
  /** Data rows as uploaded (SheetTable.rows). */
  rows: readonly (readonly string[])[];
  errors: readonly Pick<CellError, 'row' | 'column' | 'message'>[];
  /** Uploaded header texts (SheetTable.headers); default: the column labels in order. */
  headers?: readonly string[];
  /** Sheet row of the header (default 1) and of each data row (default headerRow + i + 1). */
  headerRow?: number;
  rowNumbers?: readonly number[];
  sheetName?: string;
}

/**
 * The uploaded rows, at their original sheet row numbers (so 「第 N 行」 in messages still
 * points at the right row), with a 「错误说明」 column and the bad cells highlighted.
 */
export async function errorWorkbook(input: ErrorWorkbookInput): Promise<Buffer> {
  const { columns, rows, errors } = input;
  const headers = input.headers ?? columns.map((c) => c.label);
  const headerRow = input.headerRow ?? 1;
  const colOf = input.headers ? mapColumns(headers, columns).index : Object.fromEntries(columns.map((c, i) => [c.key, i]));
  const byRow = new Map<number, Array<Pick<CellError, 'column' | 'message'>>>();
  for (const e of errors) {
    const list = byRow.get(e.row) ?? [];
    list.push(e);
    byRow.set(e.row, list);
  }
  const width = Math.max(headers.length, ...rows.map((r) => r.length));
  const errCol = width + 1;

  const wb = new (await loadExcelJS()).Workbook();
  const ws = wb.addWorksheet(sheetName(input.sheetName, '错误数据'), { views: [{ state: 'frozen', ySplit: headerRow }] });
  const hr = ws.getRow(headerRow);
  for (let i = 0; i < errCol; i++) {
    const cell = hr.getCell(i + 1);
    cell.value = i === width ? ERROR_COLUMN_LABEL : (headers[i] ?? '');
    cell.font = { bold: true };
    cell.fill = HEADER_FILL;
  }
  columns.forEach((c) => {
    const i = colOf[c.key];
    if (i !== undefined && isTextColumn(c)) ws.getColumn(i + 1).numFmt = '@';
  });
  ws.getColumn(errCol).width = 50;

  rows.forEach((cells, i) => {
    const rowNo = input.rowNumbers?.[i] ?? headerRow + i + 1;
    const r = ws.getRow(rowNo);
    cells.forEach((v, j) => (r.getCell(j + 1).value = v));
    const list = byRow.get(rowNo);
    if (!list) return;
    const msgCell = r.getCell(errCol);
    msgCell.value = list.map((e) => e.message).join('；');
    msgCell.font = ERROR_FONT;
    const perCell = new Map<number, string[]>();
    for (const e of list) {
      const j = colOf[e.column];
      if (j !== undefined) perCell.set(j, [...(perCell.get(j) ?? []), e.message]);
    }
    for (const [j, msgs] of perCell) {
      const cell = r.getCell(j + 1);
      cell.fill = ERROR_FILL;
      cell.font = ERROR_FONT;
      cell.note = msgs.join('；');
    }
  });
  return toBuffer(wb);
}

export interface ExportColumn {
  key: string;
  label: string;
  width?: number;
}

export interface ExportOptions {
  sheetName?: string;
  columns: readonly ExportColumn[];
  rows: AsyncIterable<Record<string, unknown>> | Iterable<Record<string, unknown>>;
  /** Called every 1,000 rows and at the end with the number of rows written. */
  onProgress?: (done: number) => void;
}

function exportValue(v: unknown): ExcelJS.CellValue {
  if (v == null) return null;
  if (typeof v === 'string') return v.length > 32767 ? v.slice(0, 32767) : v;
  if (typeof v === 'number') return Number.isFinite(v) ? v : null;
  if (typeof v === 'boolean' || v instanceof Date) return v;
  if (typeof v === 'bigint') return v.toString();
  return JSON.stringify(v);
}

/**
 * List export as .xlsx, streamed with exceljs' WorkbookWriter (rows are committed as they
 * come, so memory stays flat). With `output` the file is written there; otherwise a Buffer is returned.
 */
export function exportWorkbook(opts: ExportOptions & { output: Writable }): Promise<void>;
export function exportWorkbook(opts: ExportOptions & { output?: undefined }): Promise<Buffer>;
export async function exportWorkbook(opts: ExportOptions & { output?: Writable }): Promise<Buffer | void> {
  const chunks: Buffer[] = [];
  let sink: Writable | undefined = opts.output;
  if (!sink) {
    const pt = new PassThrough();
    pt.on('data', (c: Buffer) => chunks.push(c));
    sink = pt;
  }
  const wb = new (await loadExcelJS()).stream.xlsx.WorkbookWriter({ stream: sink, useStyles: true, useSharedStrings: false });
  const ws = wb.addWorksheet(sheetName(opts.sheetName), { views: [{ state: 'frozen', ySplit: 1 }] });
  ws.columns = opts.columns.map((c) => ({ header: c.label, key: c.key, width: c.width ?? Math.max(10, c.label.length * 2 + 4) }));
  ws.getRow(1).font = { bold: true };
  ws.getRow(1).commit();
  let done = 0;
  for await (const rec of opts.rows) {
    const values: Record<string, ExcelJS.CellValue> = {};
    for (const c of opts.columns) values[c.key] = exportValue(rec[c.key]);
    ws.addRow(values).commit();
    done++;
    if (done % 1000 === 0) {
      opts.onProgress?.(done);
      await new Promise((r) => setImmediate(r)); // let other requests run during big exports
    }
  }
  ws.commit();
  await wb.commit();
  opts.onProgress?.(done);
  if (!opts.output) return Buffer.concat(chunks);
}
