/**
 * Entity records for the domain's writers: the one place a writer takes its column lists, JSON record
 * types and update sets from, all derived from the entity schema. Domain code names only the fields its
 * rules need (money, cover, status); every other field of the entity travels through these helpers, so
 * a field a configurator adds to an entity is stored by every writer with no code change
 * (docs/entity-schema.md, "Writers follow the schema").
 *
 * A record is an object keyed by field key. In API form (what a checked request body holds) money is
 * yuan and dates are strings; in stored form (what the helpers below send to SQL) money is cents, ID and
 * tax numbers are upper-case, account numbers have no spaces, and "not given" is null.
 */
import type { EntitySchema, FieldSchema } from '../../shared/entity/types.ts';
import { cellValue } from '../../shared/entity/cells.ts';
import { FORMAT_CHECKS, inputFields, normalizeValue } from '../../shared/entity/rules.ts';
import { columnOf, sqlType } from './ddl.ts';
import { selectExpr } from './select.ts';
import { toDbValue } from './write.ts';

export type EntityRecord = Record<string, unknown>;

/** Keys of the fields a writer takes from its input (every field that is not readOnly), in schema order. */
export function writableKeys(e: EntitySchema): string[] {
  return Object.keys(inputFields(e));
}

/** The writable fields `input` gives (blank values left out): what a writer stores from a checked body. */
export function pickWritable(e: EntitySchema, input: EntityRecord): EntityRecord {
  const out: EntityRecord = {};
  for (const k of writableKeys(e)) {
    const v = normalizeValue(input[k]);
    if (v !== undefined) out[k] = v;
  }
  return out;
}

/** Keys of `e`'s writable fields that `other` also has (e.g. a form row's copy of a person's fields). */
export function sharedKeys(e: EntitySchema, other: EntitySchema): string[] {
  return writableKeys(e).filter((k) => Object.hasOwn(other.fields, k));
}

function fieldOf(e: EntitySchema, key: string): FieldSchema {
  const f = e.fields[key];
  if (!f) throw new Error(`entity ${e.name} has no field ${key}`);
  return f;
}

/** Whether a value (after cellValue) fits the field's column: its type, date form and enum options. */
function fitsColumn(f: FieldSchema, v: unknown): boolean {
  switch (f.type) {
    case 'integer':
    case 'ref':
      return typeof v === 'number' && Number.isSafeInteger(v);
    case 'money':
      return typeof v === 'number' && Number.isFinite(v);
    case 'boolean':
      return typeof v === 'boolean';
    case 'date':
    case 'datetime':
      return typeof v === 'string' && FORMAT_CHECKS[f.type]!(v);
    case 'enum':
      return (f.options ?? []).some((o) => o.value === v);
    default:
      return true;
  }
}

/**
 * One value in stored form; blank ("not given") is null. Text (a file's cell, an editor's input) becomes
 * the field's value first (cellValue). A value its column cannot hold (the text of a refused row, kept
 * on a form's failed row next to its error) is stored as null rather than failing the whole write.
 */
export function storedValue(f: FieldSchema, v: unknown): unknown {
  const n = normalizeValue(cellValue(f, v));
  if (n === undefined || !fitsColumn(f, n)) return null;
  return toDbValue(f, n)[0];
}

/** The record of `keys` in stored form (null where not given), from an API-form record. */
export function toStored(e: EntitySchema, input: EntityRecord, keys: readonly string[] = writableKeys(e)): EntityRecord {
  const out: EntityRecord = {};
  for (const k of keys) {
    const v = storedValue(fieldOf(e, k), input[k]);
    // TEXT[] and JSONB values travel inside the JSON record as JSON arrays, not as SQL literals.
    out[k] = typeof v === 'string' && fieldOf(e, k).type === 'array' ? JSON.parse(v) : v;
  }
  return out;
}

/** The records in stored form, as the one JSON parameter `recordset` reads. */
export function storedJson(e: EntitySchema, rows: readonly EntityRecord[], keys: readonly string[] = writableKeys(e), extra?: (row: EntityRecord, i: number) => EntityRecord): string {
  return JSON.stringify(rows.map((r, i) => (extra ? { ...toStored(e, r, keys), ...extra(r, i) } : toStored(e, r, keys))));
}

const quoteKey = (k: string) => `"${k.replace(/"/g, '""')}"`;

/**
 * `json_to_recordset(<param>::json) AS <alias>("key" TYPE, …)`: the rows of a stored-form JSON array as
 * a table whose columns are the field keys (plus `extra` columns, key → SQL type, that the domain adds).
 */
export function recordset(e: EntitySchema, keys: readonly string[], param: string, alias = 't', extra: Record<string, string> = {}): string {
  const defs = [...keys.map((k) => `${quoteKey(k)} ${sqlType(fieldOf(e, k))}`), ...Object.entries(extra).map(([k, t]) => `${quoteKey(k)} ${t}`)];
  return `json_to_recordset(${param}::json) AS ${alias}(${defs.join(', ')})`;
}

/** The SQL columns of `keys`. */
export function columns(e: EntitySchema, keys: readonly string[]): string[] {
  return keys.map((k) => columnOf(k, fieldOf(e, k)));
}

/** `<alias>."key"` for each key: the values of a recordset row in the order of `columns`. */
export function recordValues(keys: readonly string[], alias = 't'): string[] {
  return keys.map((k) => `${alias}.${quoteKey(k)}`);
}

/**
 * The SET list of an upsert or update: `col = <from>.col` for each key, or with `keep` the stored value
 * where the new one is not given (`col = COALESCE(<from>.col, <table>.col)`): a blank cell never erases
 * what a person already holds.
 */
export function updateSet(e: EntitySchema, keys: readonly string[], opts: { from: string; table?: string; keep?: boolean; fromKeys?: boolean }): string {
  return keys
    .map((k) => {
      const col = columnOf(k, fieldOf(e, k));
      const src = opts.fromKeys ? `${opts.from}.${quoteKey(k)}` : `${opts.from}.${col}`;
      return opts.keep ? `${col} = COALESCE(${src}, ${opts.table ?? e.table}.${col})` : `${col} = ${src}`;
    })
    .join(', ');
}

/**
 * `<expr> AS "key"` for each key, in API form (money in yuan, dates as text, as lists and details return
 * them): what domain code reads back to merge with a submission or to check by the entity's rules.
 */
export function apiSelect(e: EntitySchema, keys: readonly string[]): string {
  return keys.map((k) => `${selectExpr(k, fieldOf(e, k))} AS ${quoteKey(k)}`).join(', ');
}

/**
 * For each key, the given (non-blank) value of `given`, else the stored one: what a person holds after a
 * submission that left some cells blank.
 */
export function mergeRecord(keys: readonly string[], given: EntityRecord, stored: EntityRecord | undefined): EntityRecord {
  const out: EntityRecord = {};
  for (const k of keys) {
    const v = normalizeValue(given[k]);
    out[k] = v !== undefined ? v : stored?.[k] ?? null;
  }
  return out;
}
