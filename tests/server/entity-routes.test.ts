import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { Db } from '../../src/server/db.ts';
import { buildEntityRegistry } from '../../src/shared/entity/registry.ts';
import { checkField } from '../../src/shared/entity/rules.ts';
import { loadSchemaFiles } from '../../src/schema/load-node.ts';
import { resolveDetail, resolveForm, resolveTable } from '../../src/schema/resolve.ts';
import type { DetailSchemaFile, FormSchemaFile, TableSchemaFile } from '../../src/schema/types.ts';
import { fieldValidator } from '../../src/runtime/formSchema.ts';
import { loadEntities } from '../../src/server/entity/load.ts';
import { insertRow } from '../../src/server/entity/write.ts';
import { defaultHooks } from '../../src/server/hooks/index.ts';
import Fastify from 'fastify';
import { entityRoutes } from '../../src/server/entity/routes.ts';
import { buildApp, openTestDb, testAuth } from './entity-helpers.ts';

const ROOT = resolve(__dirname, '../..');
const registry = buildEntityRegistry(loadSchemaFiles(ROOT).files);

type Inject = (method: string, url: string, body?: unknown, biz?: string, userType?: string) => Promise<{ status: number; body: any }>;
function client(app: FastifyInstance): Inject {
  return async (method, url, body, biz = 'B1', userType = 'admin') => {
    const r = await app.inject({ method: method as 'GET', url, payload: body as object, headers: { 'x-test-business': biz, 'x-test-user-type': userType } });
    return { status: r.statusCode, body: r.json() };
  };
}

describe('entity routes on a bare Fastify', () => {
  let db: Db;
  let app: FastifyInstance;
  let call: Inject;
  const order = registry.get('order');

  beforeAll(async () => {
    db = await openTestDb();
    app = await buildApp(db, registry, defaultHooks());
    call = client(app);
    for (let i = 1; i <= 25; i++) {
      await insertRow(db, order, i % 5 === 0 ? 'B2' : 'B1', {
        productName: i % 2 ? '雇主责任险·标准版' : '团体意外险_基础版',
        personCount: i,
        amount: i * 10.5,
        payStatus: i % 3 ? 'paid' : 'unpaid',
        orderStatus: 'completed',
      });
    }
    await insertRow(db, registry.get('insured-person'), 'B1', { name: '王小明', idCard: '11010519491231002X', phone: '13800000000', status: 'insured', planName: 'A', startDate: '2024-03-01' });
  }, 60_000);
  afterAll(async () => {
    await app.close();
    await db.close();
  });

  it('lists a business page with envelope, default sort, paging and scope', async () => {
    const r = await call('GET', '/api/orders?pageSize=7&current=2');
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ code: 0, message: 'ok', data: { total: 20, current: 2, pageSize: 7 } });
    expect(r.body.data.list).toHaveLength(7);
    expect(r.body.data.list[0]).toMatchObject({ payStatus: expect.any(String), amount: expect.any(Number), createdAt: expect.stringMatching(/Z$/) });
    expect((await call('GET', '/api/orders?pageSize=1000')).body.data.pageSize).toBe(100);
    expect((await call('GET', '/api/orders', undefined, 'B2')).body.data.total).toBe(5);
  });

  it('filters exact, contains (escaped), range and sorts only on sort fields', async () => {
    const unpaid = await call('GET', '/api/orders?payStatus=unpaid&pageSize=100');
    expect(unpaid.body.data.list.every((o: any) => o.payStatus === 'unpaid')).toBe(true);
    expect(unpaid.body.data.total).toBe(7);
    // '险_' must match the literal underscore only (unescaped, '_' would also match '险·').
    expect((await call('GET', `/api/orders?productName=${encodeURIComponent('险_')}`)).body.data.total).toBe(10);
    expect((await call('GET', `/api/orders?productName=${encodeURIComponent('险')}`)).body.data.total).toBe(20);
    expect((await call('GET', '/api/orders?productName=%25')).body.data.total).toBe(0);
    const today = new Date().toISOString().slice(0, 10);
    expect((await call('GET', `/api/orders?createdAt=${today},${today}`)).body.data.total).toBe(20);
    expect((await call('GET', '/api/orders?createdAt=2000-01-01,2000-12-31')).body.data.total).toBe(0);
    expect((await call('GET', `/api/orders?createdAtRange=${today},`)).body.data.total).toBe(20);
    // 'amount' is sortable but not searchable: the parameter is not a filter.
    expect((await call('GET', '/api/orders?amount=1')).body.data.total).toBe(20);
    const sorted = await call('GET', '/api/orders?sortField=amount&sortOrder=ascend&pageSize=3');
    expect(sorted.body.data.list.map((o: any) => o.amount)).toEqual([10.5, 21, 31.5]);
    const badSort = await call('GET', '/api/orders?sortField=productName');
    expect(badSort.status).toBe(400);
    expect(badSort.body.message).toBe('不支持按“保险方案”排序');
    const badEnum = await call('GET', '/api/orders?payStatus=lost');
    expect(badEnum.body).toMatchObject({ code: 40000, message: '筛选条件“支付状态”的取值 lost 无效' });
    const badRange = await call('GET', '/api/orders?createdAt=2024-13-01,');
    expect(badRange.body.message).toContain('日期范围格式不正确');
  });

  it('masks ID numbers; masked fields filter only by the exact full value', async () => {
    const r = await call('GET', '/api/insured-persons');
    expect(r.body.data.list[0].idCard).toBe('110105********002X');
    const part = await call('GET', '/api/insured-persons?idCard=110105');
    expect(part.status).toBe(400);
    expect(part.body.message).toBe('身份证号仅支持完整号码精确查询');
    expect((await call('GET', '/api/insured-persons?idCard=11010519491231002x')).body.data.total).toBe(1);
  });

  it('reads a detail within the business, 404 in Chinese otherwise', async () => {
    const first = (await call('GET', '/api/orders?pageSize=1')).body.data.list[0];
    expect((await call('GET', `/api/orders/${first.id}`)).body.data).toEqual(first);
    const other = await call('GET', `/api/orders/${first.id}`, undefined, 'B2');
    expect(other.status).toBe(404);
    expect(other.body).toEqual({ code: 40400, message: `当前企业下不存在该订单（ID：${first.id}）` });
    expect((await call('GET', '/api/orders/abc')).status).toBe(404);
  });

  it('registers writes only where operations allow', async () => {
    expect((await call('POST', '/api/orders', { productName: 'x' })).status).toBe(404);
    expect((await call('DELETE', '/api/claims/1')).status).toBe(404);
  });

  it('registers no writes for entities whose writes are code routes (codeWrites)', async () => {
    const own = Fastify();
    await own.register(testAuth);
    await own.register(entityRoutes, { db, entities: registry, hooks: defaultHooks(), codeWrites: ['claim', 'bank-account'] });
    await own.ready();
    try {
      const c = client(own);
      expect((await c('POST', '/api/claims', { personName: '张三' })).status).toBe(404);
      expect((await c('DELETE', '/api/bank-accounts/1')).status).toBe(404);
      expect((await c('GET', '/api/claims')).status).toBe(200);
      expect((await c('GET', '/api/bank-accounts')).status).toBe(200);
    } finally {
      await own.close();
    }
  });

  it('creates a claim with server-set number/status and refuses bad input in Chinese, per field', async () => {
    const ok = await call('POST', '/api/claims', {
      personName: ' 张三 ', idCard: '11010519491231002x', accidentDate: '2024-01-02', accidentType: '其他', description: '摔伤', amount: 12.5,
    });
    expect(ok.status).toBe(200);
    expect(ok.body.data).toMatchObject({ personName: '张三', status: 'reported', amount: 12.5, idCard: '110105********002X', claimNo: expect.stringMatching(/^LP\d{8}(\d{5}|[1-9]\d{5,10})$/) });
    const bad = await call('POST', '/api/claims', { personName: '张', idCard: '123', accidentDate: '9999-12-31', amount: 1.234, description: '', status: 'paid' });
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe(40000);
    expect(bad.body.message).toBe('填写内容有误，请按提示修改');
    const byField = Object.fromEntries(bad.body.errors.map((e: any) => [e.field, e.message]));
    expect(byField).toEqual({
      personName: '出险人至少 2 个字符',
      idCard: '身份证号不正确',
      accidentDate: '出险日期格式不正确',
      accidentType: '请选择事故类型',
      description: '请填写事故经过',
      amount: '申请金额最多保留 2 位小数',
      status: '不支持的字段：status',
    });
    const claim = registry.get('claim').fields;
    expect(byField.personName).toBe(checkField(claim.personName, '张'));
    expect(byField.accidentDate).toBe(checkField(claim.accidentDate, '9999-12-31'));
  });

  it('bank-account hook: admins only; the first account becomes default; deleting the default promotes the next', async () => {
    const acct = { accountName: '测试企业', bankName: '招商银行', accountNo: '6214 8302 1234 5678' };
    expect((await call('POST', '/api/bank-accounts', acct, 'B1', 'operator')).body).toEqual({ code: 40300, message: '仅企业管理员可操作' });
    const a = await call('POST', '/api/bank-accounts', acct);
    expect(a.body.data).toMatchObject({ isDefault: true, accountNo: '6214 **** **** 5678' });
    const b = await call('POST', '/api/bank-accounts', { ...acct, accountNo: '6222021001122334455', isDefault: false });
    expect(b.body.data.isDefault).toBe(false);
    expect((await call('DELETE', `/api/bank-accounts/${a.body.data.id}`)).body).toEqual({ code: 0, data: {}, message: 'ok' });
    expect((await call('GET', `/api/bank-accounts/${b.body.data.id}`)).body.data.isDefault).toBe(true);
    const wrong = await call('POST', '/api/bank-accounts', { ...acct, accountNo: '12ab', isDefault: 'yes' });
    expect(wrong.body.errors).toEqual([
      { field: 'accountNo', message: '银行账号应为 8–30 位数字' },
      { field: 'isDefault', message: '“设为默认账户”的取值无效' },
    ]);
  });
});

describe('configurator: a field added to an entity file reaches the database, API and pages with no code change', () => {
  let dir: string;
  let db: Db;
  let app: FastifyInstance;

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'entity-config-'));
    cpSync(join(ROOT, 'schemas'), join(dir, 'schemas'), { recursive: true });
    const file = join(dir, 'schemas/entities/insured-person.json');
    const e = JSON.parse(readFileSync(file, 'utf8'));
    e.fields.employeeNo = { type: 'string', label: '工号', maxLength: 20, search: 'contains' };
    // Only a schema switch: let this copy accept single-person creation, to store a value through the API.
    e.operations.create = true;
    writeFileSync(file, JSON.stringify(e, null, 2));
  });
  afterAll(async () => {
    await app?.close();
    await db?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('column, API, filter, table column + search, form input + rule, detail, same refusal text', async () => {
    const { registry: reg, files, migrationsDir } = loadEntities(dir);
    db = await openTestDb();
    app = await buildApp(db, reg, defaultHooks(), migrationsDir);
    const call = client(app);

    const cols = await db.query<{ column_name: string }>(`SELECT column_name FROM information_schema.columns WHERE table_name = 'insured_persons'`);
    expect(cols.map((c) => c.column_name)).toContain('employee_no');

    const created = await call('POST', '/api/insured-persons', { name: '赵六', idCard: '11010519491231002X', employeeNo: 'E-0042' });
    expect(created.status).toBe(200);
    expect(created.body.data.employeeNo).toBe('E-0042');
    expect((await call('GET', `/api/insured-persons/${created.body.data.id}`)).body.data.employeeNo).toBe('E-0042');
    const found = await call('GET', '/api/insured-persons?employeeNo=0042');
    expect(found.body.data.list.map((p: any) => p.employeeNo)).toEqual(['E-0042']);
    expect((await call('GET', '/api/insured-persons?employeeNo=9999')).body.data.total).toBe(0);

    const table = resolveTable(files['schemas/tables/insured-persons.json'] as TableSchemaFile, reg);
    expect(table.columns.find((c) => c.dataIndex === 'employeeNo')).toMatchObject({ title: '工号', valueType: 'text', search: true });

    const form = resolveForm(files['schemas/forms/insure-roster.json'] as FormSchemaFile, reg);
    const cell = form.fields.find((f) => f.name === 'rows')!.columns!.find((c) => c.name === 'employeeNo')!;
    expect(cell).toMatchObject({ title: '工号', type: 'string' });

    const detail = resolveDetail({ id: 'insured-person', title: '人员详情', entity: 'insured-person', sections: [{ title: '基本信息', fields: ['name', '*'] }] } as DetailSchemaFile, reg);
    expect(detail.api).toBe('/api/insured-persons/:id');
    expect(detail.sections[0].fields.find((f) => f.dataIndex === 'employeeNo')).toMatchObject({ label: '工号', valueType: 'text' });

    const tooLong = 'E'.repeat(21);
    const message = '工号不能超过 20 个字符';
    expect(checkField(reg.get('insured-person').fields.employeeNo, tooLong)).toBe(message);
    expect(fieldValidator(cell)(tooLong)).toBe(message);
    const refused = await call('POST', '/api/insured-persons', { name: '钱七', idCard: '11010519491231002X', employeeNo: tooLong });
    expect(refused.status).toBe(400);
    expect(refused.body.errors).toEqual([{ field: 'employeeNo', message }]);
  });
});
