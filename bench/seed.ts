/**
 * Bulk seeding for the benchmarks: N orders (and N/10 insured persons) in business B10001, written
 * with INSERT … SELECT … FROM generate_series in batches, then ANALYZE. Works on PostgreSQL (pg) and
 * on the embedded database (@electric-sql/pglite) against the tables of src/server/migrate.ts; the
 * tables themselves are created by the gateway (startGateway once before seeding).
 *
 * Bench rows are recognisable by an 18-character order number (OD + yyyymmdd + 8-digit sequence);
 * the demo seed uses 15 characters. Seeding is incremental: growing 10k → 1M only adds rows.
 */
import { rmSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { BUSINESS, startGateway, type DbTarget } from './lib/gateway.ts';

export interface SeedDb {
  query(sql: string, params?: unknown[]): Promise<Record<string, unknown>[]>;
  close(): Promise<void>;
}

const BATCH = 100_000;
const SURNAMES = '王李张刘陈杨黄赵吴周徐孙马朱胡郭何高林罗郑梁谢宋唐许韩冯邓曹彭曾肖田董袁潘'.split('');
const GIVEN = '伟芳娜秀英敏静丽强磊军洋勇艳杰娟涛明超兰霞平刚华建国志红玉海燕晓东俊峰雪梅文博思远子涵浩然欣怡宇航'.split('');
const JOBS = ['快递员', '仓库分拣员', '外卖骑手', '保洁员', '装卸工', '安保员', '厨师', '司机'];
const ID_WEIGHTS = [7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2];

export async function openSeedDb(target: DbTarget): Promise<SeedDb> {
  if (target.driver === 'postgres') {
    const pg = await import('pg');
    const Client = pg.default?.Client ?? (pg as unknown as { Client: typeof import('pg').Client }).Client;
    const client = new Client({ connectionString: target.url });
    await client.connect();
    return {
      query: async (sql, params) => (await client.query(sql, params as unknown[])).rows,
      close: () => client.end(),
    };
  }
  // The gateway's own opener: it loads the extensions the tables' indexes need (pg_trgm).
  const { openPglite } = await import('../src/server/db.ts');
  return openPglite(target.dataDir);
}

/** Empties the target: a new schema on PostgreSQL, a new data directory for PGlite. */
/** Creates the bench's database on its server when it is not there yet (a fresh PostgreSQL has none). */
async function createDatabaseIfMissing(url: string): Promise<void> {
  const name = decodeURIComponent(new URL(url).pathname.slice(1));
  const server = new URL(url);
  server.pathname = '/postgres';
  const admin = await openSeedDb({ driver: 'postgres', url: server.toString() });
  try {
    const found = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (found.length === 0) await admin.query(`CREATE DATABASE "${name.replace(/"/g, '""')}"`);
  } finally {
    await admin.close();
  }
}

export async function resetTarget(target: DbTarget): Promise<void> {
  if (target.driver === 'pglite') {
    rmSync(target.dataDir, { recursive: true, force: true });
    return;
  }
  await createDatabaseIfMissing(target.url);
  const db = await openSeedDb(target);
  try {
    await db.query('DROP SCHEMA IF EXISTS public CASCADE');
    await db.query('CREATE SCHEMA public');
  } finally {
    await db.close();
  }
}

/** Plan names (and prices in cents) as the API lists them; migrates and demo-seeds as a side effect. */
export async function ensureSchema(target: DbTarget): Promise<{ plans: string[]; prices: number[] }> {
  const gw = await startGateway(target);
  try {
    const plans = (await gw.get<Array<{ value: string; price: number }>>('/api/plans')) ?? [];
    if (!plans.length) throw new Error('GET /api/plans returned no plans');
    return { plans: plans.map((p) => p.value), prices: plans.map((p) => Math.round(p.price * 100)) };
  } finally {
    await gw.close();
  }
}

export async function benchOrderCount(db: SeedDb): Promise<number> {
  const [r] = await db.query(`SELECT count(*)::int AS n FROM orders WHERE business_id = $1 AND length(order_no) = 18`, [BUSINESS]);
  return Number(r.n);
}

/** Inserts bench orders with sequence numbers from+1 … to. */
async function insertOrders(db: SeedDb, from: number, to: number, plans: string[], prices: number[]): Promise<void> {
  // Pseudo-random but deterministic spreads from multiplicative hashes of the sequence number g.
  await db.query(
    `INSERT INTO orders (business_id, order_no, product_name, person_count, amount_cents, pay_status, order_status, created_at, paid_at)
     SELECT $1, 'OD' || to_char(ts, 'YYYYMMDD') || lpad(g::text, 8, '0'), ($2::text[])[1 + k], pc,
            pc * ($3::int[])[1 + k] * (1 + (g % 3)),
            CASE WHEN r < 82 THEN 'paid' WHEN r < 92 THEN 'unpaid' ELSE 'refunded' END,
            CASE WHEN r < 82 THEN 'completed' WHEN r < 92 THEN 'pending_payment' ELSE 'closed' END,
            ts, CASE WHEN r < 82 OR r >= 92 THEN ts + ((g % 7200) + 60) * interval '1 second' END
     FROM (
       SELECT g, ((g * 7919) % $4::int) AS k, 1 + ((g * 31) % 30) AS pc, ((g * 2654435761) % 100) AS r,
              now() - ((g * 2654435761) % 63072000) * interval '1 second' AS ts
       FROM generate_series($5::bigint, $6::bigint) AS g
     ) s`,
    [BUSINESS, plans, prices, plans.length, from + 1, to],
  );
}

/** Inserts bench insured persons with sequence numbers from+1 … to (region 110108, valid check digits). */
async function insertPersons(db: SeedDb, from: number, to: number, plans: string[]): Promise<void> {
  const sum = ID_WEIGHTS.map((w, i) => `substr(s, ${i + 1}, 1)::int * ${w}`).join(' + ');
  await db.query(
    `INSERT INTO insured_persons (business_id, name, id_card, phone, job_type, plan_name, start_date, end_date, created_at)
     SELECT $1, ($2::text[])[1 + g % $3::int] || ($4::text[])[1 + (g * 7) % $5::int],
            s || substr('10X98765432', ((${sum}) % 11) + 1, 1),
            '13' || lpad(((g * 7919) % 1000000000)::text, 9, '0'), ($6::text[])[1 + g % $7::int],
            ($8::text[])[1 + g % $9::int], d, d + 364, d::timestamptz
     FROM (
       SELECT g, '110108' || to_char(date '1960-01-01' + (g % 9000)::int, 'YYYYMMDD') || lpad(((g / 9000) % 1000)::text, 3, '0') AS s,
              (current_date - ((g * 37) % 730)::int) AS d
       FROM generate_series($10::bigint, $11::bigint) AS g
     ) x
     ON CONFLICT (business_id, id_card) DO NOTHING`,
    [BUSINESS, SURNAMES, SURNAMES.length, GIVEN, GIVEN.length, JOBS, JOBS.length, plans, plans.length, from + 1, to],
  );
}

export interface SeedResult {
  added: number;
  total: number;
  seconds: number;
}

/** Grows B10001 to `size` bench orders (and size/10 persons); returns the time spent. */
export async function seedTo(target: DbTarget, size: number, plans: { plans: string[]; prices: number[] }, log = console.log): Promise<SeedResult> {
  const t0 = performance.now();
  const db = await openSeedDb(target);
  try {
    const have = await benchOrderCount(db);
    if (have > size) throw new Error(`database already holds ${have} bench orders (> ${size}); reset it first`);
    for (let from = have; from < size; from += BATCH) {
      const to = Math.min(size, from + BATCH);
      await insertOrders(db, from, to, plans.plans, plans.prices);
      await insertPersons(db, Math.floor(from / 10), Math.floor(to / 10), plans.plans);
      log(`    seeded ${to.toLocaleString('en')} / ${size.toLocaleString('en')} orders`);
    }
    // Statistics and the visibility map as autovacuum would leave them on a live table (index-only scans),
    // for every table the seed wrote to: orders, insured persons and the orders' day counts, whose rows
    // each batch updated.
    await db.query('VACUUM ANALYZE');
    // Flush the seed's dirty pages now, not during the measurements (a live database is not in the
    // middle of writing out a million fresh rows).
    await db.query('CHECKPOINT');
    return { added: size - have, total: size, seconds: (performance.now() - t0) / 1000 };
  } finally {
    await db.close();
  }
}

// Stand-alone: tsx bench/seed.ts [size] [postgres|pglite]
if (import.meta.url === `file://${process.argv[1]}`) {
  const size = Number(process.argv[2] ?? 10_000);
  const target: DbTarget =
    process.argv[3] === 'pglite'
      ? { driver: 'pglite', dataDir: process.env.BENCH_PGLITE_DIR ?? '/tmp/bench-pglite' }
      : { driver: 'postgres', url: process.env.BENCH_DATABASE_URL ?? 'postgres://postgres:postgres@127.0.0.1:5432/bench' };
  await resetTarget(target);
  const plans = await ensureSchema(target);
  const r = await seedTo(target, size, plans);
  console.log(`seeded ${r.added} orders into ${target.driver} in ${r.seconds.toFixed(1)} s`);
}
