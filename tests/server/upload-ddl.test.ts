import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../src/server/db.ts';
import { applyUploadDdl } from '../../src/server/files/ddl.ts';
import { targets } from './money-helpers.ts';

for (const t of targets()) {
  describe(`insure_uploads upgrade for the confirmation job (${t.name})`, () => {
    let db: Db;
    beforeAll(async () => {
      db = await t.open();
    }, 120_000);
    afterAll(async () => {
      await db?.close();
    });

    it('a database made before it gets the confirming status and the confirm_* columns at start-up, idempotently', async () => {
      // The table as it was: the old status CHECK and no confirm_* columns.
      await db.query(`ALTER TABLE insure_uploads DROP CONSTRAINT insure_uploads_status_check`);
      await db.query(`ALTER TABLE insure_uploads ADD CONSTRAINT insure_uploads_status_check CHECK (status IN ('parsing','ready','failed','confirmed'))`);
      for (const col of ['confirm_done', 'confirm_total', 'confirm_token', 'confirm_result', 'parse_owner', 'parse_attempts', 'stored_bytes', 'files_deleted_at', 'pages_token']) {
        await db.query(`ALTER TABLE insure_uploads DROP COLUMN ${col}`);
      }
      await db.query('DROP TABLE insure_upload_pages');

      await applyUploadDdl(db);
      await applyUploadDdl(db);
      const [{ user_id, business_id }] = await db.query<{ user_id: number; business_id: string }>('SELECT user_id, business_id FROM user_businesses LIMIT 1');
      const [row] = await db.query<{ status: string; confirm_done: number; confirm_total: number; confirm_token: string }>(
        `INSERT INTO insure_uploads (business_id, user_id, file_name, file_ext, file_key, file_size, file_sha256, plan_name, start_date, status, confirm_total, confirm_token)
         VALUES ($1, $2, 'a.csv', 'csv', 'k', 1, 'x', 'p', '2030-01-01', 'confirming', 7, 'tok') RETURNING status, confirm_done, confirm_total, confirm_token`,
        [business_id, user_id],
      );
      expect(row).toEqual({ status: 'confirming', confirm_done: 0, confirm_total: 7, confirm_token: 'tok' });
      // And the parse queue's columns, the expired status and the pages table.
      const [q] = await db.query<{ id: number; parse_owner: string | null; parse_attempts: number; stored_bytes: string }>(
        `INSERT INTO insure_uploads (business_id, user_id, file_name, file_ext, file_key, file_size, file_sha256, plan_name, start_date, status)
         VALUES ($1, $2, 'b.csv', 'csv', 'k2', 1, 'x', 'p', '2030-01-01', 'expired') RETURNING id, parse_owner, parse_attempts, stored_bytes::text`,
        [business_id, user_id],
      );
      expect(q).toMatchObject({ parse_owner: null, parse_attempts: 0, stored_bytes: '0' });
      await db.query(`INSERT INTO insure_upload_pages (upload_id, token, page, data) VALUES ($1, 't', 0, '{}')`, [q.id]);
      await expect(db.query(`UPDATE insure_uploads SET status = 'other' WHERE confirm_token = 'tok'`)).rejects.toThrow(/insure_uploads_status_check/);
      const checks = await db.query(`SELECT 1 FROM pg_constraint WHERE conrelid = to_regclass('insure_uploads') AND contype = 'c' AND conname LIKE 'insure_uploads_status%'`);
      expect(checks).toHaveLength(1);
    });
  });
}
