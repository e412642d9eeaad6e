import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import { MAX_BYTES, MAX_ROWS, SheetError, tooLargeMessage, type ParsedRoster, type Progress, type SheetColumn, type SheetErrorCode } from './types.ts';
import type { CoveredMessage, JobMessage, ValidatorModuleRef, WorkerJob, WorkerMessage } from './worker.ts';

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
   * to the ones already insured (「该人员已在保」). Only the file's own keys are looked up.
   */
  coveredKeys?: (keys: string[]) => Promise<Iterable<string>>;
  /** Module loaded inside the worker to obtain the RowValidator (functions cannot cross threads). */
  validatorModule: ValidatorModuleRef;
  maxRows?: number;
  maxBytes?: number;
  /** Kill the worker after this long (default 120 s). */
  timeoutMs?: number;
  /** Heap limit of the worker (default 512 MB): a hostile file cannot take the gateway down. */
  maxHeapMb?: number;
  /** Also return every row's values in column order (ParsedRoster.rows / rowNumbers). */
  rowsOut?: boolean;
  /** Return the rows as JSON pages of this many rows (ParsedRoster.pages) instead of valid/errors/duplicates. */
  pageSize?: number;
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

/**
 * Parse workers of one gateway process: PARSE_WORKERS, else CPUs − 1 between 2 and 4. At least two, so
 * one business (whose uploads are parsed one at a time, routes/insure-upload-queue.ts) never holds them all.
 */
export function parseSlots(env: NodeJS.ProcessEnv = process.env): number {
  const n = Number(env.PARSE_WORKERS);
  return Number.isInteger(n) && n >= 1 ? Math.min(n, 16) : Math.max(2, Math.min(4, availableParallelism() - 1));
}

// At most this many parses run at once; the rest wait, so big uploads cannot starve the CPU.
let maxParallel = parseSlots();
let running = 0;
const waiting: Array<() => void> = [];

/** Change how many parse workers may run at the same time (default: parseSlots()). */
export function setMaxParallelParses(n: number): void {
  maxParallel = Math.max(1, Math.floor(n));
}

const DEFAULT_HEAP_MB = 512;
/** A standby worker nobody took is ended after this long, so an idle gateway holds no parse worker. */
const STANDBY_IDLE_MS = 30_000;

interface Booting {
  worker: Worker;
  /** Resolves once the worker has loaded its code and waits for a job; rejects if it died first. */
  ready: Promise<void>;
}

function bootWorker(maxHeapMb: number): Booting {
  const worker = new Worker(BOOT, { workerData: { entry: ENTRY }, resourceLimits: { maxOldGenerationSizeMb: maxHeapMb } });
  const ready = new Promise<void>((resolve, reject) => {
    const onMessage = (m: WorkerMessage) => {
      if (m.type !== 'ready') return;
      worker.off('message', onMessage);
      resolve();
    };
    worker.on('message', onMessage);
    worker.once('error', reject);
    worker.once('exit', (code) => reject(new Error(`parse worker exited (${code}) before its job`)));
  });
  ready.catch(() => undefined); // seen by whoever takes the worker
  return { worker, ready };
}

let standby: (Booting & { timer: NodeJS.Timeout }) | null = null;

/**
 * Starts a worker now, for the parse about to come (e.g. when an upload's request arrives): it loads
 * its code (about half a second of CPU) while the file is received, checked and stored. Ended if no
 * parse takes it within STANDBY_IDLE_MS.
 */
export function prewarmParseWorker(): void {
  if (standby) return;
  const b = bootWorker(DEFAULT_HEAP_MB);
  const timer = setTimeout(() => {
    if (standby?.worker === b.worker) standby = null;
    void b.worker.terminate();
  }, STANDBY_IDLE_MS);
  timer.unref();
  b.worker.unref();
  standby = { ...b, timer };
}

function takeWorker(maxHeapMb: number): Booting {
  const s = standby;
  if (s && maxHeapMb === DEFAULT_HEAP_MB) {
    standby = null;
    clearTimeout(s.timer);
    s.worker.ref();
    return s;
  }
  return bootWorker(maxHeapMb);
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
        pageSize: opts.pageSize,
        errorWorkbook: opts.errorWorkbook,
      };
      const { worker, ready } = takeWorker(opts.maxHeapMb ?? DEFAULT_HEAP_MB);
      return await new Promise<ParsedRoster>((resolve, reject) => {
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
          else if (m.type === 'error') {
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
        // The job (and the file's bytes, moved, not copied) once the worker has loaded its code.
        ready.then(
          () => {
            if (!settled) worker.postMessage({ type: 'job', job } satisfies JobMessage, [bytes.buffer as ArrayBuffer]);
          },
          (e: unknown) => {
            const err = new SheetError('INTERNAL', '文件解析失败，请稍后重试');
            err.cause = e;
            finish(err);
          },
        );
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
