/**
 * Parsing a roster file in a parse process: a child process of the gateway (child_process.fork, with a
 * heap limit), one per parse, ended when it is done. A process rather than a worker thread: when it
 * exits, all of its memory goes back to the system. The buffers a 50,000-row parse allocates in a
 * thread stayed in the gateway's malloc arenas (40–85 MiB of RSS kept after one upload), and a hostile
 * file that exhausts the heap ends the parse process, never the gateway.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { createRequire } from 'node:module';
import { availableParallelism } from 'node:os';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { plainModule, preparePlainModules } from './plain-js.ts';
import { MAX_BYTES, MAX_ROWS, SheetError, tooLargeMessage, type ParsedRoster, type ProbedKey, type Progress, type SheetColumn, type SheetErrorCode } from './types.ts';
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
   * to the ones already insured (「该人员已在保」) or, as [key, reason], that cannot be insured (outside
   * the plan's ages). Only the file's own keys are looked up.
   */
  coveredKeys?: (keys: string[]) => Promise<Iterable<ProbedKey>>;
  /** Module loaded inside the parse process to obtain the RowValidator (functions cannot cross processes). */
  validatorModule: ValidatorModuleRef;
  maxRows?: number;
  maxBytes?: number;
  /** Kill the parse process after this long (default 120 s). */
  timeoutMs?: number;
  /** Heap limit of the parse process (default 512 MB): a hostile file cannot take the gateway down. */
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

const ENTRY = fileURLToPath(new URL('./worker.ts', import.meta.url));
/** tsx's loader, for a parse process that runs the TypeScript entry as the gateway does (when plainModule has none). */
const TSX = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;

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
  worker: ChildProcess;
  /** Runs the entry bundled as plain JavaScript (plain-js.ts): its validator module must be bundled too. */
  plain: boolean;
  /** Resolves once the process has loaded its code and waits for a job; rejects if it died first. */
  ready: Promise<void>;
}

function bootWorker(maxHeapMb: number, plain = true): Booting {
  const entry = plain ? plainModule(ENTRY) : undefined;
  const worker = fork(entry ?? ENTRY, [], {
    execArgv: [...(entry ? [] : ['--import', TSX]), `--max-old-space-size=${maxHeapMb}`],
    serialization: 'advanced', // structured clone: Uint8Array and large strings as they are
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  const ready = new Promise<void>((resolve, reject) => {
    const onMessage = (m: WorkerMessage) => {
      if (m.type !== 'ready') return;
      worker.off('message', onMessage);
      resolve();
    };
    worker.on('message', onMessage);
    worker.once('error', reject);
    worker.once('exit', (code, signal) => reject(new Error(`parse process exited (${code ?? signal}) before its job`)));
  });
  ready.catch(() => undefined); // seen by whoever takes the process
  return { worker, ready, plain: entry !== undefined };
}

const end = (w: ChildProcess) => {
  if (w.exitCode === null && w.signalCode === null) w.kill('SIGKILL');
};

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
    end(b.worker);
  }, STANDBY_IDLE_MS);
  timer.unref();
  b.worker.unref();
  b.worker.channel?.unref();
  standby = { ...b, timer };
}

/** A parse process for a job: the standby one when it fits (its heap; plain JavaScript only if the validator has a bundle). */
function takeWorker(maxHeapMb: number, plain: boolean): Booting {
  const s = standby;
  if (s && maxHeapMb === DEFAULT_HEAP_MB && (plain || !s.plain)) {
    standby = null;
    clearTimeout(s.timer);
    s.worker.ref();
    s.worker.channel?.ref();
    return s;
  }
  return bootWorker(maxHeapMb, plain);
}

/** Bundles the parse process's entry and these validator modules ahead (plain-js.ts preparePlainModules). */
export function prepareParseCode(validatorPaths: string[]): void {
  preparePlainModules([ENTRY, ...validatorPaths]);
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
 * Parse, map and validate a roster file in a parse process, so the gateway keeps serving other
 * requests while a 50,000-row file is checked (and gets its memory back afterwards).
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
      const job: WorkerJob = {
        buffer: new Uint8Array(opts.buffer.buffer, opts.buffer.byteOffset, opts.buffer.byteLength),
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
      // A parse process on plain JavaScript loads the validator's bundle; one on tsx its TypeScript.
      const validatorJs = plainModule(opts.validatorModule.path);
      const { worker, ready, plain } = takeWorker(opts.maxHeapMb ?? DEFAULT_HEAP_MB, validatorJs !== undefined);
      if (plain) job.validatorModule = { ...opts.validatorModule, path: validatorJs! };
      return await new Promise<ParsedRoster>((resolve, reject) => {
        let settled = false;
        const finish = (err: SheetError | null, preview?: ParsedRoster) => {
          if (settled) return;
          settled = true;
          clearTimeout(timer);
          end(worker);
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
                if (!settled) worker.send({ type: 'covered', keys: [...covered] } satisfies CoveredMessage);
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
        worker.on('error', (e: Error) => {
          const err = new SheetError('INTERNAL', '文件解析失败，请稍后重试');
          err.cause = e;
          finish(err);
        });
        worker.on('exit', (code, signal) => {
          // V8 aborts a process whose heap is full (SIGABRT, or exit code 134 through a shell).
          const oom = signal === 'SIGABRT' || code === 134;
          const err = oom ? new SheetError('TOO_LARGE', '文件内容过多，无法解析，请拆分后上传') : new SheetError('INTERNAL', `文件解析失败，请稍后重试（parse process exit ${code ?? signal}）`);
          finish(err);
        });
        // The job once the process has loaded its code.
        ready.then(
          () => {
            if (!settled) worker.send({ type: 'job', job } satisfies JobMessage);
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
