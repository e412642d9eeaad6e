/**
 * Validation of entity files (schemas/entities/*.json) and of entity-bound page schemas (tables,
 * forms, details that name an `entity`): unknown entity, unknown field, and rules or types repeated
 * in a page (they belong to the entity). Reports file + JSON path + reason through FileChecker.
 */
import type { FileChecker } from './validator';
import type { EntityRegistry } from '../shared/entity/registry';
import { ENTITY_FIELD_TYPES, RULE_ORDER, type EntitySchema } from '../shared/entity/types';
import { COLUMN_LAYOUT_KEYS, FORM_COMPONENTS, FORM_LAYOUT_KEYS, REST_FIELDS } from './types';

type Json = unknown;
type Check = (v: Json, path: string) => void;
const isObj = (v: Json): v is Record<string, Json> => typeof v === 'object' && v !== null && !Array.isArray(v);

const FIELD_KEYS = [
  'type', 'label', 'required', 'minLength', 'maxLength', 'min', 'max', 'pattern', 'patternMessage', 'minItems', 'maxItems',
  'minDate', 'maxDate', 'options', 'items', 'entity', 'unique', 'mask', 'readOnly', 'default', 'column', 'search', 'sort',
  'messages', 'description', 'example',
];
const DATE_BOUND = /^(today([+-]\d+)?|\d{4}-\d{2}-\d{2})$/;
const RANGE_TYPES = ['date', 'datetime', 'money', 'integer'];

function fieldCheck(c: FileChecker, reg: EntityRegistry, self: string): Check {
  const check: Check = (v, path) => {
    if (typeof v === 'string') {
      if (!reg.resolveRef(v)) c.add(path, `unknown field reference ${JSON.stringify(v)} (expected "<entity>.<field>")`);
      return;
    }
    const spec = Object.fromEntries(FIELD_KEYS.map((k) => [k, { check: c.any as Check, required: k === 'type' || k === 'label' }]));
    Object.assign(spec, {
      type: { required: true, check: c.oneOf(ENTITY_FIELD_TYPES, 'field type') },
      label: { required: true, check: c.str },
      required: { check: c.bool }, unique: { check: c.bool }, readOnly: { check: c.bool }, sort: { check: c.bool },
      minLength: { check: c.nonNegInt }, maxLength: { check: c.posInt }, minItems: { check: c.nonNegInt }, maxItems: { check: c.posInt },
      min: { check: c.num }, max: { check: c.num }, pattern: { check: c.regex }, patternMessage: { check: c.str },
      options: { check: c.enumOptions }, mask: { check: c.oneOf(['idCard', 'phone', 'bankAccount'], 'mask') },
      column: { check: (x: Json, p: string) => (typeof x === 'string' && /^[a-z_][a-z0-9_]*$/.test(x) ? undefined : c.add(p, 'column must be a snake_case SQL name')) },
      search: { check: (x: Json, p: string) => (x === false || ['exact', 'contains', 'range'].includes(x as string) ? undefined : c.add(p, 'search must be false, "exact", "contains" or "range"')) },
      minDate: { check: (x: Json, p: string) => (typeof x === 'string' && DATE_BOUND.test(x) ? undefined : c.add(p, 'date bound must be YYYY-MM-DD, "today", "today+N" or "today-N"')) },
      maxDate: { check: (x: Json, p: string) => (typeof x === 'string' && DATE_BOUND.test(x) ? undefined : c.add(p, 'date bound must be YYYY-MM-DD, "today", "today+N" or "today-N"')) },
      messages: { check: (x: Json, p: string) => c.object(x, p, Object.fromEntries(RULE_ORDER.map((r) => [r, { check: c.str }]))) },
      description: { check: c.str },
    });
    if (!c.object(v, path, spec)) return;
    const t = v.type;
    if (t === 'enum' && v.options === undefined) c.add(`${path}.options`, 'type "enum" needs options');
    if (t !== 'enum' && v.options !== undefined) c.add(`${path}.options`, 'options are only allowed with type "enum"');
    if (t === 'ref' && (typeof v.entity !== 'string' || !reg.has(v.entity))) c.add(`${path}.entity`, `type "ref" needs an existing entity, got ${JSON.stringify(v.entity)}`);
    if (t === 'array') {
      const items = v.items;
      if (typeof items === 'string') {
        if (!ENTITY_FIELD_TYPES.includes(items as never) || items === 'array') c.add(`${path}.items`, `invalid item type ${JSON.stringify(items)}`);
      } else if (isObj(items) && items.entity !== undefined) {
        if (typeof items.entity !== 'string' || !reg.has(items.entity) || items.entity === self) c.add(`${path}.items.entity`, `unknown entity ${JSON.stringify(items.entity)}`);
      } else if (isObj(items) && isObj(items.fields)) {
        for (const [k, sub] of Object.entries(items.fields)) check(sub, `${path}.items.fields.${k}`);
      } else c.add(`${path}.items`, 'type "array" needs items: a type name, { "fields": {...} } or { "entity": "..." }');
    } else if (v.items !== undefined) c.add(`${path}.items`, 'items are only allowed with type "array"');
    if (v.search === 'range' && !RANGE_TYPES.includes(String(t))) c.add(`${path}.search`, `search "range" needs a ${RANGE_TYPES.join('/')} field`);
    if (v.patternMessage !== undefined && v.pattern === undefined) c.add(`${path}.patternMessage`, 'patternMessage without pattern');
    if (typeof v.min === 'number' && typeof v.max === 'number' && v.min > v.max) c.add(path, 'min is greater than max');
    if (typeof v.minLength === 'number' && typeof v.maxLength === 'number' && v.minLength > v.maxLength) c.add(path, 'minLength is greater than maxLength');
  };
  return check;
}

/** Checks one entity file; `name` is the file name without .json. */
export function validateEntityFile(c: FileChecker, data: Json, name: string, reg: EntityRegistry): void {
  const ops = ['list', 'read', 'create', 'update', 'delete'];
  if (
    !c.object(data, '$', {
      $schema: { check: c.str },
      name: { required: true, check: c.str },
      label: { required: true, check: c.str },
      description: { check: c.str },
      storage: { check: c.bool },
      table: { check: (v, p) => (typeof v === 'string' && /^[a-z_][a-z0-9_]*$/.test(v) ? undefined : c.add(p, 'table must be a snake_case SQL name')) },
      api: { check: (v, p) => (typeof v === 'string' && /^[a-z][a-z0-9-]*$/.test(v) ? undefined : c.add(p, 'api must be a kebab-case collection name, e.g. "orders"')) },
      scope: { check: c.oneOf(['business', 'platform'], 'scope') },
      defaultSort: {
        check: (v, p) =>
          c.object(v, p, { field: { required: true, check: c.str }, order: { required: true, check: c.oneOf(['ascend', 'descend'], 'order') }, dayCounts: { check: c.bool } }),
      },
      operations: { check: (v, p) => c.object(v, p, Object.fromEntries(ops.map((o) => [o, { check: c.bool }]))) },
      fieldsFrom: {
        check: (v, p) =>
          c.object(v, p, {
            entity: { required: true, check: (e, ep) => (typeof e === 'string' && reg.has(e) && e !== name ? undefined : c.add(ep, `unknown entity ${JSON.stringify(e)}: expected schemas/entities/<name>.json`)) },
            omit: { check: c.any },
          }),
      },
      fields: {
        required: true,
        check: (v, p) => {
          if (!isObj(v) || Object.keys(v).length === 0) return c.add(p, 'fields must be a non-empty object');
          for (const [k, f] of Object.entries(v)) {
            if (!/^[a-z][A-Za-z0-9]*$/.test(k)) c.add(`${p}.${k}`, 'field keys are camelCase');
            if (k === 'id' || k === 'businessId') c.add(`${p}.${k}`, `"${k}" is implicit and cannot be declared`);
            fieldCheck(c, reg, name)(f, `${p}.${k}`);
          }
        },
      },
    })
  )
    return;
  if (data.name !== name) c.add('$.name', `name ${JSON.stringify(data.name)} must equal the file name "${name}"`);
  if (data.storage === false) {
    for (const k of ['table', 'api', 'operations', 'defaultSort']) if (data[k] !== undefined) c.add(`$.${k}`, `"${k}" is not allowed on an input-only entity (storage: false)`);
  } else {
    if (data.table === undefined) c.add('$.table', 'stored entity needs "table"');
    if (data.scope !== 'business' && data.scope !== 'platform') c.add('$.scope', 'stored entity needs "scope": "business" or "platform"');
    if (data.scope === 'platform' && data.api !== undefined) c.add('$.api', 'a platform entity has no REST collection (its rows are shared by every business)');
    const ds = isObj(data.defaultSort) ? data.defaultSort.field : undefined;
    const fields = isObj(data.fields) ? data.fields : {};
    if (typeof ds === 'string' && ds !== 'id' && !(isObj(fields[ds]) && (fields[ds] as Record<string, Json>).sort === true))
      c.add('$.defaultSort.field', `defaultSort field ${JSON.stringify(ds)} must be "id" or a field with "sort": true`);
    const dsField = typeof ds === 'string' && isObj(fields[ds]) ? (fields[ds] as Record<string, Json>) : undefined;
    const notNullDatetime = dsField?.type === 'datetime' && (dsField.required === true || dsField.default != null);
    if (isObj(data.defaultSort) && data.defaultSort.dayCounts === true && !notNullDatetime)
      c.add('$.defaultSort.dayCounts', 'dayCounts needs a defaultSort field of type "datetime" that is required or has a default');
  }
}

export interface PageDeps {
  reg: EntityRegistry;
  toolbar: Check;
  /** A detail page action (may carry `when`). */
  detailAction: Check;
  rowAction: Check;
  target: (path: string, value: string) => void;
}

/** Keys that belong to the entity; a page repeating them is reported. */
const REPEATED = ['title', 'label', 'valueType', 'type', 'options', 'pattern', 'patternMessage', 'required', 'min', 'max', 'minLength', 'maxLength', 'search', 'sorter', 'dataIndex', 'name'];

function entityRef(c: FileChecker, data: Record<string, Json>, reg: EntityRegistry) {
  if (typeof data.entity !== 'string' || !reg.has(data.entity)) {
    c.add('$.entity', `unknown entity ${JSON.stringify(data.entity)}: expected schemas/entities/<name>.json`);
    return undefined;
  }
  return reg.get(data.entity);
}

function entryList(c: FileChecker, reg: EntityRegistry, entity: string, allowed: readonly string[], keys: string[], extra?: (v: Record<string, Json>, p: string) => boolean): Check {
  const fields = reg.fieldsOf(entity);
  return (list, path) => {
    const seen = new Map<string, string>();
    c.arrayOf((v, p) => {
      const name = typeof v === 'string' ? v : isObj(v) ? v.field : undefined;
      if (typeof name === 'string') {
        if (seen.has(name)) c.add(p, `duplicate field ${JSON.stringify(name)} (first at ${seen.get(name)})`);
        else seen.set(name, p);
      }
      if (isObj(v)) {
        if (extra?.(v, p)) return;
        for (const k of Object.keys(v)) {
          if (REPEATED.includes(k)) c.add(`${p}.${k}`, `repeats entity field "${String(name)}" of schemas/entities/${entity}.json: "${k}" comes from the entity (pages add layout only)`);
        }
        const spec = Object.fromEntries(keys.map((k) => [k, { check: c.any, required: k === 'field' }]));
        for (const k of REPEATED) if (v[k] !== undefined) spec[k] = { check: c.any, required: false };
        c.object(v, p, spec);
      } else if (typeof v !== 'string') return c.add(p, `must be a field name or an object with "field", got ${JSON.stringify(v)}`);
      if (name === REST_FIELDS) return;
      if (typeof name !== 'string' || !fields[name] || !allowed.includes(name)) c.add(typeof v === 'string' ? p : `${p}.field`, `unknown field ${JSON.stringify(name)} of entity "${entity}"`);
    }, { nonEmpty: true })(list, path);
  };
}

const omitCheck = (c: FileChecker, reg: EntityRegistry, entity: string): Check => c.arrayOf((v, p) => {
  if (typeof v !== 'string' || !reg.fieldsOf(entity)[v]) c.add(p, `unknown field ${JSON.stringify(v)} of entity "${entity}"`);
});

export function validateEntityTable(c: FileChecker, data: Record<string, Json>, d: PageDeps): void {
  const e = entityRef(c, data, d.reg);
  const all = e ? Object.keys(e.fields) : [];
  c.object(data, '$', {
    $schema: { check: c.str }, id: { required: true, check: c.str }, entity: { required: true, check: c.str }, title: { required: true, check: c.str },
    api: { check: c.apiPath }, rowKey: { check: c.str }, pageSize: { check: c.posInt }, exportable: { check: c.bool },
    columns: {
      required: true,
      check: e
        ? entryList(c, d.reg, e.name, all, [...COLUMN_LAYOUT_KEYS], (v, p) => {
            if (typeof v.link === 'string') d.target(`${p}.link`, v.link);
            if (v.optionsApi !== undefined) {
              c.apiPath(v.optionsApi, `${p}.optionsApi`);
              const f = typeof v.field === 'string' ? e.fields[v.field] : undefined;
              if (f && (f.type !== 'string' || f.search !== 'exact')) c.add(`${p}.optionsApi`, 'optionsApi needs a string field with search "exact" (the select picks one exact value)');
            }
            return false;
          })
        : c.any,
    },
    omit: { check: e ? omitCheck(c, d.reg, e.name) : c.any },
    toolbar: { check: c.arrayOf(d.toolbar) }, rowActions: { check: c.arrayOf(d.rowAction) },
  });
  if (e) whenFields(c, e, data.rowActions, '$.rowActions');
}

/**
 * The fields an action's `when` names are fields of the entity, and its values are values the field
 * can take: an option of an enum, 'true'/'false' of a boolean ('' = empty is always allowed).
 */
function whenFields(c: FileChecker, e: EntitySchema, actions: Json, path: string): void {
  if (!Array.isArray(actions)) return;
  actions.forEach((a, i) => {
    if (!isObj(a) || !isObj(a.when)) return;
    for (const [k, x] of Object.entries(a.when)) {
      const p = `${path}[${i}].when.${k}`;
      const f = e.fields[k];
      if (!f) {
        c.add(p, `unknown field ${JSON.stringify(k)} of entity "${e.name}"`);
        continue;
      }
      const allowed = f.type === 'enum' ? (f.options ?? []).map((o) => String(o.value)) : f.type === 'boolean' ? ['true', 'false'] : undefined;
      if (!allowed) continue;
      for (const v of Array.isArray(x) ? x : [x]) {
        if (typeof v === 'string' && v !== '' && !allowed.includes(v)) c.add(p, `${JSON.stringify(v)} is not a value of "${k}" (allowed: ${allowed.join(', ')})`);
      }
    }
  });
}

/** `upload` layout: an API path, the spec's type groups, and only on an array field of integer ids. */
function uploadCheck(c: FileChecker, e: EntitySchema | undefined, v: Record<string, Json>, p: string): void {
  c.object(v.upload, `${p}.upload`, {
    api: { required: true, check: c.apiPath },
    accept: { required: true, check: c.arrayOf(c.oneOf(['image', 'pdf', 'office'], 'upload group'), { nonEmpty: true }) },
    exclude: { check: c.arrayOf(c.str) },
    maxSizeMb: { check: c.posInt },
  });
  const f = e && typeof v.field === 'string' ? e.fields[v.field] : undefined;
  if (f && !(f.type === 'array' && f.items === 'integer')) c.add(`${p}.upload`, 'upload needs an array field of integer ids ("items": "integer")');
}

export function validateEntityForm(c: FileChecker, data: Record<string, Json>, d: PageDeps): void {
  const e = entityRef(c, data, d.reg);
  const inputs = e ? Object.keys(e.fields).filter((k) => !e.fields[k].readOnly) : [];
  const confirm = (v: Record<string, Json>, p: string): boolean => {
    if (v.confirm === undefined) {
      if (v.component !== undefined) c.oneOf(FORM_COMPONENTS, 'component')(v.component, `${p}.component`);
      if (v.upload !== undefined) uploadCheck(c, e, v, p);
      return false;
    }
    c.object(v, p, { confirm: { required: true, check: c.str }, label: { required: true, check: c.str }, placeholder: { check: c.str }, description: { check: c.str } });
    if (typeof v.confirm === 'string' && !inputs.includes(v.confirm)) c.add(`${p}.confirm`, `unknown field ${JSON.stringify(v.confirm)} of entity "${e?.name}"`);
    return true;
  };
  if (e) for (const [k, f] of Object.entries(e.fields)) if (f.readOnly && Array.isArray(data.fields) && data.fields.includes(k)) c.add('$.fields', `field "${k}" is readOnly in the entity and cannot be a form input`);
  if (!c.object(data, '$', {
    $schema: { check: c.str }, id: { required: true, check: c.str }, entity: { required: true, check: c.str }, title: { required: true, check: c.str },
    description: { check: c.str },
    submit: { required: true, check: (v, p) => c.object(v, p, { api: { required: true, check: c.apiPath }, method: { required: true, check: c.oneOf(['POST', 'PUT'], 'method') }, label: { check: c.str } }) },
    fields: { required: true, check: e ? entryList(c, d.reg, e.name, inputs, [...FORM_LAYOUT_KEYS], confirm) : c.any },
    omit: { check: e ? omitCheck(c, d.reg, e.name) : c.any },
    quote: { check: quoteCheck(c) }, successMessage: { check: c.str }, successRedirect: { check: c.str },
  })) return;
  if (typeof data.successRedirect === 'string') d.target('$.successRedirect', data.successRedirect);
}

/** A form's cost quote: { api, body? } (see ConfirmCost). */
export function quoteCheck(c: FileChecker): Check {
  return (v, p) =>
    c.object(v, p, {
      api: { required: true, check: c.apiPath },
      body: { check: (b, bp) => (!b || typeof b !== 'object' || Array.isArray(b) ? c.add(bp, 'must be an object') : undefined) },
    });
}

export function validateEntityDetail(c: FileChecker, data: Record<string, Json>, d: PageDeps): void {
  const e = entityRef(c, data, d.reg);
  const all = e ? Object.keys(e.fields) : [];
  c.object(data, '$', {
    $schema: { check: c.str }, id: { required: true, check: c.str }, entity: { required: true, check: c.str }, title: { required: true, check: c.str },
    api: { check: c.apiPath }, content: { check: c.str }, actions: { check: c.arrayOf(d.detailAction) },
    omit: { check: e ? omitCheck(c, d.reg, e.name) : c.any },
    sections: {
      required: true,
      check: c.arrayOf((s, p) => c.object(s, p, { title: { required: true, check: c.str }, fields: { required: true, check: e ? entryList(c, d.reg, e.name, all, ['field', 'span']) : c.any } }), { nonEmpty: true }),
    },
  });
  if (e) whenFields(c, e, data.actions, '$.actions');
}
