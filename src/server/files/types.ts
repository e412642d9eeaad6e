/**
 * Contract of the gateway's file library (uploads, roster sheets, workbooks).
 * Independent of any schema format: callers describe columns with SheetColumn and
 * validate rows with a RowValidator.
 */

/** One column of a roster-like sheet. */
export interface SheetColumn {
  /** Field key, e.g. 'idCard'. */
  key: string;
  /** Header text shown to the user, e.g. '身份证号'. */
  label: string;
  /** Other header texts accepted for this column, e.g. ['身份证', '证件号码']. */
  aliases?: string[];
  required?: boolean;
  /** Value of the template's example row. */
  example?: string;
  /** Filling note (template cell comment and the 「填写说明」 sheet). */
  note?: string;
  /** Column width in characters (workbooks). */
  width?: number;
  /**
   * Keep as text in templates (Excel number format '@'), so 18-digit IDs and phones
   * keep every digit. Default: guessed from key/label (ID card, phone, certificate numbers).
   */
  text?: boolean;
}

/**
 * A key the upload's probe refuses: a plain key is already insured (「该人员已在保」, a duplicate); a
 * [key, reason] pair cannot be insured for that reason (e.g. outside the plan's insurable ages, an error).
 */
export type ProbedKey = string | readonly [key: string, reason: string];

export interface CellError {
  /** 1-based sheet row number as the user sees it in Excel. */
  row: number;
  /** Column key. */
  column: string;
  /** Column label. */
  label: string;
  message: string;
}

export type RowValidator = (row: Record<string, string>, rowNumber: number) => Array<{ column: string; message: string }>;

/** A problem found while reading a cell (e.g. precision lost), before columns are known. */
export interface CellIssue {
  /** 1-based sheet row number. */
  row: number;
  /** 0-based column index in the sheet row. */
  col: number;
  message: string;
}

/** The result of reading a sheet: trimmed strings, fully blank rows skipped. */
export interface SheetTable {
  headers: string[];
  rows: string[][];
  /** 1-based sheet row number of the header row. */
  headerRow: number;
  /** Sheet row number of each entry of rows (blank rows are skipped, so not always headerRow + i + 1). */
  rowNumbers: number[];
  /** Cell-level problems found while reading (e.g. an 18-digit ID stored as a number). */
  issues: CellIssue[];
}

export interface PreviewRow {
  row: number;
  values: Record<string, string>;
}

export interface DuplicateRow {
  row: number;
  /** Row of the first occurrence within the file; absent when it duplicates an existing key. */
  firstRow?: number;
  column: string;
  message: string;
}

/**
 * How many rows are in each category. Every row is in exactly one, so they add up to total: 有误 (any
 * error, also when it is a duplicate too), 重复 (a duplicate in the file or already insured, no error),
 * 有效 (neither).
 */
export interface PreviewCounts {
  total: number;
  valid: number;
  errors: number;
  duplicates: number;
}

export interface Preview {
  /** Number of data rows read (blank rows excluded). */
  total: number;
  counts: PreviewCounts;
  /** Rows without any error or duplicate: the ones that can be confirmed. */
  valid: PreviewRow[];
  errors: CellError[];
  duplicates: DuplicateRow[];
  headerRow: number;
  /** Header texts that matched no column (ignored). */
  unknownHeaders: string[];
}

/** A preview plus what an upload keeps of the file (parseRosterInWorker with rowsOut / pageSize / errorWorkbook). */
export interface ParsedRoster extends Preview {
  /** Every data row's values in the order of the columns given (index i ↔ rowNumbers[i]). */
  rows?: string[][];
  rowNumbers?: number[];
  /**
   * With pageSize: the rows as JSON texts of RosterPage, pageSize rows each, built in the worker so the
   * gateway's thread never parses or serialises them; `valid`, `errors` and `duplicates` are then left
   * empty (they are in the pages; `counts` says how many).
   */
  pages?: string[];
  /** The uploaded rows with an error column (.xlsx), when any row has an error or duplicate. */
  errorWorkbook?: Uint8Array;
  /** Milliseconds the parse process spent on each step (for the gateway's log). */
  timings?: ParseTimings;
}

/** Where a parse process's time went, in milliseconds from its job's arrival. */
export interface ParseTimings {
  /** Reading the file into rows of text. */
  read: number;
  /** The row rules and in-file duplicates. */
  check: number;
  /** Waiting, after the rules, for the gateway's answer on the keys already insured. */
  probeWait: number;
  /** The result as pages (and the error workbook). */
  output: number;
}

/** One page of a parsed roster: rows in the order of the columns, with their errors and duplicates. */
export interface RosterPage {
  rowNumbers: number[];
  rows: string[][];
  errors: CellError[];
  duplicates: DuplicateRow[];
}

export interface Progress {
  done: number;
  total: number;
  percent: number;
}

/** Limits of one roster upload. */
export const MAX_ROWS = 50_000;
export const MAX_BYTES = 10 * 1024 * 1024;
/**
 * What a zip package (xlsx, docx) may hold once inflated, checked before any parser opens it: a 50,000-row
 * roster of four columns is 12 MB of XML, so 100 MB leaves room for wide sheets and refuses zip bombs.
 */
export const MAX_UNZIPPED_BYTES = 100 * 1024 * 1024;
export const MAX_ZIP_ENTRIES = 1000;

export type SheetErrorCode = 'TOO_LARGE' | 'TOO_MANY_ROWS' | 'EMPTY' | 'HEADER_MISSING' | 'UNREADABLE' | 'UNSUPPORTED' | 'TIMEOUT' | 'INTERNAL';

/** A file-level refusal; message is for the user (Simplified Chinese). */
export class SheetError extends Error {
  readonly code: SheetErrorCode;
  constructor(code: SheetErrorCode, message: string) {
    super(message);
    this.name = 'SheetError';
    this.code = code;
  }
}

/** `n`: the rows counted, or a phrase such as '超过 50000' when reading stopped at the limit. */
export function tooManyRowsMessage(n: number | string, max = MAX_ROWS): string {
  return `单个文件最多 ${max} 行，当前 ${n} 行`;
}

export function tooLargeMessage(maxBytes = MAX_BYTES): string {
  const mb = maxBytes / (1024 * 1024);
  return `文件过大，最大 ${Number.isInteger(mb) ? mb : mb.toFixed(1)} MB`;
}
