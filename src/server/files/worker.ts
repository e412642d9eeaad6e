/**
 * The parse process of parseRosterInWorker: read → map → validate, sending progress to the gateway.
 * Started with child_process.fork, bundled as plain JavaScript (plain-js.ts) or on tsx; never import this
 * from the gateway.
 */
import { pathToFileURL } from 'node:url';
import { readSheet } from './roster-read.ts';
import { mapColumns, requireColumns } from './roster-map.ts';
import { checkRowsYielding, markCovered, normKey, previewErrors } from './roster-validate.ts';
import { SheetError, type ParsedRoster, type ParseTimings, type Preview, type ProbedKey, type RosterPage, type RowValidator, type SheetColumn, type SheetTable } from './types.ts';

export interface ValidatorModuleRef {
  /** Absolute file path or file: URL of a module (TypeScript allowed). */
  path: string;
  /** Export called with `args` to obtain the RowValidator (may return a Promise). */
  exportName: string;
  /** Structured-cloneable arguments for the factory. */
  args?: unknown;
}

export interface WorkerJob {
  buffer: Uint8Array;
  ext: string;
  columns: SheetColumn[];
  keyColumn: string;
  /**
   * Ask the parent which of the file's keys are already insured (a `probe` message answered by a
   * `covered` one) once the file is read; without it no key counts as insured.
   */
  probeKeys?: boolean;
  validatorModule: ValidatorModuleRef;
  maxRows?: number;
  progressEvery?: number;
  /** Also return every row's values in column order (ParsedRoster.rows). */
  rowsOut?: boolean;
  /** Return the rows as JSON pages of this many rows instead (ParsedRoster.pages). */
  pageSize?: number;
  /** Also build the error workbook when a row has an error or duplicate. */
  errorWorkbook?: boolean;
}

export type WorkerMessage =
  | { type: 'ready' }
  | { type: 'progress'; done: number; total: number }
  | { type: 'probe'; keys: string[] }
  | { type: 'result'; preview: ParsedRoster }
  | { type: 'error'; code: string; message: string; detail?: string };

async function loadValidator(ref: ValidatorModuleRef): Promise<RowValidator> {
  const url = /^file:/.test(ref.path) ? ref.path : pathToFileURL(ref.path).href;
  const mod = (await import(url)) as Record<string, unknown>;
  const factory = mod[ref.exportName];
  if (typeof factory !== 'function') throw new Error(`${ref.path} has no function export "${ref.exportName}"`);
  const validator = await (factory as (args: unknown) => unknown)(ref.args);
  if (typeof validator !== 'function') throw new Error(`${ref.exportName}() did not return a function`);
  return validator as RowValidator;
}

/** The parent's job for a worker that said it is ready (one job per worker). */
export interface JobMessage {
  type: 'job';
  job: WorkerJob;
}

/** The parent's answer to a `probe`: the keys among them already insured, or with the reason they cannot be. */
export interface CoveredMessage {
  type: 'covered';
  keys: ProbedKey[];
}

/** Every distinct non-empty key of the file (trimmed, upper case), sent to the parent; resolves to its answer. */
function probeCovered(table: { headers: string[]; rows: string[][] }, job: WorkerJob): Promise<ProbedKey[]> {
  const at = requireColumns(table.headers, job.columns).index[job.keyColumn];
  const keys = new Set<string>();
  if (at !== undefined) for (const cells of table.rows) if (cells[at]) keys.add(normKey(cells[at]));
  keys.delete('');
  return new Promise((resolve) => {
    process.once('message', (m: CoveredMessage) => resolve(m.keys));
    post({ type: 'probe', keys: [...keys] });
  });
}

/** A sheet row's cells in the order of the columns ('' for a column the sheet lacks). */
function inColumnOrder(table: Pick<SheetTable, 'headers'>, columns: readonly SheetColumn[]): (cells: string[]) => string[] {
  const { index } = mapColumns(table.headers, columns);
  const at = columns.map((c) => index[c.key]);
  return (cells) => at.map((i) => (i === undefined ? '' : (cells[i] ?? '')));
}

/** The rows with their errors and duplicates as RosterPage JSON texts of `size` rows each. */
function pagesOf(table: SheetTable, preview: Preview, columns: readonly SheetColumn[], size: number): string[] {
  const ordered = inColumnOrder(table, columns);
  const pages: RosterPage[] = [];
  const pageOfRow = new Map<number, RosterPage>();
  table.rows.forEach((cells, i) => {
    const page = (pages[Math.floor(i / size)] ??= { rowNumbers: [], rows: [], errors: [], duplicates: [] });
    page.rowNumbers.push(table.rowNumbers[i]);
    page.rows.push(ordered(cells));
    pageOfRow.set(table.rowNumbers[i], page);
  });
  for (const e of preview.errors) pageOfRow.get(e.row)?.errors.push(e);
  for (const d of preview.duplicates) pageOfRow.get(d.row)?.duplicates.push(d);
  return pages.map((p) => JSON.stringify(p));
}

/** To the gateway, unless it went away meanwhile (e.g. while the reader loads): then nobody is listening. */
const post = (m: WorkerMessage) => {
  if (process.connected) process.send!(m);
};

async function run(job: WorkerJob): Promise<WorkerMessage> {
  let lap = performance.now();
  const since = () => {
    const now = performance.now();
    const ms = Math.round(now - lap);
    lap = now;
    return ms;
  };
  const buffer = Buffer.from(job.buffer.buffer, job.buffer.byteOffset, job.buffer.byteLength);
  const [validateRow, table] = await Promise.all([
    loadValidator(job.validatorModule),
    readSheet(buffer, job.ext, { columns: job.columns, maxRows: job.maxRows }),
  ]);
  const timings: ParseTimings = { read: since(), check: 0, probeWait: 0, output: 0 };
  post({ type: 'progress', done: 0, total: table.rows.length });
  // The gateway looks the file's keys up while the rows are checked here.
  const covered = job.probeKeys ? probeCovered(table, job) : undefined;
  // In slices, so the key lookup asked for above (a message of some 1 MB) leaves at once and progress as it is made.
  const checked = await checkRowsYielding({
    table,
    columns: job.columns,
    validateRow,
    keyColumn: job.keyColumn,
    progressEvery: job.progressEvery ?? 1000,
    onProgress: (done, total) => post({ type: 'progress', done, total }),
  });
  timings.check = since();
  if (covered) markCovered(checked, job.keyColumn, await covered);
  timings.probeWait = since();
  const { preview } = checked;
  const out: ParsedRoster = job.pageSize ? { ...preview, valid: [], errors: [], duplicates: [], pages: pagesOf(table, preview, job.columns, job.pageSize) } : preview;
  if (job.rowsOut) {
    out.rows = table.rows.map(inColumnOrder(table, job.columns));
    out.rowNumbers = table.rowNumbers;
  }
  if (job.errorWorkbook && (preview.errors.length || preview.duplicates.length)) {
    // exceljs (about half a second to load) only when there is an error workbook to write.
    const { errorWorkbook } = await import('./workbooks.ts');
    const wb = await errorWorkbook({
      columns: job.columns,
      rows: table.rows,
      headers: table.headers,
      headerRow: table.headerRow,
      rowNumbers: table.rowNumbers,
      errors: previewErrors(preview, job.columns),
    });
    out.errorWorkbook = new Uint8Array(wb.buffer, wb.byteOffset, wb.byteLength);
  }
  timings.output = since();
  out.timings = timings;
  return { type: 'result', preview: out };
}

if (process.send) {
  // The gateway went away: nothing left to parse for.
  process.on('disconnect', () => process.exit(0));
  process.once('message', ({ job }: JobMessage) =>
    run(job).then(post, (err: unknown) =>
      post(
        err instanceof SheetError
          ? { type: 'error', code: err.code, message: err.message }
          : { type: 'error', code: 'INTERNAL', message: '文件解析失败，请稍后重试', detail: err instanceof Error ? err.stack : String(err) },
      ),
    ),
  );
  // The .xlsx reader is loaded before saying ready: a process started ahead of its job (prewarmParseWorker) has it at
  // hand. SheetJS (about 0.1 s to load) only when a file needs it: .xls, or an .xlsx that reader declines.
  await import('./xlsx-sheet.ts');
  post({ type: 'ready' });
}
