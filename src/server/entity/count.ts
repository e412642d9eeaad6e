/**
 * List totals that stay cheap at any size: an exact count while it is small (counting stops after
 * EXACT_COUNT_LIMIT + 1 rows), beyond that the planner's row estimate for the same filters, flagged
 * `estimated` (the console shows 约 N 条).
 */
import type { Queryable } from '../db.ts';

export const EXACT_COUNT_LIMIT = 10_000;

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

/** Exact total up to EXACT_COUNT_LIMIT rows, an estimate beyond. `table`/`where` are trusted SQL text. */
export async function countRows(db: Queryable, table: string, where: string, params: unknown[]): Promise<Total> {
  const [{ n }] = await db.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM (SELECT 1 FROM ${table} WHERE ${where} LIMIT ${EXACT_COUNT_LIMIT + 1}) capped`,
    params,
  );
  if (n <= EXACT_COUNT_LIMIT) return { total: n, estimated: false };
  // More rows than the cap: the true total is above it, whatever the statistics say.
  const estimate = roundEstimate(await estimateRows(db, table, where, params));
  return { total: Math.max(estimate, n), estimated: true };
}
