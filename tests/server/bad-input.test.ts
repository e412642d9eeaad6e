import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../src/server/db.ts';
import { startServer, type RunningServer } from '../../src/server/server.ts';
import { PERMISSIONS_POLICY } from '../../src/server/http/security.ts';
import { BIZ_ADMIN, DEMO, toRes } from './helpers.ts';
import { rows } from './deploy-helpers.ts';
import { targets } from './money-helpers.ts';

const ACCT = { accountName: '上海鑫达人力资源有限公司', bankName: '招商银行', accountNo: '6214830299998888', branch: '上海分行', isDefault: false };

for (const t of targets()) {
  describe(`no 500 on bad input, nothing junk stored (${t.name})`, () => {
    let db: Db;
    let s: RunningServer;
    let token = '';
    let dist = '';
    const origin = () => s.url.replace(/\/$/, '');
    const call = async (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) =>
      toRes(
        await fetch(origin() + path, {
          method,
          headers: { authorization: `Bearer ${token}`, 'x-company-id': BIZ_ADMIN, ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
          body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
        }),
      );

    beforeAll(async () => {
      dist = mkdtempSync(join(tmpdir(), 'bad-input-dist-'));
      mkdirSync(join(dist, 'assets'));
      writeFileSync(join(dist, 'index.html'), '<!doctype html><html><head></head><body></body></html>');
      writeFileSync(join(dist, 'assets', 'app-abc.js'), 'console.log(1)');
      db = await t.open();
      s = await startServer({ port: 0, db, production: false, staticDir: dist });
      token = (await call('POST', '/api/auth/login', DEMO)).body.data.token;
    }, 120_000);
    afterAll(async () => {
      await s?.close();
      await db?.close();
      rmSync(dist, { recursive: true, force: true });
    });

    it('a NUL byte in a filter, a path or a text field is a 400 in Chinese; nothing is stored', async () => {
      const filter = await call('GET', '/api/orders?orderNo=OD%00');
      expect(filter.status).toBe(400);
      expect(filter.body.message).toBe('请求地址或查询条件不能包含空字符（NUL）');
      expect((await call('GET', '/api/orders/1%00')).status).toBe(400);
      const before = await rows(db, 'SELECT 1 FROM bank_accounts');
      const field = await call('POST', '/api/bank-accounts', { ...ACCT, branch: '上海\u0000分行' });
      expect(field.status).toBe(400);
      expect(field.body.errors).toEqual([{ field: 'branch', message: expect.stringMatching(/不能包含控制字符或不可见字符$/) }]);
      expect(await rows(db, 'SELECT 1 FROM bank_accounts')).toBe(before);
    });

    it('names refuse control, zero-width and bidi-override characters; the stored name stays', async () => {
      const [p] = await db.query<{ id: number; name: string }>('SELECT id, name FROM insured_persons WHERE business_id = $1 ORDER BY id LIMIT 1', [BIZ_ADMIN]);
      for (const name of ['张\u200b三', '张\u202e三', '张\u0007三', '张\n三', '张\ufeff三', '张\u2066三', '张\u00ad三']) {
        const r = await call('PUT', `/api/insured-persons/${p.id}/info`, { name });
        expect(r.status, JSON.stringify(name)).toBe(400);
        expect(r.body.errors).toEqual([{ field: 'name', message: '姓名不能包含控制字符或不可见字符' }]);
      }
      const [after] = await db.query<{ name: string }>('SELECT name FROM insured_persons WHERE id = $1', [p.id]);
      expect(after.name).toBe(p.name);
    });

    it('bad paging values are a 400 on the field; a page size above the largest is served as the largest', async () => {
      for (const [q, field, message] of [
        ['pageSize=-1', 'pageSize', '每页条数应为正整数'],
        ['pageSize=abc', 'pageSize', '每页条数应为正整数'],
        ['pageSize=0', 'pageSize', '每页条数应为正整数'],
        ['pageSize=1.5', 'pageSize', '每页条数应为正整数'],
        ['current=abc', 'current', '页码应为正整数'],
        ['current=1e1', 'current', '页码应为正整数'],
      ]) {
        const r = await call('GET', `/api/orders?${q}`);
        expect(r.status, q).toBe(400);
        expect(r.body.errors, q).toEqual([{ field, message }]);
      }
      expect((await call('GET', '/api/orders?pageSize=1000')).body.data.pageSize).toBe(100);
    });

    it('a non-canonical id is a 400, never another row', async () => {
      const [o] = await db.query<{ id: number }>('SELECT min(id)::int AS id FROM orders WHERE business_id = $1', [BIZ_ADMIN]);
      expect((await call('GET', `/api/orders/${o.id}`)).status).toBe(200);
      for (const id of ['1e1', '010', '-1', '0', '1.0', '0x10', '99999999999', ' 1']) {
        const r = await call('GET', `/api/orders/${encodeURIComponent(id)}`);
        expect(r.status, id).toBe(400);
        expect(r.body.errors).toEqual([{ field: 'id', message: '编号应为不以 0 开头的正整数' }]);
      }
      const paid = await rows(db, `SELECT 1 FROM orders WHERE pay_status = 'paid'`);
      expect((await call('POST', '/api/orders/1e1/pay', {})).status).toBe(400);
      expect(await rows(db, `SELECT 1 FROM orders WHERE pay_status = 'paid'`)).toBe(paid);
    });

    it('a broken multipart body is a 400 and stores no file or upload', async () => {
      const files = await rows(db, 'SELECT 1 FROM claim_attachments');
      const uploads = await rows(db, 'SELECT 1 FROM insure_uploads');
      const cut = '--XYZ\r\nContent-Disposition: form-data; name="file"; filename="a.png"\r\nContent-Type: image/png\r\n\r\n\x89PNG';
      for (const [path, body, type] of [
        ['/api/claim-attachments', cut, 'multipart/form-data; boundary=XYZ'],
        ['/api/insure-uploads', cut.replace('a.png', 'a.xlsx'), 'multipart/form-data; boundary=XYZ'],
        ['/api/insure-uploads', 'garbage', 'multipart/form-data'],
      ]) {
        const r = await call('POST', path, body, { 'content-type': type });
        expect(r.status, `${path} ${type}`).toBe(400);
        expect(typeof r.body.message).toBe('string');
        expect(r.body.code).toBe(40000);
      }
      expect(await rows(db, 'SELECT 1 FROM claim_attachments')).toBe(files);
      expect(await rows(db, 'SELECT 1 FROM insure_uploads')).toBe(uploads);
    });

    it('security headers where they matter: HTML and API carry CSP, Permissions-Policy and the rest; scripts carry nosniff only', async () => {
      const api = await call('GET', '/api/businesses');
      const html = await fetch(`${origin()}/orders`);
      const js = await fetch(`${origin()}/assets/app-abc.js`);
      for (const r of [api, html]) {
        expect(r.headers.get('permissions-policy')).toBe(PERMISSIONS_POLICY);
        expect(r.headers.get('content-security-policy')).toContain("default-src 'self'");
        expect(r.headers.get('x-frame-options')).toBe('DENY');
        expect(r.headers.get('strict-transport-security')).toMatch(/^max-age=/);
      }
      expect(js.status).toBe(200);
      expect(js.headers.get('x-content-type-options')).toBe('nosniff');
      for (const h of ['content-security-policy', 'permissions-policy', 'strict-transport-security', 'x-frame-options', 'cross-origin-opener-policy', 'referrer-policy']) {
        expect(js.headers.get(h), h).toBeNull();
      }
    });
  });
}
