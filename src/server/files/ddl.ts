import type { Db, Queryable } from '../db.ts';

/**
 * Roster uploads waiting for confirmation (upload → background parse → preview → confirm). Every
 * piece of an upload's state lives here, not in the gateway's memory, so any gateway process can
 * answer its status, preview and confirmation. The original file is in the file storage (file_key);
 * the parse result (all rows, errors, in-file duplicates) is `result`.
 */
export const UPLOAD_DDL: string[] = [
  `CREATE TABLE IF NOT EXISTS insure_uploads (
    id SERIAL PRIMARY KEY,
    business_id TEXT NOT NULL REFERENCES businesses(id) ON DELETE CASCADE,
    user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    uploader TEXT NOT NULL DEFAULT '',
    file_name TEXT NOT NULL,
    file_ext TEXT NOT NULL,
    file_key TEXT NOT NULL,
    file_size INTEGER NOT NULL CHECK (file_size >= 0),
    file_sha256 TEXT NOT NULL,
    error_key TEXT,
    plan_name TEXT NOT NULL,
    start_date DATE NOT NULL,
    status TEXT NOT NULL CONSTRAINT insure_uploads_status_check CHECK (status IN ('parsing','ready','failed','confirming','confirmed')),
    rows_done INTEGER NOT NULL DEFAULT 0 CHECK (rows_done >= 0),
    rows_total INTEGER NOT NULL DEFAULT 0 CHECK (rows_total >= 0),
    valid_count INTEGER NOT NULL DEFAULT 0,
    error_count INTEGER NOT NULL DEFAULT 0,
    duplicate_count INTEGER NOT NULL DEFAULT 0,
    error TEXT,
    result JSONB,
    batch_id INTEGER REFERENCES insure_batches(id) ON DELETE SET NULL,
    created_at TIMESTAMPTZ NOT NULL DEFAULT now(),
    updated_at TIMESTAMPTZ NOT NULL DEFAULT now()
  )`,
  `CREATE INDEX IF NOT EXISTS insure_uploads_business_idx ON insure_uploads (business_id, created_at DESC)`,
  `CREATE UNIQUE INDEX IF NOT EXISTS insure_uploads_batch_idx ON insure_uploads (batch_id) WHERE batch_id IS NOT NULL`,
  // The confirmation runs as a background job (routes/insure-upload-confirm-job.ts): status
  // 'confirming', persons insured so far / to insure, the job's token (only that job may finish it)
  // and the confirmation's answer once confirmed. Databases created before it get the wider CHECK.
  `DO $$ BEGIN
     IF NOT EXISTS (SELECT 1 FROM pg_constraint WHERE conrelid = to_regclass('insure_uploads') AND conname = 'insure_uploads_status_check'
                      AND pg_get_constraintdef(oid) LIKE '%confirming%') THEN
       ALTER TABLE insure_uploads DROP CONSTRAINT IF EXISTS insure_uploads_status_check;
       ALTER TABLE insure_uploads ADD CONSTRAINT insure_uploads_status_check
         CHECK (status IN ('parsing','ready','failed','confirming','confirmed'));
     END IF;
   END $$`,
  `ALTER TABLE insure_uploads ADD COLUMN IF NOT EXISTS confirm_done INTEGER NOT NULL DEFAULT 0 CHECK (confirm_done >= 0)`,
  `ALTER TABLE insure_uploads ADD COLUMN IF NOT EXISTS confirm_total INTEGER NOT NULL DEFAULT 0 CHECK (confirm_total >= 0)`,
  `ALTER TABLE insure_uploads ADD COLUMN IF NOT EXISTS confirm_token TEXT`,
  `ALTER TABLE insure_uploads ADD COLUMN IF NOT EXISTS confirm_result JSONB`,
  // What was confirmed (plan, start date, the rows typed over the file's, if any), so another gateway can
  // take over a job whose gateway died, and how often the job was taken over (routes/insure-upload-confirm-resume.ts).
  `ALTER TABLE insure_uploads ADD COLUMN IF NOT EXISTS confirm_input JSONB`,
  `ALTER TABLE insure_uploads ADD COLUMN IF NOT EXISTS confirm_attempts INTEGER NOT NULL DEFAULT 0`,
  `CREATE INDEX IF NOT EXISTS insure_uploads_confirming_idx ON insure_uploads (updated_at) WHERE status = 'confirming'`,
  // Parse queue (routes/insure-upload-queue.ts): an upload waits as 'parsing' with no parse_owner until a
  // gateway process claims it (parse_owner = that claim's token); at most one claimed parse per business,
  // so one business never holds every parse worker. 'expired': an upload left unconfirmed whose files
  // were purged (routes/insure-upload-purge.ts); stored_bytes counts against the business's quota.
  `DO $$ BEGIN
     IF NOT EXISTS (SELECT 1 FROM pg_constraint WHERE conrelid = to_regclass('insure_uploads') AND conname = 'insure_uploads_status_check'
                      AND pg_get_constraintdef(oid) LIKE '%expired%') THEN
       ALTER TABLE insure_uploads DROP CONSTRAINT IF EXISTS insure_uploads_status_check;
       ALTER TABLE insure_uploads ADD CONSTRAINT insure_uploads_status_check
         CHECK (status IN ('parsing','ready','failed','confirming','confirmed','expired'));
     END IF;
   END $$`,
  `ALTER TABLE insure_uploads ADD COLUMN IF NOT EXISTS parse_owner TEXT`,
  `ALTER TABLE insure_uploads ADD COLUMN IF NOT EXISTS parse_attempts INTEGER NOT NULL DEFAULT 0`,
  `ALTER TABLE insure_uploads ADD COLUMN IF NOT EXISTS stored_bytes BIGINT NOT NULL DEFAULT 0 CHECK (stored_bytes >= 0)`,
  `ALTER TABLE insure_uploads ADD COLUMN IF NOT EXISTS files_deleted_at TIMESTAMPTZ`,
  `ALTER TABLE insure_uploads ADD COLUMN IF NOT EXISTS pages_token TEXT`,
  `CREATE UNIQUE INDEX IF NOT EXISTS insure_uploads_one_parse_idx ON insure_uploads (business_id) WHERE status = 'parsing' AND parse_owner IS NOT NULL`,
  `CREATE INDEX IF NOT EXISTS insure_uploads_queue_idx ON insure_uploads (id) WHERE status = 'parsing' AND parse_owner IS NULL`,
  `CREATE INDEX IF NOT EXISTS insure_uploads_pending_idx ON insure_uploads (business_id) WHERE status <> 'confirmed' AND files_deleted_at IS NULL`,
  // The parsed rows in pages of JSON text (the browser loads them page by page; the confirmation reads
  // them all), written by the parse that claimed the upload under its token: the upload's pages_token
  // names the pages that count, so a parse that lost its claim never mixes its pages in. Text, not
  // JSONB: passed through as it is, and two to three times faster to write and read on PGlite.
  `CREATE TABLE IF NOT EXISTS insure_upload_pages (
    upload_id INTEGER NOT NULL REFERENCES insure_uploads(id) ON DELETE CASCADE,
    token TEXT NOT NULL,
    page INTEGER NOT NULL CHECK (page >= 0),
    data TEXT NOT NULL,
    PRIMARY KEY (upload_id, token, page)
  )`,
];

/** Idempotent; run at every start-up after the base tables exist (migrateAll). */
export async function applyUploadDdl(db: Db | Queryable): Promise<void> {
  for (const sql of UPLOAD_DDL) await db.query(sql);
}
