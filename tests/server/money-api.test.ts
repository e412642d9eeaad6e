import { describe, expect, it } from 'vitest';
import { earliestCoverStart } from '../../src/server/domain/index.ts';
import { BIZ_ADMIN, makeIdCard, useGateway } from './helpers.ts';

/** The money rules as the console meets them: through the HTTP API of the real gateway. */
const c = useGateway();
const PLAN = '雇主责任险·标准版（60万）'; // ¥45 per person-month, roster cover 12 months
// The first day cover may start (business time zone and cut-off; src/server/domain/cover.ts).
const today = () => earliestCoverStart();
const rows = (n: number, seq0: number) =>
  Array.from({ length: n }, (_, i) => ({ name: `测试${i}`, idCard: makeIdCard('310104', '19900101', seq0 + i), phone: '13900000000', jobType: '普工' }));

async function one<T>(sql: string, params: unknown[]): Promise<T> {
  return (await c.server.db.query<{ v: T }>(sql, params))[0].v;
}
const balance = () => one<number>('SELECT balance_cents::float8 AS v FROM businesses WHERE id = $1', [BIZ_ADMIN]);
const batches = () => one<number>('SELECT count(*)::int AS v FROM insure_batches WHERE business_id = $1', [BIZ_ADMIN]);

describe('roster writes through the API', () => {
  it('refuses cover that would start in the past, storing nothing', async () => {
    const before = await batches();
    const r = await c.call('POST', '/api/insure/roster', { body: { planName: PLAN, startDate: '2020-01-01', rows: rows(2, 100) } });
    expect(r.status).toBe(400);
    // The roster-submit entity's minDate rule answers first (the domain's cut-off check stays behind it).
    expect(r.body.errors).toEqual([{ field: 'startDate', message: '起保日期不能早于今天' }]);
    expect(await batches()).toBe(before);
  });

  it('charges the balance exactly once for a roster sent twice with one Idempotency-Key', async () => {
    const start = await balance();
    const body = { planName: PLAN, startDate: today(), rows: rows(3, 200) };
    const headers = { 'idempotency-key': 'submit-abc-1' };
    const [a, b] = await Promise.all([
      c.call('POST', '/api/insure/roster', { body, headers }),
      c.call('POST', '/api/insure/roster', { body, headers }),
    ]);
    expect(a.status).toBe(200);
    expect(b.body).toEqual(a.body);
    expect(await balance()).toBe(start - 3 * 12 * 4500);
    expect(await one<number>('SELECT count(*)::int AS v FROM insure_batches WHERE id = $1', [a.body.data.id])).toBe(1);
    const replay = await c.call('POST', '/api/insure/roster', { body, headers });
    expect(replay.body).toEqual(a.body);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(await balance()).toBe(start - 3 * 12 * 4500);
    // The same key with another body is a client bug, refused.
    const other = await c.call('POST', '/api/insure/roster', { body: { ...body, rows: rows(1, 300) }, headers });
    expect(other.status).toBe(409);
  });

  it('gives no cover when a prepaid balance is short, with a clear message', async () => {
    await c.server.db.query('UPDATE businesses SET balance_cents = 10000 WHERE id = $1', [BIZ_ADMIN]);
    const before = await batches();
    const r = await c.call('POST', '/api/insure/roster', { body: { planName: PLAN, startDate: today(), rows: rows(2, 400) } });
    expect(r.status).toBe(400);
    expect(r.body.message).toMatch(/^余额不足/);
    expect(await batches()).toBe(before);
    expect(await balance()).toBe(10000);
    expect(await one<number>("SELECT count(*)::int AS v FROM insured_persons WHERE id_card = $1", [rows(1, 400)[0].idCard])).toBe(0);
  });
});
