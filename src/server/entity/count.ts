/**
 * List totals that stay cheap at any size: counted exactly while small (the count stops after
 * EXACT_COUNT_LIMIT + 1 rows, in the same statement as the page itself: see query.ts), beyond that the
 * planner's row estimate for the same filters, flagged `estimated` (the console shows 约 N 条).
 */
import type { Queryable } from '../db.ts';

/** Up to this many matching rows the total is exact; counting them costs well under a millisecond. */
export const EXACT_COUNT_LIMIT = 1000;

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

/** SQL for the number of rows matching `where`, counting no further than cap + 1. Trusted SQL text. */
export function cappedCountSql(table: string, where: string, cap = EXACT_COUNT_LIMIT): string {
  return `SELECT count(*)::int FROM (SELECT 1 FROM ${table} WHERE ${where} LIMIT ${cap + 1}) capped`;
}

/**
 * SQL that is true when the table's planner statistics are missing or out of date (never analysed,
 * or changed by more than a fifth since): PGlite has no autovacuum, and on PostgreSQL autovacuum has
 * normally been there first.
 */
export function staleStatsSql(table: string): string {
  return `SELECT c.reltuples < 0 OR coalesce(st.n_mod_since_analyze, 0) > greatest(1000, 0.2 * c.reltuples)
            FROM pg_class c LEFT JOIN pg_stat_user_tables st ON st.relid = c.oid
           WHERE c.oid = to_regclass('${table}')`;
}

/** The planner's row estimate for `SELECT 1 FROM table WHERE where`. */
async function estimateRows(db: Queryable, table: string, where: string, params: unknown[]): Promise<number> {
  const [row] = await db.query<Record<string, unknown>>(`EXPLAIN (FORMAT JSON) SELECT 1 FROM ${table} WHERE ${where}`, params);
  const raw = Object.values(row)[0];
  const plan = (typeof raw === 'string' ? JSON.parse(raw) : raw) as Array<{ Plan: { 'Plan Rows': number } }>;
  return Number(plan[0]?.Plan?.['Plan Rows']) || 0;
}

/**
 * The total given the capped count: exact when the count stopped short of the cap, else the planner's
 * estimate (after refreshing statistics that are stale), never below what was counted. `where` and
 * `params` are the list's own; `table`/`where` are trusted SQL text.
 */
export async function totalFrom(
  db: Queryable,
  q: { table: string; where: string; params: unknown[] },
  counted: number,
  stale: boolean,
  cap = EXACT_COUNT_LIMIT,
): Promise<Total> {
  if (counted <= cap) return { total: counted, estimated: false };
  if (stale) await db.query(`ANALYZE ${q.table}`);
  const estimate = await estimateRows(db, q.table, q.where, q.params);
  // More rows than counted: the true total is above that, whatever the statistics say.
  return { total: Math.max(roundEstimate(estimate), counted), estimated: true };
}

/** The total alone (capped count, then the estimate when over the cap), for callers without a page. */
export async function countRows(db: Queryable, table: string, where: string, params: unknown[], cap = EXACT_COUNT_LIMIT): Promise<Total> {
  const [row] = await db.query<{ n: number; stale: boolean | null }>(
    `SELECT (${cappedCountSql(table, where, cap)}) AS n, (${staleStatsSql(table)}) AS stale`,
    params,
  );
  return totalFrom(db, { table, where, params }, row.n, row.stale === true, cap);
}
