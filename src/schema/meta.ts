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
import { _, Ajv, type AnySchemaObject, type KeywordCxt, type KeywordDefinition, type ValidateFunction } from 'ajv';
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

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * `x-uniqueBy`: a second item with the same value of the key (a string item is its own value) is an
 * error; its params say which item and where the first was (messages.ts turns them into paths).
 * Keywords are generated code (not functions), so the validators can also be saved as standalone code.
 */
const uniqueBy: KeywordDefinition = {
  keyword: 'x-uniqueBy',
  type: 'array',
  schemaType: 'string',
  error: {
    message: 'duplicate value',
    params: ({ params }) => _`{index: ${params.index}, first: ${params.first}, value: ${params.value}, message: ${params.message}}`,
  },
  code(cxt: KeywordCxt) {
    const { gen, data, schema, parentSchema } = cxt;
    const own = (parentSchema as Record<string, unknown>)['x-message'];
    const message = isObj(own) && typeof own['x-uniqueBy'] === 'string' ? own['x-uniqueBy'] : '';
    const seen = gen.const('seen', _`new Map()`);
    gen.forRange('i', 0, _`${data}.length`, (i) => {
      const item = gen.const('item', _`${data}[${i}]`);
      const value = gen.const('value', _`typeof ${item} == "string" ? ${item} : ${item} && typeof ${item} == "object" ? ${item}[${schema as string}] : undefined`);
      gen.if(_`typeof ${value} == "string"`, () => {
        gen.if(_`${seen}.has(${value})`);
        cxt.error(false, { index: i, first: _`${seen}.get(${value})`, value, message });
        gen.else();
        gen.code(_`${seen}.set(${value}, ${i})`);
        gen.endIf();
      });
    });
  },
};

/** `x-ordered`: [[low, high], …]: in an object, low ≤ high when both are numbers (min ≤ max). */
const ordered: KeywordDefinition = {
  keyword: 'x-ordered',
  type: 'object',
  schemaType: 'array',
  error: { message: 'out of order', params: ({ params }) => _`{low: ${params.low}, high: ${params.high}}` },
  code(cxt: KeywordCxt) {
    const { data, schema } = cxt;
    for (const [a, b] of schema as [string, string][]) {
      cxt.setParams({ low: a, high: b });
      cxt.fail(_`typeof ${data}[${a}] == "number" && typeof ${data}[${b}] == "number" && ${data}[${a}] > ${data}[${b}]`);
    }
  },
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
 * The `regex` format as code, for validators saved as standalone code (meta-cache-node.ts). A function:
 * a top-level call of Ajv's `_` kept Ajv (about 120 kB) in the browser's first load through registry.ts.
 */
const formatsCode = () => _`{regex: function (s) { try { new RegExp(s, "u"); return true } catch (e) { return false } }}`;

/**
 * An Ajv instance with the meta schemas and our keywords (allErrors, verbose: messages need the data
 * and schema). Unoptimised code compiles in about half the time, and these validators run a few dozen
 * times; `source` keeps the code so meta-cache-node.ts can save it.
 */
export function createMetaAjv(schemas: Record<string, AnySchemaObject> = META_SCHEMAS, opts: { source?: boolean } = {}): Ajv {
  const ajv = new Ajv({
    allErrors: true,
    verbose: true,
    strict: true,
    strictTypes: false,
    strictRequired: false,
    allowUnionTypes: true,
    code: { optimize: false, ...(opts.source ? { source: true, formats: formatsCode() } : {}) },
  });
  ajv.addFormat('regex', (s: string) => regexError(s) === undefined);
  ajv.addKeyword({ keyword: 'x-message', schemaType: ['string', 'object'] });
  ajv.addKeyword({ keyword: 'x-enumLabels', schemaType: 'array' });
  ajv.addKeyword({ keyword: 'x-fromEntity', schemaType: 'boolean' });
  ajv.addKeyword(uniqueBy);
  ajv.addKeyword(ordered);
  for (const schema of Object.values(schemas)) ajv.addSchema(schema);
  return ajv;
}

export type MetaValidators = Record<FileKind, ValidateFunction>;

/** The validators of an Ajv instance made by createMetaAjv. */
export function validatorsOf(ajv: Ajv): MetaValidators {
  return Object.fromEntries(FILE_KINDS.map((k) => [k, ajv.getSchema(`${k}.schema.json`)!])) as MetaValidators;
}

let source: () => MetaValidators = () => validatorsOf(createMetaAjv());
let compiled: MetaValidators | undefined;

/** Where the validators come from (node: a cache of compiled code, see meta-cache-node.ts); default: compiled here. */
export function setValidatorSource(load: () => MetaValidators): void {
  source = load;
  compiled = undefined;
}

/** The check of one kind of schema file (made on first use, then kept). */
export function metaValidator(kind: FileKind): ValidateFunction {
  compiled ??= source();
  return compiled[kind];
}

/** Keys of `definitions/<name>/properties` of a meta schema (for messages that explain a key). */
export function definitionKeys(file: string, name: string): string[] {
  const def = (META_SCHEMAS[file]?.definitions as Record<string, AnySchemaObject> | undefined)?.[name];
  return def && isObj(def.properties) ? Object.keys(def.properties) : [];
}
