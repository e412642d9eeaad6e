import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../src/server/db.ts';
import { ensureSerialSequence, formatSerialNo, serialNos } from '../../src/server/entity/serial.ts';
import { resumeStaleConfirmations } from '../../src/server/routes/insure-upload-confirm-resume.ts';
import { repoEntities } from '../../src/server/entity/repo.ts';
import { CONFIRM_INTERRUPTED } from '../../src/server/routes/insure-upload-store.ts';
import { purgeExpired } from '../../src/server/services/purge.ts';
import { BIZ_ADMIN, boot, type Client } from './helpers.ts';
import { people, targets } from './money-helpers.ts';
import { balanceCents, count, monthPlan, START, upload, waitParsed } from './upload-helpers.ts';

const log = pino({ level: 'silent' });

for (const t of targets()) {
  describe(`generated numbers (${t.name})`, () => {
    let db: Db;
    beforeAll(async () => {
      db = await t.open();
    }, 120_000);
    afterAll(async () => db?.close());

    it('one format: prefix, the business-local date, at least 5 digits', () => {
      // 2026-11-25 17:30 UTC is already the 26th in Shanghai.
      expect(formatSerialNo('OD', 11, new Date('2026-11-25T17:30:00Z'))).toBe('OD2026112600011');
      expect(formatSerialNo('LP', 1234567, new Date('2026-11-25T01:00:00Z'))).toBe('LP202611251234567');
    });

    it('demo data and new numbers share it; numbers never repeat, even drawn in parallel', async () => {
      const stored = await db.query<{ no: string }>(
        `SELECT order_no AS no FROM orders UNION ALL SELECT claim_no FROM claims UNION ALL SELECT invoice_no FROM invoices
         UNION ALL SELECT refund_no FROM invoice_refunds UNION ALL SELECT batch_no FROM insure_batches`,
      );
      expect(stored.length).toBeGreaterThan(50);
      for (const r of stored) expect(r.no).toMatch(/^(OD|LP|FP|TP|PB)\d{8}\d{5,}$/);
      const drawn = (await Promise.all(Array.from({ length: 40 }, () => serialNos(db, 'OD', 5)))).flat();
      expect(new Set([...drawn, ...stored.map((r) => r.no)]).size).toBe(drawn.length + stored.length);
    });

    it('a database whose numbers predate the sequence moves it past them', async () => {
      const empty = await t.openEmpty();
      try {
        await empty.query(`CREATE TABLE nos (no TEXT)`);
        await empty.query(`INSERT INTO nos VALUES ('OD2026112500011'), ('OD2026112500042'), ('OD20261125172118065918'), ('PB202611250003')`);
        await ensureSerialSequence(empty, [['nos', 'no']]);
        const [next] = await serialNos(empty, 'OD', 1, new Date('2026-11-25T04:00:00Z'));
        expect(next).toBe('OD2026112500043');
        // Only once: an existing sequence is left as it is.
        await empty.query(`INSERT INTO nos VALUES ('OD2026112500999')`);
        await ensureSerialSequence(empty, [['nos', 'no']]);
        expect(await serialNos(empty, 'OD', 1, new Date('2026-11-25T04:00:00Z'))).toEqual(['OD2026112500044']);
      } finally {
        await empty.close();
      }
    });

    it('expired sessions, codes, idempotency records and rate-limit windows are purged; live ones stay', async () => {
      const [u] = await db.query<{ id: number }>('SELECT id FROM users ORDER BY id LIMIT 1');
      await db.query(`DELETE FROM auth_tokens`);
      await db.query(
        `INSERT INTO auth_tokens (token_hash, user_id, family, kind, expires_at) VALUES
           ('dead', $1, 'f', 'access', now() - interval '3 days'), ('live', $1, 'f', 'refresh', now() + interval '10 days')`,
        [u.id],
      );
      await db.query(
        `INSERT INTO sms_codes (phone, purpose, code_hash, expires_at, consumed_at) VALUES
           ('13800000000', 'reset-password', 'x', now() - interval '2 days', NULL),
           ('13800000000', 'reset-password', 'x', now() + interval '1 day', now() - interval '2 days'),
           ('13800000001', 'set-password', 'x', now() + interval '2 days', NULL)`,
      );
      await db.query(
        `INSERT INTO idempotency_keys (user_id, key, method, path, request_hash, created_at) VALUES
           ($1, 'old', 'POST', '/x', 'h', now() - interval '25 hours'), ($1, 'new', 'POST', '/x', 'h', now())`,
        [u.id],
      );
      await db.query(`INSERT INTO rate_limits (key, window_start, count) VALUES ('api:old', now() - interval '3 days', 1), ('api:new', now(), 1)`);
      const gone = await purgeExpired(db);
      expect(gone).toMatchObject({ auth_tokens: 1, sms_codes: 2, idempotency_keys: 1 });
      expect(gone.rate_limits).toBeGreaterThanOrEqual(1);
      expect((await db.query(`SELECT token_hash FROM auth_tokens`)).map((r) => r.token_hash)).toEqual(['live']);
      expect(await db.query(`SELECT phone FROM sms_codes`)).toEqual([{ phone: '13800000001' }]);
      expect((await db.query(`SELECT key FROM idempotency_keys WHERE key IN ('old', 'new')`)).map((r) => r.key)).toEqual(['new']);
      expect((await db.query(`SELECT key FROM rate_limits WHERE key LIKE 'api:%'`)).map((r) => r.key)).toContain('api:new');
      expect(await db.query(`SELECT key FROM rate_limits WHERE key = 'api:old'`)).toEqual([]);
    });
  });

  describe(`a confirmation whose gateway died is taken over and finished once (${t.name})`, () => {
    let db: Db;
    let c: Client;
    let plan = '';
    let uploadId = 0;
    const rows = people(30, 880_000);
    const cards = rows.map((r) => r.idCard);

    beforeAll(async () => {
      db = await t.openEmpty();
      c = await boot({ db });
      await c.login();
      plan = await monthPlan(c);
      const csv = ['姓名,身份证号,手机号,工种', ...rows.map((r) => `${r.name},${r.idCard},${r.phone},${r.jobType}`)].join('\r\n');
      const r = await upload(c, { name: '名单.csv', bytes: Buffer.from(csv, 'utf8') }, { planName: plan, startDate: START() });
      uploadId = r.body.data.id;
      await waitParsed(c, uploadId);
    }, 300_000);
    afterAll(async () => {
      await c?.server.close();
      await db?.close();
    });

    it('runs again from its stored input under a new token: every person insured once, charged once, the dead token locked out', async () => {
      const before = await balanceCents(c);
      // As a gateway leaves it when killed in the middle: confirming, its token, its input, no heartbeat for 10 minutes.
      await db.query(
        `UPDATE insure_uploads SET status = 'confirming', confirm_token = 'dead-gateway', confirm_total = $2, confirm_done = 7,
                confirm_input = $3::jsonb, confirm_attempts = 0, updated_at = now() - interval '10 minutes' WHERE id = $1`,
        [uploadId, rows.length, JSON.stringify({ planName: plan, startDate: START() })],
      );
      const jobs = new Set<Promise<void>>();
      expect(await resumeStaleConfirmations(db, repoEntities().registry, log, jobs)).toBe(1);
      await Promise.all([...jobs]);
      const s = (await c.call('GET', `/api/insure-uploads/${uploadId}`)).body.data;
      expect(s).toMatchObject({ status: 'confirmed', confirmPercent: 100, error: null });
      expect(await count(c, 'SELECT 1 FROM insured_persons WHERE business_id = $1 AND id_card = ANY($2::text[])', [BIZ_ADMIN, cards])).toBe(rows.length);
      expect(await count(c, 'SELECT 1 FROM insure_records WHERE business_id = $1 AND id_card = ANY($2::text[])', [BIZ_ADMIN, cards])).toBe(rows.length);
      expect(await count(c, 'SELECT 1 FROM insure_batches WHERE id = (SELECT batch_id FROM insure_uploads WHERE id = $1)', [uploadId])).toBe(1);
      const [{ amount }] = await db.query<{ amount: number }>(
        `SELECT sum(amount_cents)::float8 AS amount FROM orders WHERE batch_id = (SELECT batch_id FROM insure_uploads WHERE id = $1)`,
        [uploadId],
      );
      expect(await balanceCents(c)).toBe(before - Number(amount));
      // Nothing is left to take over, and the dead job's token can no longer write.
      expect(await resumeStaleConfirmations(db, repoEntities().registry, log, jobs)).toBe(0);
      expect(await count(c, `SELECT 1 FROM insure_uploads WHERE id = $1 AND confirm_token = 'dead-gateway'`, [uploadId])).toBe(0);
    });

    it('a job taken over three times, or one without stored input, goes back to ready for the user', async () => {
      await db.query(
        `UPDATE insure_uploads SET status = 'confirming', batch_id = NULL, confirm_token = 'x', confirm_attempts = 3, updated_at = now() - interval '10 minutes' WHERE id = $1`,
        [uploadId],
      );
      expect(await resumeStaleConfirmations(db, repoEntities().registry, log, new Set())).toBe(0);
      const s = (await c.call('GET', `/api/insure-uploads/${uploadId}`)).body.data;
      expect(s).toMatchObject({ status: 'ready', error: CONFIRM_INTERRUPTED });
    });
  });
}
