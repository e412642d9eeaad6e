/**
 * The streaming .xlsx reader (src/server/files/xlsx-sheet.ts, its scan of the plain shapes in
 * xlsx-scan.ts and saxes for the rest) against SheetJS, the reader it replaces for .xlsx: for workbooks written by exceljs and by SheetJS with random cells, both give the same cells;
 * hand-made parts cover what those writers never write (phonetic runs, cells without references, inline
 * rich text, ISO dates); what it declines or cannot parse still reads, through SheetJS.
 */
import ExcelJS from 'exceljs';
import fc from 'fast-check';
import * as XLSX from '@e965/xlsx';
import { describe, expect, it } from 'vitest';
import { readXlsxSheet, type SheetCell } from '../../src/server/files/xlsx-sheet.ts';
import { readSheet } from '../../src/server/files/roster-read.ts';
import { scanSharedStrings, scanSheetData, type ScannedCell } from '../../src/server/files/xlsx-scan.ts';
import { CONTENT_TYPES, part, RELS, WORKBOOK, WORKBOOK_RELS, zipOf } from './zip-bomb.ts';

type Grid = Array<Array<SheetCell | undefined> | undefined>;

/** SheetJS's cells as { t, v } (what roster-read uses of them: an error cell is blank whatever its code). */
function sheetJs(buf: Buffer, sheetRows = 0): Grid {
  const wb = XLSX.read(buf, { type: 'buffer', dense: true, cellDates: true, cellText: false, cellHTML: false, cellNF: false, cellStyles: false, sheetRows });
  const name = wb.SheetNames.find((n) => !wb.Workbook?.Sheets?.find((s) => s.name === n)?.Hidden) ?? wb.SheetNames[0];
  const data = (wb.Sheets[name]['!data'] ?? []) as Array<Array<XLSX.CellObject | undefined> | undefined>;
  return data.map((r) => r && r.map((c) => c && ({ t: c.t, ...(c.v === undefined || c.t === 'e' ? {} : { v: c.v }) } as SheetCell)));
}

/**
 * Holes and empty slots compared alike; Dates to the second (SheetJS's dates of a time of day fall a
 * millisecond short where the streaming reader's do not; both read as the same text, roster-read's dateText).
 */
const plain = (g: Grid) => JSON.parse(JSON.stringify(g, function (this: Record<string, unknown>, k, v: unknown) {
  const raw = this[k];
  return raw instanceof Date ? { date: Math.round(raw.getTime() / 1000) } : v;
})) as unknown;

async function fast(buf: Buffer, sheetRows = 0): Promise<Grid> {
  const sheet = await readXlsxSheet(buf, { sheetRows });
  if (!sheet) throw new Error('the streaming reader declined the workbook');
  return sheet.data;
}

const text = fc.oneof(
  fc.string({ maxLength: 12 }),
  fc.constantFrom('张三', '  李 四 ', 'A & B <c> "d" \'e\'', 'line\r\nbreak', 'tab\there', '_x000D_', '=1+1', '110101199003074573', '0012', '１２３'),
);
const value = fc.oneof(
  text,
  fc.integer({ min: -1e9, max: 1e9 }),
  fc.double({ min: -1e12, max: 1e12, noNaN: true, noDefaultInfinity: true }).filter((n) => !Object.is(n, -0)),
  fc.constantFrom(110101199003074573, 13800138000, 0.1 + 0.2, 1e21),
  fc.boolean(),
  fc.date({ min: new Date(Date.UTC(1901, 0, 1)), max: new Date(Date.UTC(2099, 11, 31)), noInvalidDate: true }).map((d) => new Date(Math.floor(d.getTime() / 1000) * 1000)),
  fc.constant(null),
);
const grid = fc.array(fc.array(value, { maxLength: 6 }), { minLength: 1, maxLength: 12 });

async function byExcelJs(rows: unknown[][], opts: { hiddenFirst?: boolean; date1904?: boolean; formulas?: boolean } = {}): Promise<Buffer> {
  const wb = new ExcelJS.Workbook();
  if (opts.date1904) wb.properties.date1904 = true;
  if (opts.hiddenFirst) wb.addWorksheet('说明', { state: 'hidden' }).addRow(['请勿填写此表']);
  const ws = wb.addWorksheet('名单');
  rows.forEach((r, i) => {
    const row = ws.getRow(i + 1 + (i % 3 === 2 ? 1 : 0)); // every third row one further down: a blank row between
    r.forEach((v, j) => {
      if (v === null) return;
      const cell = row.getCell(j + 1 + (j === 3 ? 1 : 0)); // and a blank column
      if (opts.formulas && typeof v === 'number' && j === 0) cell.value = { formula: `${v}+0`, result: v };
      else if (opts.formulas && typeof v === 'string' && j === 1) cell.value = { richText: [{ text: v.slice(0, 2) }, { text: v.slice(2), font: { bold: true } }] };
      else cell.value = v as ExcelJS.CellValue;
      if (typeof v === 'number' && j === 2) cell.numFmt = 'yyyy"年"m"月"d"日"';
    });
  });
  return Buffer.from(await wb.xlsx.writeBuffer());
}

function bySheetJs(rows: unknown[][], bookSST: boolean): Buffer {
  const ws = XLSX.utils.aoa_to_sheet(rows.map((r) => r.map((v) => (v === null ? undefined : v))), { cellDates: true });
  const wb = XLSX.utils.book_new();
  XLSX.utils.book_append_sheet(wb, ws, '名单');
  return XLSX.write(wb, { type: 'buffer', bookType: 'xlsx', bookSST }) as Buffer;
}

/** A workbook from hand-written parts: the sheet's <sheetData> content, and optionally shared strings and styles. */
function handMade(sheetData: string, extra: { sst?: string; styles?: string; workbook?: string } = {}): Buffer {
  const rels = WORKBOOK_RELS.replace(
    '</Relationships>',
    `${extra.sst ? '<Relationship Id="rId2" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/sharedStrings" Target="sharedStrings.xml"/>' : ''}` +
      `${extra.styles ? '<Relationship Id="rId3" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/styles" Target="/xl/styles.xml"/>' : ''}</Relationships>`,
  );
  const main = 'xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"';
  const override = (name: string, type: string) => `<Override PartName="/xl/${name}.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.${type}+xml"/>`;
  const types = CONTENT_TYPES.replace('</Types>', `${extra.sst ? override('sharedStrings', 'sharedStrings') : ''}${extra.styles ? override('styles', 'styles') : ''}</Types>`);
  const parts = [
    part('[Content_Types].xml', types),
    part('_rels/.rels', RELS),
    part('xl/workbook.xml', extra.workbook ?? WORKBOOK),
    part('xl/_rels/workbook.xml.rels', rels),
    part('xl/worksheets/sheet1.xml', `<?xml version="1.0" encoding="UTF-8"?><worksheet ${main}><dimension ref="A1:C3"/><sheetData>${sheetData}</sheetData></worksheet>`),
  ];
  if (extra.sst) parts.push(part('xl/sharedStrings.xml', `<?xml version="1.0" encoding="UTF-8"?><sst ${main}>${extra.sst}</sst>`));
  if (extra.styles) parts.push(part('xl/styles.xml', `<?xml version="1.0" encoding="UTF-8"?><styleSheet ${main}>${extra.styles}</styleSheet>`));
  return zipOf(parts);
}

describe('the streaming .xlsx reader gives SheetJS cells', () => {
  it('for random workbooks written by exceljs (blank rows and columns, formulas, rich text, custom date formats)', async () => {
    await fc.assert(
      fc.asyncProperty(grid, fc.boolean(), fc.boolean(), fc.boolean(), async (rows, hiddenFirst, date1904, formulas) => {
        const buf = await byExcelJs(rows, { hiddenFirst, date1904, formulas });
        expect(plain(await fast(buf))).toEqual(plain(sheetJs(buf)));
      }),
      { numRuns: 40 },
    );
  });

  it('for random workbooks written by SheetJS, with shared strings and with strings in the cells', async () => {
    await fc.assert(
      fc.asyncProperty(grid, fc.boolean(), async (rows, bookSST) => {
        const buf = bySheetJs(rows, bookSST);
        expect(plain(await fast(buf))).toEqual(plain(sheetJs(buf)));
      }),
      { numRuns: 40 },
    );
  });

  it('reads at most sheetRows rows and says the last row the sheet declares', async () => {
    const buf = await byExcelJs(Array.from({ length: 30 }, (_, i) => [`第${i}行`, i]));
    const sheet = await readXlsxSheet(buf, { sheetRows: 10 });
    expect(plain(sheet!.data)).toEqual(plain(sheetJs(buf, 10)));
    expect(sheet!.data.length).toBe(10);
    expect(sheet!.lastRow).toBe(XLSX.utils.decode_range(XLSX.read(buf, { type: 'buffer', sheetRows: 10 }).Sheets['名单']['!fullref']!).e.r + 1);
  });

  it('leaves phonetic runs out, reads inline rich text, error and boolean cells, ISO dates and cells without references', async () => {
    const buf = handMade(
      '<row r="1"><c r="A1" t="s"><v>0</v></c><c t="inlineStr"><is><r><t>张</t></r><r><rPr><b/></rPr><t xml:space="preserve">三 </t></r></is></c><c t="e"><v>#N/A</v></c></row>' +
        '<row><c r="B2" t="b"><v>1</v></c><c t="d"><v>2024-06-03T08:30:00</v></c><c t="str"><f>A1</f><v>x_x000D_y</v></c></row>',
      { sst: '<si><r><t>東京</t></r><rPh sb="0" eb="2"><t>トウキョウ</t></rPh><phoneticPr fontId="1"/></si>' },
    );
    expect(plain(await fast(buf))).toEqual(plain(sheetJs(buf)));
    const t = await readSheet(buf, 'xlsx');
    expect(t.headers).toEqual(['東京', '张三']); // the error cell reads blank, and a row's trailing blanks go
    expect(t.rows).toEqual([['', 'TRUE', '2024-06-03 08:30:00', 'x\ry']]);
  });

  it('reads a number in a built-in East Asian date format (id 57, yyyy"年"m"月") as the date it shows', async () => {
    const buf = handMade('<row r="1"><c r="A1" t="inlineStr"><is><t>入职日期</t></is></c></row><row r="2"><c r="A2" s="1"><v>45366</v></c></row>', {
      styles: '<cellXfs count="2"><xf numFmtId="0"/><xf numFmtId="57" applyNumberFormat="1"/></cellXfs>',
    });
    expect((await readSheet(buf, 'xlsx')).rows).toEqual([['2024-03-15']]);
  });
});

describe('what the streaming reader declines still reads, through SheetJS', () => {
  it('malformed XML SheetJS tolerates (a bare &)', async () => {
    const buf = handMade('<row r="1"><c r="A1" t="inlineStr"><is><t>姓名</t></is></c></row><row r="2"><c r="A2" t="inlineStr"><is><t>A & B</t></is></c></row>');
    await expect(readXlsxSheet(buf)).rejects.toThrow();
    expect((await readSheet(buf, 'xlsx')).rows).toEqual([['A & B']]);
  });

  it('a package without its workbook relationship', async () => {
    const buf = zipOf([part('[Content_Types].xml', CONTENT_TYPES), part('xl/workbook.xml', WORKBOOK)]);
    expect(await readXlsxSheet(buf)).toBeNull();
  });

  it('a too-long sheet is refused with the rows it declares, as before', async () => {
    const buf = await byExcelJs([['姓名'], ...Array.from({ length: 40 }, (_, i) => [`人员${i}`])]);
    await expect(readSheet(buf, 'xlsx', { maxRows: 5 })).rejects.toThrow(/40/);
  });
});

describe('the scan of the plain shapes (xlsx-scan.ts), with saxes for the rest', () => {
  const cells = (sheetData: string) => {
    const out: Array<[string | undefined, ScannedCell]> = [];
    let row: string | undefined;
    const ok = scanSheetData(`<worksheet><sheetData>${sheetData}</sheetData></worksheet>`, (r) => ((row = r), true), (c) => out.push([row, c]));
    return ok === null ? null : out;
  };

  it('scans rows, cells, values and formulas as written, entities decoded', () => {
    expect(cells('<row r="2" spans="1:3"><c r="A2" s="1" t="s"><v>0</v></c><c r="B2"><f>SUM(A1:A2)</f><v>3</v></c><c r="C2" s="2"/><c t="str"><v>A &amp; B &#x4E2D;</v></c></row><row/>')).toEqual([
      ['2', { ref: 'A2', s: '1', t: 's', v: '0', formula: false }],
      ['2', { ref: 'B2', s: undefined, t: undefined, v: '3', formula: true }],
      ['2', { ref: 'C2', s: '2', t: undefined, v: undefined, formula: false }],
      ['2', { ref: undefined, s: undefined, t: 'str', v: 'A & B 中', formula: false }],
    ]);
    expect(scanSharedStrings('<sst count="3"><si><t>张三</t></si><si><t xml:space="preserve"> a&lt;b </t></si><si><t/></si></sst>')).toEqual(['张三', ' a<b ', '']);
  });

  it('reads rows with r first in one match and any other row tag as before', () => {
    const rows = (sheetData: string) => cells(sheetData)?.map(([r, c]) => [r, c.v]);
    expect(rows('<row r="2" spans="1:4" x14ac:dyDescent="0.25"><c r="A2"><v>1</v></c></row><row spans="1:1" r="3"><c r="A3"><v>2</v></c></row><row r="4"/><row r="5" ht="a&amp;b"><c r="A5"><v>3</v></c></row>')).toEqual([
      ['2', '1'],
      ['3', '2'],
      ['5', '3'],
    ]);
    expect(cells('<row r="1" spans="1:1">x<c r="A1"><v>1</v></c></row>')).toBeNull();
    expect(cells('<row r="1"><c r="A1"><v>1</v></c><row r="2"></row></row>')).toBeNull();
  });

  it.each([
    ['an inline string', '<row r="1"><c r="A1" t="inlineStr"><is><t>x</t></is></c></row>'],
    ['a namespace prefix', '<x:row r="1"><x:c r="A1"><x:v>1</x:v></x:c></x:row>'],
    ['a comment', '<row r="1"><!-- note --><c r="A1"><v>1</v></c></row>'],
    ['CDATA', '<row r="1"><c r="A1" t="str"><v><![CDATA[a<b]]></v></c></row>'],
    ['an entity XML does not define', '<row r="1"><c r="A1" t="str"><v>&nbsp;</v></c></row>'],
    ['a bare &', '<row r="1"><c r="A1" t="str"><v>A & B</v></c></row>'],
    ['a raw carriage return', '<row r="1"><c r="A1" t="str"><v>a\r\nb</v></c></row>'],
    ['text between cells', '<row r="1">x<c r="A1"><v>1</v></c></row>'],
  ])('leaves %s to saxes', (_what, sheetData) => {
    expect(cells(sheetData)).toBeNull();
  });

  it('leaves rich text and phonetic runs in shared strings to saxes', () => {
    expect(scanSharedStrings('<sst><si><r><t>张</t></r><r><t>三</t></r></si></sst>')).toBeNull();
    expect(scanSharedStrings('<sst><si><t>東京</t><rPh sb="0" eb="2"><t>トウキョウ</t></rPh></si></sst>')).toBeNull();
  });
});

describe('dates read as Excel shows them', () => {
  it('a time of day to the second (SheetJS read 19:18:37 as 19:18:36)', async () => {
    const buf = await byExcelJs([['入职时间'], [new Date(Date.UTC(2035, 2, 18, 19, 18, 37))]]);
    expect((await readSheet(buf, 'xlsx')).rows).toEqual([['2035-03-18 19:18:37']]);
  });
});
