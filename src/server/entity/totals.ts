/**
 * A list's total and sums without its rows: the workbench's figures, the banners, export sizes. Counter
 * rows answer them when they can (count.ts), else the capped count and the planner's estimate.
 */
import type { Queryable } from '../db.ts';
import type { EntitySchema } from '../../shared/entity/types.ts';
import { cappedCountSql, ownParams, totalColumns, totalOf, type Statement } from './count.ts';
import { columnOf } from './ddl.ts';
import { decidedPlan, plan, type ListQuery, type PageOptions, type Plan } from './query.ts';

/**
 * The total alone, as listRows answers it (exact from counts, else the capped count and the estimate),
 * without reading a page: the workbench's numbers and an export's row count.
 */
export async function countList(db: Queryable, e: EntitySchema, businessId: string, q: ListQuery, opts: PageOptions = {}): Promise<{ total: number; estimated: boolean }> {
  const pl = await decidedPlan(db, e, businessId, { ...q, current: '1' }, opts);
  const sql = countedOf(pl);
  if (sql) {
    const own = ownParams(`SELECT ${sql} AS n`, pl.params);
    const [row] = await db.query<{ n: number | string }>(own.sql, own.params);
    return { total: Number(row.n), estimated: false };
  }
  const [row] = await db.query<{ n: number; estimate: number | string | null }>(
    `WITH total AS (${cappedCountSql(pl.table, pl.where)}) SELECT ${totalColumns(pl.table, pl.estimateWhere, pl.params.length)} FROM total`,
    pl.params,
  );
  return totalOf(row.n, row.estimate === null ? null : Number(row.estimate));
}

/** The exact count (or the sum plan was asked for) from counter rows, when they answer the filters. */
const countedOf = (pl: Plan, sum?: string) => (!sum && pl.counts ? `(SELECT coalesce(sum(n), 0)::bigint FROM ${pl.counts.counts} WHERE business_id = $1)` : pl.counted());

/**
 * countList's total (sumList's sum with `sum`) as SQL with its parameters when counter rows answer it, so
 * a page of figures reads them in one statement (count.ts readMany); undefined when only rows can.
 */
export function countedStatement(e: EntitySchema, businessId: string, q: ListQuery, opts: PageOptions, sum?: string): Statement | undefined {
  const pl = plan(e, businessId, { ...q, current: '1' }, opts, sum);
  const sql = pl.shortTerms.length ? undefined : countedOf(pl, sum);
  return sql ? ownParams(sql, pl.params) : undefined;
}

/**
 * The sum of a money or integer field over the rows countList counts (money in cents): from a counter
 * table with that sum when one answers the filters, else from the rows themselves.
 */
export async function sumList(db: Queryable, e: EntitySchema, businessId: string, q: ListQuery, field: string, opts: PageOptions = {}): Promise<number> {
  const pl = await decidedPlan(db, e, businessId, { ...q, current: '1' }, opts, field);
  const sql = countedOf(pl, field) ?? `(SELECT coalesce(sum(${columnOf(field, e.fields[field])}), 0)::float8 FROM ${pl.table} WHERE ${pl.where})`;
  const own = ownParams(`SELECT ${sql} AS s`, pl.params);
  const [row] = await db.query<{ s: number | string }>(own.sql, own.params);
  return Number(row.s);
}
