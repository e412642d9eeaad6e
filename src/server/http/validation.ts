import { Ajv, type ErrorObject, type Options } from 'ajv';
import addFormatsModule from 'ajv-formats';
import type { FieldError } from './errors.ts';

/**
 * Request validation with Ajv. Field messages are Simplified Chinese and built from the schema's
 * `title` (the field label). A schema may override a message per keyword with
 * `'x-messages': { pattern: '请输入正确的 11 位手机号' }`.
 */
export type AjvErrorLike = Pick<ErrorObject, 'keyword' | 'instancePath' | 'params'> & {
  schema?: unknown;
  parentSchema?: Record<string, unknown>;
  message?: string;
};

const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;

function makeAjv(extra: Options): Ajv {
  const ajv = new Ajv({
    allErrors: true,
    removeAdditional: false,
    useDefaults: true,
    verbose: true, // errors carry parentSchema, which holds title and x-messages
    strict: false,
    ...extra,
  });
  addFormats(ajv);
  ajv.addKeyword({ keyword: 'x-messages' });
  return ajv;
}

/** Bodies are never coerced: a number where a string is expected is an error. */
export const bodyAjv = makeAjv({ coerceTypes: false });
/** Query strings and path params are text on the wire, so they may be coerced. */
export const queryAjv = makeAjv({ coerceTypes: true });

export function validatorCompiler({ schema, httpPart }: { schema: object; httpPart?: string }) {
  const ajv = httpPart === 'body' ? bodyAjv : queryAjv;
  return ajv.compile(schema);
}

/** '/rows/0/name' → 'rows[0].name' */
export function fieldPath(instancePath: string, extra?: string): string {
  const parts = instancePath.split('/').slice(1).map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'));
  if (extra !== undefined) parts.push(extra);
  let out = '';
  for (const p of parts) out += /^\d+$/.test(p) ? `[${p}]` : out ? `.${p}` : p;
  return out;
}

function label(schema: unknown, fallback: string): string {
  const t = schema && typeof schema === 'object' ? (schema as { title?: unknown }).title : undefined;
  return typeof t === 'string' && t ? t : fallback;
}

function override(schema: unknown, keyword: string): string | undefined {
  const m = schema && typeof schema === 'object' ? (schema as Record<string, unknown>)['x-messages'] : undefined;
  const v = m && typeof m === 'object' ? (m as Record<string, unknown>)[keyword] : undefined;
  return typeof v === 'string' ? v : undefined;
}

const list = (v: unknown) => (Array.isArray(v) ? v.map(String).join('、') : String(v));

/** One Chinese message per failing field, in schema order; the first problem of a field wins. */
export function mapAjvErrors(errors: AjvErrorLike[], context = 'body'): FieldError[] {
  const out: FieldError[] = [];
  const seen = new Set<string>();
  for (const e of errors) {
    const p = e.params as Record<string, unknown>;
    let field: string;
    let fieldSchema: unknown;
    if (e.keyword === 'required') {
      const missing = String(p.missingProperty);
      field = fieldPath(e.instancePath, missing);
      const props = (e.parentSchema?.properties ?? {}) as Record<string, unknown>;
      fieldSchema = props[missing];
    } else {
      field = fieldPath(e.instancePath);
      fieldSchema = e.parentSchema;
    }
    if (!field) field = context === 'body' ? 'body' : context;
    if (seen.has(field)) continue;
    seen.add(field);
    const name = label(fieldSchema, field.replace(/^.*\./, ''));
    const custom = override(fieldSchema, e.keyword);
    out.push({ field, message: custom ?? messageFor(e.keyword, p, name) });
  }
  return out;
}

function messageFor(keyword: string, p: Record<string, unknown>, name: string): string {
  switch (keyword) {
    case 'required':
      return `请填写${name}`;
    case 'type':
      return `${name}格式不正确`;
    case 'minLength':
      return Number(p.limit) <= 1 ? `请填写${name}` : `${name}不能少于 ${p.limit} 个字符`;
    case 'maxLength':
      return `${name}不能超过 ${p.limit} 个字符`;
    case 'minimum':
      return `${name}不能小于 ${p.limit}`;
    case 'exclusiveMinimum':
      return `${name}应大于 ${p.limit}`;
    case 'maximum':
      return `${name}不能大于 ${p.limit}`;
    case 'exclusiveMaximum':
      return `${name}应小于 ${p.limit}`;
    case 'pattern':
    case 'format':
      return `${name}格式不正确`;
    case 'enum':
      return `${name}只能是 ${list(p.allowedValues)} 之一`;
    case 'const':
      return `${name}取值无效`;
    case 'minItems':
      return `${name}至少需要 ${p.limit} 项`;
    case 'maxItems':
      return `${name}最多 ${p.limit} 项`;
    case 'additionalProperties':
      return `不支持的字段 ${String(p.additionalProperty)}`;
    default:
      return `${name}格式不正确`;
  }
}
