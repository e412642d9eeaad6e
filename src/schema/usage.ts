/**
 * Where each schema file is used: the routes that render a page schema, the page schemas bound to an
 * entity, the entities that refer to another (references, fieldsFrom, array items, ref fields), the
 * tables that open a form. Pure: the schema studio shows it next to every file.
 */
import type { RouteNode, RoutesFile } from './types';

export interface Usage {
  /** file → the places that use it, each as a short Chinese phrase naming the user. */
  [file: string]: string[];
}

const KIND_DIR = { table: 'tables', form: 'forms', detail: 'details' } as const;

type Json = Record<string, unknown>;
const isObj = (v: unknown): v is Json => !!v && typeof v === 'object' && !Array.isArray(v);

function walkRoutes(nodes: RouteNode[] | undefined, visit: (r: RouteNode) => void) {
  for (const r of nodes ?? []) {
    visit(r);
    walkRoutes(r.childRoutes, visit);
  }
}

/** The usage index of a set of parsed schema files keyed like 'schemas/routes.json'. */
export function schemaUsage(files: Record<string, unknown>): Usage {
  const out: Usage = {};
  const add = (file: string, by: string) => {
    if (!(file in files)) return;
    (out[file] ??= []).includes(by) || out[file].push(by);
  };
  for (const f of Object.keys(files)) out[f] ??= [];

  const routes = files['schemas/routes.json'] as RoutesFile | undefined;
  walkRoutes(routes?.routes, (r) => {
    const page = r.page as (Json & { kind?: string; schema?: string; schemas?: Array<{ kind: keyof typeof KIND_DIR; schema: string }> }) | undefined;
    if (!page) return;
    const refs = [...(page.schema && page.kind && page.kind in KIND_DIR ? [{ kind: page.kind as keyof typeof KIND_DIR, schema: page.schema }] : []), ...(page.schemas ?? [])];
    for (const s of refs) add(`schemas/${KIND_DIR[s.kind]}/${s.schema}.json`, `路由 ${r.path}（${r.title}）`);
  });

  for (const [file, data] of Object.entries(files)) {
    if (!isObj(data)) continue;
    const m = /^schemas\/(entities|tables|forms|details)\/(.+)\.json$/.exec(file);
    if (!m) continue;
    const [, dir, name] = m;
    if (dir !== 'entities') {
      if (typeof data.entity === 'string') add(`schemas/entities/${data.entity}.json`, `${{ tables: '表格', forms: '表单', details: '详情' }[dir]} ${name}`);
      for (const t of [...((data.toolbar as Json[] | undefined) ?? []), ...((data.actions as Json[] | undefined) ?? [])]) {
        if (isObj(t) && typeof t.form === 'string') add(`schemas/forms/${t.form}.json`, `表格 ${name} 的按钮“${String(t.label)}”`);
      }
      continue;
    }
    const refer = (target: string, how: string) => target !== name && add(`schemas/entities/${target}.json`, `实体 ${name} ${how}`);
    if (isObj(data.fieldsFrom) && typeof data.fieldsFrom.entity === 'string') refer(data.fieldsFrom.entity, '复制其字段（fieldsFrom）');
    for (const [key, f] of Object.entries(isObj(data.fields) ? data.fields : {})) {
      if (typeof f === 'string' && f.includes('.')) refer(f.slice(0, f.lastIndexOf('.')), `的字段 ${key} 引用它`);
      if (isObj(f) && typeof f.entity === 'string') refer(f.entity, `的字段 ${key} 关联它`);
      if (isObj(f) && isObj(f.items) && typeof f.items.entity === 'string') refer(f.items.entity, `的字段 ${key} 的列表元素取它的字段`);
    }
  }
  return out;
}
