import { describe, expect, it } from 'vitest';
import { BIZ_ADMIN, BIZ_OPERATOR, BIZ_OTHER, makeIdCard, useGateway } from './helpers.ts';
import { isValidIdCard } from '../../src/server/util.ts';

const c = useGateway();

async function count(table: string, biz: string): Promise<number> {
  const rows = await c.server.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table} WHERE business_id = $1`, [biz]);
  return rows[0].n;
}

describe('id card validation', () => {
  it('accepts the ISO 7064 check digit and rejects others', () => {
    expect(isValidIdCard('11010519491231002X')).toBe(true);
    expect(isValidIdCard('110105194912310021')).toBe(false);
    expect(isValidIdCard(makeIdCard('310104', '19900230', 1))).toBe(false); // no Feb 30
    expect(isValidIdCard('11010519491231002')).toBe(false);
  });
});

describe('business scoping', () => {
  it('403 for a business the user does not belong to', async () => {
    const r = await c.call('GET', '/api/orders', { biz: BIZ_OTHER });
    expect(r.status).toBe(403);
    expect(r.body.code).toBe(40300);
    expect(r.body.message).toBe(`您无权访问企业 ${BIZ_OTHER}`);
    expect((await c.call('GET', '/api/orders/1', { biz: 'B99999' })).status).toBe(403);
  });

  it('never shows rows of another business', async () => {
    const a = await c.call('GET', '/api/orders?pageSize=100', { biz: BIZ_ADMIN });
    const b = await c.call('GET', '/api/orders?pageSize=100', { biz: BIZ_OPERATOR });
    expect(a.body.data.total).toBe(await count('orders', BIZ_ADMIN));
    expect(b.body.data.total).toBe(await count('orders', BIZ_OPERATOR));
    const aIds = new Set(a.body.data.list.map((r: any) => r.id));
    for (const row of b.body.data.list) expect(aIds.has(row.id)).toBe(false);
    // Detail of a B row is 404 when asked as A.
    const bId = b.body.data.list[0].id;
    expect((await c.call('GET', `/api/orders/${bId}`, { biz: BIZ_ADMIN })).status).toBe(404);
    expect((await c.call('GET', `/api/orders/${bId}`, { biz: BIZ_OPERATOR })).status).toBe(200);
  });
});

describe('lists', () => {
  it('paginates with correct totals', async () => {
    const total = await count('insured_persons', BIZ_ADMIN);
    const p1 = await c.call('GET', '/api/insured-persons?current=1&pageSize=25');
    const p3 = await c.call('GET', '/api/insured-persons?current=3&pageSize=25');
    expect(p1.body.data).toMatchObject({ total, current: 1, pageSize: 25 });
    expect(p1.body.data.list).toHaveLength(25);
    expect(p3.body.data.list).toHaveLength(total - 50);
    expect((await c.call('GET', '/api/insured-persons?pageSize=1000')).body.data.pageSize).toBe(100);
  });

  it('masks id cards and account numbers', async () => {
    const p = await c.call('GET', '/api/insured-persons?pageSize=1');
    expect(p.body.data.list[0].idCard).toMatch(/^\d{6}\*{8}[\dX]{4}$/);
    const b = await c.call('GET', '/api/bank-accounts');
    expect(b.body.data.list[0].accountNo).toMatch(/^\d{4} \*{4} \*{4} \d{4}$/);
  });

  it('filters by enum, by exact order number and by substring, ignoring unknown keys', async () => {
    const paid = await c.call('GET', '/api/orders?pageSize=100&payStatus=paid&bogus=1');
    const [{ n }] = await c.server.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM orders WHERE business_id = $1 AND pay_status = 'paid'`,
      [BIZ_ADMIN],
    );
    expect(paid.body.data.total).toBe(n);
    expect(paid.body.data.list.every((r: any) => r.payStatus === 'paid')).toBe(true);
    // Order numbers are unique keys: the full number finds its order (index lookup), a fragment nothing.
    const one = paid.body.data.list[0];
    const exact = await c.call('GET', `/api/orders?orderNo=${one.orderNo}`);
    expect(exact.body.data.list.map((r: any) => r.id)).toEqual([one.id]);
    expect((await c.call('GET', `/api/orders?orderNo=${one.orderNo.slice(-6)}`)).body.data.total).toBe(0);
    // Product names are a contains-search; LIKE wildcards in user input are literal.
    const word = one.productName.slice(0, 3);
    const sub = await c.call('GET', `/api/orders?pageSize=100&productName=${encodeURIComponent(word)}`);
    expect(sub.body.data.total).toBeGreaterThan(0);
    expect(sub.body.data.list.every((r: any) => r.productName.includes(word))).toBe(true);
    expect((await c.call('GET', '/api/orders?productName=%25')).body.data.total).toBe(0);
  });

  it('filters masked ID numbers by the complete number only', async () => {
    const [p] = await c.server.db.query<{ id: number; id_card: string }>(
      'SELECT id, id_card FROM insured_persons WHERE business_id = $1 ORDER BY id LIMIT 1',
      [BIZ_ADMIN],
    );
    const full = await c.call('GET', `/api/insured-persons?idCard=${p.id_card.toLowerCase()}`);
    expect(full.body.data.list.map((r: any) => r.id)).toEqual([p.id]);
    const part = await c.call('GET', `/api/insured-persons?idCard=${p.id_card.slice(0, 6)}`);
    expect(part.status).toBe(400);
    expect(part.body).toMatchObject({ code: 40000, message: '身份证号仅支持完整号码精确查询', errors: [{ field: 'idCard', message: '身份证号仅支持完整号码精确查询' }] });
  });

  it('filters by date range (createdAt=from,to or the older createdAtRange=from,to)', async () => {
    const all = await c.call('GET', '/api/orders?pageSize=100&sortField=createdAt&sortOrder=ascend');
    const mid = all.body.data.list[Math.floor(all.body.data.list.length / 2)].createdAt.slice(0, 10);
    const r = await c.call('GET', `/api/orders?pageSize=100&createdAtRange=${mid},${mid}`);
    expect(r.body.data.total).toBeGreaterThan(0);
    expect(r.body.data.list.every((o: any) => o.createdAt.startsWith(mid))).toBe(true);
    const same = await c.call('GET', `/api/orders?pageSize=100&createdAt=${mid},${mid}`);
    expect(same.body.data.list).toEqual(r.body.data.list);
    const bad = await c.call('GET', '/api/orders?createdAtRange=yesterday,');
    expect(bad.status).toBe(400);
    const rangeMsg = '“创建时间”的日期范围格式不正确，应为“开始日期,结束日期”，如 2024-01-01,2024-01-31';
    expect(bad.body).toMatchObject({ message: rangeMsg, errors: [{ field: 'createdAtRange', message: rangeMsg }] });
  });

  it('sorts by sortable fields only; anything else is a 400, never SQL', async () => {
    const asc = await c.call('GET', '/api/orders?pageSize=100&sortField=amount&sortOrder=ascend');
    const amounts = asc.body.data.list.map((r: any) => r.amount);
    expect(amounts).toEqual([...amounts].sort((x, y) => x - y));
    const desc = await c.call('GET', '/api/orders?pageSize=100&sortField=amount&sortOrder=descend');
    expect(desc.body.data.list[0].amount).toBe(Math.max(...amounts));
    const notSortable = await c.call('GET', '/api/orders?sortField=productName');
    expect(notSortable.status).toBe(400);
    expect(notSortable.body).toMatchObject({ code: 40000, message: '不支持按“保险方案”排序', errors: [{ field: 'sortField' }] });
    const evil = await c.call('GET', `/api/orders?sortField=${encodeURIComponent('amount; DROP TABLE orders')}`);
    expect(evil.status).toBe(400);
    expect(evil.body.message).toBe('不支持按“amount; DROP TABLE orders”排序');
    expect(await count('orders', BIZ_ADMIN)).toBeGreaterThan(0);
  });

  it('returns details and 404 for unknown ids', async () => {
    const list = await c.call('GET', '/api/claims?pageSize=1');
    const id = list.body.data.list[0].id;
    const d = await c.call('GET', `/api/claims/${id}`);
    expect(d.body.data.claimNo).toBe(list.body.data.list[0].claimNo);
    const missing = await c.call('GET', '/api/claims/999999');
    expect(missing.status).toBe(404);
    expect(missing.body.code).toBe(40400);
    expect(missing.body.message).toBe('当前企业下不存在该理赔申请（ID：999999）');
    // An id that is no record number is bad input (input-shape.ts); the browser shows 未找到 for both.
    const notAnId = await c.call('GET', '/api/claims/abc');
    expect(notAnId.status).toBe(400);
    expect(notAnId.body.errors).toEqual([{ field: 'id', message: '编号应为不以 0 开头的正整数' }]);
  });

  it('returns the overview numbers', async () => {
    const r = await c.call('GET', '/api/overview');
    expect(Object.keys(r.body.data).sort()).toEqual(
      ['balance', 'insuredCount', 'monthPremium', 'openClaims', 'pendingCount', 'unpaidOrders'].sort(),
    );
    expect(r.body.data.insuredCount).toBeGreaterThan(0);
  });
});

describe('writes', () => {
  const plan = '雇主责任险·标准版（60万）';

  it('roster with one bad id card → 400 with row errors and nothing stored', async () => {
    const before = {
      persons: await count('insured_persons', BIZ_ADMIN),
      records: await count('insure_records', BIZ_ADMIN),
      batches: await count('insure_batches', BIZ_ADMIN),
      orders: await count('orders', BIZ_ADMIN),
    };
    const good = makeIdCard('330106', '19920315', 101);
    const badCard = good.slice(0, 17) + (good[17] === '0' ? '1' : '0');
    const r = await c.call('POST', '/api/insure/roster', {
      body: {
        planName: plan,
        startDate: '2030-01-01',
        rows: [
          { name: '赵一鸣', idCard: good, phone: '13912345678', jobType: '快递员' },
          { name: '钱二多', idCard: badCard, phone: '13912345679', jobType: '装卸工' },
        ],
      },
    });
    expect(r.status).toBe(400);
    expect(r.body.code).toBe(40000);
    expect(r.body.message).toBe('名单中有数据不正确，本批次未提交，请修改后重新提交');
    // The entity rule's own text (the browser's summary adds 「第 2 行 身份证号」 from the field path).
    expect(r.body.errors).toEqual([{ field: 'rows[1].idCard', message: '身份证号不正确' }]);
    expect({
      persons: await count('insured_persons', BIZ_ADMIN),
      records: await count('insure_records', BIZ_ADMIN),
      batches: await count('insure_batches', BIZ_ADMIN),
      orders: await count('orders', BIZ_ADMIN),
    }).toEqual(before);
  });

  it('a roster of 1,200 rows (checked in slices) with one bad id card → the same 400 for its row, nothing stored', async () => {
    const counts = async () => Promise.all(['insured_persons', 'insure_records', 'insure_batches', 'orders'].map((t) => count(t, BIZ_ADMIN)));
    const before = await counts();
    const rows = Array.from({ length: 1200 }, (_, i) => ({ name: '李长卷', idCard: makeIdCard('330106', `${1970 + Math.floor(i / 100)}0101`, i % 100), phone: '13912345678', jobType: '快递员' }));
    rows[1100].idCard = rows[1100].idCard.slice(0, 17) + (rows[1100].idCard[17] === '0' ? '1' : '0');
    const r = await c.call('POST', '/api/insure/roster', { body: { planName: plan, startDate: '2030-01-01', rows } });
    expect(r.status).toBe(400);
    expect(r.body.message).toBe('名单中有数据不正确，本批次未提交，请修改后重新提交');
    expect(r.body.errors).toEqual([{ field: 'rows[1100].idCard', message: '身份证号不正确' }]);
    expect(await counts()).toEqual(before);
  });

  it('valid roster creates a batch and records', async () => {
    const records = await count('insure_records', BIZ_ADMIN);
    const rows = [1, 2, 3].map((i) => ({
      name: `测试员${i}`,
      idCard: makeIdCard('310104', '19880101', 200 + i),
      phone: `1370000000${i}`,
      jobType: '仓库分拣员',
    }));
    const r = await c.call('POST', '/api/insure/roster', { body: { planName: plan, startDate: '2030-01-01', rows } });
    expect(r.status).toBe(200);
    expect(r.body.data).toMatchObject({ source: 'roster', total: 3, succeeded: 3, failed: 0, status: 'done' });
    expect(await count('insure_records', BIZ_ADMIN)).toBe(records + 3);
    const recs = await c.call('GET', `/api/insure-records?batchNo=${r.body.data.batchNo}`);
    expect(recs.body.data.total).toBe(3);
    expect(recs.body.data.list[0].premium).toBe(540);
    const batch = await c.call('GET', `/api/insure-batches/${r.body.data.id}`);
    expect(batch.body.data.batchNo).toBe(r.body.data.batchNo);
  });

  it('lists the plans on sale by pricing unit and refuses a plan that is not on sale', async () => {
    const monthly = await c.call('GET', '/api/plans?unit=month');
    expect(monthly.status).toBe(200);
    const names = monthly.body.data.map((p: { value: string }) => p.value);
    expect(names).toContain(plan);
    expect(names).not.toContain('灵活用工日单险（按天）');
    expect(monthly.body.data.find((p: { value: string }) => p.value === plan)).toMatchObject({ unit: 'month', price: 45 });

    const batches = await count('insure_batches', BIZ_ADMIN);
    const rows = [{ name: '周一', idCard: makeIdCard('310104', '19880101', 301), phone: '13700000011', jobType: '仓库分拣员' }];
    const unknown = await c.call('POST', '/api/insure/roster', { body: { planName: '不存在的方案', startDate: '2030-01-01', rows } });
    expect(unknown.status).toBe(400);
    expect(unknown.body.errors).toEqual([{ field: 'planName', message: '该保险方案不存在或已停售' }]);
    const monthlyForRoster = await c.call('POST', '/api/insure/roster', { body: { planName: '灵活用工日单险（按天）', startDate: '2030-01-01', rows } });
    expect(monthlyForRoster.body.errors).toEqual([{ field: 'planName', message: '请选择按月计费的保险方案' }]);
    const daily = await c.call('POST', '/api/insure/attendance', { body: { planName: plan, workDate: '2030-01-02', rows } });
    expect(daily.status).toBe(400);
    expect(daily.body.errors).toEqual([{ field: 'planName', message: '请选择按天计费的保险方案' }]);
    expect(await count('insure_batches', BIZ_ADMIN)).toBe(batches);
  });

  it('attendance needs the attendance pack', async () => {
    const body = {
      planName: '灵活用工日单险（按天）',
      workDate: '2030-01-02',
      rows: [{ name: '孙小明', idCard: makeIdCard('440305', '19950505', 7), phone: '13700000012', jobType: '外卖骑手' }],
    };
    const denied = await c.call('POST', '/api/insure/attendance', { body, biz: BIZ_OPERATOR });
    expect(denied.status).toBe(403);
    expect(denied.body.message).toBe('当前企业未开通考勤服务包');
    const ok = await c.call('POST', '/api/insure/attendance', { body, biz: BIZ_ADMIN });
    expect(ok.status).toBe(200);
    expect(ok.body.data.source).toBe('attendance');
  });

  it('operator cannot add or delete bank accounts; admin can', async () => {
    const acct = { accountName: '杭州云帆物流有限公司', bankName: '招商银行', accountNo: '6214 8302 9999 1234', branch: '杭州分行', isDefault: false };
    const before = await count('bank_accounts', BIZ_OPERATOR);
    const denied = await c.call('POST', '/api/bank-accounts', { body: acct, biz: BIZ_OPERATOR });
    expect(denied.status).toBe(403);
    expect(denied.body.message).toBe('仅企业管理员可操作');
    expect(await count('bank_accounts', BIZ_OPERATOR)).toBe(before);
    expect((await c.call('DELETE', '/api/bank-accounts/1', { biz: BIZ_OPERATOR })).status).toBe(403);

    const made = await c.call('POST', '/api/bank-accounts', { body: { ...acct, accountName: '上海鑫达人力资源有限公司', isDefault: true }, biz: BIZ_ADMIN });
    expect(made.status).toBe(200);
    expect(made.body.data.accountNo).toBe('6214 **** **** 1234');
    const list = await c.call('GET', '/api/bank-accounts?isDefault=true');
    expect(list.body.data.list.map((a: any) => a.id)).toEqual([made.body.data.id]);
    const del = await c.call('DELETE', `/api/bank-accounts/${made.body.data.id}`);
    expect(del.status).toBe(200);
    const gone = await c.call('DELETE', `/api/bank-accounts/${made.body.data.id}`);
    expect(gone.status).toBe(404);
    expect(gone.body.message).toBe('银行账户不存在');
    const bad = await c.call('POST', '/api/bank-accounts', { body: { ...acct, accountNo: 'abc' } });
    expect(bad.status).toBe(400);
    expect(bad.body.errors).toEqual([{ field: 'accountNo', message: '银行账号应为 8–30 位数字' }]);
  });

  it('creates claims and invoices with validation', async () => {
    const before0 = await count('claims', BIZ_ADMIN);
    const bad = await c.call('POST', '/api/claims', { body: { personName: '周', idCard: '123', accidentDate: '2099-01-01', amount: -1, status: 'paid' } });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toBe('填写内容有误，请按提示修改');
    // The claim entity's rules and messages (schemas/entities/claim.json), the same the browser's form shows.
    expect(Object.fromEntries(bad.body.errors.map((e: any) => [e.field, e.message]))).toEqual({
      personName: '出险人至少 2 个字符',
      idCard: '身份证号不正确',
      accidentDate: '出险日期不能晚于今天',
      accidentType: '请选择事故类型',
      description: '请填写事故经过',
      amount: '申请金额不能小于 0.01',
      status: '不支持的字段：status',
    });
    expect(await count('claims', BIZ_ADMIN)).toBe(before0);
    const wrongType = await c.call('POST', '/api/claims', {
      body: { personName: '周建国', idCard: makeIdCard('110101', '19800808', 9), accidentDate: '2024-05-01', accidentType: '摔伤', description: '仓库摔倒', amount: 1 },
    });
    expect(wrongType.body.errors).toEqual([{ field: 'accidentType', message: '请选择正确的事故类型' }]);
    // Someone never insured here cannot claim (cover is checked), however plausible the input.
    const stranger = await c.call('POST', '/api/claims', {
      body: { personName: '周建国', idCard: makeIdCard('110101', '19800808', 9), accidentDate: '2024-05-01', accidentType: '意外伤害', description: '仓库摔倒', amount: 1234.5 },
    });
    expect(stranger.status).toBe(400);
    expect(stranger.body.message).toBe('该人员在本企业无有效保单');
    // A person with effective cover today claims within it; what was stored is what was asked.
    const [rec] = await c.server.db.query<{ person_name: string; id_card: string }>(
      `SELECT person_name, id_card FROM insure_records WHERE business_id = $1 AND cover_event IS NULL
         AND effective_date <= CURRENT_DATE AND expiry_date >= CURRENT_DATE ORDER BY id LIMIT 1`,
      [BIZ_ADMIN],
    );
    const day = new Date().toISOString().slice(0, 10);
    const before = await count('claims', BIZ_ADMIN);
    const ok = await c.call('POST', '/api/claims', {
      body: { personName: rec.person_name, idCard: rec.id_card.toLowerCase(), accidentDate: day, accidentType: '意外伤害', description: '仓库摔倒', amount: 1234.5 },
    });
    expect(ok.status).toBe(200);
    expect(ok.body.data).toMatchObject({ status: 'reported', amount: 1234.5, accidentDate: day, accidentType: '意外伤害' });
    const [stored] = await c.server.db.query<{ id_card: string; amount_cents: number }>('SELECT id_card, amount_cents::int AS amount_cents FROM claims WHERE id = $1', [ok.body.data.id]);
    expect(stored).toEqual({ id_card: rec.id_card.toUpperCase(), amount_cents: 123450 });
    expect(await count('claims', BIZ_ADMIN)).toBe(before + 1);

    const inv = await c.call('POST', '/api/invoices', {
      body: { title: '上海鑫达人力资源有限公司', taxNo: '91310104MA1FL2XK3P', type: 'normal', orderNos: ['NO-SUCH-ORDER'], email: 'a@b.cn' },
    });
    expect(inv.status).toBe(400);
    expect(inv.body.message).toBe('订单 NO-SUCH-ORDER 不存在');
    expect(inv.body.errors).toEqual([{ field: 'orderNos', message: '订单 NO-SUCH-ORDER 不存在' }]);
    const badInv = await c.call('POST', '/api/invoices', { body: { title: '上', taxNo: 'abc', type: 'vat', orderNos: [], email: 'x' } });
    expect(badInv.status).toBe(400);
    expect(Object.fromEntries(badInv.body.errors.map((e: any) => [e.field, e.message]))).toEqual({
      title: '发票抬头至少 2 个字符',
      taxNo: '税号应为 15–20 位字母或数字',
      type: '请选择正确的发票类型',
      email: '请输入正确的邮箱地址',
      orderNos: '请至少选择 1 项开票订单',
    });
    const badRefund = await c.call('POST', '/api/invoice-refunds', { body: { invoiceNo: 'FP1', amount: 0.001, reason: '' } });
    expect(Object.fromEntries(badRefund.body.errors.map((e: any) => [e.field, e.message]))).toEqual({
      amount: '退票金额不能小于 0.01',
      reason: '请填写退票原因',
    });
  });

  it('invalid JSON → 400, oversize → 413, unknown api → 404', async () => {
    const r = await c.call('POST', '/api/claims', { raw: '{"personName": ' });
    expect(r.status).toBe(400);
    expect(r.body.message).toBe('请求体不是有效的 JSON');
    const big = await c.call('POST', '/api/claims', { raw: JSON.stringify({ description: 'x'.repeat(1024 * 1024 + 10) }) });
    expect(big.status).toBe(413);
    expect(big.body).toEqual({ code: 41300, message: '请求内容过大（上限 1 MB）' });
    const nf = await c.call('GET', '/api/does-not-exist');
    expect(nf.status).toBe(404);
    expect(nf.body.code).toBe(40400);
    expect(nf.body.message).toBe('接口不存在：GET /api/does-not-exist');
  });
});
