import { describe, expect, it } from 'vitest';
import { toDbValue } from '../../src/server/entity/write.ts';
import { fmtYuan, localParts } from '../../src/server/domain/util.ts';
import type { FieldSchema } from '../../src/shared/entity/types.ts';
import { BIZ_ADMIN, useGateway } from './helpers.ts';

/**
 * Amounts a user types in yuan are stored to the cent (never cut off: 0.29, 19.99 and 1.15 are one cent
 * short when yuan × 100 is truncated), and the cover period the confirmation shows is the one stored.
 */
const c = useGateway({}, 180_000);
const MONEY: FieldSchema = { type: 'money', label: '金额' };
const today = () => localParts(new Date()).date;

async function storedCents(table: string, id: number): Promise<number> {
  const [row] = await c.server.db.query<{ cents: number }>(`SELECT amount_cents::float8 AS cents FROM ${table} WHERE id = $1`, [id]);
  return row.cents;
}

describe('yuan → cents where amounts are stored', () => {
  it('a money field is stored in exact cents, from a number or its text', () => {
    expect([0.29, 19.99, 1.15, 4.35, 1234.5, '0.29', '19.99'].map((v) => toDbValue(MONEY, v)[0])).toEqual([29, 1999, 115, 435, 123450, 29, 1999]);
  });

  it('a claim of ¥19.99 is stored as 1999 cents and shown as 19.99', async () => {
    const [person] = await c.server.db.query<{ person_name: string; id_card: string }>(
      `SELECT person_name, id_card FROM insure_records WHERE business_id = $1 AND cover_event IS NULL
         AND effective_date <= CURRENT_DATE AND expiry_date >= CURRENT_DATE ORDER BY id LIMIT 1`,
      [BIZ_ADMIN],
    );
    const r = await c.call('POST', '/api/claims', {
      body: { personName: person.person_name, idCard: person.id_card, accidentDate: today(), accidentType: '意外伤害', description: '搬运时划伤', amount: 19.99 },
    });
    expect(r.status).toBe(200);
    expect(await storedCents('claims', r.body.data.id)).toBe(1999);
    expect((await c.call('GET', `/api/claims/${r.body.data.id}`)).body.data.amount).toBe(19.99);
  });

  it('refunds of ¥0.29 and ¥1.15 are stored as 29 and 115 cents and take exactly 1.44 from what the invoice can still refund', async () => {
    const [inv] = await c.server.db.query<{ invoice_no: string; left: number }>(
      `SELECT invoice_no, (amount_cents - refunded_cents)::float8 AS left FROM invoices
        WHERE business_id = $1 AND status = 'issued' AND amount_cents - refunded_cents >= 200 ORDER BY id LIMIT 1`,
      [BIZ_ADMIN],
    );
    expect(inv).toBeTruthy();
    const ids: number[] = [];
    for (const amount of [0.29, 1.15]) {
      const r = await c.call('POST', '/api/invoice-refunds', { body: { invoiceNo: inv.invoice_no, amount, reason: '开票信息有误' } });
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      ids.push(r.body.data.id);
    }
    expect([await storedCents('invoice_refunds', ids[0]), await storedCents('invoice_refunds', ids[1])]).toEqual([29, 115]);
    const left = inv.left - 144;
    // One cent more than is left is refused with the exact amount left.
    const over = await c.call('POST', '/api/invoice-refunds', { body: { invoiceNo: inv.invoice_no, amount: (left + 1) / 100, reason: '开票信息有误' } });
    expect(over.status).toBe(400);
    expect(over.body.message).toBe(`该发票最多可退 ¥${fmtYuan(left)}`);
  });
});

describe('the cover period of a day plan on the confirmation', () => {
  it('an attendance quote covers the work date only, and the submission stores that period', async () => {
    const [plan] = (await c.call('GET', '/api/plans?unit=day')).body.data as Array<{ value: string }>;
    const rows = [{ name: '钱日结', idCard: '11010119900307002X', phone: '13900000777', jobType: '配送' }];
    const body = { planName: plan.value, workDate: today(), rows };
    const q = await c.call('POST', '/api/insure/quote', { body: { source: 'attendance', ...body } });
    expect(q.status, JSON.stringify(q.body)).toBe(200);
    expect(q.body.data).toMatchObject({ startDate: today(), endDate: today(), units: 1, unitLabel: '天' });
    const r = await c.call('POST', '/api/insure/attendance', { body });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    const stored = await c.server.db.query<{ expiry: string }>(
      `SELECT expiry_date::text AS expiry FROM insure_records WHERE business_id = $1 AND id_card = $2 AND effective_date = $3::date`,
      [BIZ_ADMIN, rows[0].idCard, today()],
    );
    expect(stored).toEqual([{ expiry: q.body.data.endDate }]);
  });
});
