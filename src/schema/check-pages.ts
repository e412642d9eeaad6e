/**
 * What the table, form and detail meta schemas cannot say about a page file: its id is its file
 * name, an entity-bound page names an existing entity and fields it has (form inputs: fields that
 * are not readOnly), an action's `when` names the entity's fields and values they can take, an
 * `optionsApi` column filters an exact text field, an upload edits a list of file ids. The route
 * targets and dialog forms a page names are handed back for the route check. A page bound to an
 * entity file that has problems of its own is not checked against it (one problem, reported once).
 */
import type { EntityRegistry } from '../shared/entity/registry';
import type { EntitySchema } from '../shared/entity/types';
import { isObj } from './issues';
import { REST_FIELDS, type PageKind } from './types';

type Add = (path: string, reason: string) => void;
type Obj = Record<string, unknown>;

export interface PageContext {
  reg: EntityRegistry;
  /** entity name → its field keys, declared or copied (undefined: no such entity file) */
  declared(entity: string): string[] | undefined;
  /** entity names whose file is unreadable or invalid */
  broken: ReadonlySet<string>;
  /** a route path the page links to (checked against the routes) */
  target(path: string, value: string): void;
  /** a form schema the page opens in a dialog */
  form(path: string, value: string): void;
}

const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);

/** Route targets and dialog forms named by links, actions and redirects. */
function collectLinks(kind: PageKind, data: Obj, ctx: PageContext): void {
  const actions = (key: string) =>
    list(data[key]).forEach((a, i) => {
      if (!isObj(a)) return;
      if (typeof a.to === 'string') ctx.target(`$.${key}[${i}].to`, a.to);
      if (typeof a.form === 'string' && key !== 'rowActions') ctx.form(`$.${key}[${i}].form`, a.form);
    });
  if (kind === 'table') {
    list(data.columns).forEach((c, i) => isObj(c) && typeof c.link === 'string' && ctx.target(`$.columns[${i}].link`, c.link));
    actions('toolbar');
    actions('rowActions');
  } else if (kind === 'detail') actions('actions');
  else if (typeof data.successRedirect === 'string') ctx.target('$.successRedirect', data.successRedirect);
}

/** Entries (a field name, '*' or an object with `field`) must name one of `allowed`. */
function checkEntries(entries: unknown, at: string, allowed: readonly string[], entity: string, add: Add): void {
  list(entries).forEach((v, i) => {
    const p = `${at}[${i}]`;
    const name = typeof v === 'string' ? v : isObj(v) && v.confirm === undefined ? v.field : undefined;
    if (typeof name !== 'string' || name === REST_FIELDS || allowed.includes(name)) return;
    add(typeof v === 'string' ? p : `${p}.field`, `unknown field ${JSON.stringify(name)} of entity "${entity}"`);
  });
}

function checkOmit(omit: unknown, declared: readonly string[], entity: string, add: Add): void {
  list(omit).forEach((v, i) => {
    if (typeof v === 'string' && !declared.includes(v)) add(`$.omit[${i}]`, `unknown field ${JSON.stringify(v)} of entity "${entity}"`);
  });
}

/** An action's `when` names fields of the entity and values the field can take ('' = empty is always allowed). */
function checkWhen(actions: unknown, at: string, e: EntitySchema, declared: readonly string[], add: Add): void {
  list(actions).forEach((a, i) => {
    if (!isObj(a) || !isObj(a.when)) return;
    for (const [k, x] of Object.entries(a.when)) {
      const p = `${at}[${i}].when.${k}`;
      if (!declared.includes(k)) {
        add(p, `unknown field ${JSON.stringify(k)} of entity "${e.name}"`);
        continue;
      }
      const f = e.fields[k];
      const allowed = f?.type === 'enum' ? (f.options ?? []).map((o) => String(o.value)) : f?.type === 'boolean' ? ['true', 'false'] : undefined;
      if (!allowed) continue;
      for (const v of Array.isArray(x) ? x : [x])
        if (typeof v === 'string' && v !== '' && !allowed.includes(v)) add(p, `${JSON.stringify(v)} is not a value of "${k}" (allowed: ${allowed.join(', ')})`);
    }
  });
}

function checkTable(data: Obj, e: EntitySchema, declared: string[], add: Add): void {
  checkEntries(data.columns, '$.columns', declared, e.name, add);
  list(data.columns).forEach((c, i) => {
    if (!isObj(c) || c.optionsApi === undefined || typeof c.field !== 'string') return;
    const f = e.fields[c.field];
    if (f && (f.type !== 'string' || f.search !== 'exact'))
      add(`$.columns[${i}].optionsApi`, 'optionsApi needs a string field with search "exact" (the select picks one exact value)');
  });
  checkWhen(data.rowActions, '$.rowActions', e, declared, add);
}

function checkForm(data: Obj, e: EntitySchema, declared: string[], add: Add): void {
  const readOnly = (k: string) => e.fields[k]?.readOnly === true;
  const inputs = declared.filter((k) => !readOnly(k));
  for (const k of declared) if (readOnly(k) && list(data.fields).includes(k)) add('$.fields', `field "${k}" is readOnly in the entity and cannot be a form input`);
  checkEntries(data.fields, '$.fields', inputs, e.name, add);
  list(data.fields).forEach((v, i) => {
    if (!isObj(v)) return;
    if (typeof v.confirm === 'string' && !inputs.includes(v.confirm)) add(`$.fields[${i}].confirm`, `unknown field ${JSON.stringify(v.confirm)} of entity "${e.name}"`);
    const f = typeof v.field === 'string' ? e.fields[v.field] : undefined;
    if (v.upload !== undefined && f && !(f.type === 'array' && f.items === 'integer'))
      add(`$.fields[${i}].upload`, 'upload needs an array field of integer ids ("items": "integer")');
  });
}

/** Checks one page file of `kind` whose file name is `id`. */
export function checkPage(kind: PageKind, data: unknown, id: string, ctx: PageContext, add: Add): void {
  if (!isObj(data)) return;
  if (typeof data.id === 'string' && data.id !== id) add('$.id', `id ${JSON.stringify(data.id)} must equal the file name "${id}"`);
  collectLinks(kind, data, ctx);
  if (data.entity === undefined) return;
  const name = data.entity;
  if (typeof name === 'string' && ctx.broken.has(name)) return;
  const declared = typeof name === 'string' ? ctx.declared(name) : undefined;
  if (typeof name !== 'string' || !declared || !ctx.reg.has(name)) {
    add('$.entity', `unknown entity ${JSON.stringify(name)}: expected schemas/entities/<name>.json`);
    return;
  }
  const e = ctx.reg.get(name);
  checkOmit(data.omit, declared, name, add);
  if (kind === 'table') checkTable(data, e, declared, add);
  else if (kind === 'form') checkForm(data, e, declared, add);
  else {
    list(data.sections).forEach((s, i) => isObj(s) && checkEntries(s.fields, `$.sections[${i}].fields`, declared, name, add));
    checkWhen(data.actions, '$.actions', e, declared, add);
  }
}
