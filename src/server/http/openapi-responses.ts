/**
 * Response bodies in the OpenAPI document (issue 21.8). They are added by @fastify/swagger's transform
 * (docs.ts) and never given to Fastify as `schema.response`: Fastify would serialize replies with them
 * (fast-json-stringify drops every property a schema does not name), and a field a configurator adds to
 * an entity must reach the client whatever the document says. The document is derived from the same
 * entity schemas as the rows (a field added in schemas/ appears in its list and detail), so the two
 * cannot drift apart.
 *
 * - success: the envelope `{ code: 0, message, data }`; `data` from the route's `config.response`
 *   (entity routes: the row in API form, or a page of rows), or any JSON value when a route says nothing;
 *   files (`config.response.file`) as their media type; 202 where a route accepts work for later;
 * - errors: `{ code, message, errors?: [{ field, message }] }` for the statuses a route can answer.
 */
import type { RouteOptions } from 'fastify';
import { toJsonSchema, type JsonSchema } from '../../shared/entity/json-schema.ts';
import type { EntitySchema } from '../../shared/entity/types.ts';

/** What a route answers on success, for the OpenAPI document only (config.response). */
export interface ResponseDoc {
  /** Schema of the envelope's `data`. */
  data?: JsonSchema;
  /** Success statuses (default [200]). */
  status?: Array<200 | 202>;
  /** The route sends a file (a download), not the JSON envelope. */
  file?: boolean;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The success response in the OpenAPI document (never used to serialize: see openapi-responses.ts). */
    response?: ResponseDoc;
  }
}

/** Keywords of the request schemas that say nothing about a stored value in API form. */
const INPUT_ONLY = ['x-chars', 'x-money', 'x-date-bounds', 'x-unique-by', 'format', 'pattern', 'minLength', 'maxLength', 'minItems', 'maxItems', 'minimum', 'maximum', 'readOnly'];

function apiValue(field: EntitySchema['fields'][string], s: JsonSchema): JsonSchema {
  const out: JsonSchema = { ...s };
  for (const k of INPUT_ONLY) delete out[k];
  if (field.mask) return { type: 'string', title: out.title, description: '脱敏显示（如 110***********1234）' };
  if (field.type === 'money') out.description = [out.description, '金额，单位元（两位小数）'].filter(Boolean).join('；');
  if (field.type === 'date') out.format = 'date';
  if (field.type === 'datetime') out.format = 'date-time';
  if (!field.required) out.nullable = true;
  return out;
}

/** One row of an entity as the API sends it: `id`, every field, money in yuan, masked fields as text. */
export function apiRowSchema(entity: EntitySchema): JsonSchema {
  const row = toJsonSchema(entity, { mode: 'row' });
  const props = row.properties as Record<string, JsonSchema>;
  const properties: Record<string, JsonSchema> = { id: props.id };
  for (const [k, f] of Object.entries(entity.fields)) properties[k] = apiValue(f, props[k]);
  return { type: 'object', title: entity.label, properties, required: row.required };
}

/** A page of an entity's list (listRows). */
export function apiListSchema(entity: EntitySchema): JsonSchema {
  return {
    type: 'object',
    properties: {
      list: { type: 'array', items: apiRowSchema(entity) },
      total: { type: 'integer', description: '符合条件的总数（超过精确计数上限时为估算值）' },
      estimated: { type: 'boolean', description: '仅当 total 为估算值时出现，值为 true' },
      current: { type: 'integer', description: '页码' },
      pageSize: { type: 'integer', description: '每页条数' },
    },
    required: ['list', 'total', 'current', 'pageSize'],
  };
}

const envelope = (data: JsonSchema, description: string): JsonSchema => ({
  type: 'object',
  description,
  properties: { code: { type: 'integer', enum: [0] }, message: { type: 'string' }, data },
  required: ['code', 'message', 'data'],
});

const errorBody = (description: string): JsonSchema => ({
  type: 'object',
  description,
  properties: {
    code: { type: 'integer', description: '业务错误码（HTTP 状态 × 100 起）' },
    message: { type: 'string', description: '中文说明' },
    errors: {
      type: 'array',
      description: '逐字段的错误（输入有误时）',
      items: { type: 'object', properties: { field: { type: 'string' }, message: { type: 'string' } }, required: ['field', 'message'] },
    },
  },
  required: ['code', 'message'],
});

const ANY_DATA: JsonSchema = { description: '本接口的数据（结构见接口说明）' };
const FILE: JsonSchema = {
  description: '文件下载（Content-Disposition: attachment）',
  content: { 'application/octet-stream': { schema: { type: 'string', format: 'binary' } } },
};

/** The statuses a route can answer besides success, and what each means. */
function errorResponses(route: RouteOptions, url: string): Record<string, JsonSchema> {
  const method = ([] as string[]).concat(route.method).join(',');
  const auth = route.config?.auth ?? 'business';
  const out: Record<string, JsonSchema> = { 400: errorBody('输入有误（errors 指明字段）') };
  if (auth !== 'none') {
    out[401] = errorBody('未登录或登录已失效');
    out[403] = errorBody('无权访问该企业或操作');
  }
  if (url.includes(':')) out[404] = errorBody('当前企业下不存在该记录');
  if (/POST|PUT|PATCH|DELETE/.test(method)) out[409] = errorBody('与现有数据冲突（如重复、状态已变化）');
  out[429] = errorBody('请求过于频繁，请稍后再试');
  return out;
}

/** @fastify/swagger transform: every API operation gets its success and error response bodies. */
export function withResponses({ schema, url, route }: { schema?: unknown; url: string; route: RouteOptions }): { schema: Record<string, unknown>; url: string } {
  const s = { ...((schema ?? {}) as Record<string, unknown>) };
  if (!url.startsWith('/api/') || s.hide) return { schema: s, url };
  const doc = route.config?.response ?? {};
  const success: Record<string, JsonSchema> = {};
  for (const status of doc.status ?? [200]) {
    success[status] = doc.file ? FILE : envelope(doc.data ?? ANY_DATA, status === 202 ? '已受理，稍后完成（进度见返回的记录）' : '成功');
  }
  s.response = { ...success, ...errorResponses(route, url), ...((s.response as object | undefined) ?? {}) };
  return { schema: s, url };
}
