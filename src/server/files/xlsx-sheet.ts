/**
 * The rows of an .xlsx workbook's first visible worksheet, read from the zip's XML parts in one pass
 * each (the sheet and the shared strings scanned when in their plain shape, xlsx-scan.ts; the rest with
 * saxes): the cells SheetJS's `XLSX.read(…, { dense: true, cellDates: true })` gives, in its `!data`
 * shape, at under half its CPU (a 50,000-row roster, cold: SheetJS 1.0–1.4 s, this 0.53–0.56 s;
 * docs/decisions.md). It reads what a roster needs (values, shared and inline strings, booleans,
 * dates by their number format, formulas' cached results, the 1904 date system, hidden sheets) and
 * answers null for a package it does not know how to read (no workbook part, a chart sheet first…),
 * so the caller falls back to SheetJS, which stays the reader of every other case and of .xls.
 * Malformed XML throws (the caller falls back too). Rows past `sheetRows` are not read: the answer's
 * `data` ends there and `lastRow` is the sheet's declared last row.
 */
import { isAscii } from 'node:buffer';
import { posix } from 'node:path';
import { promisify } from 'node:util';
import { inflateRaw } from 'node:zlib';
import { wholeChunk, zipEntries, zipEntryData, zipReadEntry, type ZipEntry } from './zip-peek.ts';
import { readCells, type CellValue, type SheetCell, type XlsxSheet } from './xlsx-cells.ts';
import { scanSharedStrings } from './xlsx-scan.ts';
import { attr, parseXml, unescapeOoxml } from './xlsx-xml.ts';

export type { CellValue, SheetCell, XlsxSheet } from './xlsx-cells.ts';

const inflateRawLater = promisify(inflateRaw);

/** Any one XML part may inflate to this much (the upload check already bounds the whole package). */
const MAX_PART_BYTES = 100 * 1024 * 1024;
/**
 * Number formats that are dates among the built-in ids (ECMA-376 §18.8.30 14–22 and 45–47, and the
 * East Asian ids 27–36, 50–58 and 71–81 Excel maps to date formats). Custom formats are judged by
 * SheetJS's own test (SSF.is_date), loaded only for a workbook that has one.
 */
const BUILTIN_DATE_IDS = new Set([14, 15, 16, 17, 18, 19, 20, 21, 22, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 45, 46, 47, 50, 51, 52, 53, 54, 55, 56, 57, 58, 71, 72, 73, 74, 75, 76, 77, 78, 79, 80, 81]);

const REL = /\/relationships\/(officeDocument|worksheet|sharedStrings|styles)$/;

/** A part's relationships: id → [kind, part path]. */
function relationships(read: (path: string) => string | undefined, part: string): Map<string, [string, string]> {
  const dir = posix.dirname(part);
  const xml = read(posix.join(dir, '_rels', `${posix.basename(part)}.rels`));
  const out = new Map<string, [string, string]>();
  if (xml === undefined) return out;
  parseXml(xml, {
    open(tag, name) {
      const kind = name === 'Relationship' ? REL.exec(attr(tag, 'Type') ?? '')?.[1] : undefined;
      const target = attr(tag, 'Target');
      if (!kind || !target || attr(tag, 'TargetMode') === 'External') return;
      out.set(attr(tag, 'Id') ?? '', [kind, target.startsWith('/') ? target.slice(1) : posix.normalize(posix.join(dir, target))]);
    },
  });
  return out;
}

/** The shared strings: each <si>'s text runs joined, phonetic runs (<rPh>) left out, as SheetJS reads them. */
function sharedStrings(xml: string | undefined): string[] {
  const out: string[] = [];
  if (xml === undefined) return out;
  const scanned = scanSharedStrings(xml); // the plain shape most tables have (xlsx-scan.ts)
  if (scanned) return scanned.map(unescapeOoxml);
  let text = '';
  let inT = false;
  let phonetic = 0;
  parseXml(xml, {
    open(_tag, name) {
      if (name === 'si') text = '';
      else if (name === 't') inT = true;
      else if (name === 'rPh') phonetic++;
    },
    close(name) {
      if (name === 't') inT = false;
      else if (name === 'rPh') phonetic--;
      else if (name === 'si') out.push(unescapeOoxml(text));
    },
    text(t) {
      if (inT && phonetic === 0) text += t;
    },
  });
  return out;
}

/** For each cell style (xf) index, whether its number format is a date. */
async function dateStyles(xml: string | undefined): Promise<boolean[]> {
  if (xml === undefined) return [];
  const custom = new Map<number, string>();
  const xfFormats: number[] = [];
  let inCellXfs = false;
  parseXml(xml, {
    open(tag, name) {
      if (name === 'numFmt') custom.set(Number(attr(tag, 'numFmtId')), attr(tag, 'formatCode') ?? '');
      else if (name === 'cellXfs') inCellXfs = true;
      else if (name === 'xf' && inCellXfs) xfFormats.push(Number(attr(tag, 'numFmtId') ?? 0));
    },
    close(name) {
      if (name === 'cellXfs') inCellXfs = false;
    },
  });
  const isDate = custom.size ? (await import('@e965/xlsx')).SSF.is_date : () => false;
  return xfFormats.map((id) => (custom.has(id) ? isDate(custom.get(id)!) : BUILTIN_DATE_IDS.has(id)));
}

/** XML bytes as text: the common all-ASCII sheet part decoded as Latin-1, which is the same text and quicker. */
const partText = (data: Buffer): string => (isAscii(data) ? data.toString('latin1') : data.toString('utf8'));

interface PartReader {
  (path: string): string | undefined;
  /** The same, inflated on zlib's thread pool while the caller does something else. */
  later(path: string): Promise<string | undefined>;
}

/** The package's parts by path (case-insensitive, as Excel treats them). */
function partReader(buffer: Buffer): PartReader | null {
  const entries = zipEntries(buffer);
  if (!entries) return null;
  const byPath = new Map<string, ZipEntry>(entries.map((e) => [e.name.toLowerCase(), e]));
  const entry = (path: string) => byPath.get(path.toLowerCase());
  const read = (path: string) => {
    const e = entry(path);
    if (!e) return undefined;
    const data = zipReadEntry(buffer, e.name, MAX_PART_BYTES, entries);
    if (!data) throw new Error(`unreadable part ${e.name}`);
    return partText(data);
  };
  read.later = async (path: string) => {
    const e = entry(path);
    const data = e && e.method === 8 && e.size <= MAX_PART_BYTES ? zipEntryData(buffer, e) : null;
    if (!e || !data) return read(path);
    return partText(await inflateRawLater(data, { maxOutputLength: MAX_PART_BYTES, chunkSize: wholeChunk(e, MAX_PART_BYTES) }));
  };
  return read;
}

/**
 * The first visible worksheet's cells, at most `sheetRows` rows (0 = all); null when this package is
 * not one this reader handles (read it with SheetJS then). Throws on malformed XML. With `value`, what it
 * makes of each cell is kept instead of the cell.
 */
export async function readXlsxSheet<T = SheetCell>(buffer: Buffer, opts: { sheetRows?: number; value?: CellValue<T> } = {}): Promise<XlsxSheet<T> | null> {
  const read = partReader(buffer);
  if (!read) return null;
  const workbookPart = [...relationships(read, '').values()].find(([kind]) => kind === 'officeDocument')?.[1];
  const workbookXml = workbookPart && read(workbookPart);
  if (!workbookPart || workbookXml === undefined) return null;

  const sheets: Array<{ rid: string; hidden: boolean }> = [];
  let date1904 = false;
  parseXml(workbookXml, {
    open(tag, name) {
      if (name === 'workbookPr') date1904 = ['1', 'true'].includes(attr(tag, 'date1904') ?? '');
      else if (name === 'sheet') sheets.push({ rid: attr(tag, 'id') ?? '', hidden: !['visible', undefined].includes(attr(tag, 'state')) });
    },
  });
  const rels = relationships(read, workbookPart);
  const first = sheets.find((s) => !s.hidden) ?? sheets[0];
  const sheetRel = first && rels.get(first.rid);
  if (!sheetRel || sheetRel[0] !== 'worksheet') return null; // no sheet, or a chart sheet: SheetJS decides
  // The sheet, the largest part, inflates on the thread pool while the shared strings are read here.
  const sheet = read.later(sheetRel[1]);
  sheet.catch(() => undefined); // awaited below, after the strings (which may throw first)
  const partOf = (kind: string) => [...rels.values()].find(([k]) => k === kind)?.[1];
  const sharedPart = partOf('sharedStrings');
  const stylesPart = partOf('styles');
  const strings = sharedStrings(sharedPart && read(sharedPart));
  const dates = await dateStyles(stylesPart && read(stylesPart));
  const sheetXml = await sheet;
  if (sheetXml === undefined) return null;
  return readCells(sheetXml, { strings, dates, date1904, sheetRows: opts.sheetRows ?? 0, value: opts.value });
}

