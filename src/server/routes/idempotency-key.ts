import type { FastifyRequest } from 'fastify';
import { badInput } from '../http/errors.ts';

/** The request's Idempotency-Key header (1–200 visible ASCII characters), or undefined when absent. */
export function idempotencyKey(req: FastifyRequest): string | undefined {
  const raw = req.headers['idempotency-key'];
  const key = (Array.isArray(raw) ? raw[0] : raw)?.trim();
  if (!key) return undefined;
  if (!/^[\x21-\x7e]{1,200}$/.test(key)) {
    throw badInput('Idempotency-Key 格式不正确（1–200 个可见 ASCII 字符）', [{ field: 'Idempotency-Key', message: '格式不正确' }]);
  }
  return key;
}
