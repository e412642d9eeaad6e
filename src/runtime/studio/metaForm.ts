/**
 * The studio's field editor, made from the meta schema (schemas/meta/entity.schema.json
 * definitions.field) instead of by hand: every property of a field definition becomes one input of a
 * console form schema (FormPage renders it), so a key added to the schema language appears in the
 * editor with no code change. Enums (with their x-enumLabels) are selects, booleans switches, numbers
 * number inputs, strings text inputs with the meta's pattern, nested objects (messages) one input per
 * property, arrays of objects (options) an editable table, anything else (default, example, items) JSON
 * text. A key the meta's allOf if/then/else allows only for some types (options for enum, items for
 * array, entity for ref) is shown only for those types.
 */
import type { FormField, FormSchema } from '../../schema/types';

export interface MetaNode {
  type?: string | string[];
  enum?: unknown[];
  'x-enumLabels'?: string[];
  title?: string;
  description?: string;
  $ref?: string;
  minimum?: number;
  minLength?: number;
  pattern?: string;
  default?: unknown;
  properties?: Record<string, MetaNode>;
  items?: MetaNode;
  required?: string[];
  allOf?: Array<{ if?: MetaNode & { properties?: Record<string, MetaNode & { const?: unknown }> }; then?: MetaNode; else?: MetaNode }>;
  definitions?: Record<string, MetaNode>;
  not?: unknown;
}

/** One input of the editor: where its value lives in the field definition and how it is edited. */
export interface EditorInput {
  /** Path in the field definition (['messages', 'required'] for a nested key). */
  path: string[];
  kind: 'enum' | 'boolean' | 'number' | 'string' | 'rows' | 'json';
  /** enum: the meta's values (the form carries them as strings). */
  values?: unknown[];
  default?: unknown;
  form: FormField;
}

const flat = (path: string[]) => path.join('__');

/**
 * Resolves `#/definitions/x` in `doc`, or `other.schema.json#/definitions/x` in the other meta file; with
 * the document the node lives in (its own references are relative to it).
 */
function deref(node: MetaNode, doc: MetaNode, metas: Record<string, MetaNode>): { n: MetaNode; doc: MetaNode } {
  if (!node.$ref) return { n: node, doc };
  const [where, pointer] = node.$ref.split('#');
  const target = where ? metas[`schemas/meta/${where}`] : doc;
  const found = pointer.split('/').filter(Boolean).reduce<unknown>((x, k) => (x as Record<string, unknown>)?.[k], target) as MetaNode | undefined;
  if (!found || !target) throw new Error(`元 schema 引用 ${node.$ref} 不存在`);
  const { $ref: _r, ...own } = node;
  void _r;
  const inner = deref(found, target, metas);
  return { n: { ...inner.n, ...own }, doc: inner.doc };
}

/** The types for which a key applies, from the meta's `allOf` if/then/else (undefined: every type). */
function onlyFor(def: MetaNode): Record<string, unknown[]> {
  const out: Record<string, unknown[]> = {};
  for (const rule of def.allOf ?? []) {
    const cond = rule.if?.properties?.type;
    const types = cond?.const !== undefined ? [cond.const] : cond?.enum;
    if (!types) continue;
    const keys = [...(rule.then?.required ?? []), ...Object.entries(rule.else?.properties ?? {}).filter(([, p]) => p.not !== undefined && Object.keys(p.not as object).length === 0).map(([k]) => k)];
    for (const k of keys) out[k] = types;
  }
  return out;
}

function inputsOf(path: string[], node: MetaNode, title: string, at: MetaNode, metas: Record<string, MetaNode>): EditorInput[] {
  const { n, doc: file } = deref(node, at, metas);
  const base = { name: flat(path), title, ...(n.description ? { description: n.description } : {}) };
  if (n.enum) {
    const labels = n['x-enumLabels'];
    const options = n.enum.map((v, i) => ({ value: String(v), label: labels?.[i] ? `${labels[i]}（${String(v)}）` : String(v) }));
    return [{ path, kind: 'enum', values: n.enum, default: n.default, form: { ...base, type: 'enum', options } }];
  }
  if (n.type === 'boolean') return [{ path, kind: 'boolean', default: n.default, form: { ...base, type: 'boolean' } }];
  if (n.type === 'integer' || n.type === 'number') return [{ path, kind: 'number', form: { ...base, type: 'number', ...(n.minimum !== undefined ? { min: n.minimum } : {}) } }];
  if (n.type === 'string') return [{ path, kind: 'string', form: { ...base, type: 'string', ...(n.pattern ? { pattern: n.pattern } : {}) } }];
  if (n.type === 'object' && n.properties) {
    return Object.entries(n.properties).flatMap(([k, p]) => inputsOf([...path, k], p, `${title}：${p.title ?? k}`, file, metas));
  }
  const item = n.type === 'array' && n.items ? deref(n.items, file, metas).n : undefined;
  if (item?.type === 'object' && item.properties) {
    const columns = Object.entries(item.properties).flatMap(([k, p]) => inputsOf([k], p, p.title ?? k, file, metas).map((i) => ({ ...i.form, required: item.required?.includes(k) })));
    return [{ path, kind: 'rows', form: { ...base, type: 'rows', columns } }];
  }
  return [{ path, kind: 'json', form: { ...base, type: 'textarea', description: `${n.description ?? ''}${n.description ? '；' : ''}JSON 值（不是 JSON 的文字按字符串保存）` } }];
}

/** The inputs of a field definition: its key first, then one per meta property, in the meta's order. */
export function fieldEditorInputs(metas: Record<string, MetaNode>): EditorInput[] {
  const file = metas['schemas/meta/entity.schema.json'];
  const def = deref({ $ref: '#/definitions/field' }, file, metas).n;
  const only = onlyFor(def);
  const name: EditorInput = {
    path: ['__name'],
    kind: 'string',
    form: { name: '__name', title: '字段名', type: 'string', required: true, pattern: '^[a-z][a-zA-Z0-9]*$', patternMessage: '字段名须以小写字母开头，只含字母和数字（如 employeeNo）', description: '接口和代码中的名称；数据库列名默认为它的 snake_case' },
  };
  const inputs = Object.entries(def.properties ?? {}).flatMap(([k, p]) =>
    inputsOf([k], p, p.title ?? k, file, metas).map((i) => ({
      ...i,
      form: { ...i.form, required: def.required?.includes(k) || undefined, ...(only[k] ? { visibleWhen: { field: 'type', in: only[k].map(String) } } : {}) },
    })),
  );
  return [name, ...inputs];
}

/** The editor as a console form schema (rendered by FormPage, applied to the draft, not sent). */
export function fieldEditorForm(inputs: EditorInput[], title: string): FormSchema {
  return { id: 'studio-field', title, submit: { api: '', method: 'POST', label: '应用到草稿' }, fields: inputs.map((i) => i.form) };
}

const get = (o: unknown, path: string[]) => path.reduce<unknown>((v, k) => (v && typeof v === 'object' ? (v as Record<string, unknown>)[k] : undefined), o);

/** A field definition as the editor's values. */
export function toEditorValues(inputs: EditorInput[], name: string, def: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { __name: name };
  for (const i of inputs.slice(1)) {
    const v = get(def, i.path);
    if (v === undefined) continue;
    out[flat(i.path)] = i.kind === 'enum' ? String(v) : i.kind === 'json' ? JSON.stringify(v) : v;
  }
  return out;
}

const empty = (v: unknown) => v === undefined || v === null || v === '' || (Array.isArray(v) && v.length === 0);

/** The editor's values as a field name and definition (keys in the meta's order, defaults left out). */
export function fromEditorValues(inputs: EditorInput[], values: Record<string, unknown>): { name: string; def: Record<string, unknown> } {
  const def: Record<string, unknown> = {};
  for (const i of inputs.slice(1)) {
    let v = values[flat(i.path)];
    if (empty(v)) continue;
    if (i.kind === 'enum') v = i.values!.find((x) => String(x) === v) ?? v;
    if (i.kind === 'json' && typeof v === 'string') {
      try {
        v = JSON.parse(v);
      } catch {
        // plain text is a string value
      }
    }
    if (i.kind === 'rows') v = (v as Array<Record<string, unknown>>).map((r) => Object.fromEntries(Object.entries(r).filter(([, x]) => !empty(x))));
    if (i.default !== undefined && v === i.default) continue;
    let target = def;
    for (const k of i.path.slice(0, -1)) target = (target[k] ??= {}) as Record<string, unknown>;
    target[i.path[i.path.length - 1]] = v;
  }
  return { name: String(values.__name ?? '').trim(), def };
}
