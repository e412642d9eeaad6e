/**
 * List totals that stay cheap at any size: an exact count while it is small (counting stops after
 * EXACT_COUNT_LIMIT + 1 rows, or RECOUNT_LIMIT + 1 when the planner expects no more), beyond that the
 * planner's row estimate for the same filters, flagged `estimated` (the console shows 约 N 条).
 */
import type { Queryable } from '../db.ts';

export const EXACT_COUNT_LIMIT = 10_000;
/** When the planner expects at most this many rows, they are counted (still capped) rather than estimated. */
export const RECOUNT_LIMIT = 50_000;

export interface Total {
  total: number;
  estimated: boolean;
}

/** 2 significant digits: an estimate should not look exact (998,734 → 1,000,000). */
export function roundEstimate(n: number): number {
  if (n < 100) return Math.round(n);
  const unit = 10 ** (Math.floor(Math.log10(n)) - 1);
  return Math.round(n / unit) * unit;
}

/**
 * Refreshes the planner statistics of a table that was never analysed or changed a lot since (PGlite
 * has no autovacuum; on PostgreSQL autovacuum normally got there first and this is a no-op check).
 */
async function freshStats(db: Queryable, table: string): Promise<void> {
  const [s] = await db.query<{ tuples: number; changed: number | null }>(
    `SELECT c.reltuples::float8 AS tuples, st.n_mod_since_analyze::float8 AS changed
       FROM pg_class c LEFT JOIN pg_stat_user_tables st ON st.relid = c.oid
      WHERE c.oid = to_regclass($1)`,
    [table],
  );
  if (!s) return;
  if (s.tuples < 0 || (s.changed ?? 0) > Math.max(1000, 0.2 * s.tuples)) await db.query(`ANALYZE ${table}`);
}

/** The planner's row estimate for `SELECT 1 FROM table WHERE where`. */
async function estimateRows(db: Queryable, table: string, where: string, params: unknown[]): Promise<number> {
  await freshStats(db, table);
  const [row] = await db.query<Record<string, unknown>>(`EXPLAIN (FORMAT JSON) SELECT 1 FROM ${table} WHERE ${where}`, params);
  const raw = Object.values(row)[0];
  const plan = (typeof raw === 'string' ? JSON.parse(raw) : raw) as Array<{ Plan: { 'Plan Rows': number } }>;
  return Number(plan[0]?.Plan?.['Plan Rows']) || 0;
}

async function cappedCount(db: Queryable, table: string, where: string, params: unknown[], cap: number): Promise<number> {
  const [{ n }] = await db.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM (SELECT 1 FROM ${table} WHERE ${where} LIMIT ${cap + 1}) capped`,
    params,
  );
  return n;
}

/**
 * Exact total up to EXACT_COUNT_LIMIT rows; above, the planner's estimate, except that a set the
 * planner puts at no more than RECOUNT_LIMIT rows is counted (capped there) so "约 10,001" never shows
 * for 10,040 rows. `table`/`where` are trusted SQL text.
 */
export async function countRows(
  db: Queryable,
  table: string,
  where: string,
  params: unknown[],
  limits: { exact: number; recount: number } = { exact: EXACT_COUNT_LIMIT, recount: RECOUNT_LIMIT },
): Promise<Total> {
  const n = await cappedCount(db, table, where, params, limits.exact);
  if (n <= limits.exact) return { total: n, estimated: false };
  const estimate = await estimateRows(db, table, where, params);
  let atLeast = n;
  if (estimate <= limits.recount) {
    atLeast = await cappedCount(db, table, where, params, limits.recount);
    if (atLeast <= limits.recount) return { total: atLeast, estimated: false };
  }
  // More rows than counted: the true total is above that, whatever the statistics say.
  return { total: Math.max(roundEstimate(estimate), atLeast), estimated: true };
}
