import { readFileSync } from 'node:fs';
import iconv from 'iconv-lite';
import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { readSheet } from '../../src/server/files/roster-read.ts';
import { mapColumns, normalizeHeader, requireColumns } from '../../src/server/files/roster-map.ts';
import { buildPreview, checkRows, checkRowsYielding, previewErrors } from '../../src/server/files/roster-validate.ts';
import { ROSTER_COLUMNS, createRosterValidator } from '../../src/server/files/roster-columns.ts';
import { checkUpload, ROSTER_UPLOAD_TYPES } from '../../src/server/files/checks.ts';
import { SheetError, type ProbedKey } from '../../src/server/files/types.ts';

const ID1 = '110101199003074573';
const ID2 = '32010219851201123X';
const ID3 = '440306199508152345';

async function xlsx(rows: unknown[][], prepare?: (ws: ExcelJS.Worksheet) => void): Promise<Buffer> {
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet('名单');
  for (const r of rows) ws.addRow(r);
  prepare?.(ws);
  return Buffer.from(await wb.xlsx.writeBuffer());
}

async function preview(buf: Buffer, ext: string, existingKeys?: ReadonlySet<string> | readonly ProbedKey[]) {
  const table = await readSheet(buf, ext, { columns: ROSTER_COLUMNS });
  return { table, p: buildPreview({ table, columns: ROSTER_COLUMNS, validateRow: createRosterValidator(), keyColumn: 'idCard', existingKeys }) };
}

describe('readSheet', () => {
  it('reads an xlsx written by exceljs: rich text, formulas, dates, big numbers', async () => {
    const buf = await xlsx(
      [
        ['姓名', '身份证号', '手机号', '工种', '入职日期', '金额'],
        [{ richText: [{ text: '张' }, { text: '三', font: { bold: true } }] }, ID1, 13800138000, { formula: '"焊"&"工"', result: '焊工' }, new Date(Date.UTC(2024, 5, 3)), 0.1 + 0.2],
        [],
        ['  李四 ', 110101199003074573, '13900139000', '', null, 1e21 / 1e5],
      ],
    );
    const t = await readSheet(buf, 'xlsx');
    expect(t.headers).toEqual(['姓名', '身份证号', '手机号', '工种', '入职日期', '金额']);
    expect(t.headerRow).toBe(1);
    expect(t.rows[0]).toEqual(['张三', ID1, '13800138000', '焊工', '2024-06-03', '0.3']);
    // The blank row 3 is skipped, row numbers stay those of the sheet.
    expect(t.rowNumbers).toEqual([2, 4]);
    expect(t.rows[1][0]).toBe('李四');
    expect(t.rows[1][1]).not.toMatch(/e/i); // never '1.1010119900307457e+17'
    expect(t.rows[1][5]).toBe('10000000000000000');
    expect(t.issues).toEqual([
      { row: 4, col: 1, message: expect.stringContaining('超过 15 位') },
      { row: 4, col: 5, message: expect.stringContaining('超过 15 位') },
    ]);
  });

  it('reads a GBK CSV saved by Excel on Chinese Windows', async () => {
    const text = `姓名,身份证号,手机号,工种\r\n张三,${ID1},13800138000,焊工\r\n欧阳娜娜,${ID2},13900139000,"电工,高压"\r\n`;
    const buf = iconv.encode(text, 'gbk');
    expect(buf.includes(Buffer.from('张三'))).toBe(false); // really not UTF-8
    expect(await checkUpload({ fileName: '名单.csv', buffer: buf, groups: ROSTER_UPLOAD_TYPES })).toMatchObject({ ok: true });
    const t = await readSheet(buf, 'csv');
    expect(t.headers).toEqual(['姓名', '身份证号', '手机号', '工种']);
    expect(t.rows).toEqual([
      ['张三', ID1, '13800138000', '焊工'],
      ['欧阳娜娜', ID2, '13900139000', '电工,高压'],
    ]);
  });

  it('reads a UTF-8 BOM CSV and flags IDs Excel turned into 1.10101E+17', async () => {
    const buf = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(`姓名,身份证号,手机号\n王五,1.10101E+17,13800138000\n赵六,${ID3},\n`)]);
    const t = await readSheet(buf, 'csv');
    expect(t.headers[0]).toBe('姓名'); // no BOM left in the first header
    expect(t.rows).toEqual([['王五', '1.10101E+17', '13800138000'], ['赵六', ID3]]);
    const { p } = await preview(buf, 'csv');
    expect(p.errors).toEqual([{ row: 2, column: 'idCard', label: '身份证号', message: expect.stringContaining('文本格式') }, expect.objectContaining({ row: 2, column: 'idCard', message: '身份证号不正确' })]);
    expect(p.valid.map((v) => v.values.name)).toEqual(['赵六']);
  });

  it('reads a legacy .xls (title row, header variants, dates, numeric ID)', async () => {
    const buf = readFileSync(new URL('./fixtures/roster.xls', import.meta.url));
    expect(await checkUpload({ fileName: 'roster.XLS', buffer: buf, groups: ROSTER_UPLOAD_TYPES })).toMatchObject({ ok: true, ext: 'xls' });
    const t = await readSheet(buf, 'xls', { columns: ROSTER_COLUMNS });
    expect(t.headerRow).toBe(2);
    expect(t.headers).toEqual(['员工姓名', '身份证号码*', '联系电话', '岗位', '入职日期']);
    expect(t.rows[0]).toEqual(['王小明', ID1, '13800138000', '焊工', '2024-06-03']);
    expect(t.rowNumbers).toEqual([3, 5]);
    expect(t.issues).toEqual([{ row: 5, col: 1, message: expect.any(String) }]);
  });

  it('refuses garbage and empty files with a message', async () => {
    await expect(readSheet(Buffer.from('not a zip'), 'xlsx')).rejects.toMatchObject({ code: 'UNREADABLE' });
    await expect(readSheet(Buffer.from('\n , ,\n'), 'csv')).rejects.toMatchObject({ code: 'EMPTY', message: '文件中没有数据' });
    const many = Buffer.from(`姓名\n${'张三\n'.repeat(11)}`);
    await expect(readSheet(many, 'csv', { maxRows: 10 })).rejects.toMatchObject({ code: 'TOO_MANY_ROWS', message: '单个文件最多 10 行，当前 11 行' });
  });

  it('reads no more of a workbook than the row limit allows, and the first visible sheet', async () => {
    const rows = [['姓名'], ...Array.from({ length: 40 }, (_, i) => [`员工${i}`])];
    const big = await xlsx(rows);
    await expect(readSheet(big, 'xlsx', { maxRows: 39 })).rejects.toMatchObject({ code: 'TOO_MANY_ROWS', message: expect.stringMatching(/^单个文件最多 39 行，当前/) });
    // Within the limit after blank rows and a title above the header: read.
    expect((await readSheet(big, 'xlsx', { maxRows: 40 })).rows).toHaveLength(40);
    const wb = new ExcelJS.Workbook();
    const hidden = wb.addWorksheet('旧名单');
    hidden.state = 'hidden';
    hidden.addRow(['不要读']);
    wb.addWorksheet('名单').addRows([['姓名'], ['张三']]);
    const t = await readSheet(Buffer.from(await wb.xlsx.writeBuffer()), 'xlsx');
    expect(t.rows).toEqual([['张三']]);
  });
});

describe('mapColumns', () => {
  it('normalises header variants', () => {
    expect(normalizeHeader('*身份证号（必填）')).toBe('身份证号');
    expect(normalizeHeader(' 手 机 号 (选填) ')).toBe('手机号');
    expect(normalizeHeader('ＩＤ Card')).toBe('idcard');
    expect(normalizeHeader('姓名【必填】*')).toBe('姓名');
  });

  it('maps by header text in any order, with aliases, full-width and markers', () => {
    const m = mapColumns(['备注', '联系电话', '证件号码（必填）', '＊员工姓名', 'JOBTYPE'], ROSTER_COLUMNS);
    expect(m.index).toEqual({ phone: 1, idCard: 2, name: 3, jobType: 4 });
    expect(m.missing).toEqual([]);
    expect(m.unknown).toEqual(['备注']);
  });

  it('refuses a header row missing required columns', () => {
    const m = mapColumns(['姓名', '工种'], ROSTER_COLUMNS);
    expect(m.missing.map((c) => c.key)).toEqual(['idCard', 'phone']);
    expect(() => requireColumns(['姓名', '工种'], ROSTER_COLUMNS)).toThrow('表头缺少列：身份证号、手机号');
  });
});

describe('buildPreview', () => {
  it('never imports a wrong header row as a person', async () => {
    const buf = await xlsx([
      ['张三', ID1, '13800138000', '焊工'],
      ['李四', ID2, '13900139000', '电工'],
    ]);
    const table = await readSheet(buf, 'xlsx', { columns: ROSTER_COLUMNS });
    const run = () => buildPreview({ table, columns: ROSTER_COLUMNS, validateRow: createRosterValidator(), keyColumn: 'idCard' });
    expect(run).toThrow(SheetError);
    expect(run).toThrow('表头缺少列：姓名、身份证号、手机号');
  });

  it('checked in slices (as the parse process checks them, letting its messages out between), the rows come out the same', async () => {
    const buf = await xlsx([
      ['姓名', '身份证号', '手机号', '工种'],
      ['张三', ID1, '13800138000', '焊工'],
      ['李四', ID2, '13900139000', '电工'],
      ['王', '123', '', ''],
      ['张三三', ID1, '', ''],
      ['张三', '11010519491231002X', '13800000000', ''],
      ['赵六', ID3, '1380013800', ''],
      ['钱七', ID2, '', ''],
    ]);
    const table = await readSheet(buf, 'xlsx', { columns: ROSTER_COLUMNS });
    const progress: number[] = [];
    const input = { table, columns: ROSTER_COLUMNS, validateRow: createRosterValidator(), keyColumn: 'idCard', progressEvery: 2 };
    const whole = checkRows(input);
    const sliced = await checkRowsYielding({ ...input, onProgress: (done) => progress.push(done) }, 3);
    expect(sliced.preview).toEqual(whole.preview);
    expect([...sliced.firstSeen]).toEqual([...whole.firstSeen]);
    expect(progress).toEqual([2, 4, 6, 7]);
    expect(whole.preview.counts).toEqual({ total: 7, valid: 3, errors: 2, duplicates: 2 });
  });

  it('validates rows, finds duplicates in the file and against existing keys', async () => {
    const buf = await xlsx([
      ['名单（2024 年 6 月）'],
      ['手机号', '姓名*', '身份证号（必填）', '工种'],
      ['13800138000', '张三', ID1, '焊工'],
      ['13800138001', '李四', ID2.toLowerCase(), '电工'],
      ['13800138002', '王', '123', ''],
      ['13800138003', '张三三', ID1, ''],
      ['1380013800', '赵六', ID3, ''],
      ['', '钱七', ID2, ''],
    ]);
    const { p } = await preview(buf, 'xlsx', new Set([ID3]));
    expect(p.total).toBe(6);
    // Row 7 has a wrong phone and is already insured: counted once, as 有误. Every row is in one category.
    expect(p.counts).toEqual({ total: 6, valid: 2, errors: 2, duplicates: 2 });
    expect(p.headerRow).toBe(2);
    expect(p.valid.map((v) => v.row)).toEqual([3, 4]);
    expect(p.valid[0].values).toEqual({ name: '张三', idCard: ID1, phone: '13800138000', jobType: '焊工' });
    expect(p.errors).toEqual([
      { row: 5, column: 'name', label: '姓名', message: '姓名长度应为 2–30 个字符' },
      { row: 5, column: 'idCard', label: '身份证号', message: '身份证号不正确' },
      { row: 7, column: 'phone', label: '手机号', message: '请输入正确的 11 位手机号' },
    ]);
    expect(p.duplicates).toEqual([
      { row: 6, firstRow: 3, column: 'idCard', message: '与第 3 行重复' },
      { row: 7, column: 'idCard', message: '该人员已在保' },
      { row: 8, firstRow: 4, column: 'idCard', message: '与第 4 行重复' }, // case-insensitive
    ]);
    expect(previewErrors(p, ROSTER_COLUMNS).map((e) => `${e.row}:${e.label}:${e.message}`)).toEqual([
      '5:姓名:姓名长度应为 2–30 个字符',
      '5:身份证号:身份证号不正确',
      '6:身份证号:与第 3 行重复',
      '7:手机号:请输入正确的 11 位手机号',
      '7:身份证号:该人员已在保',
      '8:身份证号:与第 4 行重复',
    ]);
  });

  it('a key refused with a reason is an error of its cell (有误, not 重复); the counts still add up', async () => {
    const OLD = '年龄 70 岁，不在该方案可投保年龄 16–65 岁之内';
    const buf = await xlsx([
      ['姓名', '身份证号', '手机号', '工种'],
      ['张三', ID1, '13800138000', '焊工'],
      ['李四', ID2, '13800138001', '电工'],
      ['王五', ID3, '1380013800', ''],
      ['李四四', ID2, '13800138003', ''],
      ['赵六', '110101199003075138', '13800138004', ''],
    ]);
    const { p } = await preview(buf, 'xlsx', [[ID2.toLowerCase(), OLD], [ID3, OLD], '110101199003075138']);
    // Row 3 refused: 有误. Row 4 has a wrong phone and is refused: one 有误 row with both messages.
    // Row 5 repeats row 3 (重复), row 6 is already insured (重复), row 2 is the only valid one.
    expect(p.counts).toEqual({ total: 5, valid: 1, errors: 2, duplicates: 2 });
    expect(p.counts.valid + p.counts.errors + p.counts.duplicates).toBe(p.counts.total);
    expect(p.valid.map((v) => v.row)).toEqual([2]);
    expect(p.errors).toEqual([
      { row: 3, column: 'idCard', label: '身份证号', message: OLD },
      { row: 4, column: 'phone', label: '手机号', message: '请输入正确的 11 位手机号' },
      { row: 4, column: 'idCard', label: '身份证号', message: OLD },
    ]);
    expect(p.duplicates).toEqual([
      { row: 5, firstRow: 3, column: 'idCard', message: '与第 3 行重复' },
      { row: 6, column: 'idCard', message: '该人员已在保' },
    ]);
  });

  it('reports progress', () => {
    const rows = Array.from({ length: 2500 }, () => ['张三', ID1, '', '']);
    const seen: number[] = [];
    buildPreview({
      table: { headers: ['姓名', '身份证号', '手机号'], rows, headerRow: 1 },
      columns: ROSTER_COLUMNS,
      validateRow: () => [],
      keyColumn: 'idCard',
      onProgress: (done) => seen.push(done),
    });
    expect(seen).toEqual([1000, 2000, 2500]);
  });
});

/** An ID number ending in X (seq 2 of 1990-03-07 in region 110101): lower-case x is how people type it. */
const ID_X = '11010119900307002X';
/**
 * A valid ID number that is also an exact double (a multiple of 16): typed into a number cell, it comes
 * back with the right digits, yet the cell was a number past 15 digits, so the reader cannot know that.
 */
const ID_EXACT_DOUBLE = '110101199003073888';

describe('a cell damaged while reading never makes a valid row', () => {
  it('an ID number typed into a number cell is flagged on its row, even when its digits still pass the ID check', async () => {
    expect(BigInt(Number(ID_EXACT_DOUBLE))).toBe(BigInt(ID_EXACT_DOUBLE)); // the digits survive the double
    const buf = await xlsx([
      ['姓名', '身份证号', '手机号', '工种'],
      ['张三', Number(ID_EXACT_DOUBLE), '13800138000', '焊工'],
      ['李四', ID1, '13900139000', '电工'],
    ]);
    const { table, p } = await preview(buf, 'xlsx');
    expect(table.rows[0][1]).toBe(ID_EXACT_DOUBLE);
    // The row's values alone pass every rule: only the reader knows the cell was damaged.
    expect(createRosterValidator()({ name: '张三', idCard: ID_EXACT_DOUBLE, phone: '13800138000', jobType: '焊工' }, 2)).toEqual([]);
    expect(p.errors).toEqual([{ row: 2, column: 'idCard', label: '身份证号', message: expect.stringContaining('超过 15 位的数字已被 Excel 截断') }]);
    expect(p.valid.map((v) => v.row)).toEqual([3]);
    expect(p.duplicates).toEqual([]);
  });

  it('a cell issue found while reading keeps its row out of the valid rows whatever the rules say of its value', () => {
    const table = {
      headers: ['姓名', '身份证号', '手机号', '工种'],
      rows: [['张三', ID1, '13800138000', '1.5E+3'], ['李四', ID2, '13900139000', '电工']],
      headerRow: 1,
      issues: [{ row: 2, col: 3, message: '该单元格是数字格式' }],
    };
    const p = buildPreview({ table, columns: ROSTER_COLUMNS, validateRow: createRosterValidator(), keyColumn: 'idCard' });
    expect(p.errors).toEqual([{ row: 2, column: 'jobType', label: '工种', message: '该单元格是数字格式' }]);
    expect(p.valid.map((v) => v.row)).toEqual([3]);
  });

  it('a CSV cell Excel saved as 1.10101E+17 is flagged in every column, not only by the ID rule', async () => {
    const buf = Buffer.from(`姓名,身份证号,手机号,工种\n王五,${ID1},13800138000,1.10101E+17\n赵六,${ID3},,\n`);
    const { table, p } = await preview(buf, 'csv');
    expect(table.issues).toEqual([{ row: 2, col: 3, message: expect.stringContaining('文本格式') }]);
    expect(p.errors.map((e) => [e.row, e.column])).toEqual([[2, 'jobType']]);
    expect(p.valid.map((v) => v.values.name)).toEqual(['赵六']);
  });
});

describe('ID numbers with a lower-case x', () => {
  it('a file row typed with x is found among the people already insured (stored upper case): 该人员已在保', async () => {
    const buf = Buffer.from(`姓名,身份证号,手机号\n张三,${ID_X.toLowerCase()},13800138000\n李四,${ID1},13900139000\n`);
    const { p } = await preview(buf, 'csv', new Set([ID_X]));
    expect(p.duplicates).toEqual([{ row: 2, column: 'idCard', message: '该人员已在保' }]);
    expect(p.valid.map((v) => v.row)).toEqual([3]);
    // And the other way round: covered keys as asked (lower case) still match an upper-case row.
    const upper = Buffer.from(`姓名,身份证号,手机号\n张三,${ID_X},13800138000\n`);
    expect((await preview(upper, 'csv', new Set([ID_X.toLowerCase()]))).p.duplicates).toEqual([{ row: 2, column: 'idCard', message: '该人员已在保' }]);
  });
});
