/**
 * Storage of roster uploads: each business's quota, and the purge of uploads left unconfirmed.
 *
 * - Quota: the bytes a business keeps for uploads not (yet) confirmed — originals, error workbooks and
 *   parsed pages (insure_uploads.stored_bytes) — may not exceed UPLOAD_QUOTA_MB (default 200 MB).
 *   Confirmed uploads are the historical forms' originals and are kept.
 * - Purge: an upload not confirmed for UPLOAD_TTL_HOURS without activity (ready, failed, or a parse
 *   that never ran) is marked 'expired' and its files and pages are deleted; pages of confirmed uploads
 *   (only the confirmation needs them) go too. Any gateway process may run it at any time: rows are
 *   taken with FOR UPDATE SKIP LOCKED and marked before their files are deleted (files_deleted_at
 *   after), and an expired row whose purger died is taken again after 10 minutes.
 */
import type { Db, Queryable } from '../db.ts';
import type { FileStorage } from '../files/storage.ts';
import { UPLOAD_TTL_HOURS } from './insure-upload-store.ts';

const BATCH = 200;
/** A purger that marked rows but died before deleting their files: its rows are taken again after this long. */
const RETRY_MINUTES = 10;

export function uploadQuotaBytes(env: NodeJS.ProcessEnv = process.env): number {
  const mb = Number(env.UPLOAD_QUOTA_MB);
  return (Number.isFinite(mb) && mb > 0 ? mb : 200) * 1024 * 1024;
}

/** Bytes the business keeps for uploads not confirmed (and not purged). */
export async function pendingBytes(q: Queryable, businessId: string): Promise<number> {
  const [r] = await q.query<{ n: number }>(
    `SELECT coalesce(sum(stored_bytes), 0)::float8 AS n FROM insure_uploads WHERE business_id = $1 AND status <> 'confirmed' AND files_deleted_at IS NULL`,
    [businessId],
  );
  return Number(r.n);
}

export function quotaMessage(quota: number): string {
  return `本企业待确认的名单文件已达存储上限（${Math.round(quota / 1024 / 1024)} MB），请先确认已上传的名单，或等未确认的上传过期（${UPLOAD_TTL_HOURS} 小时）后再上传`;
}

export interface PurgeResult {
  expired: number;
  filesDeleted: number;
}

/** One purge pass (batches until nothing is left); safe to run from several processes at once. */
export async function purgeUploads(deps: { db: Db; storage: FileStorage }, opts: { ttlHours?: number } = {}): Promise<PurgeResult> {
  const { db, storage } = deps;
  const out: PurgeResult = { expired: 0, filesDeleted: 0 };
  for (;;) {
    const rows = await db.query<{ id: number; file_key: string; error_key: string | null; was: string }>(
      `WITH taken AS (
         SELECT id, status FROM insure_uploads
          WHERE files_deleted_at IS NULL
            AND ((status IN ('parsing', 'ready', 'failed') AND updated_at < now() - make_interval(hours => $1))
              OR (status = 'expired' AND updated_at < now() - make_interval(mins => $2)))
          ORDER BY id LIMIT $3 FOR UPDATE SKIP LOCKED)
       UPDATE insure_uploads u SET status = 'expired', parse_owner = NULL, result = NULL, updated_at = now()
         FROM taken WHERE u.id = taken.id
       RETURNING u.id, u.file_key, u.error_key, taken.status AS was`,
      [opts.ttlHours ?? UPLOAD_TTL_HOURS, RETRY_MINUTES, BATCH],
    );
    if (!rows.length) break;
    const ids = rows.map((r) => r.id);
    await db.query('DELETE FROM insure_upload_pages WHERE upload_id = ANY($1::int[])', [ids]);
    for (const r of rows) {
      for (const key of [r.file_key, r.error_key]) {
        if (!key) continue;
        await storage.delete(key);
        out.filesDeleted++;
      }
    }
    await db.query(`UPDATE insure_uploads SET files_deleted_at = now(), stored_bytes = 0 WHERE id = ANY($1::int[])`, [ids]);
    out.expired += rows.filter((r) => r.was !== 'expired').length;
    if (rows.length < BATCH) break;
  }
  // The confirmation has read them: the historical form keeps every row's result.
  await db.query(`DELETE FROM insure_upload_pages p USING insure_uploads u WHERE p.upload_id = u.id AND u.status = 'confirmed'`);
  return out;
}
