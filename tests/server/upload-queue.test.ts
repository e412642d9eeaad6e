import { readdirSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../src/server/db.ts';
import { claimNext } from '../../src/server/routes/insure-upload-queue.ts';
import { purgeUploads } from '../../src/server/routes/insure-upload-purge.ts';
import { PARSE_INTERRUPTED, SETTLE_STALE_PARSES, STALE_PARSE_SECONDS, UPLOAD_EXPIRED } from '../../src/server/routes/insure-upload-store.ts';
import { LocalFileStorage } from '../../src/server/files/storage.ts';
import { BIZ_ADMIN, BIZ_OPERATOR, boot, makeIdCard, useFilesDir, type Client } from './helpers.ts';
import { targets, useTargetDb } from './money-helpers.ts';
import { count, monthPlan, previewRows, rosterXlsx, START, upload, waitParsed } from './upload-helpers.ts';

const id = (seq: number) => makeIdCard('320102', '19880512', seq);

for (const t of targets()) {
  describe(`the parse queue in the database (${t.name})`, () => {
    const db = useTargetDb(t);
    const queued = async (biz: string, name: string): Promise<number> => {
      const [{ user_id }] = await db.query<{ user_id: number }>('SELECT user_id FROM user_businesses WHERE business_id = $1 LIMIT 1', [biz]);
      const [r] = await db.query<{ id: number }>(
        `INSERT INTO insure_uploads (business_id, user_id, file_name, file_ext, file_key, file_size, file_sha256, plan_name, start_date, status)
         VALUES ($1, $2, $3, 'csv', $3, 1, 'x', 'p', '2030-01-01', 'parsing') RETURNING id`,
        [biz, user_id, name],
      );
      return r.id;
    };

    it('claims the oldest waiting upload of a business with no parse running: one business never holds every worker', async () => {
      const [a1, a2, a3] = [await queued(BIZ_ADMIN, 'a1'), await queued(BIZ_ADMIN, 'a2'), await queued(BIZ_ADMIN, 'a3')];
      const b1 = await queued(BIZ_OPERATOR, 'b1');
      expect((await claimNext(db))?.id).toBe(a1);
      // A's other files wait while a1 runs, whatever the free workers: B's goes next.
      expect((await claimNext(db))?.id).toBe(b1);
      expect(await claimNext(db)).toBeNull();
      await db.query(`UPDATE insure_uploads SET status = 'ready', parse_owner = NULL WHERE id = $1`, [a1]);
      expect((await claimNext(db))?.id).toBe(a2);
      const [row] = await db.query<{ parse_owner: string; parse_attempts: number }>('SELECT parse_owner, parse_attempts FROM insure_uploads WHERE id = $1', [a2]);
      expect(row.parse_attempts).toBe(1);
      expect(row.parse_owner).toMatch(/^[0-9a-f-]{36}$/);
      // The database refuses a second claimed parse of one business, however the claims race.
      await expect(db.query(`UPDATE insure_uploads SET parse_owner = 'x' WHERE id = $1`, [a3])).rejects.toThrow(/insure_uploads_one_parse_idx/);
      await db.query(`UPDATE insure_uploads SET status = 'failed' WHERE id = ANY($1::int[])`, [[a2, a3, b1]]);
    });

    it('claims racing from several processes take each upload once and one per business', async () => {
      const ids = [await queued(BIZ_ADMIN, 'r1'), await queued(BIZ_ADMIN, 'r2'), await queued(BIZ_OPERATOR, 'r3'), await queued(BIZ_OPERATOR, 'r4')];
      const claims = (await Promise.all(Array.from({ length: 6 }, () => claimNext(db)))).filter((c) => c !== null);
      expect(claims.map((c) => c.businessId).sort()).toEqual([BIZ_ADMIN, BIZ_OPERATOR]);
      expect(await count({ server: { db } } as never, `SELECT 1 FROM insure_uploads WHERE id = ANY($1::int[]) AND parse_owner IS NOT NULL`, [ids])).toBe(2);
      await db.query(`UPDATE insure_uploads SET status = 'failed', parse_owner = NULL WHERE id = ANY($1::int[])`, [ids]);
    });

    it('a claim whose heartbeat stopped is queued again once, then failed', async () => {
      const u = await queued(BIZ_ADMIN, 'stale');
      const settle = () => db.query(SETTLE_STALE_PARSES(''), [PARSE_INTERRUPTED, STALE_PARSE_SECONDS]);
      const age = () => db.query(`UPDATE insure_uploads SET updated_at = now() - make_interval(secs => $2) WHERE id = $1`, [u, STALE_PARSE_SECONDS + 1]);
      expect((await claimNext(db))?.id).toBe(u);
      await settle();
      expect(await count({ server: { db } } as never, `SELECT 1 FROM insure_uploads WHERE id = $1 AND parse_owner IS NOT NULL`, [u])).toBe(1); // fresh: kept
      await age();
      await settle();
      const [back] = await db.query<{ status: string; parse_owner: string | null }>('SELECT status, parse_owner FROM insure_uploads WHERE id = $1', [u]);
      expect(back).toEqual({ status: 'parsing', parse_owner: null });
      expect((await claimNext(db))?.id).toBe(u);
      await age();
      await settle();
      const [failed] = await db.query<{ status: string; error: string }>('SELECT status, error FROM insure_uploads WHERE id = $1', [u]);
      expect(failed).toEqual({ status: 'failed', error: PARSE_INTERRUPTED });
    });
  });

  describe(`uploads through the gateway: counts, quota and expiry (${t.name})`, () => {
    let db: Db;
    let c: Client;
    let plan: string;
    const stored = useFilesDir('upload-queue-');
    beforeAll(async () => {
      db = await t.openEmpty();
      c = await boot({ db });
      await c.login();
      plan = await monthPlan(c);
    }, 120_000);
    afterAll(async () => {
      delete process.env.UPLOAD_QUOTA_MB;
      await c?.server.close();
      await db?.close();
    });
    const files = () => readdirSync(stored.dir, { recursive: true }).filter((f) => String(f).match(/\.(xlsx|csv)$/));

    it('counts every row once: 有效 + 有误 + 重复 = 共 (a wrong row that is also a duplicate is 有误)', async () => {
      const bytes = await rosterXlsx([
        ['王小明', id(1), '13900000001', '普工'],
        ['李小红', id(2), '13900000002', ''],
        ['王小明', id(1), '1390000', ''], // duplicate of row 2 and a wrong phone
        ['张', id(3), '', ''], // wrong name
        ['赵大力', id(2), '', ''], // duplicate of row 3
      ]);
      const r = await upload(c, { name: 'counts.xlsx', bytes }, { planName: plan, startDate: START() });
      const s = await waitParsed(c, r.body.data.id);
      expect(s.counts).toEqual({ total: 5, valid: 2, errors: 2, duplicates: 1 });
      expect(s.counts.valid + s.counts.errors + s.counts.duplicates).toBe(s.counts.total);
      const [row] = await db.query<{ v: number; e: number; d: number; t: number }>(
        'SELECT valid_count AS v, error_count AS e, duplicate_count AS d, rows_total AS t FROM insure_uploads WHERE id = $1',
        [r.body.data.id],
      );
      expect(row).toEqual({ v: 2, e: 2, d: 1, t: 5 });
    });

    it('refuses an upload beyond the business quota of stored, unconfirmed files, storing nothing', async () => {
      const before = { rows: await count(c, 'SELECT 1 FROM insure_uploads'), files: files().length };
      const [{ n }] = await db.query<{ n: number }>(
        `SELECT coalesce(sum(stored_bytes), 0)::float8 AS n FROM insure_uploads WHERE business_id = $1 AND status <> 'confirmed' AND files_deleted_at IS NULL`,
        [BIZ_ADMIN],
      );
      process.env.UPLOAD_QUOTA_MB = String((n + 100) / 1024 / 1024);
      try {
        const bytes = await rosterXlsx([['王小明', id(11), '', '']]);
        const r = await upload(c, { name: 'over.xlsx', bytes }, { planName: plan, startDate: START() });
        expect(r.status).toBe(400);
        expect(r.body.message).toMatch(/^本企业待确认的名单文件已达存储上限（\d+ MB），请先确认已上传的名单，或等未确认的上传过期（24 小时）后再上传$/);
        expect(r.body.errors).toEqual([{ field: 'file', message: r.body.message }]);
        expect(await count(c, 'SELECT 1 FROM insure_uploads')).toBe(before.rows);
        expect(files().length).toBe(before.files);
        // Another business has its own quota.
        const other = await upload(c, { name: 'other.xlsx', bytes }, { planName: plan, startDate: START() }, { 'x-company-id': BIZ_OPERATOR });
        expect(other.status).toBe(202);
        expect((await waitParsed(c, other.body.data.id, BIZ_OPERATOR)).status).toBe('ready');
      } finally {
        delete process.env.UPLOAD_QUOTA_MB;
      }
    });

    it('expires uploads left unconfirmed: files, error workbook and pages deleted, preview and confirmation refused; purging twice at once is safe', async () => {
      const bytes = await rosterXlsx([
        ['王小明', id(21), '13900000021', ''],
        ['李', id(22), '', ''],
      ]);
      const r = await upload(c, { name: 'abandoned.xlsx', bytes }, { planName: plan, startDate: START() });
      const uid = r.body.data.id;
      await waitParsed(c, uid);
      const [u] = await db.query<{ file_key: string; error_key: string }>('SELECT file_key, error_key FROM insure_uploads WHERE id = $1', [uid]);
      expect(files()).toEqual(expect.arrayContaining([u.file_key, u.error_key]));
      expect(await count(c, 'SELECT 1 FROM insure_upload_pages WHERE upload_id = $1', [uid])).toBe(1);

      const storage = new LocalFileStorage(stored.dir);
      // A day without activity is not yet enough to expire; a day and a minute is.
      await db.query(`UPDATE insure_uploads SET updated_at = now() - interval '23 hours 59 minutes' WHERE id = $1`, [uid]);
      await purgeUploads({ db, storage });
      expect((await c.call('GET', `/api/insure-uploads/${uid}`)).body.data.status).toBe('ready');
      await db.query(`UPDATE insure_uploads SET updated_at = now() - interval '24 hours 1 minute' WHERE id = $1`, [uid]);
      const [a, b] = await Promise.all([purgeUploads({ db, storage }), purgeUploads({ db, storage })]);
      expect(a.expired + b.expired).toBe(1);

      expect(files()).not.toContain(u.file_key);
      expect(files()).not.toContain(u.error_key);
      expect(await count(c, 'SELECT 1 FROM insure_upload_pages WHERE upload_id = $1', [uid])).toBe(0);
      expect(await count(c, `SELECT 1 FROM insure_uploads WHERE id = $1 AND stored_bytes = 0 AND files_deleted_at IS NOT NULL AND result IS NULL`, [uid])).toBe(1);
      const s = (await c.call('GET', `/api/insure-uploads/${uid}`)).body.data;
      expect(s).toMatchObject({ status: 'expired', error: UPLOAD_EXPIRED });
      const p = await c.call('GET', `/api/insure-uploads/${uid}/preview`);
      expect(p.status).toBe(400);
      expect(p.body.message).toBe(UPLOAD_EXPIRED);
      const batches = await count(c, 'SELECT 1 FROM insure_batches');
      const confirm = await c.call('POST', '/api/insure-uploads/confirm', { body: { uploadId: uid, planName: plan, startDate: START() } });
      expect(confirm.status).toBe(400);
      expect(confirm.body.message).toBe(UPLOAD_EXPIRED);
      expect(await count(c, 'SELECT 1 FROM insure_batches')).toBe(batches);
    });

    it('a parse whose process died is queued again and finished by the queue; the pages it left never count', async () => {
      const bytes = await rosterXlsx([['王小明', id(31), '13900000031', '']]);
      const r = await upload(c, { name: 'orphan.xlsx', bytes }, { planName: plan, startDate: START() });
      const uid = r.body.data.id;
      await waitParsed(c, uid);
      // As if a process had claimed it and died a minute ago.
      await db.query(
        `UPDATE insure_uploads SET status = 'parsing', parse_owner = 'dead', parse_attempts = 1, result = NULL, updated_at = now() - make_interval(secs => $2) WHERE id = $1`,
        [uid, STALE_PARSE_SECONDS + 1],
      );
      await db.query(`INSERT INTO insure_upload_pages (upload_id, token, page, data) VALUES ($1, 'dead', 0, '{"rows":[["假的"]]}'), ($1, 'dead', 1, '{}')`, [uid]);
      expect((await c.call('GET', `/api/insure-uploads/${uid}`)).body.data).toMatchObject({ status: 'parsing', phase: 'queued' });
      const s = await waitParsed(c, uid);
      expect(s).toMatchObject({ status: 'ready', counts: { total: 1, valid: 1, errors: 0, duplicates: 0 } });
      expect((await previewRows(c, uid)).rows).toEqual([['王小明', id(31), '13900000031', '']]);
      expect(await count(c, `SELECT 1 FROM insure_upload_pages WHERE upload_id = $1 AND token = 'dead'`, [uid])).toBe(0);
      expect((await c.call('GET', `/api/insure-uploads/${uid}/rows?page=1`)).status).toBe(404);
    });
  });
}
