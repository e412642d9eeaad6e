import { describe, expect, it } from 'vitest';
import { BIZ_ADMIN, BIZ_OPERATOR, BIZ_OTHER, makeIdCard, useGateway } from './helpers.ts';
import { infoProblem, missingInfo } from '../../src/shared/auto-insure.ts';
import { autoInsureAges } from '../../src/server/domain/plans.ts';
import { earliestCoverStart } from '../../src/server/domain/cover.ts';

interface Person {
  id: number;
  name: string;
  id_card: string;
  phone: string;
  job_type: string;
  auto_status: string;
}

const c = useGateway({}, 120_000);
const today = earliestCoverStart();

const persons = (biz: string, where = 'true', params: unknown[] = []) =>
  c.server.db.query<Person>(
    `SELECT id, name, id_card, phone, job_type, auto_status FROM insured_persons WHERE business_id = $1 AND ${where} ORDER BY id`,
    [biz, ...params],
  );
const person = async (id: number) => (await c.server.db.query<Person>('SELECT id, name, id_card, phone, job_type, auto_status FROM insured_persons WHERE id = $1', [id]))[0];
const firstIn = async (status: string, where = 'true') => (await persons(BIZ_ADMIN, `auto_status = '${status}' AND ${where}`))[0];
const key = () => `k-${Math.random().toString(36).slice(2)}`;

describe('automatic-insurance status of insured persons (spec §3)', () => {
  it('the demo data has persons in every status, each consistent with their information', async () => {
    const all = await persons(BIZ_ADMIN);
    const by = (s: string) => all.filter((p) => p.auto_status === s);
    for (const s of ['0', '1', '2', '3']) expect(by(s).length).toBeGreaterThan(0);
    const info = (p: Person) => ({ name: p.name, idCard: p.id_card, phone: p.phone, jobType: p.job_type });
    // Automatic insurance buys the day plans: their ages judge the information.
    const ages = await autoInsureAges(c.server.db);
    for (const p of by('0')) expect(missingInfo(info(p)).length).toBeGreaterThan(0);
    for (const p of [...by('1'), ...by('2')]) {
      expect(missingInfo(info(p))).toEqual([]);
      expect(infoProblem(info(p), today, ages)).toBeNull();
    }
    for (const p of by('3')) expect(infoProblem(info(p), today, ages)).toMatch(/不在该方案可投保年龄 18–60 岁之内/);
  });

  it('the list returns, filters and sorts by the status', async () => {
    const zero = await c.call('GET', '/api/insured-persons?autoStatus=0&pageSize=100');
    expect(zero.status).toBe(200);
    expect(zero.body.data.total).toBe((await persons(BIZ_ADMIN, "auto_status = '0'")).length);
    expect(zero.body.data.list.every((p: { autoStatus: string }) => p.autoStatus === '0')).toBe(true);
    const sorted = await c.call('GET', '/api/insured-persons?sortField=autoStatus&sortOrder=ascend&pageSize=100');
    const seen = sorted.body.data.list.map((p: { autoStatus: string }) => p.autoStatus);
    expect(seen).toEqual([...seen].sort());
  });
});

describe('person actions', () => {
  it('completing a 信息待完善 person stores the information and moves 0 → 1', async () => {
    const p = await firstIn('0', "phone = ''");
    const r = await c.call('PUT', `/api/insured-persons/${p.id}/info`, { body: { phone: '13912345678' } });
    expect(r.status).toBe(200);
    expect(r.body.data).toMatchObject({ id: p.id, autoStatus: '1', phone: '13912345678', missing: [] });
    expect(await person(p.id)).toMatchObject({ phone: '13912345678', auto_status: '1', name: p.name, id_card: p.id_card });
  });

  it('an edit that still leaves information missing keeps 0 and says what is missing', async () => {
    const p = await firstIn('0', "job_type = ''");
    const r = await c.call('PUT', `/api/insured-persons/${p.id}/info`, { body: { name: '王小明' } });
    expect(r.status).toBe(200);
    expect(r.body.data).toMatchObject({ autoStatus: '0', name: '王小明', missing: ['工种'] });
    expect(await person(p.id)).toMatchObject({ name: '王小明', auto_status: '0' });
  });

  it('correcting the ID number of a 投保信息有误 person moves 3 → 1', async () => {
    const p = await firstIn('3');
    const idCard = makeIdCard('310104', '19900101', 881);
    const r = await c.call('PUT', `/api/insured-persons/${p.id}/info`, { body: { idCard: idCard.toLowerCase() } });
    expect(r.status).toBe(200);
    expect(r.body.data.autoStatus).toBe('1');
    expect(await person(p.id)).toMatchObject({ id_card: idCard, auto_status: '1' });
  });

  it('stop 1 → 2, start 2 → 1; a refused move is a 409 in Chinese and changes nothing', async () => {
    const p = await firstIn('1');
    const stop = await c.call('POST', `/api/insured-persons/${p.id}/stop`);
    expect(stop.status).toBe(200);
    expect((await person(p.id)).auto_status).toBe('2');
    const again = await c.call('POST', `/api/insured-persons/${p.id}/stop`);
    expect(again.status).toBe(409);
    expect(again.body.message).toBe('该人员已停止自动投保');
    expect((await person(p.id)).auto_status).toBe('2');
    // Editing a stopped person never restarts it.
    const edit = await c.call('PUT', `/api/insured-persons/${p.id}/info`, { body: { jobType: '司机' } });
    expect(edit.body.data).toMatchObject({ autoStatus: '2', jobType: '司机' });
    const start = await c.call('POST', `/api/insured-persons/${p.id}/start`);
    expect(start.status).toBe(200);
    expect((await person(p.id)).auto_status).toBe('1');
    const twice = await c.call('POST', `/api/insured-persons/${p.id}/start`);
    expect(twice.status).toBe(409);
    expect(twice.body.message).toBe('该人员已在自动投保中');
  });

  it('start is refused for a person whose information is incomplete or incorrect', async () => {
    const p = await firstIn('0');
    const before = await person(p.id);
    const r = await c.call('POST', `/api/insured-persons/${p.id}/start`);
    expect(r.status).toBe(409);
    expect(r.body.message).toMatch(/^请先完善信息：/);
    expect(await person(p.id)).toEqual(before);
    const stop = await c.call('POST', `/api/insured-persons/${p.id}/stop`);
    expect(stop.status).toBe(409);
    expect(stop.body.message).toBe('该人员未在自动投保中，无需停止');
    expect(await person(p.id)).toEqual(before);
  });

  it('bad input: 400 with the entity rule messages on the right fields, nothing stored', async () => {
    const p = await firstIn('1');
    const before = await person(p.id);
    const r = await c.call('PUT', `/api/insured-persons/${p.id}/info`, { body: { name: '王', phone: '12345', idCard: '110101199001011234', autoStatus: '1' } });
    expect(r.status).toBe(400);
    expect(r.body.message).toBe('填写内容有误，请按提示修改');
    const byField = Object.fromEntries(r.body.errors.map((e: { field: string; message: string }) => [e.field, e.message]));
    expect(byField).toEqual({ name: '姓名至少 2 个字符', phone: '请输入正确的 11 位手机号', idCard: '身份证号不正确', autoStatus: '不支持的字段：autoStatus' });
    const typo = await c.call('PUT', `/api/insured-persons/${p.id}/info`, { body: { jobType: 7 } });
    expect(typo.body.errors).toEqual([{ field: 'jobType', message: '工种格式不正确' }]);
    const other = (await persons(BIZ_ADMIN, 'id <> $2', [p.id]))[0];
    const dup = await c.call('PUT', `/api/insured-persons/${p.id}/info`, { body: { idCard: other.id_card } });
    expect(dup.status).toBe(400);
    expect(dup.body.errors).toEqual([{ field: 'idCard', message: '身份证号已存在' }]);
    expect(await person(p.id)).toEqual(before);
    // Blank values are "not given": they keep what is stored (the masked ID number is not re-sent).
    const blank = await c.call('PUT', `/api/insured-persons/${p.id}/info`, { body: { name: '  ', idCard: '' } });
    expect(blank.status).toBe(200);
    expect(await person(p.id)).toEqual(before);
  });

  it("another business's person is not found and not changed; a business without the attendance pack is refused", async () => {
    const [theirs] = await persons(BIZ_OTHER);
    const before = await person(theirs.id);
    for (const [method, path] of [['POST', 'stop'], ['POST', 'start'], ['PUT', 'info']] as const) {
      const r = await c.call(method, `/api/insured-persons/${theirs.id}/${path}`, { body: { phone: '13900000000' } });
      expect(r.status).toBe(404);
      expect(r.body.message).toBe(`当前企业下不存在该参保人员（ID：${theirs.id}）`);
    }
    expect(await person(theirs.id)).toEqual(before);
    const [mine] = await persons(BIZ_OPERATOR);
    const denied = await c.call('POST', `/api/insured-persons/${mine.id}/stop`, { biz: BIZ_OPERATOR });
    expect(denied.status).toBe(403);
    expect(denied.body.message).toBe('当前企业未开通考勤服务包');
    expect(await person(mine.id)).toEqual(mine);
  });

  it('an Idempotency-Key replays the first answer instead of acting twice', async () => {
    const p = await firstIn('1');
    const k = key();
    const first = await c.call('POST', `/api/insured-persons/${p.id}/stop`, { headers: { 'idempotency-key': k } });
    const again = await c.call('POST', `/api/insured-persons/${p.id}/stop`, { headers: { 'idempotency-key': k } });
    expect(first.status).toBe(200);
    expect(again.status).toBe(200);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body).toEqual(first.body);
    expect((await person(p.id)).auto_status).toBe('2');
  });
});

describe('attendance insurance insures only persons in 自动投保中', () => {
  const PLAN = '灵活用工日单险（按天）';
  const count = async (sql: string, params: unknown[]) => (await c.server.db.query<{ n: number }>(`SELECT (${sql})::int AS n`, params))[0].n;

  it('skips stopped and incomplete persons, reports them by row, charges only the insured', async () => {
    const stopped = await firstIn('2');
    const fresh = { name: '赵新人', idCard: makeIdCard('440305', '19920202', 912), phone: '13600000001', jobType: '外卖骑手' };
    const noPhone = { name: '钱缺号', idCard: makeIdCard('440305', '19930303', 913), phone: '', jobType: '外卖骑手' };
    const rows = [
      { name: stopped.name, idCard: stopped.id_card, phone: stopped.phone, jobType: stopped.job_type },
      fresh,
      noPhone,
    ];
    const records = await count('SELECT count(*) FROM insure_records WHERE business_id = $1', [BIZ_ADMIN]);
    const r = await c.call('POST', '/api/insure/attendance', { body: { planName: PLAN, workDate: today, rows } });
    expect(r.status).toBe(200);
    const batchId = r.body.data.id;
    expect(r.body.data).toMatchObject({ total: 3, succeeded: 1, failed: 1 + 1 });
    expect(await count('SELECT count(*) FROM insure_records WHERE business_id = $1', [BIZ_ADMIN])).toBe(records + 1);
    expect(await count('SELECT count(*) FROM insure_records WHERE batch_id = $1 AND id_card = $2', [batchId, fresh.idCard])).toBe(1);
    expect(await count('SELECT person_count FROM orders WHERE batch_id = $1', [batchId])).toBe(1);
    expect((await persons(BIZ_ADMIN, 'id_card = $2', [fresh.idCard]))[0].auto_status).toBe('1');
    expect(await persons(BIZ_ADMIN, 'id_card = $2', [noPhone.idCard])).toEqual([]);
    expect((await person(stopped.id)).auto_status).toBe('2');
    const detail = await c.call('GET', `/api/insure-batches/${batchId}/rows`);
    expect(detail.body.data.list.map((x: { rowNo: number; result: string; error: string | null }) => [x.rowNo, x.result, x.error])).toEqual([
      [1, 'failed', '已停止自动投保，本次未投保'],
      [2, 'success', null],
      [3, 'failed', '信息待完善：缺少手机号，本次未投保'],
    ]);
  });

  it('refuses a submission where nobody can be insured, storing nothing', async () => {
    const stopped = await firstIn('2');
    const batches = await count('SELECT count(*) FROM insure_batches WHERE business_id = $1', [BIZ_ADMIN]);
    const r = await c.call('POST', '/api/insure/attendance', {
      body: { planName: PLAN, workDate: today, rows: [{ name: stopped.name, idCard: stopped.id_card, phone: stopped.phone, jobType: stopped.job_type }] },
    });
    expect(r.status).toBe(400);
    expect(r.body.message).toMatch(/没有可自动投保的人员/);
    expect(r.body.errors).toEqual([{ field: 'rows[0].idCard', message: `第 1 行 ${stopped.name}：已停止自动投保，本次未投保` }]);
    expect(await count('SELECT count(*) FROM insure_batches WHERE business_id = $1', [BIZ_ADMIN])).toBe(batches);
  });
});

describe('a roster sets the automatic-insurance status of the persons it registers', () => {
  it('a new person gets the status their information implies; an existing one is re-checked, a stopped one stays stopped', async () => {
    const plans = await c.call('GET', '/api/plans?unit=month');
    const planName = plans.body.data[0].value;
    const incomplete = await firstIn('0');
    const stopped = await firstIn('2');
    const complete = { name: '孙完整', idCard: makeIdCard('440305', '19940404', 914), phone: '13600000002', jobType: '快递员' };
    const noJob = { name: '周缺工种', idCard: makeIdCard('440305', '19950505', 915), phone: '13600000003', jobType: '' };
    const rows = [
      complete,
      noJob,
      { name: incomplete.name, idCard: incomplete.id_card, phone: incomplete.phone || '13600000004', jobType: incomplete.job_type || '装卸工' },
      { name: stopped.name, idCard: stopped.id_card, phone: stopped.phone, jobType: stopped.job_type },
    ];
    const r = await c.call('POST', '/api/insure/roster', { body: { planName, startDate: '2030-01-01', rows } });
    expect(r.status).toBe(200);
    const statusOf = async (card: string) => (await persons(BIZ_ADMIN, 'id_card = $2', [card]))[0].auto_status;
    expect(await statusOf(complete.idCard)).toBe('1');
    expect(await statusOf(noJob.idCard)).toBe('0');
    expect((await person(incomplete.id)).auto_status).toBe('1');
    expect((await person(stopped.id)).auto_status).toBe('2');
  });
});
