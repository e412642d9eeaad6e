import type { ISchema } from '@formily/react';
import type { FormField, FormSchema } from '../schema/types';
import { isValidIdCard, PHONE_RE } from './validators';

function fieldSchema(f: FormField): ISchema {
  const base: ISchema = {
    type: 'string',
    title: f.title,
    required: f.required,
    description: f.description,
    default: f.default as ISchema['default'],
    'x-decorator': 'FormItem',
    'x-component-props': f.placeholder ? { placeholder: f.placeholder } : {},
  };
  const validators: NonNullable<ISchema['x-validator']> = [];
  if (f.pattern) validators.push({ pattern: f.pattern, message: f.patternMessage ?? `${f.title}格式不正确` });
  if (f.minLength !== undefined) validators.push({ minLength: f.minLength, message: `${f.title}至少 ${f.minLength} 个字符` });
  if (f.maxLength !== undefined) validators.push({ maxLength: f.maxLength, message: `${f.title}最多 ${f.maxLength} 个字符` });
  if (f.min !== undefined) validators.push({ minimum: f.min, message: `${f.title}不能小于 ${f.min}` });
  if (f.max !== undefined) validators.push({ maximum: f.max, message: `${f.title}不能大于 ${f.max}` });
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
      base['x-component'] = 'Input';
      if (!f.pattern) validators.push({ pattern: PHONE_RE.source, message: '请输入 11 位手机号' });
      break;
    case 'idCard':
      base['x-component'] = 'Input';
      validators.push((v: unknown) => (v && !isValidIdCard(String(v).trim()) ? '身份证号不正确' : ''));
      break;
    case 'email':
      base['x-component'] = 'Input';
      validators.push({ format: 'email', message: '邮箱格式不正确' });
      break;
    case 'smsCode':
      base['x-component'] = 'SmsCodeInput';
      break;
    case 'rows':
      return rowsSchema(f);
    default:
      base['x-component'] = 'Input';
  }
  if (validators.length) base['x-validator'] = validators;
  return base;
}

/** A roster: an editable ArrayTable of the field's columns, with CSV import and add/remove. */
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
      properties: { [c.name]: { ...cell, title: undefined, 'x-decorator': 'FormItem' } },
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
    required: f.required,
    description: f.description,
    'x-decorator': 'FormItem',
    'x-component': 'ArrayTable',
    'x-component-props': { pagination: { pageSize: 10 }, scroll: { x: '100%' } },
    'x-validator': f.required ? [{ minItems: 1, message: `请至少添加一条${f.title}` }] : undefined,
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
      // CSV import sits right above its roster table and fills it.
      properties[`${f.name}__import`] = {
        type: 'void',
        'x-index': i * 2,
        'x-component': 'RowsImport',
        'x-component-props': { target: f.name, columns: (f.columns ?? []).map((c) => ({ name: c.name, title: c.title })) },
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
