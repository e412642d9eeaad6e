import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../src/server/db.ts';
import { migrate } from '../../src/server/migrate.ts';
import { seed } from '../../src/server/seed.ts';
import { applyMoneyDdl, backfillMoney, backfillMoneyOnce, MONEY_BACKFILL_NAME } from '../../src/server/domain/ddl.ts';
import { isCheckViolation, isUniqueViolation } from '../../src/server/domain/errors.ts';
import { count, targets } from './money-helpers.ts';
import { findPlan } from '../../src/server/domain/plans.ts';

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

    it('the demo seed stores its plans as rows of the plan entity, with prices, ages and claim limits', async () => {
      const plans = await db.query<{ code: string; unit: string; price: number; ages: string; limit: number }>(
        `SELECT code, unit, price_cents::float8 AS price, min_age || '-' || max_age AS ages, claim_limit_cents::float8 AS "limit" FROM plans ORDER BY code`,
      );
      expect(plans).toEqual([
        { code: 'employer-std-60w', unit: 'month', price: 4500, ages: '16-65', limit: 60_000_000 },
        { code: 'flex-day', unit: 'day', price: 350, ages: '18-60', limit: 20_000_000 },
        { code: 'group-accident-30w', unit: 'month', price: 2800, ages: '16-65', limit: 30_000_000 },
        { code: 'rider-accident-80w', unit: 'month', price: 6200, ages: '18-65', limit: 80_000_000 },
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

for (const t of targets()) {
  describe(`plans stored before they were an entity (${t.name})`, () => {
    it('the text id becomes the code; rows get an id and the ages of the old rule', async () => {
      const db = await t.openEmpty();
      try {
        // The plans table as the money rules created and seeded it before (id = the code, no ages).
        await db.query(`CREATE TABLE plans (
          id TEXT PRIMARY KEY, name TEXT NOT NULL UNIQUE, unit TEXT NOT NULL CHECK (unit IN ('month','day')),
          price_cents BIGINT NOT NULL CHECK (price_cents > 0), claim_limit_cents BIGINT NOT NULL CHECK (claim_limit_cents > 0),
          on_sale BOOLEAN NOT NULL DEFAULT true)`);
        await db.query(`INSERT INTO plans VALUES ('employer-std-60w', '雇主责任险·标准版（60万）', 'month', 4500, 60000000, true),
                                                 ('old-day', '旧日单险', 'day', 300, 10000000, false)`);
        await migrate(db);
        await migrate(db); // idempotent
        await applyMoneyDdl(db);
        const rows = await db.query<{ id: number; code: string; min_age: number; max_age: number; on_sale: boolean }>(
          'SELECT id, code, min_age, max_age, on_sale FROM plans ORDER BY id',
        );
        expect(rows).toEqual([
          { id: 1, code: 'employer-std-60w', min_age: 16, max_age: 65, on_sale: true },
          { id: 2, code: 'old-day', min_age: 16, max_age: 65, on_sale: false },
        ]);
        expect(await findPlan(db, '雇主责任险·标准版（60万）')).toMatchObject({ id: 'employer-std-60w', priceCents: 4500, claimLimitCents: 60_000_000, minAge: 16, maxAge: 65 });
        // The code is unique as the entity says.
        const dup = await db.query(`INSERT INTO plans (code, name, unit, price_cents, min_age, max_age, claim_limit_cents) VALUES ('old-day','x','day',1,1,2,1)`).catch((e: unknown) => e);
        expect(isUniqueViolation(dup)).toBe(true);
      } finally {
        await db.close();
      }
    }, 120_000);
  });
}
