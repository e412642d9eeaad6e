/**
 * Ajv's errors against the meta schemas, worded as `validate:schemas` words them: one issue per
 * problem with the file, the JSON path of the offending key and a reason ("missing required key",
 * "unknown key … (did you mean …?)", "must be a boolean, got string", "invalid icon …; allowed: …").
 * A meta schema words a rule of its own with `x-message` (see meta.ts).
 */
import type { ErrorObject } from 'ajv';
import { definitionKeys, regexError } from './meta';
import { describe, isObj, keyPath, pointerToPath, unknownKeyMessage } from './issues';
import type { SchemaIssue } from './types';

type Schema = Record<string, unknown>;

/** Keys that an entity-bound page entry must not repeat: they come from the entity (or are the inline format's). */
let repeatable: Set<string> | undefined;
function repeatableKeys(): Set<string> {
  repeatable ??= new Set([
    ...definitionKeys('entity.schema.json', 'field'),
    ...definitionKeys('table.schema.json', 'plainColumn'),
    ...definitionKeys('form.schema.json', 'plainField'),
    ...definitionKeys('detail.schema.json', 'plainField'),
  ]);
  return repeatable;
}

/** The `x-message` of a schema object for a keyword (and property), if it gives one. */
function ownMessage(schema: Schema | undefined, keyword: string, property?: string): string | undefined {
  const m = schema?.['x-message'];
  if (typeof m === 'string') return m;
  if (!isObj(m)) return undefined;
  const k = m[keyword];
  if (typeof k === 'string') return k;
  return isObj(k) && property !== undefined && typeof k[property] === 'string' ? (k[property] as string) : undefined;
}

interface Vars {
  value: unknown;
  allowed?: unknown[];
  first?: string;
}

/**
 * Fills {value}, {got}, {allowed}, {first}, {.key} (a key of the value) and {has a,b,c} (those of
 * the keys a, b, c the value has: `"a" and "c"`) into a message.
 */
function fill(template: string, v: Vars): string {
  return template
    .replace(/\{has ([A-Za-z0-9_$,]+)\}/g, (_, keys: string) =>
      keys
        .split(',')
        .filter((k) => isObj(v.value) && v.value[k] !== undefined)
        .map((k) => `"${k}"`)
        .join(' and '),
    )
    .replace(/\{value\}/g, () => JSON.stringify(v.value))
    .replace(/\{got\}/g, () => describe(v.value))
    .replace(/\{allowed\}/g, () => (v.allowed ?? []).map(String).join(', '))
    .replace(/\{first\}/g, () => v.first ?? '')
    .replace(/\{\.([A-Za-z0-9_$]+)\}/g, (_, k: string) => JSON.stringify(isObj(v.value) ? v.value[k] : undefined));
}

const TYPE_WORDS: Record<string, string> = {
  string: 'a string',
  boolean: 'a boolean',
  number: 'a finite number',
  object: 'an object',
  array: 'an array',
};

/** `must be a positive integer, got 1.5` and the like, for the `type` and `minimum` of a number. */
function numberMessage(schema: Schema, value: unknown): string {
  if (schema.type !== 'integer') return `must be a finite number, got ${describe(value)}`;
  const kind = schema.minimum === 1 ? 'a positive integer' : schema.minimum === 0 ? 'a non-negative integer' : 'an integer';
  return `must be ${kind}, got ${JSON.stringify(value)}`;
}

/** The name a value is known by in a message: the last key of its path (`icon`, `userType`). */
function nounOf(pointer: string): string {
  const keys = pointer.split('/').filter((s) => s && !/^\d+$/.test(s));
  return keys[keys.length - 1] ?? 'value';
}

/** The reason for one error, or undefined to leave it out (it only says that a branch was taken). */
function reasonOf(e: ErrorObject, root: unknown, value: unknown): string | undefined {
  const schema = (e.parentSchema ?? {}) as Schema;
  const p = e.params as Record<string, unknown>;
  const own = (property?: string) => ownMessage(schema, e.keyword, property);
  switch (e.keyword) {
    case 'if':
    case 'propertyNames':
      return undefined;
    case 'required':
      return own(String(p.missingProperty)) ?? `missing required key "${String(p.missingProperty)}"`;
    case 'dependencies':
      return own(String(p.property)) ?? `${String(p.property)} needs ${String(p.missingProperty)}`;
    case 'additionalProperties': {
      const key = String(p.additionalProperty);
      const given = own(key);
      if (given) return given;
      if (schema['x-fromEntity'] === true && repeatableKeys().has(key)) {
        const entity = isObj(root) ? String(root.entity) : '';
        const field = isObj(value) ? String(value.field) : '';
        return `repeats entity field "${field}" of schemas/entities/${entity}.json: "${key}" comes from the entity (pages add layout only)`;
      }
      return unknownKeyMessage(key, isObj(schema.properties) ? Object.keys(schema.properties) : []);
    }
    case 'type': {
      const t = Array.isArray(p.type) ? p.type : String(p.type).split(',');
      const given = own();
      if (given) return fill(given, { value });
      if (t.length === 1 && (t[0] === 'integer' || t[0] === 'number')) return numberMessage(schema, value);
      return `must be ${t.map((x) => TYPE_WORDS[String(x)] ?? String(x)).join(' or ')}, got ${describe(value)}`;
    }
    case 'minimum':
    case 'exclusiveMinimum':
      return own() ?? numberMessage(schema, value);
    case 'enum':
    case 'const': {
      const allowed = e.keyword === 'enum' ? (p.allowedValues as unknown[]) : [p.allowedValue];
      const given = own();
      return fill(given ?? `invalid ${nounOf(e.instancePath)} {value}; allowed: {allowed}`, { value, allowed });
    }
    case 'minItems':
      return own() ?? (p.limit === 1 ? 'must be a non-empty array' : `must have at least ${String(p.limit)} items`);
    case 'minLength':
      return own() ?? (p.limit === 1 ? 'must be a non-empty string' : `must have at least ${String(p.limit)} characters`);
    case 'minProperties':
      return own() ?? 'must be a non-empty object';
    case 'format':
      if (p.format === 'regex') return `pattern is not a valid RegExp: ${regexError(String(value)) ?? ''}`;
      return own() ?? `must be a valid ${String(p.format)}`;
    case 'x-uniqueBy':
      return fill(typeof p.message === 'string' && p.message ? p.message : 'duplicate value {value} (first at {first})', {
        value: p.value,
        first: pointerToPath(root, `${e.instancePath}/${String(p.first)}`),
      });
    case 'x-ordered':
      return `${String(p.low)} is greater than ${String(p.high)}`;
    default: {
      // `not`, `pattern` and the like: the meta schema words its rule, else Ajv's message
      // (anyOf/oneOf are not worded: the meta schemas tell cases apart with if/then/else)
      const given = own();
      return given ? fill(given, { value }) : (e.message ?? 'is invalid');
    }
  }
}

/** A duplicate is reported at the item, or at its key when the item is a record (options, inline columns). */
function duplicatePath(root: unknown, e: ErrorObject): string {
  const index = Number((e.params as Record<string, unknown>).index);
  const item = Array.isArray(e.data) ? e.data[index] : undefined;
  const at = `${e.instancePath}/${index}`;
  return pointerToPath(root, typeof item === 'string' ? at : `${at}/${String(e.schema)}`);
}

/** The issues of one file from Ajv's errors (each problem once, in the file's own JSON paths). */
export function messagesOf(file: string, root: unknown, errors: readonly ErrorObject[]): SchemaIssue[] {
  const out: SchemaIssue[] = [];
  const seen = new Set<string>();
  for (const e of errors) {
    const inName = e.propertyName !== undefined;
    const value = inName ? e.propertyName : e.data;
    const reason = reasonOf(e, root, value);
    if (reason === undefined) continue;
    const base = pointerToPath(root, e.instancePath);
    const p = e.params as Record<string, unknown>;
    const path = inName
      ? keyPath(base, String(e.propertyName))
      : e.keyword === 'required'
        ? keyPath(base, String(p.missingProperty))
        : e.keyword === 'additionalProperties'
          ? keyPath(base, String(p.additionalProperty))
          : e.keyword === 'dependencies'
            ? keyPath(base, String(p.property))
            : e.keyword === 'x-uniqueBy'
              ? duplicatePath(root, e)
              : base;
    const key = `${path}\u0000${reason}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push({ file, path, reason });
  }
  return out;
}
