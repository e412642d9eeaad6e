/**
 * The single implementation of every field rule. The browser (Formily validators), the gateway
 * (Ajv keywords/formats delegate here) and the entity hooks call these functions, so both sides
 * accept and refuse exactly the same input with exactly the same message.
 */
import { PHONE_RE, forbiddenCharacter, isValidDate, isValidIdCard } from '../checks.ts';
import { ruleMessage } from './messages.ts';
import type { EntitySchema, FieldError, FieldSchema } from './types.ts';

export interface RuleContext {
  /** YYYY-MM-DD used for "today" date bounds (defaults to today in Asia/Shanghai) */
  today?: string;
}

export const MIN_YEAR = 1900;
export const MAX_YEAR = 2100;

/**
 * Today's date (YYYY-MM-DD) in the business time zone, Asia/Shanghai, the same day the gateway's cover
 * rules use (src/server/domain/cover.ts). (The name is historical: it was the UTC date, which between
 * 00:00 and 08:00 Shanghai time refused an accident on the day cover had started.)
 */
export function todayUtc(): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Shanghai', year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date());
}

/** "today", "today+30", "today-365" or an absolute YYYY-MM-DD → YYYY-MM-DD. */
export function resolveDateBound(bound: string, today = todayUtc()): string {
  const m = /^today(?:([+-])(\d+))?$/.exec(bound);
  if (!m) return bound;
  const days = m[1] ? Number(m[2]) * (m[1] === '-' ? -1 : 1) : 0;
  return new Date(Date.parse(`${today}T00:00:00Z`) + days * 86400000).toISOString().slice(0, 10);
}

export function isBoundedDate(s: string): boolean {
  if (!isValidDate(s)) return false;
  const y = Number(s.slice(0, 4));
  return y >= MIN_YEAR && y <= MAX_YEAR;
}

const DATETIME_RE = /^(\d{4}-\d{2}-\d{2})[T ]\d{2}:\d{2}(:\d{2}(\.\d{1,6})?)?(Z|[+-]\d{2}:\d{2})?$/;

/** Format checks by field type, for non-empty trimmed strings (also registered as Ajv formats). */
export const FORMAT_CHECKS: Partial<Record<FieldSchema['type'], (s: string) => boolean>> = {
  phone: (s) => PHONE_RE.test(s),
  idCard: (s) => isValidIdCard(s),
  email: (s) => /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(s),
  taxNo: (s) => /^[0-9A-Z]{15,20}$/.test(s.toUpperCase()),
  bankAccount: (s) => /^\d{8,30}$/.test(s.replace(/[\s-]/g, '')),
  smsCode: (s) => /^\d{6}$/.test(s),
  date: (s) => isBoundedDate(s),
  datetime: (s) => {
    const m = DATETIME_RE.exec(s);
    return !!m && isBoundedDate(m[1]) && !Number.isNaN(Date.parse(s));
  },
};

/** Text without control, zero-width or bidi-override characters (line breaks only in 'text' fields); passwords are not text. */
export function charsOk(f: Pick<FieldSchema, 'type'>, s: string): boolean {
  return f.type === 'password' || !forbiddenCharacter(s, f.type === 'text');
}

/** Ajv format name for a field type with a format check. */
export const formatName = (type: FieldSchema['type']): string => `entity-${type}`;

const SURROGATE = /[\uD800-\uDBFF]/;
/** Length in characters (code points), as a user counts them; without an array per string when there is no surrogate pair. */
export const charLength = (s: string): number => (SURROGATE.test(s) ? [...s].length : s.length);

export function hasMoneyPrecision(n: number): boolean {
  return Math.abs(Math.round(n * 100) - n * 100) < 1e-6;
}

/** Strings are trimmed; null, blank strings and empty arrays count as "not given". */
export function normalizeValue(v: unknown): unknown {
  if (typeof v === 'string') {
    const t = v.trim();
    return t === '' ? undefined : t;
  }
  if (v === null) return undefined;
  if (Array.isArray(v) && v.length === 0) return undefined;
  return v;
}

function typeOk(f: FieldSchema, v: unknown): boolean {
  switch (f.type) {
    case 'integer':
    case 'ref':
      return typeof v === 'number' && Number.isInteger(v);
    case 'money':
      return typeof v === 'number' && Number.isFinite(v);
    case 'boolean':
      return typeof v === 'boolean';
    case 'array':
      return Array.isArray(v);
    default:
      return typeof v === 'string';
  }
}

/** Checks a value of the array's scalar items (e.g. order numbers); returns the first message. */
function checkScalarItems(f: FieldSchema, arr: unknown[], ctx: RuleContext): string | undefined {
  if (typeof f.items !== 'string') return undefined;
  const item: FieldSchema = { type: f.items, label: f.label, required: true };
  for (const x of arr) {
    const m = checkField(item, x, ctx);
    // A missing or mistyped item makes the list malformed (the gateway's Ajv words it the same way).
    if (m) return m === ruleMessage(item, 'required') || m === ruleMessage(item, 'type') ? ruleMessage(f, 'type') : m;
  }
  return undefined;
}

/**
 * Checks one value against every rule of a field and returns the first failing rule's message
 * (rules in RULE_ORDER), or undefined when the value is acceptable. Items of object arrays are
 * checked by checkObject.
 */
export function checkField(f: FieldSchema, raw: unknown, ctx: RuleContext = {}): string | undefined {
  const v = normalizeValue(raw);
  if (v === undefined) return f.required ? ruleMessage(f, 'required') : undefined;
  if (!typeOk(f, v)) return ruleMessage(f, 'type');
  if (typeof v === 'string') {
    const len = charLength(v);
    if (f.minLength !== undefined && len < f.minLength) return ruleMessage(f, 'minLength');
    if (f.maxLength !== undefined && len > f.maxLength) return ruleMessage(f, 'maxLength');
    if (!charsOk(f, v)) return ruleMessage(f, 'chars');
    const fmt = FORMAT_CHECKS[f.type];
    if (fmt && !fmt(v)) return ruleMessage(f, 'format');
    if (f.pattern !== undefined && !new RegExp(f.pattern, 'u').test(v)) return ruleMessage(f, 'pattern');
    if (f.type === 'enum' && !(f.options ?? []).some((o) => o.value === v)) return ruleMessage(f, 'enum');
    if (f.type === 'date') {
      const today = ctx.today ?? todayUtc();
      if (f.minDate !== undefined && v < resolveDateBound(f.minDate, today)) return ruleMessage(f, 'minDate');
      if (f.maxDate !== undefined && v > resolveDateBound(f.maxDate, today)) return ruleMessage(f, 'maxDate');
    }
  }
  if (typeof v === 'number') {
    if (f.min !== undefined && v < f.min) return ruleMessage(f, 'min');
    if (f.max !== undefined && v > f.max) return ruleMessage(f, 'max');
    if (f.type === 'money' && !hasMoneyPrecision(v)) return ruleMessage(f, 'precision');
    if (f.type === 'ref' && v < 1) return ruleMessage(f, 'min', 1);
  }
  if (Array.isArray(v)) {
    const scalar = checkScalarItems(f, v, ctx);
    if (scalar) return scalar;
    if (f.minItems !== undefined && v.length < f.minItems) return ruleMessage(f, 'minItems');
    if (f.maxItems !== undefined && v.length > f.maxItems) return ruleMessage(f, 'maxItems');
  }
  return undefined;
}

/** Item fields of an object array (entity references are resolved by the registry at load time). */
export function itemFields(f: FieldSchema): Record<string, FieldSchema> | undefined {
  return f.items && typeof f.items === 'object' && 'fields' in f.items ? f.items.fields : undefined;
}

/** Fields accepted as input: everything except readOnly fields. */
export function inputFields(entity: EntitySchema): Record<string, FieldSchema> {
  return Object.fromEntries(Object.entries(entity.fields).filter(([, f]) => !f.readOnly));
}

export interface CheckObjectOptions extends RuleContext {
  mode: 'create' | 'update';
  /** restrict to these field keys (a form that shows only some fields) */
  fields?: string[];
}

export function unknownFieldMessage(key: string): string {
  return `不支持的字段：${key}`;
}

function checkFields(
  fields: Record<string, FieldSchema>,
  payload: Record<string, unknown>,
  prefix: string,
  partial: boolean,
  ctx: RuleContext,
  out: FieldError[],
): void {
  for (const key of Object.keys(payload)) {
    if (!Object.hasOwn(fields, key) && normalizeValue(payload[key]) !== undefined) {
      out.push({ field: `${prefix}${key}`, message: unknownFieldMessage(key) });
    }
  }
  for (const [key, f] of Object.entries(fields)) {
    const value = payload[key];
    if (partial && value === undefined) continue;
    const msg = checkField(f, value, ctx);
    const at = `${prefix}${key}`;
    if (msg) {
      out.push({ field: at, message: msg });
      continue;
    }
    const sub = itemFields(f);
    const arr = normalizeValue(value);
    if (!sub || !Array.isArray(arr)) continue;
    const seen = new Map<string, number>();
    arr.forEach((row, i) => {
      const rowAt = `${at}[${i}]`;
      if (!row || typeof row !== 'object' || Array.isArray(row)) {
        out.push({ field: rowAt, message: ruleMessage(f, 'type') });
        return;
      }
      const before = out.length;
      checkFields(sub, row as Record<string, unknown>, `${rowAt}.`, false, ctx, out);
      for (const [k, sf] of Object.entries(sub)) {
        const sv = normalizeValue((row as Record<string, unknown>)[k]);
        if (!sf.unique || typeof sv !== 'string' || out.slice(before).some((e) => e.field === `${rowAt}.${k}`)) continue;
        const key = `${k}:${sv.toUpperCase()}`;
        if (seen.has(key)) out.push({ field: `${rowAt}.${k}`, message: ruleMessage(sf, 'unique', seen.get(key)! + 1) });
        else seen.set(key, i);
      }
    });
  }
}

/**
 * Checks a whole payload: unknown keys, every field rule, object-array items (with in-array
 * uniqueness). Returns every problem as { field: 'rows[0].name', message }.
 */
export function checkObject(entity: EntitySchema, payload: unknown, opts: CheckObjectOptions): FieldError[] {
  if (!payload || typeof payload !== 'object' || Array.isArray(payload)) {
    return [{ field: '', message: '请求体必须是 JSON 对象' }];
  }
  const all = inputFields(entity);
  const fields = opts.fields ? Object.fromEntries(opts.fields.filter((k) => all[k]).map((k) => [k, all[k]])) : all;
  const out: FieldError[] = [];
  checkFields(fields, payload as Record<string, unknown>, '', opts.mode === 'update', opts, out);
  return out;
}

/** Payload with strings trimmed and blank values removed (recursively into object arrays). */
export function normalizePayload(payload: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, raw] of Object.entries(payload)) {
    const v = normalizeValue(raw);
    if (v === undefined) continue;
    out[k] = Array.isArray(v)
      ? v.map((x) => (x && typeof x === 'object' && !Array.isArray(x) ? normalizePayload(x as Record<string, unknown>) : normalizeValue(x) ?? x))
      : v;
  }
  return out;
}
