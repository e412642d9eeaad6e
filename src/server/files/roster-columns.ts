import { PHONE_RE, isValidIdCard } from '../../shared/checks.ts';
import type { RowValidator, SheetColumn } from './types.ts';

/**
 * The roster (名单) columns of today's gateway (app.ts checkRows): a default for callers that
 * do not derive columns from an entity schema, and the validator used by the bench and tests.
 */
export const ROSTER_COLUMNS: SheetColumn[] = [
  { key: 'name', label: '姓名', aliases: ['名字', '员工姓名', '人员姓名', 'name'], required: true, example: '张三', note: '2–30 个字符', width: 14 },
  {
    key: 'idCard',
    label: '身份证号',
    aliases: ['身份证', '证件号码', '身份证号码', '证件号', 'idCard', 'id card'],
    required: true,
    example: '110101199003074573',
    note: '18 位居民身份证号，末位可为 X；请保持文本格式，勿改为数字',
    width: 24,
    text: true,
  },
  { key: 'phone', label: '手机号', aliases: ['手机', '手机号码', '联系电话', '电话', 'phone', 'mobile'], required: true, example: '13800138000', note: '11 位手机号，可不填', width: 16, text: true },
  { key: 'jobType', label: '工种', aliases: ['岗位', '职业', '工作类别', '工种名称', 'jobType'], example: '普工', note: '选填，最多 30 个字符', width: 14 },
];

/** Row checks equal to app.ts checkRows (without the in-file duplicate check: buildPreview does that). */
export function createRosterValidator(): RowValidator {
  return (row) => {
    const out: Array<{ column: string; message: string }> = [];
    const name = row.name ?? '';
    if (!name) out.push({ column: 'name', message: '请填写姓名' });
    else if (name.length < 2 || name.length > 30) out.push({ column: 'name', message: '姓名长度应为 2–30 个字符' });
    const id = row.idCard ?? '';
    if (!id) out.push({ column: 'idCard', message: '请填写身份证号' });
    else if (!isValidIdCard(id)) out.push({ column: 'idCard', message: '身份证号不正确' });
    const phone = row.phone ?? '';
    // As in checkRows the phone may be left empty; when given it must be a mobile number.
    if (phone && !PHONE_RE.test(phone)) out.push({ column: 'phone', message: '请输入正确的 11 位手机号' });
    if ((row.jobType ?? '').length > 30) out.push({ column: 'jobType', message: '工种不能超过 30 个字符' });
    return out;
  };
}
