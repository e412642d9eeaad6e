import ExcelJS from 'exceljs';
import { createWriteStream } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { errorWorkbook, exportWorkbook, templateWorkbook } from '../../src/server/files/workbooks.ts';
import { ROSTER_COLUMNS, createRosterValidator } from '../../src/server/files/roster-columns.ts';
import { readSheet } from '../../src/server/files/roster-read.ts';
import { buildPreview, previewErrors } from '../../src/server/files/roster-validate.ts';
import { checkUpload, ROSTER_UPLOAD_TYPES } from '../../src/server/files/checks.ts';

async function load(buf: Buffer): Promise<ExcelJS.Workbook> {
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(buf as unknown as ArrayBuffer);
  return wb;
}

describe('templateWorkbook', () => {
  it('has marked headers, an example row, notes, text-formatted ID/phone columns and 填写说明', async () => {
    const buf = await templateWorkbook({ title: '参保名单', columns: ROSTER_COLUMNS });
    expect(await checkUpload({ fileName: '模板.xlsx', buffer: buf, groups: ROSTER_UPLOAD_TYPES })).toMatchObject({ ok: true });
    const wb = await load(buf);
    const ws = wb.getWorksheet('参保名单')!;
    expect(ws.getRow(1).values).toEqual([undefined, '*姓名', '*身份证号', '*手机号', '工种']);
    expect(ws.getCell('A1').font.bold).toBe(true);
    expect(ws.views[0]).toMatchObject({ state: 'frozen', ySplit: 1 });
    expect(ws.getCell('B2').value).toBe('110101199003074573');
    expect(ws.getCell('B2').numFmt).toBe('@');
    expect(ws.getColumn(2).numFmt).toBe('@'); // new cells typed in Excel stay text
    expect(ws.getColumn(3).numFmt).toBe('@');
    expect(ws.getColumn(1).numFmt ?? '').not.toBe('@');
    expect(JSON.stringify(ws.getCell('B1').note)).toContain('18 位居民身份证号');
    const help = wb.getWorksheet('填写说明')!;
    expect(help.getRow(1).values).toEqual([undefined, '列名', '是否必填', '填写说明']);
    expect(help.getRow(3).values).toEqual([undefined, '身份证号', '必填', expect.stringContaining('文本格式')]);
    expect(help.getRow(5).values).toEqual([undefined, '工种', '选填', expect.any(String)]);
  });

  it('reads back through the roster pipeline; the example row is refused, not imported', async () => {
    const buf = await templateWorkbook({ title: '名单', columns: ROSTER_COLUMNS });
    const table = await readSheet(buf, 'xlsx', { columns: ROSTER_COLUMNS });
    const p = buildPreview({ table, columns: ROSTER_COLUMNS, validateRow: createRosterValidator(), keyColumn: 'idCard' });
    expect(p.total).toBe(1);
    expect(p.valid).toEqual([]);
    expect(p.errors).toEqual([{ row: 2, column: 'name', label: '姓名', message: '这是模板中的示例行，请删除后重新上传' }]);
  });
});

describe('errorWorkbook', () => {
  it('keeps the uploaded rows at their row numbers, adds 错误说明 and highlights bad cells', async () => {
    const src = new ExcelJS.Workbook();
    src.addWorksheet('x').addRows([
      ['参保名单'],
      ['手机号', '姓名', '身份证号'],
      ['13800138000', '张三', '110101199003074573'],
      ['123', '王', '110101199003074573'],
    ]);
    const table = await readSheet(Buffer.from(await src.xlsx.writeBuffer()), 'xlsx', { columns: ROSTER_COLUMNS });
    const p = buildPreview({ table, columns: ROSTER_COLUMNS, validateRow: createRosterValidator(), keyColumn: 'idCard' });
    const buf = await errorWorkbook({ columns: ROSTER_COLUMNS, rows: table.rows, headers: table.headers, headerRow: table.headerRow, rowNumbers: table.rowNumbers, errors: previewErrors(p, ROSTER_COLUMNS) });
    const ws = (await load(buf)).worksheets[0];
    expect(ws.getRow(2).values).toEqual([undefined, '手机号', '姓名', '身份证号', '错误说明']);
    expect(ws.getRow(3).getCell(4).value ?? null).toBeNull();
    expect(ws.getRow(4).values).toEqual([undefined, '123', '王', '110101199003074573', '姓名长度应为 2–30 个字符；请输入正确的 11 位手机号；与第 3 行重复']);
    const fill = (addr: string) => (ws.getCell(addr).fill as ExcelJS.FillPattern | undefined)?.fgColor?.argb;
    expect(fill('A4')).toBe('FFFFC7CE');
    expect(fill('B4')).toBe('FFFFC7CE');
    expect(fill('C4')).toBe('FFFFC7CE');
    expect(fill('A3')).toBeUndefined();
    expect(JSON.stringify(ws.getCell('C4').note)).toContain('与第 3 行重复');
    // Fixed and uploaded again, the error column is ignored.
    const again = await readSheet(buf, 'xlsx', { columns: ROSTER_COLUMNS });
    expect(buildPreview({ table: again, columns: ROSTER_COLUMNS, validateRow: () => [], keyColumn: 'idCard' }).unknownHeaders).toEqual(['错误说明']);
  });
});

describe('exportWorkbook', () => {
  const columns = [
    { key: 'no', label: '保单号', width: 20 },
    { key: 'idCard', label: '身份证号' },
    { key: 'amount', label: '保费' },
    { key: 'at', label: '创建时间' },
  ];
  async function* rows(n: number) {
    for (let i = 0; i < n; i++) yield { no: `P${i}`, idCard: '110101199003074573', amount: i * 1.5, at: new Date(Date.UTC(2024, 0, 1)), extra: 'ignored' };
  }

  it('returns a Buffer from an async iterable, with progress', async () => {
    const progress: number[] = [];
    const buf = await exportWorkbook({ sheetName: '保单', columns, rows: rows(2500), onProgress: (d) => progress.push(d) });
    expect(progress).toEqual([1000, 2000, 2500]);
    const ws = (await load(buf)).getWorksheet('保单')!;
    expect(ws.getRow(1).values).toEqual([undefined, '保单号', '身份证号', '保费', '创建时间']);
    expect(ws.rowCount).toBe(2501);
    expect(ws.getCell('B2').value).toBe('110101199003074573');
    expect(ws.getCell('C3').value).toBe(1.5);
    expect(ws.getCell('D2').value).toEqual(new Date(Date.UTC(2024, 0, 1)));
  });

  it('streams to a Writable', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'files-export-'));
    try {
      const file = join(dir, 'out.xlsx');
      const out = createWriteStream(file);
      await exportWorkbook({ columns, rows: [{ no: 'A', idCard: null, amount: 1 }], output: out });
      await new Promise<void>((r) => (out.writableFinished ? r() : out.on('finish', () => r())));
      const ws = (await load(await readFile(file))).worksheets[0];
      expect(ws.getCell('A2').value).toBe('A');
      expect(ws.getCell('C2').value).toBe(1);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
