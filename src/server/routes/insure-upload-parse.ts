/**
 * The background part of a roster upload, for an upload this gateway process has claimed from the
 * queue (insure-upload-queue.ts): the original is read from the file storage and parsed, mapped and
 * validated in a worker thread (parseRosterInWorker), progress and a heartbeat go to insure_uploads,
 * then the result: its rows in pages (insure_upload_pages), its head and counts on the upload, the
 * error workbook in the file storage. Every write is guarded by the claim's token, so a parse whose
 * upload was given back (its process closing, or its heartbeat gone stale) can no longer change it.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../db.ts';
import { HttpError } from '../http/errors.ts';
import type { EntityRegistry } from '../../shared/entity/registry.ts';
import { parseRosterInWorker, type ParseTask } from '../files/parse-in-worker.ts';
import { streamToBuffer, type FileStorage } from '../files/storage.ts';
import { MAX_BYTES, SheetError, type ParsedRoster } from '../files/types.ts';
import { ROSTER_VALIDATOR } from '../files/roster-schema.ts';
import type { ResultHead } from '../../shared/roster-result.ts';
import { PAGE_SIZE, rosterColumns, rosterFields, rosterPlan, refusedIdCards } from './insure-upload-store.ts';

const HEARTBEAT_MS = 5000;

/** An upload claimed for parsing (the queue's claim). */
export interface ParseClaim {
  id: number;
  /** The claim's token (insure_uploads.parse_owner while it runs). */
  token: string;
  businessId: string;
  fileKey: string;
  ext: string;
  planName: string;
  startDate: string;
}

export interface ParseDeps {
  db: Db;
  /** The gateway's entity schemas: the roster's columns and row rules. */
  registry: EntityRegistry;
  storage: FileStorage;
  log: FastifyBaseLogger;
}

function head(p: ParsedRoster, registry: EntityRegistry): ResultHead {
  return {
    columns: rosterColumns(registry).map((c) => ({ key: c.key, label: c.label })),
    headerRow: p.headerRow,
    unknownHeaders: p.unknownHeaders,
    total: p.total,
    pageSize: PAGE_SIZE,
    pages: p.pages?.length ?? 0,
  };
}

/** The message a failed parse leaves on the upload. */
function failureMessage(err: unknown): string {
  if (err instanceof SheetError || err instanceof HttpError) return err.message;
  return '文件解析失败，请稍后重试';
}

/** Parses a claimed upload; `done` resolves when its outcome is stored (never rejects). */
export function startParse(deps: ParseDeps, claim: ParseClaim): { cancel(): void; done: Promise<void> } {
  const { db, storage, log, registry } = deps;
  const guard = `WHERE id = $1 AND status = 'parsing' AND parse_owner = $2`;
  const ids = [claim.id, claim.token];
  let task: ParseTask | undefined;
  let cancelled = false;

  // Progress writes run one after another, so a late write never moves the counter back.
  let chain: Promise<unknown> = Promise.resolve();
  const write = (sql: string, params: unknown[]) => {
    chain = chain.then(() => db.query(sql, params)).catch((err: unknown) => log.warn({ err, upload: claim.id }, 'upload progress not stored'));
  };
  // While the file is read there is no row progress: keep the claim's heartbeat fresh.
  const beat = setInterval(() => write(`UPDATE insure_uploads SET updated_at = now() ${guard}`, ids), HEARTBEAT_MS);
  beat.unref();

  const done = (async () => {
    try {
      const plan = await rosterPlan(db, claim.planName);
      const buffer = await streamToBuffer(await storage.get(claim.fileKey), MAX_BYTES);
      if (cancelled) throw new SheetError('INTERNAL', '解析已取消');
      task = parseRosterInWorker({
        buffer,
        ext: claim.ext,
        columns: rosterColumns(registry),
        keyColumn: 'idCard',
        // Only the file's own ID numbers are looked up, once it is read (a probe each), not every person the plan covers;
        // someone outside the plan's insurable ages on the cover start is refused with the reason.
        coveredKeys: (idCards) => refusedIdCards(db, claim.businessId, plan, claim.startDate, idCards),
        validatorModule: { path: ROSTER_VALIDATOR, exportName: 'createFieldsValidator', args: { fields: rosterFields(registry) } },
        pageSize: PAGE_SIZE,
        errorWorkbook: true,
      });
      task.onProgress((p) => write(`UPDATE insure_uploads SET rows_done = $3, rows_total = $4, updated_at = now() ${guard}`, [...ids, p.done, p.total]));
      const parsed = await task.result;
      clearInterval(beat);
      let errorKey: string | null = null;
      let errorSize = 0;
      if (parsed.errorWorkbook) {
        errorKey = claim.fileKey.replace(/\.[A-Za-z0-9]+$/, '') + '-errors.xlsx';
        errorSize = (await storage.put(errorKey, Buffer.from(parsed.errorWorkbook))).size;
      }
      await chain;
      const { counts } = parsed;
      const pages = parsed.pages ?? [];
      const pageBytes = pages.reduce((n, p) => n + Buffer.byteLength(p), 0);
      // One short statement per page, no transaction around them: on PGlite, which runs one statement at
      // a time, other requests go between them. Under this claim's token: they count once the upload
      // names it (pages_token), in the guarded update below.
      for (const [page, data] of pages.entries()) {
        await db.query('INSERT INTO insure_upload_pages (upload_id, token, page, data) VALUES ($1, $2, $3, $4)', [claim.id, claim.token, page, data]);
      }
      const done = await db.query(
        `UPDATE insure_uploads SET status = 'ready', parse_owner = NULL, pages_token = $2, rows_done = $3, rows_total = $3, valid_count = $4,
                error_count = $5, duplicate_count = $6, result = $7::jsonb, error_key = $8, stored_bytes = file_size + $9, updated_at = now()
          ${guard} RETURNING id`,
        [...ids, counts.total, counts.valid, counts.errors, counts.duplicates, JSON.stringify(head(parsed, registry)), errorKey, errorSize + pageBytes],
      );
      // Pages of an earlier claim of this upload (its process died), or this claim's if it was given back meanwhile.
      await db.query(`DELETE FROM insure_upload_pages WHERE upload_id = $1 AND token ${done.length ? '<>' : '='} $2`, ids);
    } catch (err) {
      clearInterval(beat);
      if (!(err instanceof SheetError || err instanceof HttpError) || (err instanceof SheetError && err.code === 'INTERNAL' && !cancelled)) {
        log.error({ err, upload: claim.id }, 'roster parse failed');
      }
      await chain;
      await db
        .query(`UPDATE insure_uploads SET status = 'failed', parse_owner = NULL, error = $3, updated_at = now() ${guard}`, [...ids, failureMessage(err)])
        .catch((e: unknown) => log.error({ err: e, upload: claim.id }, 'upload failure not stored'));
    } finally {
      clearInterval(beat);
    }
  })();
  return {
    cancel() {
      cancelled = true;
      task?.cancel();
    },
    done,
  };
}
