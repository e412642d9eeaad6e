/**
 * Worker-thread side of parseRosterInWorker: read → map → validate, posting progress.
 * Started through worker-boot.mjs (registers tsx); never import this from the main thread.
 */
import { isMainThread, parentPort, workerData } from 'node:worker_threads';
import { pathToFileURL } from 'node:url';
import { readSheet } from './roster-read.ts';
import { mapColumns, requireColumns } from './roster-map.ts';
import { buildPreview, normKey, previewErrors } from './roster-validate.ts';
import { errorWorkbook } from './workbooks.ts';
import { SheetError, type ParsedRoster, type ProbedKey, type RowValidator, type SheetColumn } from './types.ts';

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
  /** Also build the error workbook when a row has an error or duplicate. */
  errorWorkbook?: boolean;
}

export type WorkerMessage =
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
    parentPort!.once('message', (m: CoveredMessage) => resolve(m.keys));
    parentPort!.postMessage({ type: 'probe', keys: [...keys] } satisfies WorkerMessage);
  });
}

async function run(job: WorkerJob): Promise<WorkerMessage> {
  const post = (m: WorkerMessage) => parentPort!.postMessage(m);
  const buffer = Buffer.from(job.buffer.buffer, job.buffer.byteOffset, job.buffer.byteLength);
  const [validateRow, table] = await Promise.all([
    loadValidator(job.validatorModule),
    readSheet(buffer, job.ext, { columns: job.columns, maxRows: job.maxRows }),
  ]);
  post({ type: 'progress', done: 0, total: table.rows.length });
  const existingKeys = job.probeKeys ? await probeCovered(table, job) : undefined;
  const preview = buildPreview({
    table,
    columns: job.columns,
    validateRow,
    keyColumn: job.keyColumn,
    existingKeys,
    progressEvery: job.progressEvery ?? 1000,
    onProgress: (done, total) => post({ type: 'progress', done, total }),
  });
  const out: ParsedRoster = preview;
  if (job.rowsOut) {
    const { index } = mapColumns(table.headers, job.columns);
    const at = job.columns.map((c) => index[c.key]);
    out.rows = table.rows.map((cells) => at.map((i) => (i === undefined ? '' : (cells[i] ?? ''))));
    out.rowNumbers = table.rowNumbers;
  }
  if (job.errorWorkbook && (preview.errors.length || preview.duplicates.length)) {
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
  return { type: 'result', preview: out };
}

if (!isMainThread && parentPort) {
  const job = (workerData as { job: WorkerJob }).job;
  run(job).then(
    (m) => parentPort!.postMessage(m),
    (err: unknown) => {
      const msg: WorkerMessage =
        err instanceof SheetError
          ? { type: 'error', code: err.code, message: err.message }
          : { type: 'error', code: 'INTERNAL', message: '文件解析失败，请稍后重试', detail: err instanceof Error ? err.stack : String(err) };
      parentPort!.postMessage(msg);
    },
  );
}
