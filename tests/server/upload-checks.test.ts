import iconv from 'iconv-lite';
import { beforeAll, describe, expect, it } from 'vitest';
import { readdirSync } from 'node:fs';
import { BIZ_ADMIN } from './helpers.ts';
import { count, makeIdCard, monthPlan, previewRows, rosterXlsx, START, upload, useUploadGateway, waitParsed } from './upload-helpers.ts';
import { notAWorkbook, zipBombXlsx } from './zip-bomb.ts';

const c = useUploadGateway();
let plan: string;
beforeAll(async () => {
  plan = await monthPlan(c);
});

const uploads = () => count(c, 'SELECT 1 FROM insure_uploads');
/** A minimal PE header: what an .exe starts with. */
const EXE = Buffer.concat([Buffer.from('MZ'), Buffer.alloc(58), Buffer.from([0x80, 0, 0, 0]), Buffer.alloc(64), Buffer.from('PE\0\0'), Buffer.alloc(400)]);

describe('upload checks', () => {
  it('refuses an .exe renamed .xlsx by its bytes, with a Chinese message, storing nothing', async () => {
    const before = await uploads();
    const r = await upload(c, { name: '名单.xlsx', bytes: EXE }, { planName: plan, startDate: START() });
    expect(r.status).toBe(400);
    expect(r.body.message).toBe('文件内容与扩展名不符（实际为可执行文件）');
    expect(r.body.errors).toEqual([{ field: 'file', message: r.body.message }]);
    expect(await uploads()).toBe(before);
  });

  it('refuses a zip bomb and any zip renamed .xlsx at upload, storing nothing', async () => {
    const before = { rows: await uploads(), files: readdirSync(c.filesDir, { recursive: true }).length };
    // 120 MB of sheet (bench/upload.ts sends the 1 MB → 1 GB one and reports its time and the gateway's memory).
    const bomb = await zipBombXlsx(120);
    for (const bytes of [bomb.honest, bomb.lying]) {
      const r = await upload(c, { name: '名单.xlsx', bytes }, { planName: plan, startDate: START() });
      expect(r.status).toBe(400);
      expect(r.body.message).toBe('文件解压后超过 100 MB（疑似压缩炸弹），已拒绝；请删除多余的工作表或内容后重新上传');
    }
    const zip = await upload(c, { name: '名单.xlsx', bytes: notAWorkbook('plain') }, { planName: plan, startDate: START() });
    expect(zip.status).toBe(400);
    expect(zip.body.message).toBe('文件内容与扩展名不符（实际为普通压缩包，不是 Excel 表格）');
    expect(await uploads()).toBe(before.rows);
    expect(readdirSync(c.filesDir, { recursive: true }).length).toBe(before.files);
  });

  it('checks the extension case-insensitively and refuses a name without one', async () => {
    const csv = Buffer.from(`姓名,身份证号\n张大伟,${makeIdCard('110105', '19900307', 11)}\n`);
    const upper = await upload(c, { name: 'ROSTER.CSV', bytes: csv }, { planName: plan, startDate: START() });
    expect(upper.status).toBe(202);
    const none = await upload(c, { name: 'roster', bytes: csv }, { planName: plan, startDate: START() });
    expect(none.status).toBe(400);
    expect(none.body.message).toBe('文件名缺少扩展名');
    const pdf = await upload(c, { name: 'roster.pdf', bytes: Buffer.from('%PDF-1.4') }, { planName: plan, startDate: START() });
    expect(pdf.status).toBe(400);
    expect(pdf.body.message).toBe('文件类型不支持，仅支持：xlsx、xls、csv');
  });

  it('needs a plan, a start date not before business today, and a file', async () => {
    const csv = { name: 'a.csv', bytes: Buffer.from('姓名,身份证号\n') };
    expect((await upload(c, csv, { startDate: START() })).body.errors).toEqual([{ field: 'planName', message: '请选择保险方案' }]);
    const past = await upload(c, csv, { planName: plan, startDate: '2020-01-01' });
    expect(past.status).toBe(400);
    expect(past.body.errors[0]).toMatchObject({ field: 'startDate', message: expect.stringContaining('起保日期不能早于') });
    const nofile = await upload(c, null, { planName: plan, startDate: START() });
    expect(nofile.body.errors).toEqual([{ field: 'file', message: '请选择要上传的文件' }]);
  });

  it('refuses a file over 10 MB with 413 and a Chinese message', async () => {
    const before = await uploads();
    const big = Buffer.alloc(10 * 1024 * 1024 + 10, 0x41);
    const r = await upload(c, { name: 'big.csv', bytes: big }, { planName: plan, startDate: START() });
    expect(r.status).toBe(413);
    expect(r.body.message).toBe('文件过大，最大 10 MB');
    expect(await uploads()).toBe(before);
  });

  it('fails a file with more than 50,000 rows with the limit in the message', async () => {
    const lines = ['姓名,身份证号'];
    for (let i = 0; i < 50_001; i++) lines.push(`员工${i},1`);
    const r = await upload(c, { name: 'many.csv', bytes: Buffer.from(lines.join('\n')) }, { planName: plan, startDate: START() });
    expect(r.status).toBe(202);
    const s = await waitParsed(c, r.body.data.id);
    expect(s).toMatchObject({ status: 'failed', error: '单个文件最多 50000 行，当前 50001 行' });
    const p = await c.call('GET', `/api/insure-uploads/${r.body.data.id}/preview`);
    expect(p.status).toBe(400);
  });

  it('refuses a header row without the required columns instead of importing it as a person', async () => {
    const r = await upload(c, { name: 'x.csv', bytes: Buffer.from('名字,电话\n张三,13800000000\n') }, { planName: plan, startDate: START() });
    const s = await waitParsed(c, r.body.data.id);
    expect(s).toMatchObject({ status: 'failed', error: '表头缺少列：身份证号' });
  });

  it('reads a GBK CSV saved by Excel on Chinese Windows with the right names (headers in another order)', async () => {
    const a = makeIdCard('440305', '19950101', 21);
    const b = makeIdCard('440305', '19960202', 22);
    const text = `身份证号码,员工姓名,联系电话,岗位\r\n${a},欧阳娜娜,13712345678,分拣员\r\n${b},诸葛亮,,\r\n`;
    const r = await upload(c, { name: '名单.csv', bytes: iconv.encode(text, 'gbk') }, { planName: plan, startDate: START() });
    const s = await waitParsed(c, r.body.data.id);
    expect(s.counts).toEqual({ total: 2, valid: 2, errors: 0, duplicates: 0 });
    expect((await previewRows(c, r.body.data.id)).rows).toEqual([
      ['欧阳娜娜', a, '13712345678', '分拣员'],
      ['诸葛亮', b, '', ''],
    ]);
    // Another business cannot see it.
    const other = await c.call('GET', `/api/insure-uploads/${r.body.data.id}`, { biz: 'B10002' });
    expect(other.status).toBe(404);
  });
});

/** POST /api/insure-uploads/read as the attendance tab sends it. */
async function readRows(file: { name: string; bytes: Buffer }, entity = 'attendance-submit') {
  const fd = new FormData();
  fd.append('entity', entity);
  fd.append('field', 'rows');
  fd.append('file', new Blob([new Uint8Array(file.bytes)]), file.name);
  const res = await fetch(`${c.origin}/api/insure-uploads/read`, { method: 'POST', headers: { authorization: `Bearer ${c.token}`, 'x-company-id': BIZ_ADMIN }, body: fd });
  return { status: res.status, body: (await res.json()) as any };
}

describe('reading a roster file into rows (the attendance import): the roster upload\'s reader, nothing stored', () => {
  const ids = Array.from({ length: 5 }, (_, i) => makeIdCard('440305', '19900101', 60 + i));
  const people = ['欧阳娜娜', '诸葛明亮', '司马相如', '上官婉儿', '东方不败'];

  it('reads a GBK CSV saved by Excel: five people from five rows, the header is never a person', async () => {
    const before = { rows: await uploads(), files: readdirSync(c.filesDir, { recursive: true }).length };
    const csv = ['姓名,身份证号,手机号,工种', ...people.map((p, i) => `${p},${ids[i]},1371234567${i},分拣员`)].join('\r\n');
    const r = await readRows({ name: '考勤.csv', bytes: iconv.encode(csv, 'gbk') });
    expect(r.status).toBe(200);
    expect(r.body.data.columns.map((x: { key: string }) => x.key)).toEqual(['name', 'idCard', 'phone', 'jobType']);
    expect(r.body.data.rows).toEqual(people.map((p, i) => [p, ids[i], `1371234567${i}`, '分拣员']));
    expect(r.body.data.rowNumbers).toEqual([2, 3, 4, 5, 6]);
    expect(r.body.data.counts).toEqual({ total: 5, valid: 5, errors: 0, duplicates: 0 });
    expect(await uploads()).toBe(before.rows);
    expect(readdirSync(c.filesDir, { recursive: true }).length).toBe(before.files);
  });

  it('reads an xlsx the same way, marking the template example row and duplicates', async () => {
    const bytes = await rosterXlsx([
      ['张三', '11010519491231002X', '13800000000', '快递员'], // the template's example row
      ...people.slice(0, 2).map((p, i) => [p, ids[i], '', '']),
      ['重复的人', ids[0], '', ''],
    ]);
    const r = await readRows({ name: '考勤.xlsx', bytes });
    expect(r.status).toBe(200);
    expect(r.body.data.rows.map((x: string[]) => x[0])).toEqual(['张三', '欧阳娜娜', '诸葛明亮', '重复的人']);
    expect(r.body.data.errors).toEqual([{ row: 2, column: 'name', label: '姓名', message: '这是模板中的示例行，请删除后重新上传' }]);
    expect(r.body.data.duplicates).toEqual([{ row: 5, firstRow: 3, column: 'idCard', message: '与第 3 行重复' }]);
    expect(r.body.data.counts).toEqual({ total: 4, valid: 2, errors: 1, duplicates: 1 });
  });

  it('refuses what the roster upload refuses, and a form without a roster', async () => {
    const exe = await readRows({ name: '考勤.xlsx', bytes: EXE });
    expect(exe.status).toBe(400);
    expect(exe.body.message).toBe('文件内容与扩展名不符（实际为可执行文件）');
    const header = await readRows({ name: 'x.csv', bytes: Buffer.from('名字,电话\n张三,13800000000\n') });
    expect(header.body).toMatchObject({ message: '表头缺少列：身份证号', errors: [{ field: 'file', message: '表头缺少列：身份证号' }] });
    const lines = ['姓名,身份证号', ...Array.from({ length: 5001 }, (_, i) => `员工${i},1`)];
    expect((await readRows({ name: 'many.csv', bytes: Buffer.from(lines.join('\n')) })).body.message).toBe('单个文件最多 5000 行，当前 5001 行');
    const other = await readRows({ name: 'a.csv', bytes: Buffer.from('姓名\n张三\n') }, 'claim');
    expect(other.status).toBe(400);
    expect(other.body.errors).toEqual([{ field: 'entity', message: '不支持导入该表单的名单' }]);
  });
});
