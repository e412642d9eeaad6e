import { isDomainError } from '../domain/errors.ts';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { mapAjvErrors, type AjvErrorLike } from './validation.ts';

export interface FieldError {
  field: string;
  message: string;
}

/** An error with a status and the envelope's numeric code; the error handler renders it as-is. */
export class HttpError extends Error {
  constructor(
    public status: number,
    public code: number,
    message: string,
    public errors?: FieldError[],
  ) {
    super(message);
  }
  /** Read by plugins (e.g. @fastify/rate-limit) that look for a status on thrown objects. */
  get statusCode(): number {
    return this.status;
  }
}

export const INVALID_INPUT = '填写内容有误，请按提示修改';
export const badInput = (message: string, errors?: FieldError[]) => new HttpError(400, 40000, message, errors);
export const unauthorized = (message: string) => new HttpError(401, 40100, message);
export const forbidden = (message: string) => new HttpError(403, 40300, message);
export const notFound = (message: string) => new HttpError(404, 40400, message);
export const locked = (message: string) => new HttpError(423, 42300, message);
export const tooMany = (message: string) => new HttpError(429, 42900, message);
export const unavailable = (message: string) => new HttpError(503, 50300, message);

/** Success envelope. */
export function ok(data: unknown) {
  return { code: 0, data: data ?? {}, message: 'ok' };
}

/** The success envelope as JSON text around data that already is JSON text (passed through, never parsed). */
export const okText = (dataJson: string): string => `{"code":0,"data":${dataJson},"message":"ok"}`;

function envelope(err: HttpError) {
  const body: Record<string, unknown> = { code: err.code, message: err.message };
  if (err.errors) body.errors = err.errors;
  return body;
}

/** A multipart body that ends early or has no boundary (busboy's errors carry no status). */
const BROKEN_MULTIPART = /multipart|boundary|unexpected end of (form|multipart)|malformed part header|part terminated/i;

/** PostgreSQL SQLSTATE class 22 (data exception): a value from the request the database cannot hold. */
const isDataException = (e: unknown) => typeof (e as { code?: unknown })?.code === 'string' && /^22[0-9A-Z]{3}$/.test((e as { code: string }).code);

/** Maps every error to the envelope; malformed input is always a 400, never a 500. */
export function errorHandler(error: FastifyError | HttpError | Error, request: FastifyRequest, reply: FastifyReply) {
  let err: HttpError;
  const fe = error as FastifyError & { validation?: AjvErrorLike[]; validationContext?: string };
  if (error instanceof HttpError) {
    err = error;
  } else if (isDomainError(error)) {
    err = new HttpError(error.status, error.code, error.message, error.errors);
  } else if (fe.validation) {
    const errors = mapAjvErrors(fe.validation, fe.validationContext);
    err = badInput(INVALID_INPUT, errors);
  } else if (fe.code === 'FST_ERR_CTP_BODY_TOO_LARGE' || fe.statusCode === 413) {
    err = new HttpError(413, 41300, '请求内容过大（上限 1 MB）');
    reply.header('connection', 'close');
  } else if (fe.statusCode === 429) {
    err = tooMany('请求过于频繁，请稍后再试');
  } else if (fe.statusCode === 503) {
    err = unavailable('服务正在重启，请稍后重试');
  } else if (fe.statusCode === 404) {
    err = notFound('资源不存在');
  } else if (typeof fe.statusCode === 'number' && fe.statusCode >= 400 && fe.statusCode < 500) {
    err = badInput('请求格式不正确');
  } else if (fe.statusCode === undefined && BROKEN_MULTIPART.test(fe.message ?? '')) {
    err = badInput('上传的内容不完整或格式不正确，请重新选择文件上传');
  } else if (isDataException(error)) {
    request.log.warn({ err: error }, 'input the database refused');
    err = badInput('请求内容包含无法保存的字符或数值（如空字符），请检查后重试');
  } else {
    request.log.error({ err: error }, 'unexpected error');
    err = new HttpError(500, 50000, '服务器内部错误，请稍后重试');
  }
  reply.header('cache-control', 'no-store');
  return reply.status(err.status).type('application/json; charset=utf-8').send(envelope(err));
}
