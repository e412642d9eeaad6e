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
import { takeHandedOver } from './insure-upload-handoff.ts';
import { notifyUpload } from './insure-upload-wait.ts';
import { PAGE_SIZE, rosterColumns, rosterFields, rosterPlan, refusedIdCards } from './insure-upload-store.ts';

const HEARTBEAT_MS = 5000;
const PROGRESS_MS = 300;
/** Pages go to the database in statements of about this many bytes (a few pages each). */
const PAGE_BATCH_BYTES = 1024 * 1024;

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

/** The pages, numbered, in runs of about PAGE_BATCH_BYTES (at least one page each). */
function pageBatches(pages: string[]): Array<Array<{ page: number; data: string }>> {
  const out: Array<Array<{ page: number; data: string }>> = [];
  let bytes = Infinity;
  pages.forEach((data, page) => {
    if (bytes >= PAGE_BATCH_BYTES) {
      out.push([]);
      bytes = 0;
    }
    out[out.length - 1].push({ page, data });
    bytes += data.length;
  });
  return out;
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
    chain = chain
      .then(() => db.query(sql, params))
      .then(() => notifyUpload(claim.id))
      .catch((err: unknown) => log.warn({ err, upload: claim.id }, 'upload progress not stored'));
  };
  // While the file is read there is no row progress: keep the claim's heartbeat fresh.
  const beat = setInterval(() => write(`UPDATE insure_uploads SET updated_at = now() ${guard}`, ids), HEARTBEAT_MS);
  beat.unref();

  let probeMs = 0;
  const done = (async () => {
    const t0 = performance.now();
    try {
      const plan = await rosterPlan(db, claim.planName);
      // The process that received the file keeps it a few seconds (insure-upload-handoff.ts).
      const buffer = takeHandedOver(claim.fileKey) ?? (await streamToBuffer(await storage.get(claim.fileKey), MAX_BYTES));
      const fetched = performance.now();
      if (cancelled) throw new SheetError('INTERNAL', '解析已取消');
      task = parseRosterInWorker({
        buffer,
        ext: claim.ext,
        columns: rosterColumns(registry),
        keyColumn: 'idCard',
        // Only the file's own ID numbers are looked up, once it is read (a probe each), not every person the plan covers;
        // someone outside the plan's insurable ages on the cover start is refused with the reason.
        coveredKeys: async (idCards) => {
          const asked = performance.now();
          const refused = await refusedIdCards(db, claim.businessId, plan, claim.startDate, idCards);
          probeMs = Math.round(performance.now() - asked);
          return refused;
        },
        validatorModule: { path: ROSTER_VALIDATOR, exportName: 'createFieldsValidator', args: { fields: rosterFields(registry) } },
        pageSize: PAGE_SIZE,
        errorWorkbook: true,
      });
      // At most one progress write per PROGRESS_MS (each wakes the status requests held for it), and the first and last.
      let progressAt = 0;
      task.onProgress((p) => {
        const now = performance.now();
        if (p.done !== 0 && p.done !== p.total && now - progressAt < PROGRESS_MS) return;
        progressAt = now;
        write(`UPDATE insure_uploads SET rows_done = $3, rows_total = $4, updated_at = now() ${guard}`, [...ids, p.done, p.total]);
      });
      const parsed = await task.result;
      const parsedAt = performance.now();
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
      // A few pages per statement (about PAGE_BATCH_BYTES), no transaction around them: on PGlite, which
      // runs one statement at a time, other requests go between them. Under this claim's token: they count
      // once the upload names it (pages_token), in the guarded update below.
      for (const batch of pageBatches(pages)) {
        const values = batch.map((_, i) => `($1, $2, $${3 + 2 * i}, $${4 + 2 * i})`).join(', ');
        await db.query(`INSERT INTO insure_upload_pages (upload_id, token, page, data) VALUES ${values}`, [claim.id, claim.token, ...batch.flatMap((b) => [b.page, b.data])]);
      }
      const done = await db.query(
        `UPDATE insure_uploads SET status = 'ready', parse_owner = NULL, pages_token = $2, rows_done = $3, rows_total = $3, valid_count = $4,
                error_count = $5, duplicate_count = $6, result = $7::jsonb, error_key = $8, stored_bytes = file_size + $9, updated_at = now()
          ${guard} RETURNING id`,
        [...ids, counts.total, counts.valid, counts.errors, counts.duplicates, JSON.stringify(head(parsed, registry)), errorKey, errorSize + pageBytes],
      );
      notifyUpload(claim.id);
      // Pages of an earlier claim of this upload (its process died), or this claim's if it was given back meanwhile.
      await db.query(`DELETE FROM insure_upload_pages WHERE upload_id = $1 AND token ${done.length ? '<>' : '='} $2`, ids);
      const ms = (a: number, b: number) => Math.round(b - a);
      log.info(
        { upload: claim.id, rows: counts.total, ms: { fetch: ms(t0, fetched), parse: ms(fetched, parsedAt), ...parsed.timings, probe: probeMs, store: ms(parsedAt, performance.now()) } },
        done.length ? 'roster parsed' : 'roster parsed, but its claim was given back meanwhile',
      );
    } catch (err) {
      clearInterval(beat);
      if (!(err instanceof SheetError || err instanceof HttpError) || (err instanceof SheetError && err.code === 'INTERNAL' && !cancelled)) {
        log.error({ err, upload: claim.id }, 'roster parse failed');
      }
      await chain;
      await db
        .query(`UPDATE insure_uploads SET status = 'failed', parse_owner = NULL, error = $3, updated_at = now() ${guard}`, [...ids, failureMessage(err)])
        .then(() => notifyUpload(claim.id))
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
