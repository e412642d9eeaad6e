/**
 * Entity → JSON Schema for a payload (Fastify route schemas, OpenAPI, codegen). Standard keywords
 * carry the plain rules; the custom formats (`entity-<type>`) and keywords (`x-money`,
 * `x-date-bounds`, `x-unique-by`) are registered on Ajv by ajv.ts and delegate to rules.ts.
 * Payloads are normalised (trimmed, blanks removed: rules.normalizePayload) before validation.
 */
import { FORMAT_CHECKS, formatName, inputFields, itemFields } from './rules.ts';
import type { EntitySchema, FieldSchema } from './types.ts';

export type JsonSchema = Record<string, unknown>;

export interface ToJsonSchemaOptions {
  mode: 'create' | 'update' | 'row';
  fields?: string[];
}

function scalarSchema(f: FieldSchema): JsonSchema {
  const s: JsonSchema = { title: f.label };
  if (f.description) s.description = f.description;
  if (f.example !== undefined) s.examples = [f.example];
  switch (f.type) {
    case 'integer':
    case 'ref':
      s.type = 'integer';
      if (f.type === 'ref') s.minimum = 1;
      break;
    case 'money':
      s.type = 'number';
      s['x-money'] = true;
      break;
    case 'boolean':
      s.type = 'boolean';
      break;
    case 'array':
      s.type = 'array';
      break;
    default:
      s.type = 'string';
  }
  if (f.minLength !== undefined) s.minLength = f.minLength;
  if (f.maxLength !== undefined) s.maxLength = f.maxLength;
  if (s.type === 'string' && f.type !== 'password') s['x-chars'] = f.type === 'text' ? 'text' : 'line';
  if (FORMAT_CHECKS[f.type]) s.format = formatName(f.type);
  if (f.pattern !== undefined) s.pattern = f.pattern;
  if (f.type === 'enum') s.enum = (f.options ?? []).map((o) => o.value);
  if (f.min !== undefined) s.minimum = f.min;
  if (f.max !== undefined) s.maximum = f.max;
  if (f.type === 'date' && (f.minDate !== undefined || f.maxDate !== undefined)) {
    s['x-date-bounds'] = { ...(f.minDate ? { minDate: f.minDate } : {}), ...(f.maxDate ? { maxDate: f.maxDate } : {}) };
  }
  if (f.readOnly) s.readOnly = true;
  return s;
}

/** JSON Schema of one field (arrays include their items). */
export function fieldJsonSchema(f: FieldSchema): JsonSchema {
  const s = scalarSchema(f);
  if (f.type !== 'array') return s;
  if (f.minItems !== undefined) s.minItems = f.minItems;
  if (f.maxItems !== undefined) s.maxItems = f.maxItems;
  const sub = itemFields(f);
  if (sub) {
    s.items = objectSchema(sub, undefined, 'create');
    const uniq = Object.entries(sub).filter(([, x]) => x.unique).map(([k]) => k);
    if (uniq.length) s['x-unique-by'] = uniq;
  } else if (typeof f.items === 'string') {
    const item = scalarSchema({ type: f.items, label: f.label });
    delete item.title;
    if (item.type === 'string') item.minLength = 1;
    s.items = item;
  }
  return s;
}

function objectSchema(fields: Record<string, FieldSchema>, title: string | undefined, mode: ToJsonSchemaOptions['mode']): JsonSchema {
  const properties: Record<string, JsonSchema> = {};
  const required: string[] = [];
  for (const [k, f] of Object.entries(fields)) {
    properties[k] = fieldJsonSchema(f);
    if (f.required && mode !== 'update') required.push(k);
  }
  return {
    type: 'object',
    ...(title ? { title } : {}),
    properties,
    ...(required.length ? { required } : {}),
    additionalProperties: false,
  };
}

/** JSON Schema for an entity's input payload (create/update) or a stored row (mode 'row'). */
export function toJsonSchema(entity: EntitySchema, opts: ToJsonSchemaOptions): JsonSchema {
  if (opts.mode === 'row') {
    const props: Record<string, JsonSchema> = { id: { type: 'integer', title: 'ID' } };
    for (const [k, f] of Object.entries(entity.fields)) {
      const s = fieldJsonSchema({ ...f, required: false });
      delete s['x-date-bounds'];
      props[k] = s;
    }
    const required = ['id', ...Object.entries(entity.fields).filter(([, f]) => f.required).map(([k]) => k)];
    return { type: 'object', title: entity.label, properties: props, required, additionalProperties: false };
  }
  const all = inputFields(entity);
  const fields = opts.fields ? Object.fromEntries(opts.fields.filter((k) => all[k]).map((k) => [k, all[k]])) : all;
  return objectSchema(fields, entity.label, opts.mode);
}
