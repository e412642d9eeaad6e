/**
 * Streaming writers of an export: an .xlsx through exceljs's WorkbookWriter (rows are committed and
 * zipped as they come, so a 100,000-row export never sits in memory) and a UTF-8 CSV with BOM.
 */
import { PassThrough, type Writable } from 'node:stream';
import { loadExcelJS } from '../files/workbooks.ts';
import { csvText, MONEY_FORMAT, xlsxValue } from './cells.ts';
import type { ExportColumn } from './lists.ts';

type Rows = AsyncIterable<Record<string, unknown>>;

/**
 * Waits while the download is slower than the reading (back-pressure); rejects once the response is gone
 * (client closed it), which ends the export instead of leaving it waiting.
 */
async function drained(out: Writable): Promise<void> {
  if (out.writableNeedDrain && !out.destroyed) {
    await new Promise<void>((resolve) => {
      const done = () => {
        out.off('drain', done);
        out.off('close', done);
        resolve();
      };
      out.on('drain', done);
      out.on('close', done);
    });
  }
  if (out.destroyed) throw new Error('export aborted: the download was closed');
}

function columnWidth(c: ExportColumn): number {
  const title = [...c.title].reduce((n, ch) => n + (ch.charCodeAt(0) > 255 ? 2 : 1), 0);
  const byType = c.valueType === 'dateTime' ? 18 : c.valueType === 'idCard' ? 22 : c.valueType === 'money' ? 14 : 12;
  return Math.min(40, Math.max(title + 4, byType));
}

/** Writes the rows as one worksheet (header row = column titles, frozen) into `out`. */
export async function writeXlsx(out: Writable, sheetName: string, columns: ExportColumn[], rows: Rows): Promise<number> {
  const wb = new (await loadExcelJS()).stream.xlsx.WorkbookWriter({ stream: out, useStyles: true, useSharedStrings: false });
  const ws = wb.addWorksheet(sheetName.slice(0, 31).replace(/[\\/?*[\]:]/g, ' ') || 'Sheet1', { views: [{ state: 'frozen', ySplit: 1 }] });
  ws.columns = columns.map((c) => ({
    header: c.title,
    key: c.key,
    width: columnWidth(c),
    ...(c.valueType === 'money' ? { style: { numFmt: MONEY_FORMAT } } : {}),
  }));
  ws.getRow(1).font = { bold: true };
  ws.getRow(1).commit();
  let n = 0;
  for await (const row of rows) {
    ws.addRow(columns.map((c) => xlsxValue(c, row[c.key]))).commit();
    n++;
    // A slow download holds the reading back instead of piling the zipped bytes up in memory.
    await drained(out);
  }
  ws.commit();
  await wb.commit();
  return n;
}

const esc = (s: string) => (/[",\n\r]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s);
const line = (cells: string[]) => `${cells.map(esc).join(',')}\r\n`;

/** Writes the rows as CSV (UTF-8 with BOM, so Excel on Chinese Windows reads it) into `out`. */
export async function writeCsv(out: PassThrough, columns: ExportColumn[], rows: Rows): Promise<number> {
  const write = async (s: string) => {
    out.write(s);
    await drained(out);
  };
  await write(`\uFEFF${line(columns.map((c) => c.title))}`);
  let n = 0;
  for await (const row of rows) {
    await write(line(columns.map((c) => csvText(c, row[c.key]))));
    n++;
  }
  out.end();
  return n;
}
