/**
 * Input that is malformed before any rule looks at it, refused as 400 with a Chinese message instead of
 * reaching the database (where a NUL byte or a coerced id would be a 500 or a different row):
 * - a NUL byte anywhere in the URL (path or query: list filters, paging);
 * - a record id that is not a canonical positive integer (`/api/orders/1e1`, `/api/orders/010`, `-1`).
 */
import type { FastifyRequest } from 'fastify';
import { badInput } from './errors.ts';

/** Ids are INTEGER (SERIAL) columns: 1 … 2147483647, written without sign, exponent or leading zero. */
const CANONICAL_ID = /^[1-9]\d{0,9}$/;
const MAX_ID = 2147483647;

export function isCanonicalId(raw: string): boolean {
  return CANONICAL_ID.test(raw) && Number(raw) <= MAX_ID;
}

export function refuseNulInUrl(url: string): void {
  if (/%00/i.test(url) || url.includes('\0')) throw badInput('请求地址或查询条件不能包含空字符（NUL）');
}

/** Route parameters: every `:id` of the API is a record id. */
export function checkInputShape(req: FastifyRequest): void {
  const id = (req.params as Record<string, unknown> | undefined)?.id;
  if (typeof id === 'string' && !isCanonicalId(id)) {
    throw badInput(`编号格式不正确：${id.slice(0, 20)}`, [{ field: 'id', message: '编号应为不以 0 开头的正整数' }]);
  }
}
