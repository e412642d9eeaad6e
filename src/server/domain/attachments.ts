/**
 * Claim attachments in the database: the table (metadata; the bytes live in the file storage) and the
 * one rule of linking them to a claim, run inside the transaction that creates the claim.
 */
import type { Queryable } from '../db.ts';
import { CLAIM_ATTACHMENT_MAX_COUNT } from '../../shared/attachments.ts';
import { DomainError } from './errors.ts';

/**
 * Idempotent DDL, run by migrate() after the entity tables (claims). An attachment belongs to one business; its
 * claim_id stays NULL from the upload until a claim is submitted with it, and is then set once.
 * claims.attachment_ids is the claim entity's field (its column comes from the entity migration): the ids
 * it was filed with, in the user's order.
 */
export const CLAIM_ATTACHMENT_DDL: string[] = [
  `CREATE TABLE IF NOT EXISTS claim_attachments (
    id SERIAL PRIMARY KEY,
    business_id TEXT NOT NULL REFERENCES businesses(id) ON DELETE CASCADE,
    claim_id INTEGER REFERENCES claims(id) ON DELETE CASCADE,
    file_name TEXT NOT NULL,
    ext TEXT NOT NULL,
    mime TEXT NOT NULL,
    size_bytes INTEGER NOT NULL CHECK (size_bytes > 0),
    sha256 TEXT NOT NULL,
    storage_key TEXT NOT NULL UNIQUE,
    uploader_id INTEGER NOT NULL REFERENCES users(id),
    created_at TIMESTAMPTZ NOT NULL DEFAULT now()
  )`,
  `CREATE INDEX IF NOT EXISTS claim_attachments_claim_idx ON claim_attachments (business_id, claim_id, id)`,
];

/**
 * Checks a claim's attachmentIds input: an array of distinct positive integers, at most the limit.
 * Returns the ids, or throws a 400 on the field.
 */
export function parseAttachmentIds(raw: unknown): number[] {
  if (raw === undefined || raw === null) return [];
  const bad = () => new DomainError(400, '理赔材料格式不正确', 'attachmentIds');
  if (!Array.isArray(raw)) throw bad();
  const ids = raw.map((v) => (typeof v === 'string' && /^\d+$/.test(v) ? Number(v) : v));
  if (ids.some((v) => typeof v !== 'number' || !Number.isInteger(v) || v < 1 || v > 2147483647)) throw bad();
  if (new Set(ids).size !== ids.length) throw new DomainError(400, '理赔材料中有重复的文件', 'attachmentIds');
  if (ids.length > CLAIM_ATTACHMENT_MAX_COUNT) {
    throw new DomainError(400, `每个理赔申请最多上传 ${CLAIM_ATTACHMENT_MAX_COUNT} 个文件`, 'attachmentIds');
  }
  return ids as number[];
}

/**
 * Links uploaded attachments to a new claim, inside the claim's transaction. Each must belong to the
 * business and not be linked yet; otherwise nothing is linked and the claim is refused (the caller's
 * transaction rolls back). Two claims racing for one file: the second waits on the row lock, then
 * finds claim_id set and is refused.
 */
export async function linkAttachments(tx: Queryable, businessId: string, claimId: number, ids: number[]): Promise<void> {
  if (ids.length === 0) return;
  const linked = await tx.query<{ id: number }>(
    `UPDATE claim_attachments SET claim_id = $1
      WHERE business_id = $2 AND id = ANY($3::int[]) AND claim_id IS NULL RETURNING id`,
    [claimId, businessId, ids],
  );
  if (linked.length === ids.length) return;
  const done = new Set(linked.map((r) => Number(r.id)));
  const missing = ids.filter((id) => !done.has(id));
  throw new DomainError(400, `理赔材料（编号 ${missing.join('、')}）不存在或已用于其他理赔申请，请重新上传`, 'attachmentIds');
}
