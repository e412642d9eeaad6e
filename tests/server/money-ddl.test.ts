import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../src/server/db.ts';
import { migrate } from '../../src/server/migrate.ts';
import { seed } from '../../src/server/seed.ts';
import { applyMoneyDdl, backfillMoney, backfillMoneyOnce, MONEY_BACKFILL_NAME } from '../../src/server/domain/ddl.ts';
import { isCheckViolation, isUniqueViolation } from '../../src/server/domain/errors.ts';
import { count, targets } from './money-helpers.ts';

for (const t of targets()) {
  describe(`money DDL on an existing database (${t.name})`, () => {
    let db: Db;
    beforeAll(async () => {
      // A database from before these rules: base tables, demo data, and a second default account left
      // by the old race.
      db = await t.openEmpty();
      await migrate(db);
      await seed(db);
      await db.query(
        `INSERT INTO bank_accounts (business_id, account_name, bank_name, account_no, is_default) VALUES ('B10001','x','招商银行','6214830200000001',true)`,
      );
      await applyMoneyDdl(db);
      await applyMoneyDdl(db);
      await backfillMoney(db);
    }, 120_000);
    afterAll(async () => {
      await db?.close();
    });

    it('seeds the plans with prices and claim limits', async () => {
      const plans = await db.query<{ id: string; unit: string; price: number; limit: number }>(
        'SELECT id, unit, price_cents::float8 AS price, claim_limit_cents::float8 AS "limit" FROM plans ORDER BY id',
      );
      expect(plans).toEqual([
        { id: 'employer-std-60w', unit: 'month', price: 4500, limit: 60_000_000 },
        { id: 'flex-day', unit: 'day', price: 350, limit: 20_000_000 },
        { id: 'group-accident-30w', unit: 'month', price: 2800, limit: 30_000_000 },
        { id: 'rider-accident-80w', unit: 'month', price: 6200, limit: 80_000_000 },
      ]);
    });

    it('repairs legacy data before adding constraints, then enforces them', async () => {
      expect(await count(db, `SELECT count(*) FROM bank_accounts WHERE business_id = 'B10001' AND is_default`)).toBe(1);
      const dupDefault = await db
        .query(`UPDATE bank_accounts SET is_default = true WHERE business_id = 'B10001'`)
        .catch((e: unknown) => e);
      expect(isUniqueViolation(dupDefault, 'bank_accounts_one_default')).toBe(true);
      const negative = await db.query(`UPDATE businesses SET balance_cents = -1 WHERE id = 'B10001'`).catch((e: unknown) => e);
      expect(isCheckViolation(negative, 'businesses_balance_nonneg')).toBe(true);
      const over = await db.query(`UPDATE invoices SET refunded_cents = amount_cents + 1 WHERE id = (SELECT min(id) FROM invoices)`).catch((e: unknown) => e);
      expect(isCheckViolation(over, 'invoices_refund_le_amount')).toBe(true);
    });

    it('backfills plan ids, refund totals and invoiced orders', async () => {
      expect(await count(db, 'SELECT count(*) FROM insure_records WHERE plan_id IS NULL')).toBe(0);
      expect(await count(db, 'SELECT count(*) FROM insured_persons WHERE plan_id IS NULL')).toBe(0);
      expect(await count(db, `SELECT count(*) FROM invoices WHERE refunded_cents > 0`)).toBeGreaterThan(0);
      const active = await count(db, `SELECT count(*) FROM invoice_orders WHERE active`);
      const expected = await count(
        db,
        `SELECT count(*) FROM (SELECT unnest(order_nos) FROM invoices WHERE status IN ('applying','issued')) x`,
      );
      expect(active).toBe(expected);
    });

    it('runs the backfills once per database: a later start leaves them alone, a seed still fills its rows', async () => {
      expect(await count(db, `SELECT count(*) FROM backfills WHERE name = '${MONEY_BACKFILL_NAME}'`)).toBe(1);
      expect(await backfillMoneyOnce(db)).toBe(false);
      // A postpaid order without a statement month, as the demo seed writes them.
      await db.query(
        `INSERT INTO orders (business_id, order_no, product_name, person_count, amount_cents, pay_status, order_status, created_at)
         VALUES ('B10002', 'ODONCE0001', '雇主责任险·标准版（60万）', 1, 4500, 'unpaid', 'pending_payment', now())`,
      );
      await applyMoneyDdl(db);
      const month = async () => (await db.query<{ m: string | null }>(`SELECT statement_month AS m FROM orders WHERE order_no = 'ODONCE0001'`))[0].m;
      expect(await month()).toBeNull();
      await backfillMoney(db);
      expect(await month()).toMatch(/^\d{4}-\d{2}$/);
    });
  });
}
