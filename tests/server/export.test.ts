import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { BIZ_ADMIN, BIZ_OTHER, useGateway } from './helpers.ts';

const c = useGateway();

async function download(path: string, biz = BIZ_ADMIN) {
  const res = await fetch(`${c.origin}${path}`, { headers: { authorization: `Bearer ${c.token}`, 'x-company-id': biz } });
  return { res, bytes: Buffer.from(await res.arrayBuffer()) };
}

async function readSheet(bytes: Buffer) {
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(bytes as unknown as ArrayBuffer);
  const ws = wb.worksheets[0];
  const rows: ExcelJS.CellValue[][] = [];
  ws.eachRow((row) => rows.push((row.values as ExcelJS.CellValue[]).slice(1)));
  return { ws, header: rows[0], body: rows.slice(1) };
}

describe('list export (.xlsx / .csv)', () => {
  it('exports only the filtered rows and only the asked columns, with Chinese headers, labels, money and masked ID numbers', async () => {
    const cols = 'claimNo,personName,idCard,amount,status,accidentDate';
    const { res, bytes } = await download(`/api/claims/export?format=xlsx&columns=${cols}&status=reported`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
    expect(res.headers.get('content-disposition')).toMatch(/^attachment;.*filename\*=UTF-8''/);
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    const { ws, header, body } = await readSheet(bytes);
    expect(header).toEqual(['理赔申请号', '出险人', '身份证号', '申请金额', '状态', '出险日期']);

    const expected = await c.server.db.query<{ claim_no: string; amount: number; id_card: string; accident_date: string }>(
      `SELECT claim_no, amount_cents::float8 / 100 AS amount, id_card, to_char(accident_date, 'YYYY-MM-DD') AS accident_date
         FROM claims WHERE business_id = $1 AND status = 'reported' ORDER BY created_at DESC, id DESC`,
      [BIZ_ADMIN],
    );
    expect(expected.length).toBeGreaterThan(0);
    expect(res.headers.get('x-export-rows')).toBe(String(expected.length));
    expect(body.map((r) => r[0])).toEqual(expected.map((e) => e.claim_no));
    for (const [i, r] of body.entries()) {
      expect(r[2]).toBe(`${expected[i].id_card.slice(0, 6)}********${expected[i].id_card.slice(-4)}`);
      expect(r[3]).toBe(expected[i].amount);
      expect(r[4]).toBe('已提交');
      expect(r[5]).toBe(expected[i].accident_date);
    }
    expect(ws.getRow(2).getCell(4).numFmt).toBe('#,##0.00');
    // Nothing of other businesses, no column that was not asked for.
    expect(body.every((r) => r.length === 6)).toBe(true);

    // The same rows as the list endpoint with the same filter.
    const list = await c.call('GET', '/api/claims?status=reported&pageSize=100');
    expect(list.body.data.total).toBe(expected.length);
  });

  it('honours text filters and date ranges of the list', async () => {
    const [p] = await c.server.db.query<{ name: string }>('SELECT name FROM insured_persons WHERE business_id = $1 ORDER BY id LIMIT 1', [BIZ_ADMIN]);
    const part = p.name.slice(1);
    const { bytes } = await download(`/api/insured-persons/export?columns=name,idCard&name=${encodeURIComponent(part)}`);
    const { header, body } = await readSheet(bytes);
    expect(header).toEqual(['姓名', '身份证号']);
    const [{ n }] = await c.server.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM insured_persons WHERE business_id = $1 AND name ILIKE $2`,
      [BIZ_ADMIN, `%${part}%`],
    );
    expect(body.length).toBe(n);
    expect(body.every((r) => String(r[0]).includes(part))).toBe(true);

    const range = await download('/api/orders/export?columns=orderNo,createdAt&createdAtRange=2000-01-01,2000-01-31');
    const sheet = await readSheet(range.bytes);
    expect(sheet.header).toEqual(['订单号', '创建时间']);
    expect(sheet.body).toEqual([]);
  });

  it('uses the table’s visible columns when none are named', async () => {
    const { bytes } = await download('/api/claims/export');
    const { header } = await readSheet(bytes);
    expect(header).toEqual(['理赔申请号', '出险人', '出险日期', '事故类型', '申请金额', '状态', '申请时间']);
  });

  it('exports CSV (UTF-8 with BOM) with the same rows and values as shown', async () => {
    const { res, bytes } = await download('/api/claims/export?format=csv&columns=claimNo,amount,status&status=reported');
    expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    const text = bytes.toString('utf8');
    expect(text.startsWith('\uFEFF理赔申请号,申请金额,状态\r\n')).toBe(true);
    const lines = text.trim().split('\r\n').slice(1);
    expect(lines.length).toBe(Number(res.headers.get('x-export-rows')));
    expect(lines.every((l) => /^LP\w+,"?¥[\d,]+\.\d{2}"?,已提交$/.test(l))).toBe(true);
  });

  it('refuses unknown columns and bad filters with a 400 in Chinese; stays inside the business', async () => {
    const bad = await c.call('GET', '/api/claims/export?columns=claimNo,passwordHash');
    expect(bad.status).toBe(400);
    expect(bad.body.errors).toEqual([{ field: 'columns', message: '导出列不存在：passwordHash' }]);
    const badFilter = await c.call('GET', '/api/claims/export?createdAtRange=yesterday,');
    expect(badFilter.status).toBe(400);
    expect(badFilter.body.message).toContain('日期范围格式不正确');
    expect((await download('/api/claims/export', BIZ_OTHER)).res.status).toBe(403);
  });
});
