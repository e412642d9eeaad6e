import { describe, expect, it } from 'vitest';
import { useGateway } from './helpers.ts';

const c = useGateway();

describe('content service', () => {
  it('serves the claim notice and the agreement from content/, before sign-in too', async () => {
    const r = await c.call('GET', '/api/content/claim-notice', { token: null, biz: null });
    expect(r.status).toBe(200);
    expect(r.body.data).toMatchObject({ key: 'claim-notice', title: '理赔须知' });
    expect(r.body.data.body).toContain('# 申请时效');
    expect(Date.parse(r.body.data.updatedAt)).not.toBeNaN();
    const a = await c.call('GET', '/api/content/service-agreement', { token: null, biz: null });
    expect(a.body.data.title).toBe('用户服务协议');
  });

  it('refuses unknown keys and path tricks with 404', async () => {
    for (const key of ['nope', '..%2Fpackage', 'CLAIM-NOTICE']) {
      const r = await c.call('GET', `/api/content/${key}`, { token: null, biz: null });
      expect(r.status).toBe(404);
      expect(r.body.message).toBe('内容不存在');
    }
  });
});

describe('historical form rows and file', () => {
  it('lists every row of a form with its result, masked, paged', async () => {
    const list = await c.call('GET', '/api/insure-batches?pageSize=1');
    const batch = list.body.data.list[0];
    const r = await c.call('GET', `/api/insure-batches/${batch.id}/rows?current=1&pageSize=5`);
    expect(r.status).toBe(200);
    const [{ n }] = await c.server.db.query<{ n: number }>('SELECT count(*)::int AS n FROM insure_records WHERE batch_id = $1', [batch.id]);
    expect(r.body.data.total).toBe(n);
    expect(r.body.data.list.length).toBe(Math.min(5, n));
    expect(r.body.data.list[0]).toMatchObject({ rowNo: 1, result: 'success', error: null });
    expect(r.body.data.list[0].idCard).toMatch(/^\d{6}\*{8}[\dX]{4}$/);
  });

  it('answers 404 for a form of another business and for a form without an uploaded file', async () => {
    const [other] = await c.server.db.query<{ id: number }>("SELECT id FROM insure_batches WHERE business_id = 'B10003' LIMIT 1");
    expect((await c.call('GET', `/api/insure-batches/${other.id}/rows`)).status).toBe(404);
    const list = await c.call('GET', '/api/insure-batches?pageSize=1');
    const f = await c.call('GET', `/api/insure-batches/${list.body.data.list[0].id}/file`);
    expect(f.status).toBe(404);
    expect(f.body.message).toMatch(/^原文件不存在/);
  });
});
