import ExcelJS from 'exceljs';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { balanceCents, count, getBytes, makeIdCard, monthPlan, previewRows, rosterXlsx, START, upload, useUploadGateway, waitConfirmed, waitParsed } from './upload-helpers.ts';

const c = useUploadGateway();
let plan: string;
beforeAll(async () => {
  plan = await monthPlan(c);
});

const id = (seq: number) => makeIdCard('320102', '19880512', seq);

describe('roster template', () => {
  it('is an .xlsx attachment with the schema headers, an example row and notes', async () => {
    const r = await getBytes(c, '/api/insure-uploads/template');
    expect(r.status).toBe(200);
    expect(r.headers.get('content-disposition')).toMatch(/^attachment;/);
    expect(r.headers.get('content-type')).toContain('spreadsheetml');
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(r.bytes as unknown as ArrayBuffer);
    const ws = wb.worksheets[0];
    expect((ws.getRow(1).values as string[]).slice(1)).toEqual(['*姓名', '*身份证号', '手机号', '工种']);
    expect(ws.getCell(2, 1).value).toBe('张三');
    expect(String(ws.getCell(1, 2).note)).toContain('18 位');
    expect(wb.getWorksheet('填写说明')).toBeTruthy();
  });
});

describe('upload → preview → confirm', () => {
  let uploadId: number;
  let bytes: Buffer;

  it('stores the file, parses it in the background and previews valid, bad and duplicate rows with the quote', async () => {
    bytes = await rosterXlsx([
      ['王小明', id(1), '13900000001', '普工'],
      ['李小红', id(2), '13900000002', '焊工'],
      ['赵大力', `${id(3).slice(0, 17)}${id(3).endsWith('1') ? '2' : '1'}`, '13900000003', ''],
      ['钱多多', id(1), '', ''],
      ['孙悟空', id(4), '1390000', '司机'],
    ]);
    const before = await count(c, 'SELECT 1 FROM insure_batches');
    const r = await upload(c, { name: '一月名单.xlsx', bytes }, { planName: plan, startDate: START() });
    expect(r.status).toBe(202);
    expect(r.body.data).toMatchObject({ status: 'parsing', fileName: '一月名单.xlsx', planName: plan });
    uploadId = r.body.data.id;

    // Asked with waitMs, as the page asks, the status is held until the upload's view changes.
    const views = [r.body.data];
    while (views.at(-1).status === 'parsing') {
      const asked = Date.now();
      const w = await c.call('GET', `/api/insure-uploads/${uploadId}?waitMs=3000`);
      expect(w.status).toBe(200);
      const [a, b] = [views.at(-1), w.body.data];
      // Answered before the 3 s were up: because the upload changed.
      if (Date.now() - asked < 2900) expect([b.status, b.phase, b.rowsDone]).not.toEqual([a.status, a.phase, a.rowsDone]);
      views.push(b);
    }
    // Once parsed there is nothing to wait for: the answer comes at once.
    const t0 = Date.now();
    expect((await c.call('GET', `/api/insure-uploads/${uploadId}?waitMs=5000`)).body.data.status).toBe('ready');
    expect(Date.now() - t0).toBeLessThan(1000);

    const s = await waitParsed(c, uploadId);
    expect(s).toMatchObject({ status: 'ready', percent: 100, rowsDone: 5, rowsTotal: 5, counts: { total: 5, valid: 2, errors: 2, duplicates: 1 }, hasErrorFile: true });
    // Nothing is insured before confirmation.
    expect(await count(c, 'SELECT 1 FROM insure_batches')).toBe(before);

    // The head (columns, how many rows in how many pages, the quote), then the rows page by page.
    const res = await previewRows(c, uploadId);
    expect(res.head.result).toEqual({
      columns: [
        { key: 'name', label: '姓名' },
        { key: 'idCard', label: '身份证号' },
        { key: 'phone', label: '手机号' },
        { key: 'jobType', label: '工种' },
      ],
      headerRow: 1,
      unknownHeaders: [],
      total: 5,
      pageSize: 5000,
      pages: 1,
    });
    const p = { body: { data: res.head } };
    expect(res.rowNumbers).toEqual([2, 3, 4, 5, 6]);
    expect(res.rows[0]).toEqual(['王小明', id(1), '13900000001', '普工']);
    expect(res.errors).toEqual([
      { row: 4, column: 'idCard', label: '身份证号', message: expect.stringContaining('身份证号') },
      { row: 6, column: 'phone', label: '手机号', message: expect.stringContaining('手机号') },
    ]);
    expect(res.duplicates).toEqual([{ row: 5, firstRow: 2, column: 'idCard', message: '与第 2 行重复' }]);
    const unit = Number(String(plan).length > 0 ? p.body.data.quote.unitPrice : 0);
    expect(p.body.data.quote).toMatchObject({ people: 2, months: 12, total: unit * 12 * 2, planName: plan });
    expect(p.body.data.upload.uploader).toBe('138****0000');
  });

  it('serves the error workbook: the uploaded rows with an error column, as an attachment', async () => {
    const r = await getBytes(c, `/api/insure-uploads/${uploadId}/errors`);
    expect(r.status).toBe(200);
    expect(r.headers.get('content-disposition')).toMatch(/^attachment;.*filename\*=UTF-8''/);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(r.bytes as unknown as ArrayBuffer);
    const ws = wb.worksheets[0];
    expect(ws.getCell(1, 5).value).toBe('错误说明');
    expect(String(ws.getCell(4, 5).value)).toContain('身份证号');
    expect(String(ws.getCell(5, 5).value)).toBe('与第 2 行重复');
    expect(ws.getCell(2, 5).value).toBeNull();
  });

  it('refuses a corrected row that is still wrong, storing nothing', async () => {
    const before = await balanceCents(c);
    const r = await c.call('POST', '/api/insure-uploads/confirm', {
      body: { uploadId, planName: plan, startDate: START(), rows: [{ row: 2, name: '王小明', idCard: id(1) }, { row: 4, name: '赵大力', idCard: '123' }] },
    });
    expect(r.status).toBe(400);
    expect(r.body.errors).toEqual([{ field: 'rows[1].idCard', message: expect.stringMatching(/^第 4 行：身份证号/) }]);
    expect(await balanceCents(c)).toBe(before);
    expect(await count(c, `SELECT 1 FROM insure_uploads WHERE id = $1 AND status = 'ready'`, [uploadId])).toBe(1);
  });

  it('confirms the corrected rows once (Idempotency-Key), charging the balance and recording the form', async () => {
    const before = await balanceCents(c);
    const rows = [
      { row: 2, name: '王小明', idCard: id(1), phone: '13900000001', jobType: '普工' },
      { row: 3, name: '李小红', idCard: id(2), phone: '13900000002', jobType: '焊工' },
      { row: 4, name: '赵大力', idCard: id(3), phone: '13900000003', jobType: '' },
    ];
    const body = { uploadId, planName: plan, startDate: START(), rows };
    const headers = { 'idempotency-key': `confirm-${uploadId}` };
    const r = await c.call('POST', '/api/insure-uploads/confirm', { body, headers });
    // Accepted at once; the insure runs as a background job whose outcome the upload's status carries.
    expect(r.status).toBe(202);
    expect(r.body.data).toMatchObject({ id: uploadId, status: 'confirming', confirmTotal: 3, confirmResult: null });
    const s = await waitConfirmed(c, uploadId);
    expect(s).toMatchObject({ status: 'confirmed', confirmDone: 3, confirmTotal: 3, confirmPercent: 100, error: null });
    const d = s.confirmResult;
    expect(d).toMatchObject({ people: 3, total: 5, succeeded: 3, failed: 2, planName: plan, payStatus: 'paid' });
    expect(s.batchId).toBe(d.batchId);
    const after = await balanceCents(c);
    expect(before - after).toBe(Math.round(d.amount * 100));
    expect(d.balanceAfter * 100).toBe(after);

    const [batch] = await c.server.db.query<any>('SELECT total, succeeded, failed, status, file_name FROM insure_batches WHERE id = $1', [d.batchId]);
    expect(batch).toEqual({ total: 5, succeeded: 3, failed: 2, status: 'partially_failed', file_name: '一月名单.xlsx' });
    const [rec] = await c.server.db.query<any>('SELECT count(*)::int AS n, sum(premium_cents)::float8 AS s FROM insure_records WHERE batch_id = $1', [d.batchId]);
    expect(rec).toEqual({ n: 3, s: Math.round(d.amount * 100) });
    const rowsStored = await c.server.db.query<any>('SELECT row_no, name, result, error FROM insure_batch_rows WHERE batch_id = $1 ORDER BY row_no', [d.batchId]);
    expect(rowsStored.map((x) => [x.row_no, x.result])).toEqual([[2, 'success'], [3, 'success'], [4, 'success'], [5, 'failed'], [6, 'failed']]);
    expect(rowsStored[3].error).toBe('与第 2 行重复');
    expect(rowsStored[4].error).toBe('请输入正确的 11 位手机号'); // the message names its field: no 「手机号：」 in front

    // The same key replays the answer and charges nothing twice.
    const again = await c.call('POST', '/api/insure-uploads/confirm', { body, headers });
    expect(again.status).toBe(202);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body.data.id).toBe(uploadId);
    expect(await count(c, 'SELECT 1 FROM insure_batches WHERE id >= $1', [d.batchId])).toBe(1);
    expect(await balanceCents(c)).toBe(after);
    // A new key for the same upload is refused.
    const other = await c.call('POST', '/api/insure-uploads/confirm', { body, headers: { 'idempotency-key': 'other' } });
    expect(other.status).toBe(409);
    expect(other.body.message).toContain('已确认');
    expect(await balanceCents(c)).toBe(after);

    // The historical form: per-row results, its info and the original file.
    const hr = await c.call('GET', `/api/insure-batches/${d.batchId}/rows?pageSize=10`);
    expect(hr.body.data.total).toBe(5);
    const info = await c.call('GET', `/api/insure-batches/${d.batchId}/info`);
    expect(info.body.data).toMatchObject({ channel: 'upload', uploader: '138****0000', planName: plan, startDate: START(), orderNo: d.orderNo, amount: d.amount });
    const f = await getBytes(c, `/api/insure-batches/${d.batchId}/file`);
    expect(f.status).toBe(200);
    expect(f.headers.get('content-disposition')).toMatch(/^attachment;/);
    expect(Buffer.compare(f.bytes, bytes)).toBe(0);
    const [{ file_key }] = await c.server.db.query<any>('SELECT file_key FROM insure_uploads WHERE id = $1', [uploadId]);
    expect(Buffer.compare(readFileSync(join(c.filesDir, file_key)), bytes)).toBe(0);
  });

  it('marks people already covered by the plan as duplicates, and confirms the stored valid rows without a body', async () => {
    const bytes2 = await rosterXlsx([
      ['王小明', id(1), '13900000001', '普工'],
      ['周新人', id(9), '', ''],
    ]);
    const r = await upload(c, { name: 'second.xlsx', bytes: bytes2 }, { planName: plan, startDate: START() });
    const s = await waitParsed(c, r.body.data.id);
    expect(s.counts).toEqual({ total: 2, valid: 1, errors: 0, duplicates: 1 });
    expect((await previewRows(c, r.body.data.id)).duplicates).toEqual([{ row: 2, column: 'idCard', message: '该人员已在保' }]);

    const ok = await c.call('POST', '/api/insure-uploads/confirm', { body: { uploadId: r.body.data.id, planName: plan, startDate: START() } });
    expect(ok.status).toBe(202);
    const done = await waitConfirmed(c, r.body.data.id);
    expect(done.confirmResult).toMatchObject({ people: 1, total: 2, succeeded: 1, failed: 1 });
    const stored = await c.server.db.query<any>('SELECT person_name AS name FROM insure_records WHERE batch_id = $1', [done.batchId]);
    expect(stored).toEqual([{ name: '周新人' }]);
  });

  it('finds a person insured with an upper-case X among the file\'s rows typed with a lower-case x (该人员已在保)', async () => {
    const withX = id(19); // 32010219880512019X
    expect(withX.endsWith('X')).toBe(true);
    const first = await c.call('POST', '/api/insure-uploads/confirm', { body: { planName: plan, startDate: START(), rows: [{ name: '孙有叉', idCard: withX }] } });
    expect(first.status).toBe(200);
    const r = await upload(c, { name: 'lower-x.xlsx', bytes: await rosterXlsx([['孙有叉', withX.toLowerCase(), '13900000019', '普工']]) }, { planName: plan, startDate: START() });
    const s = await waitParsed(c, r.body.data.id);
    expect(s.counts).toEqual({ total: 1, valid: 0, errors: 0, duplicates: 1 });
    expect((await previewRows(c, r.body.data.id)).duplicates).toEqual([{ row: 2, column: 'idCard', message: '该人员已在保' }]);
    expect(await count(c, 'SELECT 1 FROM insure_records WHERE id_card = $1', [withX])).toBe(1);
  });

  it('confirms rows typed in without a file (manual entry)', async () => {
    const r = await c.call('POST', '/api/insure-uploads/confirm', { body: { planName: plan, startDate: START(), rows: [{ name: '吴手工', idCard: id(20) }] } });
    expect(r.status).toBe(200);
    expect(r.body.data).toMatchObject({ people: 1, total: 1, failed: 0 });
    const info = await c.call('GET', `/api/insure-batches/${r.body.data.batchId}/info`);
    expect(info.body.data).toMatchObject({ channel: 'manual', uploader: null, planName: plan });
    const dup = await c.call('POST', '/api/insure-uploads/confirm', { body: { planName: plan, startDate: START(), rows: [{ name: '吴手工', idCard: id(20) }] } });
    expect(dup.status).toBe(409);
    expect(dup.body.errors[0]).toMatchObject({ field: 'rows[0].idCard' });
  });
});
