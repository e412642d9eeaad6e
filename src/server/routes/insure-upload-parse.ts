/**
 * The background part of a roster upload: parse + map + validate in a worker thread
 * (parseRosterInWorker), writing progress, the result and the error workbook to the database and the
 * file storage. The HTTP request that uploaded the file has already answered; whatever gateway
 * process the browser polls reads the state from insure_uploads.
 */
import { fileURLToPath } from 'node:url';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../db.ts';
import type { EntityRegistry } from '../../shared/entity/registry.ts';
import { parseRosterInWorker, type ParseTask } from '../files/parse-in-worker.ts';
import type { FileStorage } from '../files/storage.ts';
import { SheetError, type ParsedRoster, type ProbedKey } from '../files/types.ts';
import { rosterColumns, rosterFields, type UploadResult } from './insure-upload-store.ts';

const VALIDATOR = fileURLToPath(new URL('../files/roster-schema.ts', import.meta.url));
const HEARTBEAT_MS = 5000;

export interface ParseJob {
  id: number;
  buffer: Buffer;
  ext: string;
  /** Storage key of the original; the error workbook goes next to it. */
  fileKey: string;
  /** The ones among the file's ID numbers already covered by the upload's plan in its period. */
  coveredKeys: (idCards: string[]) => Promise<Iterable<ProbedKey>>;
}

export interface ParseDeps {
  db: Db;
  /** The gateway's entity schemas: the roster's columns and row rules. */
  registry: EntityRegistry;
  storage: FileStorage;
  log: FastifyBaseLogger;
}

/** Rows with at least one error / duplicate entry. */
function distinctRows(list: Array<{ row: number }>): number {
  return new Set(list.map((e) => e.row)).size;
}

function toResult(p: ParsedRoster, registry: EntityRegistry): UploadResult {
  const columns = rosterColumns(registry);
  return {
    columns: columns.map((c) => ({ key: c.key, label: c.label })),
    headerRow: p.headerRow,
    unknownHeaders: p.unknownHeaders,
    total: p.total,
    rowNumbers: p.rowNumbers ?? [],
    rows: p.rows ?? [],
    errors: p.errors,
    duplicates: p.duplicates,
  };
}

/** Starts the background parse of an upload; resolves when its outcome is stored (never rejects). */
export function startParse(deps: ParseDeps, job: ParseJob): { task: ParseTask; done: Promise<void> } {
  const { db, storage, log, registry } = deps;
  const task = parseRosterInWorker({
    buffer: job.buffer,
    ext: job.ext,
    columns: rosterColumns(registry),
    keyColumn: 'idCard',
    coveredKeys: job.coveredKeys,
    validatorModule: { path: VALIDATOR, exportName: 'createFieldsValidator', args: { fields: rosterFields(registry) } },
    rowsOut: true,
    errorWorkbook: true,
  });

  // Progress writes run one after another, so a late write never moves the counter back.
  let chain: Promise<unknown> = Promise.resolve();
  const write = (sql: string, params: unknown[]) => {
    chain = chain.then(() => db.query(sql, params)).catch((err: unknown) => log.warn({ err, upload: job.id }, 'upload progress not stored'));
    return chain;
  };
  task.onProgress((p) => {
    void write(
      `UPDATE insure_uploads SET rows_done = $2, rows_total = $3, updated_at = now() WHERE id = $1 AND status = 'parsing'`,
      [job.id, p.done, p.total],
    );
  });
  // While the file is read there is no row progress: keep the upload's heartbeat fresh.
  const beat = setInterval(() => void write(`UPDATE insure_uploads SET updated_at = now() WHERE id = $1 AND status = 'parsing'`, [job.id]), HEARTBEAT_MS);
  beat.unref();

  const done = (async () => {
    try {
      const parsed = await task.result;
      clearInterval(beat);
      let errorKey: string | null = null;
      if (parsed.errorWorkbook) {
        errorKey = job.fileKey.replace(/\.[A-Za-z0-9]+$/, '') + '-errors.xlsx';
        await storage.put(errorKey, Buffer.from(parsed.errorWorkbook));
      }
      const result = toResult(parsed, registry);
      await chain;
      await db.query(
        `UPDATE insure_uploads SET status = 'ready', rows_done = $2, rows_total = $2, valid_count = $3, error_count = $4,
                duplicate_count = $5, result = $6::jsonb, error_key = $7, updated_at = now()
          WHERE id = $1 AND status = 'parsing'`,
        [job.id, parsed.total, parsed.valid.length, distinctRows(parsed.errors), distinctRows(parsed.duplicates), JSON.stringify(result), errorKey],
      );
    } catch (err) {
      clearInterval(beat);
      const message = err instanceof SheetError ? err.message : '文件解析失败，请稍后重试';
      if (!(err instanceof SheetError) || err.code === 'INTERNAL') log.error({ err, upload: job.id }, 'roster parse failed');
      await chain;
      await db
        .query(`UPDATE insure_uploads SET status = 'failed', error = $2, updated_at = now() WHERE id = $1 AND status = 'parsing'`, [job.id, message])
        .catch((e: unknown) => log.error({ err: e, upload: job.id }, 'upload failure not stored'));
    }
  })();
  return { task, done };
}
