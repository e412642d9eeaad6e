import type { Db } from './db.ts';
import { DOMAIN_COLUMNS, MONEY_DDL } from './domain/ddl.ts';
import { UPLOAD_DDL } from './files/ddl.ts';
import { FIXED_DDL, indexNamesIn, migrateEntities, type MigrateReport } from './entity/migrate.ts';
import { entitiesAt, REPO_ROOT } from './entity/repo.ts';
import { CLAIM_ATTACHMENT_DDL } from './domain/attachments.ts';
import { LEGACY_PLANS_DDL } from './domain/plans.ts';
import { STORED_FILES_DDL } from './files/storage-db.ts';
import { columnOf, tableOf } from './entity/ddl.ts';
import { ensureSerialSequence } from './entity/serial.ts';

/**
 * Idempotent schema of the tables that are not entities (accounts, sessions, SMS codes, rate limits).
 * The business tables (orders, invoices, claims, …) come from the entity schemas: see migrate().
 * Every statement is standalone so it runs the same on PGlite and on PostgreSQL.
 */
export const MIGRATIONS: string[] = [
  // Accounts, businesses, memberships, sessions: defined once with the entity migration's fixed tables.
  ...FIXED_DDL,
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
  // Counters every API request bumps: UNLOGGED, so the bump writes no WAL and waits for no disk flush
  // (after a crash the table comes back empty, which only forgets the last minute's counts).
  `CREATE UNLOGGED TABLE IF NOT EXISTS rate_limits (
    key TEXT NOT NULL,
    window_start TIMESTAMPTZ NOT NULL,
    count INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (key, window_start)
  )`,
  `DO $$ BEGIN
     IF EXISTS (SELECT 1 FROM pg_class WHERE oid = to_regclass('rate_limits') AND relpersistence = 'p') THEN
       ALTER TABLE rate_limits SET UNLOGGED;
     END IF;
   END $$`,
  `CREATE INDEX IF NOT EXISTS auth_tokens_user_idx ON auth_tokens (user_id)`,
  // Purged on a schedule (services/purge.ts) by expiry.
  `CREATE INDEX IF NOT EXISTS auth_tokens_expires_idx ON auth_tokens (expires_at)`,
  `CREATE INDEX IF NOT EXISTS sms_codes_expires_idx ON sms_codes (expires_at)`,
  // Onboarding (src/server/onboarding.ts): a business's tax number (统一社会信用代码), one business per number.
  `ALTER TABLE businesses ADD COLUMN IF NOT EXISTS tax_no TEXT NOT NULL DEFAULT ''`,
  `CREATE UNIQUE INDEX IF NOT EXISTS businesses_tax_no_idx ON businesses (tax_no) WHERE tax_no <> ''`,
  // Files every gateway reads when the database is PostgreSQL or in memory (files/storage-config.ts).
  STORED_FILES_DDL,
  // Plans stored before they were an entity take the entity's shape before the entity migration looks.
  LEGACY_PLANS_DDL,
];

export interface MigrateOptions {
  /** Directory holding schemas/ (default: the repository root). */
  schemaRoot?: string;
}

/**
 * What code owns on entity tables, which the entity migration neither reports nor drops: the money
 * rules' bookkeeping columns, and the indexes the money rules, uploads and attachments create.
 */
export function codeOwned(): { codeColumns: Record<string, readonly string[]>; codeIndexes: string[] } {
  return { codeColumns: DOMAIN_COLUMNS, codeIndexes: indexNamesIn([...MIGRATIONS, ...MONEY_DDL, ...UPLOAD_DDL, ...CLAIM_ATTACHMENT_DDL]) };
}

/**
 * The base schema: the fixed tables above, then every entity table with its columns and indexes
 * (src/server/entity/migrate.ts: additive, destructive changes refused). Columns the money rules own
 * (src/server/domain/ddl.ts, applied after this) are left to them.
 */
export async function migrate(db: Db, opts: MigrateOptions = {}): Promise<MigrateReport> {
  for (const sql of MIGRATIONS) {
    await db.query(sql);
  }
  const root = opts.schemaRoot ?? REPO_ROOT;
  const { registry, migrationsDir } = entitiesAt(root);
  const report = await migrateEntities(db, { entities: Object.values(registry.entities), migrationsDir, ...codeOwned() });
  // Claim attachments reference claims (an entity table), so they follow the entity migration.
  for (const sql of CLAIM_ATTACHMENT_DDL) await db.query(sql);
  // Generated numbers (entity fields with a "serial:" default) come from one sequence (entity/serial.ts).
  const serialColumns = Object.values(registry.entities).flatMap((e) =>
    e.storage === false ? [] : Object.entries(e.fields).filter(([, f]) => String(f.default ?? '').startsWith('serial:')).map(([k, f]) => [tableOf(e), columnOf(k, f)] as [string, string]),
  );
  await ensureSerialSequence(db, serialColumns);
  return report;
}
