import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../src/server/db.ts';
import { BIZ_ADMIN, boot, makeIdCard, useFilesDir, type Client } from './helpers.ts';
import { targets } from './money-helpers.ts';
import { START, upload, waitConfirmed, waitParsed } from './upload-helpers.ts';

/**
 * One rule per fact (issue 20 item 2), through the gateway on PGlite and PostgreSQL: plans are rows the
 * pickers and quotes read; insurable age comes from the plan and is checked alike by the roster API, the
 * upload preview and confirm, attendance and automatic insurance, with the reason on the row; a claim
 * names the insured person and is filed once; a bank account carries the business's name and a number
 * once. Each success is checked by what it stored, each refusal by what it did not store.
 */
const EMPLOYER = '雇主责任险·标准版（60万）'; // 16–65, ¥45.00 a person-month (demo data)
const DAY = '灵活用工日单险（按天）'; // 18–60, ¥3.50 a person-day
const BIZ_NAME = '上海鑫达人力资源有限公司';
const year = Number(START().slice(0, 4));
let seq = 0;
/** A new person aged `age` on the cover start (born 1 January), unique across targets and runs. */
const person = (name: string, age: number) => ({
  name,
  idCard: makeIdCard('650102', `${year - age}0101`, (process.pid * 7 + ++seq) % 1000),
  phone: '13700000000',
  jobType: '快递员',
});

for (const t of targets()) {
  describe(`one rule per fact (${t.name})`, () => {
    useFilesDir('rules-files-');
    let db: Db;
    let c: Client;
    beforeAll(async () => {
      db = await t.open();
      c = await boot({ db });
      await c.login();
    }, 300_000);
    afterAll(async () => {
      await c?.server.close();
      await db?.close();
    });

    const n = async (sql: string, params: unknown[] = [BIZ_ADMIN]) => Number((await db.query<{ n: number }>(`SELECT (${sql})::float8 AS n`, params))[0].n);
    /** What an insurance write changes, to show a refusal stored nothing. */
    const stored = async () => ({
      batches: await n('SELECT count(*) FROM insure_batches WHERE business_id = $1'),
      records: await n('SELECT count(*) FROM insure_records WHERE business_id = $1'),
      persons: await n('SELECT count(*) FROM insured_persons WHERE business_id = $1'),
      orders: await n('SELECT count(*) FROM orders WHERE business_id = $1'),
      balance: await n('SELECT balance_cents FROM businesses WHERE id = $1'),
    });

    it('plans are rows: the picker lists them with price and ages, the quote prices by them, a plan off sale is gone', async () => {
      const code = `rules-${t.name}-${process.pid}`;
      const name = `规则测试方案·${t.name}${process.pid}（按月）`;
      await db.query(`INSERT INTO plans (code, name, unit, price_cents, min_age, max_age, claim_limit_cents) VALUES ($1, $2, 'month', 123456, 20, 50, 10000000)`, [code, name]);
      const listed = (await c.call('GET', '/api/plans?unit=month')).body.data.find((p: { value: string }) => p.value === name);
      expect(listed).toMatchObject({ code, label: `${name} · ¥1,234.56/人·月 · 20–50 周岁`, price: 1234.56, minAge: 20, maxAge: 50, onSale: true });
      const q = await c.call('POST', '/api/insure/quote', { body: { source: 'roster', planName: name, startDate: START(), rows: [person('方案甲', 30)] } });
      expect(q.status).toBe(200);
      expect(q.body.data).toMatchObject({ unitPrice: 1234.56, total: 1234.56 * 12 });
      await db.query('UPDATE plans SET on_sale = false WHERE code = $1', [code]);
      expect((await c.call('GET', '/api/plans?unit=month')).body.data.map((p: { value: string }) => p.value)).not.toContain(name);
      expect((await c.call('GET', '/api/plans?all=true')).body.data.find((p: { value: string }) => p.value === name).label).toContain('（已停售）');
      const before = await stored();
      const r = await c.call('POST', '/api/insure/roster', { body: { planName: name, startDate: START(), rows: [person('方案乙', 30)] } });
      expect(r.status).toBe(400);
      expect(r.body.errors).toEqual([{ field: 'planName', message: '该保险方案不存在或已停售' }]);
      expect(await stored()).toEqual(before);
    });

    it('roster API: someone outside the plan’s ages is refused with the row and the reason; the others are insured', async () => {
      const old = person('高龄甲', 86);
      const child = person('少年乙', 11);
      const fit = person('适龄丙', 30);
      const before = await stored();
      const r = await c.call('POST', '/api/insure/roster', { body: { planName: EMPLOYER, startDate: START(), rows: [old, child, fit] } });
      expect(r.status).toBe(400);
      expect(r.body.message).toBe('名单中有 2 人不在该方案的可投保年龄之内，本批次未提交');
      expect(r.body.errors).toEqual([
        { field: 'rows[0].idCard', message: '第 1 行 高龄甲：年龄 86 岁，不在该方案可投保年龄 16–65 岁之内' },
        { field: 'rows[1].idCard', message: '第 2 行 少年乙：年龄 11 岁，不在该方案可投保年龄 16–65 岁之内' },
      ]);
      expect(await stored()).toEqual(before);

      const ok = await c.call('POST', '/api/insure/roster', { body: { planName: EMPLOYER, startDate: START(), rows: [fit] } });
      expect(ok.status).toBe(200);
      const after = await stored();
      expect(after).toEqual({ ...before, batches: before.batches + 1, records: before.records + 1, persons: before.persons + 1, orders: before.orders + 1, balance: before.balance - 4500 * 12 });
      expect(await n(`SELECT premium_cents FROM insure_records WHERE business_id = $1 AND id_card = $2`, [BIZ_ADMIN, fit.idCard])).toBe(4500 * 12);
    });

    it('upload: the preview marks who is outside the plan’s ages with the reason, and confirm insures only the others', async () => {
      const rows = [person('高龄丁', 70), person('适龄戊', 40), person('少年己', 15)];
      const csv = ['姓名,身份证号,手机号,工种', ...rows.map((p) => `${p.name},${p.idCard},${p.phone},${p.jobType}`)].join('\r\n');
      const up = await upload(c, { name: '年龄名单.csv', bytes: Buffer.from(csv, 'utf8') }, { planName: EMPLOYER, startDate: START() });
      expect(up.status).toBe(202);
      const id = up.body.data.id;
      expect((await waitParsed(c, id)).counts).toEqual({ total: 3, valid: 1, errors: 2, duplicates: 0 });
      // The reason is an error of the 身份证号 cell in the rows the editor shows (one page).
      const p = await c.call('GET', `/api/insure-uploads/${id}/rows?page=0`);
      expect(p.body.data.errors).toEqual([
        { row: 2, column: 'idCard', label: '身份证号', message: '年龄 70 岁，不在该方案可投保年龄 16–65 岁之内' },
        { row: 4, column: 'idCard', label: '身份证号', message: '年龄 15 岁，不在该方案可投保年龄 16–65 岁之内' },
      ]);
      const before = await stored();
      // The rows corrected by hand are checked the same way: nothing stored.
      const corrected = await c.call('POST', '/api/insure-uploads/confirm', { body: { uploadId: id, planName: EMPLOYER, startDate: START(), rows: rows.map((r, i) => ({ row: i + 2, ...r })) } });
      expect(corrected.status).toBe(400);
      expect(corrected.body.errors).toEqual([
        { field: 'rows[0].idCard', message: '第 2 行：高龄丁，年龄 70 岁，不在该方案可投保年龄 16–65 岁之内' },
        { field: 'rows[2].idCard', message: '第 4 行：少年己，年龄 15 岁，不在该方案可投保年龄 16–65 岁之内' },
      ]);
      expect(await stored()).toEqual(before);
      const r = await c.call('POST', '/api/insure-uploads/confirm', { body: { uploadId: id, planName: EMPLOYER, startDate: START() } });
      expect([200, 202]).toContain(r.status);
      const s = await waitConfirmed(c, id);
      expect(s.confirmResult).toMatchObject({ people: 1, total: 3, succeeded: 1, failed: 2 });
      expect(await n('SELECT count(*) FROM insure_records WHERE batch_id = $1', [s.batchId])).toBe(1);
      const failed = await db.query<{ error: string }>(`SELECT error FROM insure_batch_rows WHERE batch_id = $1 AND result = 'failed' ORDER BY row_no`, [s.batchId]);
      expect(failed.map((f) => f.error)).toEqual(['身份证号：年龄 70 岁，不在该方案可投保年龄 16–65 岁之内', '身份证号：年龄 15 岁，不在该方案可投保年龄 16–65 岁之内']);
    });

    it('attendance and automatic insurance judge by the day plan’s ages, and the person keeps the reason', async () => {
      const elder = person('年长庚', 63);
      const young = person('年轻辛', 30);
      const before = await stored();
      const r = await c.call('POST', '/api/insure/attendance', { body: { planName: DAY, workDate: START(), rows: [elder, young] } });
      expect(r.status).toBe(200);
      expect(r.body.data).toMatchObject({ insured: 1, amount: 3.5 });
      expect(r.body.data.skipped).toEqual([expect.objectContaining({ rowNo: 1, name: '年长庚', autoStatus: 3, reason: '投保信息有误：年龄 63 岁，不在该方案可投保年龄 18–60 岁之内，本次未投保' })]);
      // Only the insured person is stored (a new person the submission skips is only reported).
      const after = await stored();
      expect(after.records).toBe(before.records + 1);
      expect(after.persons).toBe(before.persons + 1);
      expect(after.balance).toBe(before.balance - 350);

      // A roster (16–65) insures the same 63-year-old; automatic insurance (day plan 18–60) keeps them out, saying why.
      expect((await c.call('POST', '/api/insure/roster', { body: { planName: EMPLOYER, startDate: START(), rows: [elder] } })).status).toBe(200);
      const list = await c.call('GET', `/api/insured-persons?name=${encodeURIComponent(elder.name)}`);
      const row = list.body.data.list[0];
      expect(row).toMatchObject({ autoStatus: '3', autoReason: '年龄 63 岁，不在该方案可投保年龄 18–60 岁之内' });
      // Starting is refused with the same reason; correcting the ID number fixes it and clears the reason.
      const start = await c.call('POST', `/api/insured-persons/${row.id}/start`);
      expect(start.status).toBe(409);
      expect(start.body.message).toBe('投保信息有误：年龄 63 岁，不在该方案可投保年龄 18–60 岁之内');
      const fixed = await c.call('PUT', `/api/insured-persons/${row.id}/info`, { body: { idCard: person('年长庚', 45).idCard } });
      expect(fixed.status).toBe(200);
      expect(fixed.body.data).toMatchObject({ autoStatus: '1' });
      expect((await db.query<{ auto_status: string; auto_reason: string | null }>('SELECT auto_status, auto_reason FROM insured_persons WHERE id = $1', [row.id]))[0]).toEqual({ auto_status: '1', auto_reason: null });
    });

    it('claims: the name must be the insured person’s of that ID number, and a repeated claim is refused', async () => {
      const p = person('理赔壬', 35);
      expect((await c.call('POST', '/api/insure/roster', { body: { planName: EMPLOYER, startDate: START(), rows: [p] } })).status).toBe(200);
      const claims = () => n('SELECT count(*) FROM claims WHERE business_id = $1');
      const body = { personName: p.name, idCard: p.idCard, accidentDate: START(), accidentType: '意外伤害', description: '搬运时扭伤', amount: 1234.5 };
      const before = await claims();
      const impostor = await c.call('POST', '/api/claims', { body: { ...body, personName: '张冒名' } });
      expect(impostor.status).toBe(400);
      expect(impostor.body.errors).toEqual([{ field: 'personName', message: '出险人姓名与该身份证号的参保人员不一致，请核对参保人员名单' }]);
      expect(await claims()).toBe(before);
      const ok = await c.call('POST', '/api/claims', { body });
      expect(ok.status).toBe(200);
      expect(await n('SELECT amount_cents FROM claims WHERE id = $1', [ok.body.data.id])).toBe(123450);
      const again = await c.call('POST', '/api/claims', { body });
      expect(again.status).toBe(409);
      expect(again.body.message).toBe(`该人员已有同一出险日期、同一申请金额的理赔申请 ${ok.body.data.claimNo}，请勿重复提交`);
      expect(await claims()).toBe(before + 1);
      // Another amount for the same accident is another claim.
      expect((await c.call('POST', '/api/claims', { body: { ...body, amount: 200 } })).status).toBe(200);
      expect(await claims()).toBe(before + 2);
    });

    it('bank accounts: the name is the business’s and a number is added once', async () => {
      const accounts = () => n('SELECT count(*) FROM bank_accounts WHERE business_id = $1');
      const no = `62170000${String(process.pid).padStart(8, '0').slice(-8)}`;
      const body = { accountName: BIZ_NAME, bankName: '交通银行', accountNo: no, branch: '上海长宁支行' };
      const before = await accounts();
      const other = await c.call('POST', '/api/bank-accounts', { body: { ...body, accountName: '某某公司' } });
      expect(other.status).toBe(400);
      expect(other.body.errors).toEqual([{ field: 'accountName', message: `账户名称须与企业名称「${BIZ_NAME}」一致` }]);
      expect(await accounts()).toBe(before);
      const ok = await c.call('POST', '/api/bank-accounts', { body: { ...body, accountNo: `${no.slice(0, 4)} ${no.slice(4)}` } });
      expect(ok.status).toBe(200);
      expect(await n(`SELECT count(*) FROM bank_accounts WHERE business_id = $1 AND account_no = $2 AND account_name = $3`, [BIZ_ADMIN, no, BIZ_NAME])).toBe(1);
      const twice = await c.call('POST', '/api/bank-accounts', { body });
      expect(twice.status).toBe(409);
      expect(twice.body.errors).toEqual([{ field: 'accountNo', message: '该银行账号已添加，不能重复添加' }]);
      expect(await accounts()).toBe(before + 1);
    });
  });
}
