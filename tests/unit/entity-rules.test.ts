/**
 * Parity: for every rule of every entity field, the browser path (checkField and the Formily
 * validator built by formSchema.ts) and the gateway path (Ajv with toJsonSchema + the Ajv-error
 * mapper) accept and refuse the same inputs with the same Chinese message.
 */
import { describe, expect, it } from 'vitest';
import { resolve } from 'node:path';
import { loadSchemaFiles } from '../../src/schema/load-node';
import { buildEntityRegistry } from '../../src/shared/entity/registry';
import { checkField, checkObject, inputFields, itemFields, normalizePayload, resolveDateBound, todayUtc } from '../../src/shared/entity/rules';
import { toJsonSchema } from '../../src/shared/entity/json-schema';
import { createEntityAjv, validateWithAjv } from '../../src/shared/entity/ajv';
import { fieldValidator } from '../../src/runtime/formSchema';
import { formFieldOf } from '../../src/schema/resolve';
import { idCardCheckChar } from '../../src/shared/checks';
import type { EntitySchema, FieldSchema } from '../../src/shared/entity/types';

const reg = buildEntityRegistry(loadSchemaFiles(resolve(__dirname, '../..')).files);
const ajv = createEntityAjv();

const GOOD: Partial<Record<FieldSchema['type'], unknown>> = {
  string: '张三丰',
  text: '搬运货物时扭伤腰部',
  integer: 3,
  ref: 1,
  money: 12.5,
  boolean: true,
  date: '2024-01-31',
  datetime: '2024-01-31T08:00:00Z',
  phone: '13800000000',
  idCard: '11010519491231002X',
  email: 'fin@example.cn',
  taxNo: '91310104MA1FL2XK3P',
  bankAccount: '6214830212345678',
  password: 'demo1234',
  smsCode: '123456',
};
const BAD_FORMAT: Partial<Record<FieldSchema['type'], unknown[]>> = {
  phone: ['12345', '23800000000', '1380000000a'],
  idCard: ['110105194912310021', '11010519491331002X', '1101051949123100'],
  email: ['a@b', 'no-at.cn'],
  taxNo: ['abc', '1234567890123456789012'],
  bankAccount: ['12ab5678', '1234567'],
  smsCode: ['12345', 'abcdef'],
  date: ['0000-01-01', '9999-12-31', '2024-02-30', '2024-1-1', '1899-12-31', '2101-01-01'],
  datetime: ['2024-13-01T00:00:00Z', '0000-01-01T00:00:00Z', '9999-12-31T23:59:59Z', 'yesterday'],
};

function addDays(d: string, n: number): string {
  return new Date(Date.parse(`${d}T00:00:00Z`) + n * 86400000).toISOString().slice(0, 10);
}

function idCard(seq: number): string {
  const first17 = `11010519800101${String(seq % 1000).padStart(3, '0')}`;
  return first17 + idCardCheckChar(first17);
}

/** A value that passes every rule of the field. */
function goodValue(f: FieldSchema): unknown {
  if (f.example !== undefined && checkField(f, f.example) === undefined) return f.example;
  if (f.type === 'enum') return f.options![0].value;
  if (f.type === 'array') {
    const sub = itemFields(f);
    const n = Math.max(1, f.minItems ?? 0);
    return Array.from({ length: n }, (_, i) => (sub ? goodRow(sub, i) : `OD${i}`));
  }
  if (f.type === 'date') {
    const t = todayUtc();
    return f.minDate ? resolveDateBound(f.minDate, t) : f.maxDate ? resolveDateBound(f.maxDate, t) : GOOD.date;
  }
  if (f.type === 'money' || f.type === 'integer') return f.min ?? GOOD[f.type];
  let v = GOOD[f.type] as string;
  if (f.minLength && v.length < f.minLength) v = v.padEnd(f.minLength, v[0]);
  if (f.maxLength && v.length > f.maxLength) v = v.slice(0, f.maxLength);
  return v;
}

function goodRow(fields: Record<string, FieldSchema>, i: number): Record<string, unknown> {
  return Object.fromEntries(Object.entries(fields).map(([k, f]) => [k, f.type === 'idCard' ? idCard(i) : goodValue(f)]));
}

/** Good and bad values for every rule the field has. */
function casesFor(f: FieldSchema): unknown[] {
  const out: unknown[] = [undefined, null, '', '   ', goodValue(f)];
  out.push(f.type === 'boolean' || f.type === 'array' || ['integer', 'money', 'ref'].includes(f.type) ? 'abc' : 123);
  if (f.type === 'array') out.push({ a: 1 }, []);
  if (f.minLength !== undefined) out.push('字'.repeat(Math.max(0, f.minLength - 1)) || 'x', '字'.repeat(f.minLength));
  if (f.maxLength !== undefined) out.push('字'.repeat(f.maxLength), '字'.repeat(f.maxLength + 1), ` ${'字'.repeat(f.maxLength)} `);
  if (f.min !== undefined) out.push(f.min, f.min - 0.01, f.min - 1);
  if (f.max !== undefined) out.push(f.max, f.max + 0.01, f.max + 1);
  if (f.type === 'money') out.push(1.234, 0.1 + 0.2, 99.99, -5);
  if (f.type === 'integer' || f.type === 'ref') out.push(1.5, 0, -1);
  if (f.pattern) out.push('abcdefgh', '12345678', 'abc12345');
  if (f.type === 'enum') out.push('nope', ...f.options!.map((o) => o.value));
  out.push(...(BAD_FORMAT[f.type] ?? []));
  if (f.type === 'date') {
    const t = todayUtc();
    for (const b of [f.minDate, f.maxDate]) if (b) out.push(addDays(resolveDateBound(b, t), -1), addDays(resolveDateBound(b, t), 1));
  }
  if (f.type === 'array') {
    const sub = itemFields(f);
    if (f.maxItems !== undefined) out.push(Array.from({ length: f.maxItems + 1 }, (_, i) => (sub ? {} : `OD${i}`)));
    if (!sub) out.push(['OD1', ''], ['OD1', 3]);
  }
  return out;
}

/** The gateway's message for one field: normalise, validate with Ajv, map errors. */
function gatewayMessage(e: EntitySchema, key: string, value: unknown): string | undefined {
  const schema = toJsonSchema(e, { mode: 'create', fields: [key] });
  const payload = normalizePayload(value === undefined ? {} : { [key]: value });
  return validateWithAjv(ajv, schema, inputFields(e), payload).find((x) => x.field === key)?.message;
}

const inputEntities = Object.values(reg.entities).filter((e) => Object.keys(inputFields(e)).length > 0);

describe('browser and gateway check every field rule the same way', () => {
  for (const e of inputEntities) {
    for (const [key, f] of Object.entries(inputFields(e))) {
      it(`${e.name}.${key} (${f.type})`, () => {
        const formily = fieldValidator(formFieldOf(key, f));
        for (const v of casesFor(f)) {
          const browser = checkField(f, v);
          const label = `${e.name}.${key} = ${JSON.stringify(v)?.slice(0, 60)}`;
          expect(gatewayMessage(e, key, v), label).toBe(browser);
          expect(formily(v), label).toBe(browser ?? '');
          if (browser) expect(browser, label).toMatch(/[\u4e00-\u9fa5]/);
        }
      });
    }
  }
});

describe('object-array items (roster rows)', () => {
  const rowsEntities = inputEntities.filter((e) => Object.values(inputFields(e)).some((f) => itemFields(f)));
  it('has roster entities to test', () => expect(rowsEntities.map((e) => e.name)).toEqual(['attendance-submit', 'roster-submit']));
  for (const e of rowsEntities) {
    const [key, f] = Object.entries(inputFields(e)).find(([, x]) => itemFields(x))!;
    const sub = itemFields(f)!;
    it(`${e.name}.${key}[i].* agree, including in-roster duplicates`, () => {
      const schema = toJsonSchema(e, { mode: 'create', fields: [key] });
      const payloads: unknown[][] = [[goodRow(sub, 1), { ...goodRow(sub, 2), idCard: idCard(1).toLowerCase() }], ['not a row']];
      for (const [k, sf] of Object.entries(sub)) {
        for (const v of casesFor(sf)) payloads.push([{ ...goodRow(sub, 0), [k]: v }]);
      }
      for (const rows of payloads) {
        const browser = checkObject(e, { [key]: rows }, { mode: 'create', fields: [key] });
        const gateway = validateWithAjv(ajv, schema, inputFields(e), normalizePayload({ [key]: rows }));
        const sort = (xs: typeof browser) => [...xs].sort((a, b) => a.field.localeCompare(b.field));
        expect(sort(gateway), JSON.stringify(rows).slice(0, 120)).toEqual(sort(browser));
        for (const [k, sf] of Object.entries(sub)) {
          const cell = (rows[0] as Record<string, unknown> | undefined)?.[k];
          const own = browser.find((x) => x.field === `${key}[0].${k}`);
          if (own && !own.message.includes('重复')) expect(fieldValidator(formFieldOf(k, sf))(cell)).toBe(own.message);
        }
      }
      const dup = checkObject(e, { [key]: payloads[0] }, { mode: 'create' }).find((x) => x.field === `${key}[1].idCard`);
      expect(dup?.message).toBe('身份证号与第 1 行重复');
    });
  }
});

describe('messages', () => {
  it('word the rules in Chinese from the label', () => {
    const claim = reg.get('claim').fields;
    const roster = reg.get('roster-submit').fields;
    expect(checkField(claim.personName, '')).toBe('请填写出险人');
    expect(checkField(claim.accidentType, undefined)).toBe('请选择事故类型');
    expect(checkField(claim.personName, '张')).toBe('出险人至少 2 个字符');
    expect(checkField(claim.personName, '张'.repeat(31))).toBe('出险人不能超过 30 个字符');
    expect(checkField(claim.amount, 0)).toBe('申请金额不能小于 0.01');
    expect(checkField(claim.amount, 10000001)).toBe('申请金额不能大于 10000000');
    expect(checkField(claim.amount, 1.005)).toBe('申请金额最多保留 2 位小数');
    expect(checkField(claim.idCard, '110105194912310021')).toBe('身份证号不正确');
    expect(checkField(reg.get('login').fields.phone, '123')).toBe('请输入正确的 11 位手机号');
    expect(checkField(claim.accidentDate, '0000-01-01')).toBe('出险日期格式不正确');
    expect(checkField(claim.accidentDate, '2024-01-02', { today: '2024-01-01' })).toBe('出险日期不能晚于今天');
    expect(checkField(roster.startDate, '2024-01-01', { today: '2024-01-02' })).toBe('起保日期不能早于今天');
    expect(checkField(roster.rows, [])).toBe('请至少添加 1 条投保名单');
    expect(checkField(roster.rows, Array.from({ length: 5001 }, () => ({})))).toBe('投保名单最多 5000 条');
    expect(checkField(reg.get('login').fields.password, '')).toBe('请输入密码');
  });
});
