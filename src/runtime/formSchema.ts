import type { ISchema } from '@formily/react';
import type { FormField, FormSchema } from '../schema/types';
import { checkField } from '../shared/entity/rules';
import type { EntityFieldType, FieldSchema } from '../shared/entity/types';

const LEGACY_TYPES: Partial<Record<FormField['type'], EntityFieldType>> = {
  textarea: 'text',
  number: 'integer',
  multiEnum: 'array',
  rows: 'array',
};

/** The rule a form input is checked with: its entity field, or (inline forms) one built from its keys. */
export function ruleOf(f: FormField): FieldSchema {
  if (f.rule) return f.rule;
  const { title, type, required, minLength, maxLength, min, max, pattern, patternMessage, options } = f;
  return {
    type: LEGACY_TYPES[type] ?? (type as EntityFieldType),
    label: title,
    ...(type === 'multiEnum' ? { items: 'string' as const } : {}),
    ...(type === 'rows' && required ? { minItems: 1 } : {}),
    ...{ required, minLength, maxLength, min, max, pattern, patternMessage, options },
  };
}

/**
 * Formily validator for an input: the shared checkField (the gateway runs the very same function
 * through Ajv), so messages are Chinese and identical on both sides; no Formily built-in rules
 * (they would add English defaults such as "The field value is required").
 */
export function fieldValidator(f: FormField): (value: unknown) => string {
  const rule = ruleOf(f);
  return (value) => checkField(rule, value) ?? '';
}

/** Formily validator of an upload field: refuses while a file is still uploading (FileUpload sets field.data.uploading). */
function uploadPending(_value: unknown, _rule: unknown, ctx: { field?: { data?: Record<string, unknown> } }): string {
  return Number(ctx?.field?.data?.uploading ?? 0) > 0 ? '文件正在上传，请等待上传完成后再提交' : '';
}

/** An input shown only while another one has one of some values (FormField.visibleWhen). */
function visibility(f: FormField): ISchema {
  if (!f.visibleWhen) return {};
  const shown = JSON.stringify(f.visibleWhen.in);
  return { 'x-reactions': { dependencies: [f.visibleWhen.field], fulfill: { state: { visible: `{{${shown}.includes($deps[0])}}` } } } };
}

function fieldSchema(f: FormField): ISchema {
  const base: ISchema = {
    type: 'string',
    title: f.title,
    description: f.description,
    default: f.default as ISchema['default'],
    'x-decorator': 'FormItem',
    'x-decorator-props': f.required ? { asterisk: true } : {},
    // Formily's label is not a <label for>: the control carries its field name itself (screen readers, axe).
    'x-component-props': { 'aria-label': f.title, ...(f.placeholder ? { placeholder: f.placeholder } : {}) },
    ...(f.hidden ? { 'x-hidden': true } : {}),
    ...visibility(f),
  };
  const validators: NonNullable<ISchema['x-validator']> = [fieldValidator(f)];
  switch (f.type) {
    case 'password':
      base['x-component'] = 'Password';
      break;
    case 'textarea':
      base['x-component'] = 'Input.TextArea';
      base['x-component-props'] = { ...(base['x-component-props'] as object), rows: 4, showCount: !!f.maxLength, maxLength: f.maxLength };
      break;
    case 'number':
    case 'money':
      base.type = 'number';
      base['x-component'] = 'NumberPicker';
      base['x-component-props'] = {
        ...(base['x-component-props'] as object),
        ...(f.type === 'money' ? { precision: 2, min: 0, prefix: '¥' } : {}),
        style: { width: '100%' },
      };
      break;
    case 'date':
      base['x-component'] = 'DatePicker';
      base['x-component-props'] = { ...(base['x-component-props'] as object), style: { width: '100%' } };
      break;
    case 'enum':
    case 'multiEnum':
      base.type = f.type === 'multiEnum' ? 'array' : 'string';
      base.enum = f.options?.map((o) => ({ label: o.label, value: o.value }));
      base['x-component'] = 'Select';
      base['x-component-props'] = {
        ...(base['x-component-props'] as object),
        ...(f.type === 'multiEnum' ? { mode: 'multiple' } : {}),
        ...(f.optionsApi ? { optionsApi: f.optionsApi } : {}),
      };
      if (f.optionsApi) base['x-component'] = 'RemoteSelect';
      break;
    case 'boolean':
      base.type = 'boolean';
      base['x-component'] = 'Switch';
      break;
    case 'phone':
    case 'idCard':
    case 'email':
      base['x-component'] = 'Input';
      break;
    case 'smsCode':
      base['x-component'] = 'SmsCodeInput';
      break;
    case 'rows':
      return rowsSchema(f);
    case 'upload':
      // A list of uploaded file ids (src/runtime/upload/FileUpload.tsx); not submittable while a file uploads.
      base.type = 'array';
      base['x-component'] = 'FileUpload';
      base['x-component-props'] = { ...f.upload, maxCount: f.rule?.maxItems };
      validators.push(uploadPending);
      break;
    default:
      base['x-component'] = 'Input';
  }
  base['x-validator'] = validators;
  return base;
}

/** A roster: an editable ArrayTable of the field's columns, with a file import and add/remove. */
function rowsSchema(f: FormField): ISchema {
  const cols = f.columns ?? [];
  const properties: Record<string, ISchema> = {
    __index: { type: 'void', 'x-component': 'ArrayTable.Column', 'x-component-props': { title: '序号', width: 64, align: 'center' }, properties: { index: { type: 'void', 'x-component': 'ArrayTable.Index' } } },
  };
  cols.forEach((c, i) => {
    const cell = fieldSchema(c);
    properties[`__c${i}`] = {
      type: 'void',
      'x-component': 'ArrayTable.Column',
      'x-component-props': { title: c.title, width: c.type === 'idCard' ? 220 : 160 },
      properties: { [c.name]: { ...cell, title: undefined, 'x-decorator': 'FormItem', 'x-decorator-props': {} } },
    };
  });
  properties.__ops = {
    type: 'void',
    'x-component': 'ArrayTable.Column',
    'x-component-props': { title: '操作', width: 80, fixed: 'right' },
    properties: { remove: { type: 'void', 'x-component': 'ArrayTable.Remove' } },
  };
  return {
    type: 'array',
    title: f.title,
    description: f.description,
    'x-decorator': 'FormItem',
    'x-decorator-props': f.required ? { asterisk: true } : {},
    'x-component': 'ArrayTable',
    'x-component-props': { pagination: { pageSize: 10 }, scroll: { x: '100%' } },
    'x-validator': [fieldValidator(f)],
    ...visibility(f),
    items: { type: 'object', properties },
    properties: {
      add: { type: 'void', title: '添加一行', 'x-component': 'ArrayTable.Addition' },
    },
  };
}

/** Formily JSON schema for a form schema (fields in order). */
export function toFormilySchema(form: FormSchema): ISchema {
  const properties: Record<string, ISchema> = {};
  form.fields.forEach((f, i) => {
    if (f.type === 'rows') {
      // The file import (the roster upload's reader on the gateway) sits right above its roster table and fills it.
      properties[`${f.name}__import`] = {
        type: 'void',
        'x-index': i * 2,
        'x-component': 'RowsImport',
        'x-component-props': { target: f.name, entity: form.entity, columns: (f.columns ?? []).map((c) => ({ name: c.name, title: c.title })) },
      };
    }
    properties[f.name] = { ...fieldSchema(f), 'x-index': i * 2 + 1 };
  });
  return { type: 'object', properties };
}

/** Gateway field paths (`rows[3].idCard`) as Formily paths (`rows.3.idCard`). */
export function toFormilyPath(field: string): string {
  return field.replace(/\[(\d+)\]/g, '.$1').replace(/^\./, '');
}
