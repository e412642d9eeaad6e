/**
 * The cells of a worksheet part (<sheetData>), typed as SheetJS's parse_ws_xml_data types them: scanned
 * (xlsx-scan.ts) when the part is in the plain shape Excel writes, else read with saxes.
 */
import { scanSheetData } from './xlsx-scan.ts';
import { parseXml, unescapeOoxml } from './xlsx-xml.ts';

/** A cell as SheetJS's dense sheet has it: t 's' string, 'n' number, 'b' boolean, 'd' date, 'e' error. */
export interface SheetCell {
  t: 's' | 'n' | 'b' | 'd' | 'e';
  v?: string | number | boolean | Date;
}

export interface XlsxSheet<T = SheetCell> {
  /** Rows by 0-based sheet row index; cells by 0-based column (holes where the sheet has none). */
  data: Array<Array<T | undefined> | undefined>;
  /** The last row (1-based) the sheet declares (its <dimension>), when it has one. */
  lastRow?: number;
}

const DAY_MS = 24 * 60 * 60 * 1000;
const EPOCH_1900 = Date.UTC(1899, 11, 30);

/** A date serial as SheetJS's numdate reads it (the 1900 system's fictitious 29 February, 60, stays a number). */
function serialDate(serial: number, date1904: boolean): Date | number {
  const v = serial + (date1904 ? 1462 : 0);
  if (v >= 60 && v < 61) return v;
  // To the millisecond: the serial's binary fraction (a time of day) otherwise lands just short of it.
  return new Date(Math.round((v > 60 ? v : v + 1) * DAY_MS + EPOCH_1900));
}

/** A t="d" cell's ISO 8601 text, read as UTC as SheetJS does. */
function isoDate(text: string): Date {
  const m = /^(\d{4})-(\d\d)-(\d\d)(?:[T ](\d\d):(\d\d)(?::(\d\d)(?:\.(\d{1,3})\d*)?)?)?Z?$/.exec(text.trim());
  if (!m) return new Date(text);
  return new Date(Date.UTC(+m[1], +m[2] - 1, +m[3], +(m[4] ?? 0), +(m[5] ?? 0), +(m[6] ?? 0), +(m[7] ?? '0').padEnd(3, '0')));
}

/** 'AB' of a cell reference 'AB12' → 27 (0-based column), or -1. */
function columnOf(ref: string): number {
  let col = 0;
  let i = 0;
  for (; i < ref.length; i++) {
    const c = ref.charCodeAt(i) - 64;
    if (c < 1 || c > 26) break;
    col = col * 26 + c;
  }
  return i ? col - 1 : -1;
}

/**
 * What is kept of each cell as it is read (its 1-based row, 0-based column): e.g. its text, so that the
 * cells themselves die young instead of all living until the sheet is read (about a fifth of the read
 * was garbage collection of them, for a 50,000-row roster).
 */
export type CellValue<T> = (cell: SheetCell, row: number, col: number) => T;

export interface CellContext<T = SheetCell> {
  strings: string[];
  dates: boolean[];
  date1904: boolean;
  sheetRows: number;
  /** Keep this of each cell instead of the cell. */
  value?: CellValue<T>;
}

/** A cell's parts as read: type and style attributes, value text, whether it has a formula, inline string text. */
interface CellParts {
  t: string | undefined;
  s: number;
  v: string | undefined;
  formula: boolean;
  inline: string;
}

/** A cell as SheetJS types it (undefined: no cell, as SheetJS leaves out an empty one). */
function makeCell(ctx: CellContext<unknown>, { t: type, s: style, v: value, formula, inline }: CellParts): SheetCell | undefined {
  if (type === undefined && value === undefined) return formula ? { t: 'n', v: 0 } : undefined;
  switch (type ?? 'n') {
    case 'n': {
      if (value === undefined || value === '') return undefined;
      const n = parseFloat(value);
      if (!ctx.dates[style]) return { t: 'n', v: n };
      const d = serialDate(n, ctx.date1904);
      return typeof d === 'number' ? { t: 'n', v: d } : { t: 'd', v: d };
    }
    case 's': {
      if (value === undefined) return undefined;
      const s = ctx.strings[parseInt(value, 10)];
      if (s === undefined) throw new Error(`shared string ${value} missing`);
      return { t: 's', v: s };
    }
    case 'str':
      return { t: 's', v: unescapeOoxml(value ?? '') };
    case 'inlineStr':
      return { t: 's', v: unescapeOoxml(inline) };
    case 'b':
      return { t: 'b', v: value === '1' || value?.toLowerCase() === 'true' };
    case 'd':
      return value === undefined ? undefined : { t: 'd', v: isoDate(value) };
    case 'e':
      return { t: 'e' };
    default:
      throw new Error(`cell type ${type}`);
  }
}

/**
 * The cells read so far, placed as SheetJS places them: a row at its r (else after the last one), a cell at
 * its reference (else in the next column). Both readers below fill one.
 */
function grid<T>(ctx: CellContext<T>) {
  const data: XlsxSheet<T>['data'] = [];
  const keep = ctx.value ?? ((cell: SheetCell) => cell as T);
  let row = 0;
  let col = -1;
  return {
    data,
    /** A new row; false once it is past sheetRows (nothing more is read). */
    row(r: string | undefined): boolean {
      row = r === undefined ? row + 1 : parseInt(r, 10);
      col = -1;
      return !(ctx.sheetRows && row > ctx.sheetRows);
    },
    /** The next cell, at its reference; one SheetJS leaves out (undefined) takes its column but is not stored. */
    cell(ref: string | undefined, cell: SheetCell | undefined): void {
      const at = ref === undefined ? -1 : columnOf(ref);
      col = at < 0 ? col + 1 : at;
      if (cell) (data[row - 1] ??= [])[col] = keep(cell, row, col);
    },
  };
}

/** The worksheet part's <sheetData> read with saxes, cell by cell. */
function parseCells<T>(xml: string, ctx: CellContext<T>): XlsxSheet<T> {
  const cells = grid(ctx);
  let done = false;
  // The cell being read.
  let ref: string | undefined;
  let type: string | undefined;
  let style = 0;
  let formula = false;
  let value: string | undefined;
  let inline = '';
  let inV = false;
  let inT = false;
  let inIs = false;
  let phonetic = 0;

  const cell = () => makeCell(ctx, { t: type, s: style, v: value, formula, inline });

  parseXml(
    xml,
    {
      open(tag, name) {
        switch (name) {
          case 'row':
            if (!cells.row(tag.attributes.r)) done = true;
            break;
          case 'c': {
            ref = tag.attributes.r;
            type = tag.attributes.t;
            style = Number(tag.attributes.s ?? 0);
            formula = false;
            value = undefined;
            inline = '';
            break;
          }
          case 'v':
            inV = true;
            value ??= '';
            break;
          case 'f':
            formula = true;
            break;
          case 'is':
            inIs = true;
            break;
          case 't':
            inT = inIs;
            break;
          case 'rPh':
            phonetic++;
            break;
        }
      },
      close(name) {
        switch (name) {
          case 'v':
            inV = false;
            break;
          case 't':
            inT = false;
            break;
          case 'is':
            inIs = false;
            break;
          case 'rPh':
            phonetic--;
            break;
          case 'c':
            if (!done) cells.cell(ref, cell());
            break;
        }
      },
      text(t) {
        if (inV) value += t;
        else if (inT && phonetic === 0) inline += t;
      },
    },
    () => done,
  );
  return { data: cells.data, lastRow: declaredLastRow(xml) };
}

/** The worksheet part's cells: scanned when in the plain shape, else read with saxes. */
export function readCells<T>(xml: string, ctx: CellContext<T>): XlsxSheet<T> {
  return scanCells(xml, ctx) ?? parseCells(xml, ctx);
}

/** The last row a worksheet declares (<dimension ref="A1:D50001">, any prefix or quotes), looked for before its sheet data. */
function declaredLastRow(xml: string): number | undefined {
  const head = xml.slice(0, Math.max(0, xml.search(/<(?:\w+:)?sheetData\b/)));
  const ref = /<(?:\w+:)?dimension\s[^>]*\bref\s*=\s*["']([^"']*)["']/.exec(head)?.[1];
  const last = ref && /(\d+)$/.exec(ref)?.[1];
  return last ? Number(last) : undefined;
}

/** The cells by xlsx-scan.ts's scanSheetData; null when the part is not in its shape. */
function scanCells<T>(xml: string, ctx: CellContext<T>): XlsxSheet<T> | null {
  const cells = grid(ctx);
  const scanned = scanSheetData(
    xml,
    (r) => cells.row(r),
    (c) => cells.cell(c.ref, makeCell(ctx, { t: c.t, s: Number(c.s ?? 0), v: c.v, formula: c.formula, inline: '' })),
  );
  return scanned === null ? null : { data: cells.data, lastRow: declaredLastRow(xml) };
}
