import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { jsonSyntaxMessage, loadSchemaFiles, validateSchemaDir } from '../../src/schema/load-node';
import { messagesOf } from '../../src/schema/messages';
import { createMetaAjv, META_SCHEMAS } from '../../src/schema/meta';
import { ICON_NAMES, type RoutesFile } from '../../src/schema/types';
import { formatIssues, validateSchemas } from '../../src/schema/validate';
import { ENTITY_FIELD_TYPES, RULE_ORDER } from '../../src/shared/entity/types';

const ROOT = resolve(__dirname, '../..');
const real = loadSchemaFiles(ROOT).files;
const routesFile = real['schemas/routes.json'] as RoutesFile;
const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

/** A copy of the real schemas/ with some files replaced by raw text. */
function copyWith(texts: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'schema-meta-'));
  dirs.push(dir);
  for (const [file, data] of Object.entries(real)) {
    mkdirSync(join(dir, file, '..'), { recursive: true });
    writeFileSync(join(dir, file), file in texts ? texts[file] : JSON.stringify(data, null, 2));
  }
  return dir;
}

type Def = Record<string, any>;
const defs = (file: string): Record<string, Def> => (META_SCHEMAS[file].definitions ?? {}) as Record<string, Def>;

describe('the meta schemas are the one description of the schema language', () => {
  it('a key added to a meta schema is checked with no code change', () => {
    const metas = structuredClone(META_SCHEMAS);
    (metas['entity.schema.json'].definitions as Record<string, Def>).field.properties.statusFrom = { type: 'string', minLength: 1, title: '状态来源' };
    const entity = structuredClone(real['schemas/entities/order.json']) as Def;
    entity.fields.payStatus.statusFrom = 5;
    const before = createMetaAjv().getSchema('entity.schema.json')!;
    before(entity);
    expect(messagesOf('e', entity, before.errors ?? []).map((i) => i.reason)).toEqual([expect.stringContaining('unknown key "statusFrom"')]);
    const after = createMetaAjv(metas).getSchema('entity.schema.json')!;
    after(entity);
    expect(messagesOf('e', entity, after.errors ?? [])).toEqual([{ file: 'e', path: '$.fields.payStatus.statusFrom', reason: 'must be a string, got number' }]);
  });

  it('the lists the runtime keeps in code are the meta schemas\' (icons, field types, message rules)', () => {
    const route = defs('routes.schema.json').route.properties;
    expect(route.icon.enum).toEqual([...ICON_NAMES]);
    expect(defs('entity.schema.json').fieldType.enum).toEqual([...ENTITY_FIELD_TYPES]);
    expect(Object.keys(defs('entity.schema.json').field.properties.messages.properties)).toEqual([...RULE_ORDER]);
  });

  it('every key has a title (the schema studio renders its forms from them)', () => {
    const missing: string[] = [];
    const resolveRef = (file: string, ref: string): Def | undefined => {
      const [target, pointer] = ref.split('#');
      const root = META_SCHEMAS[target || file];
      return pointer.split('/').slice(1).reduce<Def | undefined>((at, k) => at?.[k], root);
    };
    const walk = (file: string, node: unknown, at: string) => {
      if (!node || typeof node !== 'object') return;
      const n = node as Def;
      // keys, not the conditions of rules between keys (if, and the then/else of an allOf rule)
      if (n.properties && !/\/if(\/|$)|\/allOf\/\d+\/(then|else)/.test(at)) {
        for (const [k, v] of Object.entries(n.properties as Record<string, Def>)) {
          const target = v.$ref ? resolveRef(file, v.$ref) : undefined;
          if (!v.title && !target?.title && !(v.not && v['x-message'])) missing.push(`${file} ${at}/properties/${k}`);
        }
      }
      for (const [k, v] of Object.entries(n)) walk(file, v, `${at}/${k}`);
    };
    for (const [file, schema] of Object.entries(META_SCHEMAS)) walk(file, schema, '#');
    expect(missing).toEqual([]);
  });
});

describe('one problem, reported once, in the file that has it', () => {
  it('an entity file that is not valid JSON: only its own issue, with line and column', () => {
    const text = JSON.stringify(real['schemas/entities/insured-person.json'], null, 2).replace('"label": "参保人员"', '"label" "参保人员"');
    const { issues } = validateSchemaDir(copyWith({ 'schemas/entities/insured-person.json': text }));
    expect(issues).toHaveLength(1);
    expect(issues[0].file).toBe('schemas/entities/insured-person.json');
    expect(issues[0].reason).toMatch(/^invalid JSON at line 4, column 11: /);
  });

  it('an invalid entity file: its own issues only, none in the tables, forms and entities that use it', () => {
    const files = structuredClone(real) as Record<string, Def>;
    files['schemas/entities/insured-person.json'].feilds = files['schemas/entities/insured-person.json'].fields;
    delete files['schemas/entities/insured-person.json'].fields;
    const issues = validateSchemas(files);
    expect(new Set(issues.map((i) => i.file)), formatIssues(issues)).toEqual(new Set(['schemas/entities/insured-person.json']));
    expect(issues.map((i) => i.reason)).toContain('unknown key "feilds" (did you mean "fields"?); allowed: $schema, name, label, description, storage, table, api, scope, defaultSort, operations, fieldsFrom, fields, counts');
  });

  it('a page or routes file that is not valid JSON is not reported again as missing', () => {
    const dir = copyWith({ 'schemas/tables/orders.json': '{ "id": "orders",\n  "entity": "order"\n  "title": "x" }' });
    const { issues } = validateSchemaDir(dir);
    expect(formatIssues(issues)).toBe(`schemas/tables/orders.json: $: invalid JSON at line 3, column 3: Expected ',' or '}' after property value`);
    const routes = validateSchemaDir(copyWith({ 'schemas/routes.json': '{ "brand": ' })).issues;
    expect(routes.map((i) => i.file)).toEqual(['schemas/routes.json']);
  });

  it('an entity that copies its fields from an unknown entity is told so', () => {
    const files = structuredClone(real) as Record<string, Def>;
    files['schemas/entities/insure-batch-row.json'].fieldsFrom = { entity: 'insured-persons' };
    expect(formatIssues(validateSchemas(files).filter((i) => i.file === 'schemas/entities/insure-batch-row.json'))).toContain(
      '$.fieldsFrom.entity: unknown entity "insured-persons": expected schemas/entities/<name>.json',
    );
  });

  it('counts per month must count a date: "per" on counts by a plain value is told so', () => {
    const files = structuredClone(real) as Record<string, Def>;
    files['schemas/entities/order.json'].counts.push({ by: ['payStatus'], per: 'month' }, { by: ['payStatus'], per: 'week' });
    const issues = formatIssues(validateSchemas(files).filter((i) => i.file === 'schemas/entities/order.json'));
    expect(issues).toContain(`$.counts[3].per: "month" counts a date or datetime field of "by" per month: name one in "by"`);
    expect(issues).toContain('$.counts[4].per');
  });

  it('JSON syntax errors name the line and column', () => {
    const at = (text: string) => {
      try {
        JSON.parse(text);
      } catch (e) {
        return jsonSyntaxMessage(text, e as Error);
      }
    };
    expect(at('{\n  "a": 1,\n  "b": x\n}')).toMatch(/^invalid JSON at line 3, column 8: Unexpected token 'x'/);
    expect(at('{\n  "a": 1,\n}')).toMatch(/^invalid JSON at line 3, column 1: /);
    expect(at('{ "a": [1, 2')).toMatch(/^invalid JSON at line 1, column 13: /);
  });
});

describe('editor support: schemas/meta/*.schema.json', () => {
  it('every file names its meta schema in "$schema" and validates against it; mistakes are flagged', () => {
    const ajv = createMetaAjv();
    const kinds: Record<string, string> = { entities: 'entity', tables: 'table', forms: 'form', details: 'detail' };
    let checked = 0;
    for (const [file, data] of Object.entries(real)) {
      const m = /^schemas\/(entities|tables|forms|details)\//.exec(file);
      if (!m) continue;
      const kind = kinds[m[1]];
      expect((data as { $schema?: string }).$schema, file).toBe(`../meta/${kind}.schema.json`);
      const validate = ajv.getSchema(`${kind}.schema.json`)!;
      expect(validate(data), `${file}: ${JSON.stringify(validate.errors)}`).toBe(true);
      checked++;
    }
    expect(checked).toBeGreaterThan(30);
    const orders = structuredClone(real['schemas/tables/orders.json']) as any;
    orders.columns[1] = { field: 'productName', title: '产品' };
    expect(ajv.getSchema('table.schema.json')!(orders)).toBe(false);
    const order = structuredClone(real['schemas/entities/order.json']) as any;
    order.fields.amount.type = 'currency';
    expect(ajv.getSchema('entity.schema.json')!(order)).toBe(false);
  });
});

describe('routes.json against its JSON Schema (schemas/meta/routes.schema.json)', () => {
  const validate = createMetaAjv().getSchema('routes.schema.json')!;

  it('the real routes file conforms and points at its schema', () => {
    expect(routesFile.$schema).toBe('./meta/routes.schema.json');
    expect(validate(routesFile), JSON.stringify(validate.errors)).toBe(true);
  });

  it('refuses keys outside the route entry format', () => {
    const bad = structuredClone(routesFile) as unknown as { routes: Array<Record<string, unknown>> };
    bad.routes[3].hidden = true;
    expect(validate(bad)).toBe(false);
  });
});
