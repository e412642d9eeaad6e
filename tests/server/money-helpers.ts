import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll } from 'vitest';
import { openPglite, type Db } from '../../src/server/db.ts';
import { openPgSchema } from './pg-schema.ts';
import { migrateAll, seedDemo } from '../../src/server/server.ts';
import { migratedTemplate } from '../../src/server/migrated-template.ts';
import { REPO_ROOT } from '../../src/server/entity/repo.ts';
import { earliestCoverStart } from '../../src/server/domain/cover.ts';
import { isDomainError } from '../../src/server/domain/errors.ts';
import { idCardCheckChar } from '../../src/shared/checks.ts';

export const PG_URL = process.env.TEST_DATABASE_URL;

export interface Target {
  name: 'pglite' | 'postgres';
  /** Fully prepared: base tables, money DDL, seed, backfill. */
  open(): Promise<Db>;
  /** Empty database (fresh schema on PostgreSQL). */
  openEmpty(): Promise<Db>;
}

/** The gateway's start-up with the demo data (`--demo`): base tables, entity columns, money DDL (+ plans), demo seed, backfills. */
export async function prepare(db: Db): Promise<Db> {
  await migrateAll(db);
  await seedDemo(db);
  return db;
}

/**
 * An in-memory database prepared as a gateway started with the demo data is: from the suite's seeded
 * template when a start wrote it (src/server/migrated-template.ts; then prepare only checks it), or
 * prepared and written as that template.
 */
async function preparedInMemory(): Promise<Db> {
  const template = migratedTemplate(REPO_ROOT, REPO_ROOT, 'seeded');
  const db = await prepare(await openPglite('memory', template?.blob));
  await template?.save(db);
  return db;
}

/** PGlite (memory) always; PostgreSQL too when TEST_DATABASE_URL is set. */
export function targets(): Target[] {
  const list: Target[] = [{ name: 'pglite', open: preparedInMemory, openEmpty: () => openPglite('memory') }];
  if (PG_URL) {
    const url = PG_URL;
    list.push({ name: 'postgres', open: async () => prepare(await openPgSchema(url, 'money')), openEmpty: () => openPgSchema(url, 'money') });
  }
  return list;
}

export function pgTarget(): Target | undefined {
  return targets().find((t) => t.name === 'postgres');
}

/**
 * For a describe block: the target's prepared database, opened before its tests and closed after them.
 * What it returns forwards to that database, so tests hold it like a Db from the start.
 */
export function useTargetDb(t: Target): Db {
  let opened: Db | undefined;
  const db = (): Db => {
    if (!opened) throw new Error(`the ${t.name} database opens in beforeAll: use it inside a test`);
    return opened;
  };
  beforeAll(async () => {
    opened = await t.open();
  }, 120_000);
  afterAll(async () => {
    await opened?.close();
  });
  return {
    get driver() {
      return db().driver;
    },
    query: (sql, params, opts) => db().query(sql, params, opts),
    tx: (fn) => db().tx(fn),
    close: () => db().close(),
  };
}

let bizSeq = 0;
/** A fresh business so each test starts from known money. */
export async function makeBusiness(
  db: Db,
  opts: { chargeForm: 'prepaid' | 'postpaid'; balanceCents?: number; packs?: string[] },
): Promise<{ businessId: string; name: string }> {
  const id = `T${process.pid}${++bizSeq}${randomBytes(2).toString('hex')}`;
  await db.query('INSERT INTO businesses (id, name, charge_form, service_packs, balance_cents) VALUES ($1,$2,$3,$4,$5)', [
    id,
    `测试企业${id}`,
    opts.chargeForm,
    opts.packs ?? ['attendance'],
    opts.balanceCents ?? 0,
  ]);
  // A bank account's name must be the business's (domain/bank.ts).
  return { businessId: id, name: `测试企业${id}` };
}

/** n valid, distinct mainland ID numbers starting at seq `from`. */
export function people(n: number, from = 1): { name: string; idCard: string; phone: string; jobType: string }[] {
  return Array.from({ length: n }, (_, i) => {
    const k = from + i;
    const birth = `19${String(70 + (k % 30)).padStart(2, '0')}0${1 + (k % 9)}1${k % 10}`;
    const first17 = `${110101 + Math.floor(k / 1000)}${birth}${String(k % 1000).padStart(3, '0')}`;
    return { name: `员工${k}`, idCard: first17 + idCardCheckChar(first17), phone: `139${String(k % 100_000_000).padStart(8, '0')}`, jobType: '快递员' };
  });
}

export const today = (): string => earliestCoverStart(new Date(), '24:00');

export async function count(db: Db, sql: string, params: unknown[] = []): Promise<number> {
  const [row] = await db.query<{ n: number }>(`SELECT (${sql})::float8 AS n`, params);
  return Number(row.n);
}

export async function balanceOf(db: Db, businessId: string): Promise<number> {
  return count(db, 'SELECT balance_cents FROM businesses WHERE id = $1', [businessId]);
}

export async function ledgerSum(db: Db, businessId: string): Promise<number> {
  return count(db, 'SELECT coalesce(sum(delta_cents), 0) FROM balance_ledger WHERE business_id = $1', [businessId]);
}

/** Settles all promises; every failure must be a DomainError (never a deadlock or a raw SQL error). */
export async function settleDomain<T>(ps: Promise<T>[]): Promise<{ ok: T[]; errors: string[] }> {
  const res = await Promise.allSettled(ps);
  const ok: T[] = [];
  const errors: string[] = [];
  for (const r of res) {
    if (r.status === 'fulfilled') ok.push(r.value);
    else if (isDomainError(r.reason)) errors.push(r.reason.message);
    else throw r.reason;
  }
  return { ok, errors };
}

export function shuffle<T>(arr: T[], seed: number): T[] {
  const a = [...arr];
  let s = seed;
  for (let i = a.length - 1; i > 0; i--) {
    s = (s * 1103515245 + 12345) % 2147483648;
    const j = s % (i + 1);
    [a[i], a[j]] = [a[j], a[i]];
  }
  return a;
}

/** A paid order of `amountCents` (as an earlier payment would leave it). */
export async function paidOrder(db: Db, businessId: string, amountCents: number, no = `OD${Math.random().toString().slice(2, 14)}`) {
  await db.query(
    `INSERT INTO orders (business_id, order_no, product_name, person_count, amount_cents, pay_status, order_status, paid_at)
     VALUES ($1,$2,'雇主责任险·标准版（60万）',1,$3,'paid','completed',now())`,
    [businessId, no, amountCents],
  );
  return no;
}

/** Invoice header fields shared by the invoice tests (orders are added per test). */
export const INV = { title: '测试企业', taxNo: '91310104MA1FL2XK3P', type: 'normal' as const, email: 'f@example.com' };
