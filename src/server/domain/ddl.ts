import type { Db, Queryable } from '../db.ts';
import { businessTz } from './util.ts';

/** Adds a named constraint once: re-running hits duplicate_object (42710) and is ignored. */
const addConstraint = (table: string, name: string, def: string) =>
  `DO $$ BEGIN
     ALTER TABLE ${table} ADD CONSTRAINT ${name} ${def};
   EXCEPTION WHEN duplicate_object OR duplicate_table THEN NULL;
   END $$`;

/**
 * Schema for the money rules. Runs after MIGRATIONS (base tables) and is idempotent: safe on every
 * start-up, on PGlite and PostgreSQL. Statements that repair legacy data come right before the
 * constraint that would otherwise refuse it.
 */
export const MONEY_DDL: string[] = [
  // One-time data backfills that have run on this database (backfillMoneyOnce).
  `CREATE TABLE IF NOT EXISTS backfills (name TEXT PRIMARY KEY, done_at TIMESTAMPTZ NOT NULL DEFAULT now())`,
  // Balance never goes negative (the atomic deduction is the first guard, this is the last).
  addConstraint('businesses', 'businesses_balance_nonneg', 'CHECK (balance_cents >= 0)'),
  // At most one default bank account per business: demote extra defaults left by the old race first.
  `UPDATE bank_accounts b SET is_default = false
    WHERE is_default AND EXISTS (
      SELECT 1 FROM bank_accounts o WHERE o.business_id = b.business_id AND o.is_default
         AND (o.created_at, o.id) < (b.created_at, b.id))`,
  `CREATE UNIQUE INDEX IF NOT EXISTS bank_accounts_one_default ON bank_accounts (business_id) WHERE is_default`,
  // Refunds: running total on the invoice, never above its amount.
  `ALTER TABLE invoices ADD COLUMN IF NOT EXISTS refunded_cents BIGINT NOT NULL DEFAULT 0`,
  addConstraint('invoices', 'invoices_refund_le_amount', 'CHECK (refunded_cents >= 0 AND refunded_cents <= amount_cents)'),
  `CREATE TABLE IF NOT EXISTS invoice_orders (
    invoice_id INTEGER NOT NULL REFERENCES invoices(id) ON DELETE CASCADE,
    order_no TEXT NOT NULL,
    business_id TEXT NOT NULL,
    active BOOLEAN NOT NULL DEFAULT true,
    PRIMARY KEY (invoice_id, order_no)
  )`,
  `CREATE UNIQUE INDEX IF NOT EXISTS invoice_orders_once ON invoice_orders (order_no) WHERE active`,
  // The orders an invoice application may pick (finance-choices.ts): small beside all of a business's orders.
  `CREATE INDEX IF NOT EXISTS orders_invoiceable_idx ON orders (business_id, paid_at DESC NULLS LAST, id DESC) WHERE pay_status = 'paid' AND NOT invoiced`,
  // Plans and cover on the insurance tables.
  `ALTER TABLE insure_records ADD COLUMN IF NOT EXISTS plan_id TEXT`,
  `ALTER TABLE insured_persons ADD COLUMN IF NOT EXISTS plan_id TEXT`,
  `CREATE INDEX IF NOT EXISTS insure_records_cover_idx ON insure_records (business_id, id_card, effective_date)`,
  `CREATE INDEX IF NOT EXISTS insure_records_batch_idx ON insure_records (batch_id)`,
  // Persons whose automatic-insurance status still lacks its reason (backfillAutoStatus): empty once filled.
  `CREATE INDEX IF NOT EXISTS insured_persons_reason_todo ON insured_persons (id) WHERE auto_status IN ('0','3') AND auto_reason IS NULL`,
  `ALTER TABLE claims ADD COLUMN IF NOT EXISTS person_id INTEGER`,
  `ALTER TABLE claims ADD COLUMN IF NOT EXISTS plan_id TEXT`,
  `ALTER TABLE claims ADD COLUMN IF NOT EXISTS cover_checked BOOLEAN NOT NULL DEFAULT false`,
  // Orders know their batch (cover waiting for payment) and their postpaid statement month.
  `ALTER TABLE orders ADD COLUMN IF NOT EXISTS batch_id INTEGER`,
  // A form's orders (its detail, its payment): without it each read scanned the orders table (1 s at 1M).
  `CREATE INDEX IF NOT EXISTS orders_batch_idx ON orders (batch_id) WHERE batch_id IS NOT NULL`,
  `ALTER TABLE insure_batches ADD COLUMN IF NOT EXISTS form_id TEXT`,
  `ALTER TABLE orders ADD COLUMN IF NOT EXISTS statement_month TEXT`,
  `CREATE TABLE IF NOT EXISTS idempotency_keys (
    user_id INTEGER NOT NULL,
    key TEXT NOT NULL,
    method TEXT NOT NULL,
    path TEXT NOT NULL,
    request_hash TEXT NOT NULL,
    status INTEGER,
    response JSONB,
    created_at TIMESTAMPTZ NOT NULL DEFAULT now(),
    PRIMARY KEY (user_id, key)
  )`,
  `CREATE INDEX IF NOT EXISTS idempotency_keys_created_idx ON idempotency_keys (created_at)`,
  `CREATE TABLE IF NOT EXISTS payments (
    id SERIAL PRIMARY KEY,
    business_id TEXT NOT NULL REFERENCES businesses(id) ON DELETE CASCADE,
    order_no TEXT NOT NULL,
    amount_cents BIGINT NOT NULL CHECK (amount_cents > 0),
    channel TEXT NOT NULL CHECK (channel IN ('balance','provider')),
    provider_ref TEXT UNIQUE,
    status TEXT NOT NULL CHECK (status IN ('pending','succeeded','failed')),
    created_at TIMESTAMPTZ NOT NULL DEFAULT now()
  )`,
  `CREATE INDEX IF NOT EXISTS payments_order_idx ON payments (order_no)`,
  `CREATE TABLE IF NOT EXISTS balance_ledger (
    id SERIAL PRIMARY KEY,
    business_id TEXT NOT NULL REFERENCES businesses(id) ON DELETE CASCADE,
    delta_cents BIGINT NOT NULL,
    reason TEXT NOT NULL,
    ref TEXT NOT NULL DEFAULT '',
    created_at TIMESTAMPTZ NOT NULL DEFAULT now()
  )`,
  `CREATE INDEX IF NOT EXISTS balance_ledger_business_idx ON balance_ledger (business_id, id)`,
  `CREATE TABLE IF NOT EXISTS statements (
    business_id TEXT NOT NULL REFERENCES businesses(id) ON DELETE CASCADE,
    month TEXT NOT NULL CHECK (month ~ '^[0-9]{4}-[0-9]{2}$'),
    amount_cents BIGINT NOT NULL DEFAULT 0 CHECK (amount_cents >= 0),
    order_count INTEGER NOT NULL DEFAULT 0,
    status TEXT NOT NULL DEFAULT 'open' CHECK (status IN ('open','issued','settled')),
    created_at TIMESTAMPTZ NOT NULL DEFAULT now(),
    PRIMARY KEY (business_id, month)
  )`,
];

/** Columns MONEY_DDL adds to entity tables (table → columns), so the entity migration leaves them alone. */
export const DOMAIN_COLUMNS: Record<string, string[]> = (() => {
  const out: Record<string, string[]> = {};
  for (const sql of MONEY_DDL) {
    for (const m of sql.matchAll(/ALTER TABLE (\w+) ADD COLUMN IF NOT EXISTS (\w+)/g)) (out[m[1]] ??= []).push(m[2]);
  }
  return out;
})();

/**
 * Fills the new columns from data written before these rules (or by seed.ts, which knows nothing of
 * them). Idempotent; run after seeding too. Only touches rows that were never written by the domain.
 */
export const MONEY_BACKFILL: string[] = [
  `UPDATE insure_records r SET plan_id = p.code FROM plans p WHERE r.plan_id IS NULL AND p.name = r.plan_name`,
  `UPDATE insured_persons r SET plan_id = p.code FROM plans p WHERE r.plan_id IS NULL AND p.name = r.plan_name`,
  // Legacy refunds were never summed on the invoice.
  `UPDATE invoices i SET refunded_cents = LEAST(i.amount_cents, s.total)
     FROM (SELECT business_id, invoice_no, sum(amount_cents) AS total FROM invoice_refunds
            WHERE status <> 'rejected' GROUP BY business_id, invoice_no) s
    WHERE i.refunded_cents = 0 AND s.business_id = i.business_id AND s.invoice_no = i.invoice_no AND s.total > 0`,
  // Legacy invoices listed their orders in an array; claim those orders (first invoice wins).
  `INSERT INTO invoice_orders (invoice_id, order_no, business_id, active)
   SELECT i.id, o.no, i.business_id, i.status IN ('applying','issued')
     FROM invoices i CROSS JOIN LATERAL unnest(i.order_nos) AS o(no)
    WHERE NOT EXISTS (SELECT 1 FROM invoice_orders x WHERE x.invoice_id = i.id)
    ORDER BY i.id
   ON CONFLICT DO NOTHING`,
  // Orders invoiced before orders.invoiced existed (or by seed.ts): the flag follows the active invoice_orders row.
  `UPDATE orders o SET invoiced = true FROM invoice_orders io
    WHERE io.active AND io.business_id = o.business_id AND io.order_no = o.order_no AND o.invoiced IS NOT TRUE`,
];

/**
 * The name the money backfills are recorded under in `backfills` once they have run on a database.
 * Change it when MONEY_BACKFILL or STATEMENT_BACKFILL change, so they run once more.
 */
export const MONEY_BACKFILL_NAME = 'money-2026-11';

/** Runs MONEY_DDL and the backfills (once per database). Call after migrate(db), which creates the plans table. */
export async function applyMoneyDdl(db: Db): Promise<void> {
  for (const sql of MONEY_DDL) await db.query(sql);
  await backfillMoneyOnce(db);
}

/**
 * The backfills on a database that has not had them yet, recorded in the same transaction. They scan
 * every order (about 0.4 s at 1M) and only legacy data needs them, so a gateway start on a database
 * that had them skips them; gateways starting together queue on the record's key and one runs them.
 */
export async function backfillMoneyOnce(db: Db): Promise<boolean> {
  return db.tx(async (tx) => {
    const [first] = await tx.query(`INSERT INTO backfills (name) VALUES ($1) ON CONFLICT DO NOTHING RETURNING name`, [MONEY_BACKFILL_NAME]);
    if (first) await backfillMoney(tx);
    return Boolean(first);
  });
}

/**
 * Postpaid orders written before statements existed (or by seed.ts) join the statement of the month they
 * were created in (business time zone), and that statement grows by them, in one statement: a second run
 * finds no order without a month and changes nothing. Refunded orders are not billed.
 */
export const STATEMENT_BACKFILL = `WITH billed AS (
    UPDATE orders o SET statement_month = to_char(o.created_at AT TIME ZONE $1, 'YYYY-MM')
      FROM businesses b
     WHERE o.statement_month IS NULL AND b.id = o.business_id AND b.charge_form = 'postpaid' AND o.pay_status <> 'refunded'
    RETURNING o.business_id, o.statement_month, o.amount_cents)
  INSERT INTO statements (business_id, month, amount_cents, order_count)
  SELECT business_id, statement_month, sum(amount_cents), count(*)::int FROM billed GROUP BY business_id, statement_month
  ON CONFLICT (business_id, month) DO UPDATE
    SET amount_cents = statements.amount_cents + EXCLUDED.amount_cents, order_count = statements.order_count + EXCLUDED.order_count`;

export async function backfillMoney(db: Db | Queryable): Promise<void> {
  for (const sql of MONEY_BACKFILL) await db.query(sql);
  await db.query(STATEMENT_BACKFILL, [businessTz()]);
}
