/**
 * Ajv set-up for entity payload schemas and the Ajv-error → { field, message } mapper. Formats and
 * custom keywords delegate to rules.ts and every message comes from messages.ts, so the gateway's
 * answer equals the browser's checkField for the same value.
 */
import { Ajv, type ErrorObject, type Options } from 'ajv';
import { ruleMessage } from './messages.ts';
import { charsOk, FORMAT_CHECKS, formatName, hasMoneyPrecision, itemFields, resolveDateBound, todayUtc, unknownFieldMessage } from './rules.ts';
import { RULE_ORDER, type EntitySchema, type FieldError, type FieldSchema, type RuleName } from './types.ts';
import type { JsonSchema } from './json-schema.ts';

type KeywordCxt = { instancePath: string; parentData?: unknown; parentDataProperty?: string | number };
type ErrFn = ((...args: unknown[]) => boolean) & { errors?: Partial<ErrorObject>[] };

/** An Ajv instance that knows the entity formats and keywords (allErrors, no coercion). */
export function createEntityAjv(opts: Options & { today?: () => string } = {}): Ajv {
  const { today = todayUtc, ...ajvOpts } = opts;
  const ajv = new Ajv({ allErrors: true, strict: true, coerceTypes: false, useDefaults: false, ...ajvOpts });
  for (const [type, check] of Object.entries(FORMAT_CHECKS)) {
    ajv.addFormat(formatName(type as FieldSchema['type']), { type: 'string', validate: check! });
  }
  // Control, zero-width and bidi characters (rules.charsOk): 'line' for one-line text, 'text' for multi-line.
  ajv.addKeyword({
    keyword: 'x-chars',
    type: 'string',
    schemaType: 'string',
    validate: (kind: string, data: string) => charsOk({ type: kind === 'text' ? 'text' : 'string' }, data),
  });
  ajv.addKeyword({
    keyword: 'x-money',
    type: 'number',
    schemaType: 'boolean',
    validate: (_s: boolean, data: number) => hasMoneyPrecision(data),
  });
  const dateBounds: ErrFn = (schema: unknown, data: unknown) => {
    const b = schema as { minDate?: string; maxDate?: string };
    const d = String(data);
    const t = today();
    if (b.minDate && d < resolveDateBound(b.minDate, t)) {
      dateBounds.errors = [{ keyword: 'x-date-bounds', params: { rule: 'minDate' } }];
      return false;
    }
    if (b.maxDate && d > resolveDateBound(b.maxDate, t)) {
      dateBounds.errors = [{ keyword: 'x-date-bounds', params: { rule: 'maxDate' } }];
      return false;
    }
    return true;
  };
  ajv.addKeyword({ keyword: 'x-date-bounds', type: 'string', schemaType: 'object', errors: true, validate: dateBounds as never });
  const uniqueBy: ErrFn = (schema: unknown, data: unknown, _p: unknown, cxt: unknown) => {
    const keys = schema as string[];
    const at = (cxt as KeywordCxt).instancePath;
    const errs: Partial<ErrorObject>[] = [];
    const seen = new Map<string, number>();
    (data as unknown[]).forEach((row, i) => {
      if (!row || typeof row !== 'object') return;
      for (const k of keys) {
        const v = (row as Record<string, unknown>)[k];
        if (typeof v !== 'string') continue;
        const key = `${k}:${v.toUpperCase()}`;
        if (seen.has(key)) errs.push({ keyword: 'x-unique-by', instancePath: `${at}/${i}/${k}`, params: { rule: 'unique', row: seen.get(key)! + 1 } });
        else seen.set(key, i);
      }
    });
    uniqueBy.errors = errs;
    return errs.length === 0;
  };
  ajv.addKeyword({ keyword: 'x-unique-by', type: 'array', schemaType: 'array', errors: true, validate: uniqueBy as never });
  return ajv;
}

const KEYWORD_RULES: Record<string, RuleName> = {
  required: 'required',
  type: 'type',
  minLength: 'minLength',
  maxLength: 'maxLength',
  'x-chars': 'chars',
  format: 'format',
  pattern: 'pattern',
  enum: 'enum',
  minimum: 'min',
  maximum: 'max',
  'x-money': 'precision',
  minItems: 'minItems',
  maxItems: 'maxItems',
};

/** '/rows/0/name' → 'rows[0].name' */
export function pointerToPath(pointer: string): string {
  return pointer
    .split('/')
    .slice(1)
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'))
    .reduce((acc, seg) => (/^\d+$/.test(seg) ? `${acc}[${seg}]` : acc ? `${acc}.${seg}` : seg), '');
}

/** The field schema at a JSON pointer; `scalarItem` when the pointer is an item of a scalar array. */
function fieldAt(fields: Record<string, FieldSchema>, pointer: string): { field?: FieldSchema; scalarItem: boolean; row: boolean } {
  const segs = pointer.split('/').slice(1);
  let current: Record<string, FieldSchema> | undefined = fields;
  let field: FieldSchema | undefined;
  for (let i = 0; i < segs.length; i++) {
    const seg = segs[i];
    if (/^\d+$/.test(seg) && field) {
      const sub = itemFields(field);
      if (!sub) return { field, scalarItem: true, row: false };
      if (i === segs.length - 1) return { field, scalarItem: false, row: true };
      current = sub;
      continue;
    }
    field = current?.[seg];
    if (!field) return { scalarItem: false, row: false };
  }
  return { field, scalarItem: false, row: false };
}

interface Candidate {
  path: string;
  message: string;
  rank: number;
}

/** Maps Ajv errors to one { field, message } per field path, using the same rule order as checkField. */
export function mapAjvErrors(fields: Record<string, FieldSchema>, errors: ErrorObject[] | null | undefined): FieldError[] {
  const best = new Map<string, Candidate>();
  for (const e of errors ?? []) {
    let pointer = e.instancePath;
    let rule: RuleName | undefined = KEYWORD_RULES[e.keyword];
    let message: string | undefined;
    if (e.keyword === 'required') pointer = `${pointer}/${String((e.params as { missingProperty: string }).missingProperty)}`;
    if (e.keyword === 'additionalProperties') {
      const key = String((e.params as { additionalProperty: string }).additionalProperty);
      pointer = `${pointer}/${key}`;
      message = unknownFieldMessage(key);
      rule = 'type';
    }
    const { field, scalarItem, row } = fieldAt(fields, pointer);
    if (e.keyword === 'x-date-bounds' || e.keyword === 'x-unique-by') rule = (e.params as { rule: RuleName }).rule;
    if (!message && field && rule) {
      if (row) message = ruleMessage(field, 'type');
      else if (scalarItem) {
        const item: FieldSchema = { type: field.items as FieldSchema['type'], label: field.label };
        message = rule === 'minLength' || rule === 'type' ? ruleMessage(field, 'type') : ruleMessage(item, rule);
        pointer = pointer.replace(/\/\d+$/, '');
      } else {
        const arg = rule === 'unique' ? (e.params as { row: number }).row : (e.params as { limit?: number }).limit;
        message = ruleMessage(field, rule, arg);
      }
    }
    if (!message) message = pointer ? `${pointerToPath(pointer)}格式不正确` : '请求体格式不正确';
    const path = pointerToPath(pointer);
    const rank = rule ? RULE_ORDER.indexOf(rule) : 0;
    const prev = best.get(path);
    if (!prev || rank < prev.rank) best.set(path, { path, message, rank });
  }
  return [...best.values()].map(({ path, message }) => ({ field: path, message }));
}

/** Validates a (normalised) payload against a compiled entity schema; [] = valid. */
export function validateWithAjv(ajv: Ajv, schema: JsonSchema, fields: Record<string, FieldSchema>, payload: unknown): FieldError[] {
  const validate = ajv.compile(schema);
  return validate(payload) ? [] : mapAjvErrors(fields, validate.errors);
}

export type { EntitySchema };
