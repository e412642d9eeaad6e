import iconv from 'iconv-lite';
import { beforeAll, describe, expect, it } from 'vitest';
import { count, makeIdCard, monthPlan, previewRows, START, upload, useUploadGateway, waitParsed } from './upload-helpers.ts';

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
