/**
 * The schema language: schemas/meta/*.schema.json, compiled once by Ajv. Every key, type, enum and
 * rule between keys of a schema file is checked here from the meta schemas alone (a key added to a
 * meta schema is checked with no code change); src/schema/messages.ts words Ajv's errors. Checks
 * JSON Schema cannot say (references between files, routes to pages, fields to entities) are in
 * check-entities.ts, check-pages.ts and check-routes.ts.
 *
 * Keywords of our own, all `x-` (editors ignore them):
 * - `x-message`: the message of an error of this schema object: a string, or { keyword: string } or
 *   { keyword: { property: string } }; {value}, {got}, {allowed}, {first} and {.key} are filled in;
 * - `x-uniqueBy`: the items of an array have distinct values of this key (a string item is its own value);
 * - `x-ordered`: [[a, b], …]: in an object, a ≤ b when both are numbers (min ≤ max);
 * - `x-enumLabels`: Chinese labels of an enum's values, `x-fromEntity`: an entity-bound page entry
 *   (annotations for the messages and the schema studio).
 */
import { Ajv, type AnySchemaObject, type ErrorObject, type ValidateFunction } from 'ajv';
import common from '../../schemas/meta/common.schema.json';
import detail from '../../schemas/meta/detail.schema.json';
import entity from '../../schemas/meta/entity.schema.json';
import form from '../../schemas/meta/form.schema.json';
import routes from '../../schemas/meta/routes.schema.json';
import table from '../../schemas/meta/table.schema.json';

/** Kinds of schema file, each with its meta schema `schemas/meta/<kind>.schema.json`. */
export type FileKind = 'entity' | 'table' | 'form' | 'detail' | 'routes';
export const FILE_KINDS: readonly FileKind[] = ['entity', 'table', 'form', 'detail', 'routes'];

/** The meta schemas by file name (common.schema.json holds the definitions the others share). */
export const META_SCHEMAS: Record<string, AnySchemaObject> = {
  'common.schema.json': common,
  'entity.schema.json': entity,
  'table.schema.json': table,
  'form.schema.json': form,
  'detail.schema.json': detail,
  'routes.schema.json': routes,
};

type KeywordCxt = { instancePath: string };
type ErrFn = ((...args: unknown[]) => boolean) & { errors?: Partial<ErrorObject>[] };

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** `x-uniqueBy`: a second item with the same value is an error at that item (or its key). */
const uniqueBy: ErrFn = (key: unknown, data: unknown, parent: unknown, cxt: unknown) => {
  const at = (cxt as KeywordCxt).instancePath;
  const seen = new Map<string, number>();
  const errs: Partial<ErrorObject>[] = [];
  // Function keywords' errors carry no parentSchema: the message travels in the params.
  const own = (parent as Record<string, unknown>)['x-message'];
  const message = isObj(own) && typeof own['x-uniqueBy'] === 'string' ? own['x-uniqueBy'] : undefined;
  (data as unknown[]).forEach((item, i) => {
    const value = typeof item === 'string' ? item : isObj(item) ? item[key as string] : undefined;
    if (typeof value !== 'string') return;
    const first = seen.get(value);
    if (first === undefined) seen.set(value, i);
    else {
      const instancePath = typeof item === 'string' ? `${at}/${i}` : `${at}/${i}/${key as string}`;
      errs.push({ keyword: 'x-uniqueBy', instancePath, params: { value, first: `${at}/${first}`, message } });
    }
  });
  uniqueBy.errors = errs;
  return errs.length === 0;
};

/** `x-ordered`: each [low, high] pair of numbers in order. */
const ordered: ErrFn = (pairs: unknown, data: unknown) => {
  const obj = data as Record<string, unknown>;
  const errs = (pairs as [string, string][])
    .filter(([a, b]) => typeof obj[a] === 'number' && typeof obj[b] === 'number' && (obj[a] as number) > (obj[b] as number))
    .map(([a, b]) => ({ keyword: 'x-ordered', params: { low: a, high: b } }));
  ordered.errors = errs;
  return errs.length === 0;
};

/** A regular expression as the gateway's and the browser's Ajv compile it (unicode mode). */
export function regexError(source: string): string | undefined {
  try {
    new RegExp(source, 'u');
    return undefined;
  } catch (e) {
    return (e as Error).message;
  }
}

/**
 * An Ajv instance with the meta schemas and our keywords (allErrors, verbose: messages need the data
 * and schema). Unoptimised code compiles in about half the time, and these validators run a few dozen times.
 */
export function createMetaAjv(schemas: Record<string, AnySchemaObject> = META_SCHEMAS): Ajv {
  const ajv = new Ajv({ allErrors: true, verbose: true, strict: true, strictTypes: false, strictRequired: false, allowUnionTypes: true, code: { optimize: false } });
  ajv.addFormat('regex', { type: 'string', validate: (s: string) => regexError(s) === undefined });
  ajv.addKeyword({ keyword: 'x-message', schemaType: ['string', 'object'] });
  ajv.addKeyword({ keyword: 'x-enumLabels', schemaType: 'array' });
  ajv.addKeyword({ keyword: 'x-fromEntity', schemaType: 'boolean' });
  ajv.addKeyword({ keyword: 'x-uniqueBy', type: 'array', schemaType: 'string', errors: true, validate: uniqueBy as never });
  ajv.addKeyword({ keyword: 'x-ordered', type: 'object', schemaType: 'array', errors: true, validate: ordered as never });
  for (const schema of Object.values(schemas)) ajv.addSchema(schema);
  return ajv;
}

let compiled: Record<FileKind, ValidateFunction> | undefined;

/** The compiled check of one kind of schema file (compiled on first use, then kept). */
export function metaValidator(kind: FileKind): ValidateFunction {
  if (!compiled) {
    const ajv = createMetaAjv();
    compiled = Object.fromEntries(FILE_KINDS.map((k) => [k, ajv.getSchema(`${k}.schema.json`)!])) as Record<FileKind, ValidateFunction>;
  }
  return compiled[kind];
}

/** Keys of `definitions/<name>/properties` of a meta schema (for messages that explain a key). */
export function definitionKeys(file: string, name: string): string[] {
  const def = (META_SCHEMAS[file]?.definitions as Record<string, AnySchemaObject> | undefined)?.[name];
  return def && isObj(def.properties) ? Object.keys(def.properties) : [];
}
