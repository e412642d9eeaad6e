/**
 * Resolves page schema files against the entity registry into the fully typed shapes the runtime
 * pages consume: column titles/value types/options/search/sort, form inputs with their entity rule,
 * detail labels/value types — all taken from the entity. Files without `entity` pass through.
 */
import { itemFields } from '../shared/entity/rules';
import type { EntityRegistry } from '../shared/entity/registry';
import type { EntitySchema, FieldSchema } from '../shared/entity/types';
import {
  REST_FIELDS,
  type ColumnLayout,
  type ConfirmFieldLayout,
  type DetailField,
  type DetailFieldLayout,
  type DetailSchema,
  type DetailSchemaFile,
  type FieldType,
  type FormField,
  type FormFieldLayout,
  type FormSchema,
  type FormSchemaFile,
  type TableColumn,
  type TableSchema,
  type TableSchemaFile,
  type ValueType,
} from './types';

/** Value type used by tables and details for an entity field type. */
export function valueTypeOf(f: FieldSchema): ValueType {
  switch (f.type) {
    case 'integer':
    case 'ref':
      return 'digit';
    case 'money':
      return 'money';
    case 'date':
      return 'date';
    case 'datetime':
      return 'dateTime';
    case 'enum':
      return 'enum';
    case 'boolean':
      return 'boolean';
    case 'phone':
      return 'phone';
    case 'idCard':
      return 'idCard';
    default:
      return 'text';
  }
}

/** Form input type for an entity field type. */
export function inputTypeOf(f: FieldSchema): FieldType {
  switch (f.type) {
    case 'text':
      return 'textarea';
    case 'integer':
    case 'ref':
      return 'number';
    case 'money':
    case 'boolean':
    case 'date':
    case 'enum':
    case 'phone':
    case 'idCard':
    case 'email':
    case 'password':
    case 'smsCode':
      return f.type;
    case 'datetime':
      return 'date';
    case 'array':
      return itemFields(f) ? 'rows' : 'multiEnum';
    default:
      return 'string';
  }
}

const COMPONENT_TYPES: Record<string, FieldType> = { textarea: 'textarea', password: 'password', select: 'enum', switch: 'boolean', date: 'date', input: 'string' };

/** Expands '*' into the entity fields not listed and not omitted (in entity order). */
function expand<T>(entries: T[], keyOf: (e: T) => string | undefined, all: string[], omit: string[] = []): Array<T | string> {
  const listed = new Set(entries.map(keyOf).filter((k): k is string => !!k && k !== REST_FIELDS));
  const rest = all.filter((k) => !listed.has(k) && !omit.includes(k));
  return entries.flatMap((e): Array<T | string> => (e === (REST_FIELDS as unknown) ? rest : [e]));
}

const fieldKey = (x: unknown): string | undefined =>
  typeof x === 'string' ? x : x && typeof x === 'object' && 'field' in x ? String((x as { field: unknown }).field) : undefined;

const FIXED_RANK = { left: 0, right: 2 } as const;

/**
 * The column order rule: columns in the order the page lists them, with '*' expanded in place (a
 * field added to the entity appears where '*' stands, in entity order), except that columns fixed
 * left come first and columns fixed right last. So a new field never lands behind a column pinned to
 * the right, and the 操作 column the table page appends after these stays the last one.
 */
export function orderColumns<C extends { fixed?: 'left' | 'right' }>(columns: C[]): C[] {
  const rank = (c: C) => (c.fixed ? FIXED_RANK[c.fixed] : 1);
  return columns.map((c, i) => ({ c, i })).sort((a, b) => rank(a.c) - rank(b.c) || a.i - b.i).map(({ c }) => c);
}

export function resolveTable(file: TableSchemaFile, reg: EntityRegistry): TableSchema {
  if (!file.entity) return { ...(file as unknown as TableSchema) };
  const e = reg.get(file.entity);
  const { $schema: _s, omit, columns, ...rest } = file;
  void _s;
  const cols = expand(columns as Array<string | ColumnLayout>, fieldKey, Object.keys(e.fields), omit).map((c): TableColumn => {
    const layout: ColumnLayout = typeof c === 'string' ? { field: c } : (c as ColumnLayout);
    const f = e.fields[layout.field];
    const { field, ...extra } = layout;
    return {
      title: f.label,
      dataIndex: field,
      valueType: valueTypeOf(f),
      ...(f.options ? { options: f.options } : {}),
      ...(f.search ? { search: true } : {}),
      ...(f.sort ? { sorter: true } : {}),
      ...extra,
    };
  });
  return { ...rest, api: file.api ?? `/api/${e.api}`, rowKey: file.rowKey ?? 'id', columns: orderColumns(cols) };
}

/** A form input for entity field `key` (rows get their item fields as columns). */
export function formFieldOf(key: string, f: FieldSchema, layout: Partial<FormFieldLayout> = {}): FormField {
  const { field: _f, component, ...extra } = layout;
  void _f;
  const out: FormField = {
    name: key,
    title: f.label,
    type: layout.upload ? 'upload' : component ? COMPONENT_TYPES[component] : layout.optionsApi && f.type === 'string' ? 'enum' : inputTypeOf(f),
    rule: f,
    ...(f.required ? { required: true } : {}),
    ...(f.options ? { options: f.options } : {}),
    ...(f.description ? { description: f.description } : {}),
    ...(f.default !== undefined && f.default !== 'now' ? { default: f.default } : {}),
    ...(f.example !== undefined ? { example: f.example } : {}),
    ...extra,
  };
  const sub = itemFields(f);
  if (sub) out.columns = Object.entries(sub).map(([k, sf]) => formFieldOf(k, sf));
  return out;
}

export function resolveForm(file: FormSchemaFile, reg: EntityRegistry): FormSchema {
  if (!file.entity) return { ...(file as unknown as FormSchema) };
  const e: EntitySchema = reg.get(file.entity);
  const { $schema: _s, omit, fields, ...rest } = file;
  void _s;
  const inputs = Object.keys(e.fields).filter((k) => !e.fields[k].readOnly);
  const out = expand(fields as Array<string | FormFieldLayout | ConfirmFieldLayout>, fieldKey, inputs, omit).map((x): FormField => {
    if (typeof x === 'object' && 'confirm' in x) {
      return {
        name: `confirm${x.confirm[0].toUpperCase()}${x.confirm.slice(1)}`,
        title: x.label,
        type: 'password',
        required: true,
        confirmOf: x.confirm,
        rule: { type: 'password', label: x.label, required: true },
        ...(x.placeholder ? { placeholder: x.placeholder } : {}),
        ...(x.description ? { description: x.description } : {}),
      };
    }
    const layout: FormFieldLayout = typeof x === 'string' ? { field: x } : (x as FormFieldLayout);
    return formFieldOf(layout.field, e.fields[layout.field], layout);
  });
  return { ...rest, fields: out };
}

export function resolveDetail(file: DetailSchemaFile, reg: EntityRegistry): DetailSchema {
  if (!file.entity) return { ...(file as unknown as DetailSchema) };
  const e = reg.get(file.entity);
  const { $schema: _s, omit, sections, ...rest } = file;
  void _s;
  const listedAnywhere = sections.flatMap((s) => s.fields.map(fieldKey)).filter((k): k is string => !!k && k !== REST_FIELDS);
  const resolved = sections.map((s) => ({
    title: s.title,
    fields: expand(s.fields as Array<string | DetailFieldLayout>, fieldKey, Object.keys(e.fields), [...(omit ?? []), ...listedAnywhere]).map((x): DetailField => {
      const layout: DetailFieldLayout = typeof x === 'string' ? { field: x } : (x as DetailFieldLayout);
      const f = e.fields[layout.field];
      return {
        label: f.label,
        dataIndex: layout.field,
        valueType: valueTypeOf(f),
        ...(f.options ? { options: f.options } : {}),
        ...(layout.span ? { span: layout.span } : {}),
      };
    }),
  }));
  return { ...rest, api: file.api ?? `/api/${e.api}/:id`, sections: resolved };
}
