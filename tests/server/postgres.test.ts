import { afterAll, describe, expect, it } from 'vitest';
import { openDb, openPostgres, type Db } from '../../src/server/db.ts';
import { migrate } from '../../src/server/migrate.ts';
import { seed } from '../../src/server/seed.ts';
import { migrateAll, startServer, type RunningServer } from '../../src/server/server.ts';
import { DEMO } from './helpers.ts';

const url = process.env.TEST_DATABASE_URL;
// In CI PostgreSQL is required: a missing URL is a failure, not a skip.
const required = !!process.env.CI;

/**
 * Runs the same migrations, seed and queries against real PostgreSQL.
 * The target database is wiped first (all gateway tables are dropped), so point it at a scratch DB.
 */
describe('real PostgreSQL (TEST_DATABASE_URL)', () => {
  let db: Db | undefined;
  let server: RunningServer | undefined;
  afterAll(async () => {
    await server?.close();
    await db?.close();
  });

  it.runIf(required && !url)('TEST_DATABASE_URL is set (required when CI is set)', () => {
    expect(url, 'CI is set but TEST_DATABASE_URL is missing: start PostgreSQL (scripts/ci-postgres.sh)').toBeTruthy();
  });

  it.skipIf(!url)('two processes migrating one empty database at once both succeed, one after the other', async () => {
    const schema = `race_${process.pid}_${Date.now()}`;
    const admin = await openPostgres(url!);
    await admin.query('CREATE EXTENSION IF NOT EXISTS pg_trgm SCHEMA public').catch(() => undefined);
    await admin.query(`CREATE SCHEMA ${schema}`);
    const at = new URL(url!);
    at.searchParams.set('options', `-c search_path=${schema}`);
    const [a, b] = [await openPostgres(at.toString()), await openPostgres(at.toString())];
    try {
      // Without the lock: "tuple concurrently updated" or a duplicate key in the catalog, in most runs.
      await Promise.all([migrateAll(a), migrateAll(b)]);
      const [{ n }] = await a.query<{ n: number }>(`SELECT count(*)::int AS n FROM information_schema.tables WHERE table_schema = $1 AND table_name IN ('orders', 'insured_persons', 'users')`, [schema]);
      expect(n).toBe(3);
    } finally {
      await a.close();
      await b.close();
      await admin.query(`DROP SCHEMA ${schema} CASCADE`);
      await admin.close();
    }
  });

  it.skipIf(!url)('migrates, seeds and serves scoped lists', async () => {
    db = await openDb({ databaseUrl: url });
    expect(db.driver).toBe('postgres');
    for (const t of ['insure_batch_rows', 'rate_limits', 'sms_codes', 'bank_accounts', 'claims', 'invoice_refunds', 'invoices', 'orders', 'insure_records', 'insure_batches', 'insured_persons', 'auth_tokens', 'user_businesses', 'businesses', 'users']) {
      await db.query(`DROP TABLE IF EXISTS ${t} CASCADE`);
    }
    await migrate(db);
    await migrate(db); // idempotent
    expect(await seed(db)).toBe(true);
    expect(await seed(db)).toBe(false);
    const [{ n }] = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM orders WHERE business_id = 'B10001'`);
    expect(n).toBe(40);

    server = await startServer({ port: 0, db, production: false });
    const origin = server.url.replace(/\/$/, '');
    const login = await (await fetch(`${origin}/api/auth/login`, { method: 'POST', body: JSON.stringify(DEMO) })).json();
    const headers = { authorization: `Bearer ${login.data.token}`, 'x-company-id': 'B10001' };
    const page = await (await fetch(`${origin}/api/orders?pageSize=5&sortField=amount&sortOrder=descend`, { headers })).json();
    expect(page.data.total).toBe(40);
    expect(page.data.list).toHaveLength(5);
    expect(typeof page.data.list[0].amount).toBe('number');
    const overview = await (await fetch(`${origin}/api/overview`, { headers })).json();
    expect(typeof overview.data.balance).toBe('number');
    const bad = await fetch(`${origin}/api/insure/roster`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ planName: '雇主责任险·标准版（60万）', startDate: '2030-01-01', rows: [{ name: '张三', idCard: '110105194912310021' }] }),
    });
    expect(bad.status).toBe(400);
    expect((await bad.json()).errors).toEqual([{ field: 'rows[0].idCard', message: '身份证号不正确' }]);
  });
});
