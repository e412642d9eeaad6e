import type { Db } from './db.ts';
import { FIXED_DDL } from './entity/migrate.ts';
import { CLAIM_ATTACHMENT_DDL } from './domain/attachments.ts';

/**
 * Idempotent schema. Money is stored as integer cents (bigint) and exposed as yuan numbers.
 * Every statement is standalone so it runs the same on PGlite and on PostgreSQL.
 */
export const MIGRATIONS: string[] = [
  // Accounts, businesses, memberships, sessions: defined once with the entity migration's fixed tables.
  ...FIXED_DDL,
  `CREATE TABLE IF NOT EXISTS insured_persons (
    id SERIAL PRIMARY KEY,
    business_id TEXT NOT NULL REFERENCES businesses(id) ON DELETE CASCADE,
    name TEXT NOT NULL,
    id_card TEXT NOT NULL,
    phone TEXT NOT NULL DEFAULT '',
    job_type TEXT NOT NULL DEFAULT '',
    plan_name TEXT NOT NULL,
    status TEXT NOT NULL CHECK (status IN ('insured','pending','ended')),
    start_date DATE,
    end_date DATE,
    created_at TIMESTAMPTZ NOT NULL DEFAULT now(),
    UNIQUE (business_id, id_card)
  )`,
  `CREATE TABLE IF NOT EXISTS insure_batches (
    id SERIAL PRIMARY KEY,
    business_id TEXT NOT NULL REFERENCES businesses(id) ON DELETE CASCADE,
    batch_no TEXT NOT NULL UNIQUE,
    source TEXT NOT NULL CHECK (source IN ('roster','attendance')),
    file_name TEXT NOT NULL DEFAULT '',
    total INTEGER NOT NULL DEFAULT 0,
    succeeded INTEGER NOT NULL DEFAULT 0,
    failed INTEGER NOT NULL DEFAULT 0,
    status TEXT NOT NULL CHECK (status IN ('processing','done','partially_failed')),
    created_at TIMESTAMPTZ NOT NULL DEFAULT now()
  )`,
  `CREATE TABLE IF NOT EXISTS insure_records (
    id SERIAL PRIMARY KEY,
    business_id TEXT NOT NULL REFERENCES businesses(id) ON DELETE CASCADE,
    batch_id INTEGER REFERENCES insure_batches(id) ON DELETE SET NULL,
    batch_no TEXT NOT NULL,
    person_name TEXT NOT NULL,
    id_card TEXT NOT NULL,
    plan_name TEXT NOT NULL,
    premium_cents BIGINT NOT NULL,
    status TEXT NOT NULL CHECK (status IN ('effective','pending','cancelled','expired')),
    effective_date DATE NOT NULL,
    expiry_date DATE NOT NULL,
    created_at TIMESTAMPTZ NOT NULL DEFAULT now()
  )`,
  `CREATE TABLE IF NOT EXISTS orders (
    id SERIAL PRIMARY KEY,
    business_id TEXT NOT NULL REFERENCES businesses(id) ON DELETE CASCADE,
    order_no TEXT NOT NULL UNIQUE,
    product_name TEXT NOT NULL,
    person_count INTEGER NOT NULL,
    amount_cents BIGINT NOT NULL,
    pay_status TEXT NOT NULL CHECK (pay_status IN ('unpaid','paid','refunded')),
    order_status TEXT NOT NULL,
    created_at TIMESTAMPTZ NOT NULL DEFAULT now(),
    paid_at TIMESTAMPTZ
  )`,
  `CREATE TABLE IF NOT EXISTS invoices (
    id SERIAL PRIMARY KEY,
    business_id TEXT NOT NULL REFERENCES businesses(id) ON DELETE CASCADE,
    invoice_no TEXT NOT NULL UNIQUE,
    title TEXT NOT NULL,
    tax_no TEXT NOT NULL,
    amount_cents BIGINT NOT NULL,
    type TEXT NOT NULL CHECK (type IN ('normal','special')),
    status TEXT NOT NULL CHECK (status IN ('applying','issued','rejected','red')),
    email TEXT NOT NULL DEFAULT '',
    order_nos TEXT[] NOT NULL DEFAULT '{}',
    created_at TIMESTAMPTZ NOT NULL DEFAULT now()
  )`,
  `CREATE TABLE IF NOT EXISTS invoice_refunds (
    id SERIAL PRIMARY KEY,
    business_id TEXT NOT NULL REFERENCES businesses(id) ON DELETE CASCADE,
    refund_no TEXT NOT NULL UNIQUE,
    invoice_no TEXT NOT NULL,
    amount_cents BIGINT NOT NULL,
    reason TEXT NOT NULL,
    status TEXT NOT NULL CHECK (status IN ('applying','approved','rejected','done')),
    created_at TIMESTAMPTZ NOT NULL DEFAULT now()
  )`,
  `CREATE TABLE IF NOT EXISTS claims (
    id SERIAL PRIMARY KEY,
    business_id TEXT NOT NULL REFERENCES businesses(id) ON DELETE CASCADE,
    claim_no TEXT NOT NULL UNIQUE,
    person_name TEXT NOT NULL,
    id_card TEXT NOT NULL,
    accident_date DATE NOT NULL,
    accident_type TEXT NOT NULL,
    description TEXT NOT NULL DEFAULT '',
    amount_cents BIGINT NOT NULL,
    status TEXT NOT NULL CHECK (status IN ('reported','reviewing','paid','rejected')),
    created_at TIMESTAMPTZ NOT NULL DEFAULT now()
  )`,
  // Claim attachments (uploaded before the claim is submitted) and the claim's list of them.
  ...CLAIM_ATTACHMENT_DDL,
  `CREATE TABLE IF NOT EXISTS bank_accounts (
    id SERIAL PRIMARY KEY,
    business_id TEXT NOT NULL REFERENCES businesses(id) ON DELETE CASCADE,
    account_name TEXT NOT NULL,
    bank_name TEXT NOT NULL,
    account_no TEXT NOT NULL,
    branch TEXT NOT NULL DEFAULT '',
    is_default BOOLEAN NOT NULL DEFAULT false,
    created_at TIMESTAMPTZ NOT NULL DEFAULT now()
  )`,
  // Security: demo accounts are marked so production can refuse to run with them.
  `ALTER TABLE users ADD COLUMN IF NOT EXISTS is_demo BOOLEAN NOT NULL DEFAULT false`,
  `CREATE TABLE IF NOT EXISTS sms_codes (
    id SERIAL PRIMARY KEY,
    phone TEXT NOT NULL,
    purpose TEXT NOT NULL,
    code_hash TEXT NOT NULL,
    expires_at TIMESTAMPTZ NOT NULL,
    attempts INTEGER NOT NULL DEFAULT 0,
    consumed_at TIMESTAMPTZ,
    created_at TIMESTAMPTZ NOT NULL DEFAULT now()
  )`,
  `CREATE INDEX IF NOT EXISTS sms_codes_phone_idx ON sms_codes (phone, purpose, id)`,
  `CREATE TABLE IF NOT EXISTS rate_limits (
    key TEXT NOT NULL,
    window_start TIMESTAMPTZ NOT NULL,
    count INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (key, window_start)
  )`,
  `CREATE INDEX IF NOT EXISTS auth_tokens_user_idx ON auth_tokens (user_id)`,
  ...[
    'insured_persons',
    'insure_batches',
    'insure_records',
    'orders',
    'invoices',
    'invoice_refunds',
    'claims',
    'bank_accounts',
  ].map((t) => `CREATE INDEX IF NOT EXISTS ${t}_business_idx ON ${t} (business_id, id)`),
];

export async function migrate(db: Db): Promise<void> {
  for (const sql of MIGRATIONS) {
    await db.query(sql);
  }
}
