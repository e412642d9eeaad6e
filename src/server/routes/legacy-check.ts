import { randomInt } from 'node:crypto';
import { badInput, type FieldError } from '../http/errors.ts';
import { MAX_YEAR, MIN_YEAR } from '../../shared/checks.ts';
import { PHONE_RE, isValidDate, isValidIdCard } from '../util.ts';
import { todayUtc } from '../../shared/entity/rules.ts';

/**
 * Hand-written input checks of the legacy business write routes, moved over unchanged from the
 * node:http gateway (the integrator replaces these routes with schema-derived ones).
 */
export class Check {
  errors: FieldError[] = [];
  constructor(private body: Record<string, unknown>) {}
  add(field: string, message: string) {
    this.errors.push({ field, message });
  }
  str(
    field: string,
    opts: { min?: number; max?: number; required?: boolean; label?: string; pick?: boolean } = {},
  ): string {
    const { min = 1, max = 200, required = true, label = field, pick = false } = opts;
    const v = this.body[field];
    if (v === undefined || v === null || (typeof v === 'string' && v.trim() === '')) {
      if (required) this.add(field, `${pick ? '请选择' : '请填写'}${label}`);
      return '';
    }
    if (typeof v !== 'string') {
      this.add(field, `${label}格式不正确`);
      return '';
    }
    const s = v.trim();
    if (s.length < min || s.length > max) {
      this.add(field, min <= 1 ? `${label}不能超过 ${max} 个字符` : `${label}长度应为 ${min}–${max} 个字符`);
    }
    return s;
  }
  date(field: string, label = field, notAfter?: { date: string; message: string }): string {
    const s = this.str(field, { max: 10, label });
    if (s && notAfter && /^\d{4}-\d{2}-\d{2}$/.test(s) && s > notAfter.date) this.add(field, notAfter.message);
    else if (s && /^\d{4}-\d{2}-\d{2}$/.test(s) && (Number(s.slice(0, 4)) < MIN_YEAR || Number(s.slice(0, 4)) > MAX_YEAR)) {
      this.add(field, `${label}应在 ${MIN_YEAR}–${MAX_YEAR} 年之间`);
    } else if (s && !isValidDate(s)) this.add(field, `${label}格式不正确，应为 2024-01-31 这样的日期`);
    return s;
  }
  money(field: string, label = field, maxYuan = 10_000_000): number {
    const v = this.body[field];
    let n = NaN;
    if (typeof v === 'number') n = v;
    else if (typeof v === 'string' && /^\d+(\.\d{1,2})?$/.test(v.trim())) n = Number(v);
    if (v === undefined || v === null || v === '') {
      this.add(field, `请填写${label}`);
      return 0;
    }
    if (!Number.isFinite(n) || n <= 0 || n > maxYuan) {
      this.add(field, `${label}应大于 0 且不超过 ${yuanText(maxYuan)}元`);
      return 0;
    }
    const cents = Math.round(n * 100);
    if (Math.abs(cents - n * 100) > 1e-6) {
      this.add(field, `${label}最多保留 2 位小数`);
      return 0;
    }
    return cents;
  }
  done(message = '填写内容有误，请按提示修改') {
    if (this.errors.length) throw badInput(message, this.errors);
  }
}

/** 10000000 → '1000 万'; amounts below 10 000 stay as digits. */
function yuanText(yuan: number): string {
  return yuan >= 10_000 && yuan % 10_000 === 0 ? `${yuan / 10_000} 万` : `${yuan} `;
}

/** Today in the business time zone (one definition with the browser's date rules). */
export function today(): string {
  return todayUtc();
}

export function addDays(d: string, n: number): string {
  const t = new Date(`${d}T00:00:00Z`).getTime() + n * 86400000;
  return new Date(t).toISOString().slice(0, 10);
}

export function serialNo(prefix: string): string {
  const d = new Date().toISOString().replace(/\D/g, '').slice(0, 14);
  return `${prefix}${d}${String(randomInt(0, 1_000_000)).padStart(6, '0')}`;
}

export interface RosterRow {
  name: string;
  idCard: string;
  phone: string;
  jobType: string;
}

export function checkRows(c: Check, raw: unknown): RosterRow[] {
  if (!Array.isArray(raw) || raw.length === 0) {
    c.add('rows', '请至少添加 1 名人员');
    return [];
  }
  if (raw.length > 5000) {
    c.add('rows', '每批最多 5000 人');
    return [];
  }
  const seen = new Map<string, number>();
  return raw.map((r, i) => {
    const at = `rows[${i}]`;
    const rowNo = `第 ${i + 1} 行`;
    if (!r || typeof r !== 'object' || Array.isArray(r)) {
      c.add(at, `${rowNo}：数据格式不正确（应包含姓名、身份证号、手机号、工种）`);
      return { name: '', idCard: '', phone: '', jobType: '' };
    }
    const o = r as Record<string, unknown>;
    const s = (k: string) => (typeof o[k] === 'string' ? (o[k] as string).trim() : o[k] == null ? '' : null);
    const name = s('name');
    const idCard = s('idCard');
    const phone = s('phone');
    const jobType = s('jobType');
    if (!name) c.add(`${at}.name`, `${rowNo}：请填写姓名`);
    else if (name.length < 2 || name.length > 30) c.add(`${at}.name`, `${rowNo}：姓名长度应为 2–30 个字符`);
    if (!idCard) c.add(`${at}.idCard`, `${rowNo}：请填写身份证号`);
    else if (!isValidIdCard(idCard)) {
      c.add(`${at}.idCard`, `${rowNo}：身份证号不正确`);
    } else {
      const key = idCard.toUpperCase();
      if (seen.has(key)) c.add(`${at}.idCard`, `${rowNo}：身份证号与第 ${seen.get(key)! + 1} 行重复`);
      else seen.set(key, i);
    }
    if (phone === null || (phone && !PHONE_RE.test(phone))) {
      c.add(`${at}.phone`, `${rowNo}：请输入正确的 11 位手机号`);
    }
    if (jobType === null || (jobType && jobType.length > 30)) c.add(`${at}.jobType`, `${rowNo}：工种不能超过 30 个字符`);
    return { name: name ?? '', idCard: (idCard ?? '').toUpperCase(), phone: phone ?? '', jobType: jobType ?? '' };
  });
}
