import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import { MAX_BYTES, MAX_ROWS, SheetError, tooLargeMessage, type ParsedRoster, type ProbedKey, type Progress, type SheetColumn, type SheetErrorCode } from './types.ts';
import type { CoveredMessage, ValidatorModuleRef, WorkerJob, WorkerMessage } from './worker.ts';

export { MAX_BYTES, MAX_ROWS, SheetError };
export type { ValidatorModuleRef };

export interface ParseRosterOptions {
  buffer: Buffer;
  /** 'xlsx' | 'xls' | 'csv' (as returned by checkUpload). */
  ext: string;
  columns: SheetColumn[];
  keyColumn: string;
  /**
   * Called once, after the file is read, with each distinct key in it (trimmed, upper case); resolves
   * to the ones already insured (「该人员已在保」) or, as [key, reason], that cannot be insured (outside
   * the plan's ages). Only the file's own keys are looked up.
   */
  coveredKeys?: (keys: string[]) => Promise<Iterable<ProbedKey>>;
  /** Module loaded inside the worker to obtain the RowValidator (functions cannot cross threads). */
  validatorModule: ValidatorModuleRef;
  maxRows?: number;
  maxBytes?: number;
  /** Kill the worker after this long (default 120 s). */
  timeoutMs?: number;
  /** Heap limit of the worker (default 1536 MB): a hostile file cannot take the gateway down. */
  maxHeapMb?: number;
  /** Also return every row's values in column order (ParsedRoster.rows / rowNumbers). */
  rowsOut?: boolean;
  /** Also build the error workbook (ParsedRoster.errorWorkbook) when a row has an error or duplicate. */
  errorWorkbook?: boolean;
}

export interface ParseTask {
  /** Register a progress listener ({ done, total, percent } at least every 1,000 rows). */
  onProgress(cb: (p: Progress) => void): ParseTask;
  /** The preview; rejects with a SheetError whose message is for the user. */
  result: Promise<ParsedRoster>;
  /** Stop the parse (result rejects with code 'INTERNAL'). */
  cancel(): void;
}

const BOOT = new URL('./worker-boot.mjs', import.meta.url);
const ENTRY = new URL('./worker.ts', import.meta.url).href;

// At most this many parses run at once; the rest wait, so big uploads cannot starve the CPU.
let maxParallel = Math.max(1, Math.min(4, availableParallelism() - 1));
let running = 0;
const waiting: Array<() => void> = [];

/** Change how many parse workers may run at the same time (default: CPUs − 1, 1 to 4). */
export function setMaxParallelParses(n: number): void {
  maxParallel = Math.max(1, Math.floor(n));
}

function acquire(): Promise<void> {
  if (running < maxParallel) {
    running++;
    return Promise.resolve();
  }
  return new Promise((resolve) => waiting.push(resolve));
}

function release(): void {
  const next = waiting.shift();
  if (next) next();
  else running--;
}

/**
 * Parse, map and validate a roster file in a worker thread, so the gateway keeps serving
 * other requests while a 50,000-row file is checked.
 */
export function parseRosterInWorker(opts: ParseRosterOptions): ParseTask {
  const listeners: Array<(p: Progress) => void> = [];
  let cancelled = false;
  let stop: (() => void) | undefined;

  const result = (async (): Promise<ParsedRoster> => {
    const maxBytes = opts.maxBytes ?? MAX_BYTES;
    if (opts.buffer.length > maxBytes) throw new SheetError('TOO_LARGE', tooLargeMessage(maxBytes));
    await acquire();
    try {
      if (cancelled) throw new SheetError('INTERNAL', '解析已取消');
      // Copy into a fresh buffer we can transfer (the upload's Buffer may share a larger pool).
      const bytes = new Uint8Array(opts.buffer);
      const job: WorkerJob = {
        buffer: bytes,
        ext: opts.ext,
        columns: opts.columns,
        keyColumn: opts.keyColumn,
        probeKeys: opts.coveredKeys !== undefined,
        validatorModule: opts.validatorModule,
        maxRows: opts.maxRows ?? MAX_ROWS,
        rowsOut: opts.rowsOut,
        errorWorkbook: opts.errorWorkbook,
      };
      return await new Promise<ParsedRoster>((resolve, reject) => {
        const worker = new Worker(BOOT, {
          workerData: { entry: ENTRY, job },
          transferList: [bytes.buffer as ArrayBuffer],
          resourceLimits: { maxOldGenerationSizeMb: opts.maxHeapMb ?? 1536 },
        });
        let settled = false;
        const finish = (err: SheetError | null, preview?: ParsedRoster) => {
          if (settled) return;
          settled = true;
          clearTimeout(timer);
          void worker.terminate();
          if (err) reject(err);
          else resolve(preview!);
        };
        const timer = setTimeout(() => finish(new SheetError('TIMEOUT', '文件解析超时，请减少行数后重试')), opts.timeoutMs ?? 120_000);
        stop = () => finish(new SheetError('INTERNAL', '解析已取消'));
        worker.on('message', (m: WorkerMessage) => {
          if (m.type === 'progress') {
            const p: Progress = { done: m.done, total: m.total, percent: m.total ? Math.floor((m.done * 100) / m.total) : 100 };
            for (const cb of listeners) cb(p);
          } else if (m.type === 'probe') {
            opts.coveredKeys!(m.keys).then(
              (covered) => {
                if (!settled) worker.postMessage({ type: 'covered', keys: [...covered] } satisfies CoveredMessage);
              },
              (e: unknown) => {
                const err = new SheetError('INTERNAL', '文件解析失败，请稍后重试');
                err.cause = e;
                finish(err);
              },
            );
          } else if (m.type === 'result') finish(null, m.preview);
          else {
            const err = new SheetError(m.code as SheetErrorCode, m.message);
            if (m.detail) err.cause = m.detail;
            finish(err);
          }
        });
        worker.on('error', (e: Error & { code?: string }) => {
          const oom = e.code === 'ERR_WORKER_OUT_OF_MEMORY';
          const err = new SheetError(oom ? 'TOO_LARGE' : 'INTERNAL', oom ? '文件内容过多，无法解析，请拆分后上传' : '文件解析失败，请稍后重试');
          err.cause = e;
          finish(err);
        });
        worker.on('exit', (code) => finish(new SheetError('INTERNAL', `文件解析失败，请稍后重试（worker exit ${code}）`)));
      });
    } finally {
      release();
    }
  })();

  const task: ParseTask = {
    onProgress(cb) {
      listeners.push(cb);
      return task;
    },
    result,
    cancel() {
      cancelled = true;
      stop?.();
    },
  };
  return task;
}
