import { createHash } from 'node:crypto';
import type { Db } from '../db.ts';
import { DomainError } from './errors.ts';

export interface IdempotencyScope {
  userId: number;
  /** Value of the Idempotency-Key header (1–200 visible characters). */
  key: string;
  method: string;
  path: string;
  /** Hash of what makes the request (see hashRequest): business, body. */
  requestHash: string;
}

export interface StoredResponse {
  status: number;
  body: unknown;
}

export const IDEMPOTENCY_TTL_HOURS = 24;

/** Stable hash of a request payload (object keys sorted, so key order does not matter). */
export function hashRequest(payload: unknown): string {
  const stable = (v: unknown): unknown =>
    Array.isArray(v)
      ? v.map(stable)
      : v && typeof v === 'object'
        ? Object.fromEntries(Object.keys(v as object).sort().map((k) => [k, stable((v as Record<string, unknown>)[k])]))
        : v;
  return createHash('sha256').update(JSON.stringify(stable(payload)) ?? '').digest('hex');
}

/**
 * Runs a write at most once per (user, key). The key row is inserted first, in the same transaction as
 * the write's effects and its stored response: a concurrent request with the same key blocks on that
 * insert until the first commits (PostgreSQL) or simply runs after it (PGlite serialises), then
 * replays the stored response. If the first request fails, its transaction — key included — rolls
 * back and a retry runs afresh. A key reused for a different request gets 409.
 */
export async function withIdempotency(
  db: Db,
  scope: IdempotencyScope,
  run: (tx: Db) => Promise<StoredResponse>,
): Promise<StoredResponse & { replayed: boolean }> {
  const key = String(scope.key ?? '').trim();
  if (!key || key.length > 200) throw new DomainError(400, 'Idempotency-Key 应为 1–200 个字符', 'Idempotency-Key');
  return db.tx(async (tx) => {
    const ins = await tx.query(
      `INSERT INTO idempotency_keys (user_id, key, method, path, request_hash) VALUES ($1,$2,$3,$4,$5)
       ON CONFLICT (user_id, key) DO NOTHING RETURNING key`,
      [scope.userId, key, scope.method, scope.path, scope.requestHash],
    );
    if (ins.length === 0) {
      const [prev] = await tx.query<{ method: string; path: string; request_hash: string; status: number | null; response: unknown }>(
        'SELECT method, path, request_hash, status, response FROM idempotency_keys WHERE user_id = $1 AND key = $2',
        [scope.userId, key],
      );
      if (!prev || prev.method !== scope.method || prev.path !== scope.path || prev.request_hash !== scope.requestHash) {
        throw new DomainError(409, 'Idempotency-Key 已用于另一个请求', 'Idempotency-Key');
      }
      // Committed rows always carry the response (it is written in the same transaction).
      if (prev.status === null) throw new DomainError(409, '相同的请求正在处理中，请稍后重试', 'Idempotency-Key');
      return { status: prev.status, body: prev.response, replayed: true };
    }
    const result = await run(tx);
    // Round-trip through JSON so the first answer is exactly what a replay returns.
    const body = result.body === undefined ? null : JSON.parse(JSON.stringify(result.body));
    await tx.query('UPDATE idempotency_keys SET status = $3, response = $4::jsonb WHERE user_id = $1 AND key = $2', [
      scope.userId,
      key,
      result.status,
      JSON.stringify(body),
    ]);
    return { status: result.status, body, replayed: false };
  });
}

/** Deletes keys older than the TTL (default 24 h); returns how many were removed. */
export async function purgeIdempotencyKeys(db: Db, olderThanHours = IDEMPOTENCY_TTL_HOURS): Promise<number> {
  const rows = await db.query(`DELETE FROM idempotency_keys WHERE created_at < now() - make_interval(hours => $1) RETURNING key`, [
    olderThanHours,
  ]);
  return rows.length;
}
