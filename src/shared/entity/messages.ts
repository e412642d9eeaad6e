/**
 * The one place that words every field rule in Chinese, from the field label. The browser
 * validators, the gateway's Ajv error mapper and the entity rules all take their text from here,
 * so a rule reads the same wherever it fires. A field may override a rule's text in `messages`.
 */
import type { FieldSchema, RuleName } from './types.ts';

/**
 * A field's message where it stands apart from its field (an error summary, a row's problems): with the
 * field's label in front unless the message already names it — 「身份证号不正确」, never
 * 「身份证号：身份证号不正确」; 「手机号：请输入正确的 11 位手机号」 neither.
 */
export function labelled(label: string | undefined, message: string): string {
  const m = message.trim();
  return label && !m.includes(label) ? `${label}：${m}` : m;
}

/** A value that must differ from another field's: 「新密码不能与原密码相同」 (browser and gateway). */
export function sameValueMessage(label: string, otherLabel: string): string {
  return `${label}不能与${otherLabel}相同`;
}

const PICK_TYPES = new Set(['enum', 'date', 'datetime', 'ref', 'boolean']);

/** "today" → 今天, "today+30" → 今天起 30 天后, an absolute date stays as it is. */
export function describeDateBound(bound: string): string {
  const m = /^today(?:([+-])(\d+))?$/.exec(bound);
  if (!m) return ` ${bound}`;
  if (!m[1]) return '今天';
  return m[1] === '+' ? `今天起 ${m[2]} 天后` : `今天前 ${m[2]} 天`;
}

function formatMessage(f: FieldSchema): string {
  switch (f.type) {
    case 'idCard':
      return `${f.label}不正确`;
    case 'phone':
      return '请输入正确的 11 位手机号';
    case 'email':
      return '请输入正确的邮箱地址';
    case 'taxNo':
      return `${f.label}应为 15–20 位字母或数字`;
    case 'bankAccount':
      return `${f.label}应为 8–30 位数字`;
    case 'smsCode':
      return `请输入 6 位${f.label}`;
    default:
      return `${f.label}格式不正确`;
  }
}

function typeMessage(f: FieldSchema): string {
  if (f.type === 'integer' || f.type === 'ref') return `${f.label}必须是整数`;
  if (f.type === 'money') return `${f.label}必须是数字`;
  if (f.type === 'boolean') return `${f.label}的取值无效`;
  if (f.type === 'array') return `${f.label}格式不正确`;
  return `${f.label}格式不正确`;
}

function itemsAreScalar(f: FieldSchema): boolean {
  return typeof f.items === 'string';
}

/** The Chinese message for `rule` failing on field `f`; `arg` is the rule's bound where one applies. */
export function ruleMessage(f: FieldSchema, rule: RuleName, arg?: number | string): string {
  const custom = f.messages?.[rule];
  if (custom) return custom;
  const l = f.label;
  switch (rule) {
    case 'required':
      if (f.type === 'array') return ruleMessage(f, 'minItems', Math.max(1, f.minItems ?? 1));
      return `${PICK_TYPES.has(f.type) ? '请选择' : '请填写'}${l}`;
    case 'type':
      return typeMessage(f);
    case 'minLength':
      return `${l}至少 ${arg ?? f.minLength} 个字符`;
    case 'maxLength':
      return `${l}不能超过 ${arg ?? f.maxLength} 个字符`;
    case 'chars':
      return `${l}不能包含控制字符或不可见字符`;
    case 'format':
      return formatMessage(f);
    case 'pattern':
      return f.patternMessage ?? `${l}格式不正确`;
    case 'enum':
      return `请选择正确的${l}`;
    case 'min':
      return `${l}不能小于 ${arg ?? f.min}`;
    case 'max':
      return `${l}不能大于 ${arg ?? f.max}`;
    case 'precision':
      return `${l}最多保留 2 位小数`;
    case 'minDate':
      return `${l}不能早于${describeDateBound(String(arg ?? f.minDate))}`;
    case 'maxDate':
      return `${l}不能晚于${describeDateBound(String(arg ?? f.maxDate))}`;
    case 'minItems':
      return itemsAreScalar(f) ? `请至少选择 ${arg ?? f.minItems} 项${l}` : `请至少添加 ${arg ?? f.minItems} 条${l}`;
    case 'maxItems':
      return `${l}最多 ${arg ?? f.maxItems} 条`;
    case 'unique':
      return typeof arg === 'number' ? `${l}与第 ${arg} 行重复` : `${l}已存在`;
  }
}

/** "rows[2].name" → 「第 3 行 姓名」 given a label lookup; used by error summaries. */
export function describeFieldPath(path: string, labelOf: (path: string) => string | undefined): string {
  const m = /^(\w+)\[(\d+)\]\.(\w+)$/.exec(path);
  if (m) {
    const label = labelOf(path) ?? m[3];
    return `第 ${Number(m[2]) + 1} 行 ${label}`;
  }
  const row = /^(\w+)\[(\d+)\]$/.exec(path);
  if (row) return `第 ${Number(row[2]) + 1} 行`;
  return labelOf(path) ?? path;
}
