/**
 * List totals that stay cheap at any size: exact from counter tables when the filters are on counted
 * fields only (countedSql; counts.ts), else counted exactly while small (the count stops after
 * EXACT_COUNT_LIMIT + 1 rows, in the same statement as the page itself: see query.ts), beyond that the
 * planner's row estimate for the same filters, flagged `estimated` (the console shows 约 N 条 and the
 * pager goes on while pages are full).
 */
import type { Queryable } from '../db.ts';
import type { EntitySchema } from '../../shared/entity/types.ts';
import { charCountTableOf, countKeyOf, countTablesOf, isMonthly, monthStart, type CountTable } from './counts.ts';
import { columnOf, tableOf } from './ddl.ts';
import { derivedCountSql } from './derived-sql.ts';
import type { Filter } from './filters.ts';

/**
 * The planner's row estimate for a list's filter, so a large list's estimated total comes in the same
 * statement as its page (estimateSql). The caller passes trusted SQL text whose values were quoted
 * with format('%L'); with stale = true the table's statistics are refreshed first (PGlite has no
 * autovacuum). Created by migrateEntities.
 */
export const ROW_ESTIMATE_DDL = `CREATE OR REPLACE FUNCTION console_row_estimate(query text, tbl regclass, stale boolean) RETURNS bigint
  LANGUAGE plpgsql VOLATILE AS $$
  DECLARE plan json;
  BEGIN
    IF stale THEN EXECUTE format('ANALYZE %s', tbl); END IF;
    EXECUTE 'EXPLAIN (FORMAT JSON) ' || query INTO plan;
    RETURN (plan -> 0 -> 'Plan' ->> 'Plan Rows')::float8::bigint;
  END $$`;

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
 * normally been there first. It calls the statistics function for the one table rather than reading
 * the pg_stat_user_tables view, which computes every counter of the table (0.2 ms instead of 0.75 ms
 * per list request at 1M rows).
 */
export function staleStatsSql(table: string): string {
  return `SELECT ${staleStats('c')}
            FROM pg_class c WHERE c.oid = '${table}'::regclass`;
}

/** The condition of staleStatsSql on a pg_class row aliased `c` (also the embedded database's upkeep, services/vacuum.ts). */
export function staleStats(c: string): string {
  return `(${c}.reltuples < 0 OR pg_stat_get_mod_since_analyze(${c}.oid) > greatest(1000, 0.2 * ${c}.reltuples))`;
}

/**
 * SQL for the planner's row estimate of `SELECT 1 FROM table WHERE where`, evaluated inside the list's
 * own statement by console_row_estimate (src/server/migrate.ts): the filter's $n parameters become
 * %n$L in a format() string, so the values reach EXPLAIN quoted as literals. With stale statistics
 * (staleStatsSql) the table is analysed first.
 */
export function estimateSql(table: string, where: string, paramCount: number, alone = false): string {
  const text = `SELECT 1 FROM ${table} WHERE ${where.replace(/%/g, '%%').replace(/\$(\d+)/g, '%$1$$L')}`;
  // A statement of the estimate alone types its parameters here (format's arguments give them no type).
  const args = Array.from({ length: paramCount }, (_, i) => `, $${i + 1}${alone ? '::text' : ''}`).join('');
  return `console_row_estimate(format('${text.replace(/'/g, "''")}'${args}), '${table}'::regclass, coalesce((${staleStatsSql(table)}), false))`;
}

/** The total from the capped count and, when the count reached the cap, the estimate. */
export function totalOf(counted: number, estimate: number | null, cap = EXACT_COUNT_LIMIT): Total {
  if (counted <= cap) return { total: counted, estimated: false };
  // More rows than counted: the true total is above that, whatever the statistics say.
  return { total: Math.max(roundEstimate(Number(estimate ?? 0)), counted), estimated: true };
}

/**
 * SELECT list items `n` (the capped count) and `estimate` (only computed when n is over the cap) for
 * a statement that starts `WITH total AS (cappedCountSql(...))` and selects FROM total.
 */
export function totalColumns(table: string, where: string, paramCount: number, cap = EXACT_COUNT_LIMIT): string {
  return `total.count AS n, CASE WHEN total.count > ${cap} THEN ${estimateSql(table, where, paramCount)} END AS estimate`;
}

/** The total alone (capped count, then the estimate when over the cap) in one statement. */
export async function countRows(db: Queryable, table: string, where: string, params: unknown[], cap = EXACT_COUNT_LIMIT): Promise<Total> {
  const [row] = await db.query<{ n: number; estimate: number | string | null }>(
    `WITH total AS (${cappedCountSql(table, where, cap)}) SELECT ${totalColumns(table, where, params.length, cap)} FROM total`,
    params,
  );
  return totalOf(row.n, row.estimate === null ? null : Number(row.estimate), cap);
}

/**
 * The entity's counter table with the fewest keys among those `fits` accepts (the fewest rows to read):
 * by day (every reader), by month (only the charts' month groups, monthlySql), or either (a total whose
 * filters leave the month alone; of tables with as many keys, the per-month one is the smaller).
 */
function smallestCountTable(e: EntitySchema, fits: (c: CountTable) => boolean, per: 'day' | 'month' | 'either' = 'day'): CountTable | undefined {
  return countTablesOf(e)
    .filter((c) => (per === 'either' || isMonthly(c) === (per === 'month')) && fits(c))
    .sort((a, b) => a.keys.length - b.keys.length || Number(isMonthly(b)) - Number(isMonthly(a)))[0];
}

/**
 * SQL of the exact number of the business's ($1) rows matching `filters` (or, with `sum`, the sum of
 * that field over them), read from a counter table, or undefined when no counter table answers them:
 * every filter must be an equality on a counted field or a day range on a counted date, or the list's
 * one filter a derived status (derived-sql.ts). The smallest fitting table is read (fewest keys, then
 * per month rather than per day), with the filters' own parameters (a statement must not carry one it
 * never reads).
 */
export function countedSql(e: EntitySchema, filters: Filter[], today: () => string, sum?: string): string | undefined {
  const derived = filters.find((f) => f.derived);
  if (derived) {
    return filters.length === 1 && !sum ? derivedCountSql(e, derived.key, derived.derived!, today, '$1') ?? undefined : undefined;
  }
  // A per-month table answers too when no filter is on its month (a plan's orders: 24 months × plans
  // rows instead of 731 days × plans).
  const t = smallestCountTable(
    e,
    (c) =>
      (!sum || c.sums.some((s) => s.key === sum)) &&
      filters.every((f) => c.keys.some((k) => k.key === f.key && !k.month && f.counted?.kind === (k.day ? 'day' : 'value'))),
    'either',
  );
  if (!t) return filters.length === 1 && !sum ? charCountedSql(e, filters[0]) : undefined;
  const conds = ['business_id = $1', ...filters.flatMap((f) => f.counted!.where(t.keys.find((k) => k.key === f.key)!.column))];
  const what = sum ? t.sums.find((s) => s.key === sum)!.column : 'n';
  return `(SELECT coalesce(sum(${what}), 0)::float8 FROM ${t.name} WHERE ${conds.join(' AND ')})`;
}

/** A list's one filter, a one-character contains-term, counted on its field's characters (counts.ts charCountTableOf). */
function charCountedSql(e: EntitySchema, f: Filter): string | undefined {
  const t = f.charCounted && charCountTableOf(e, f.key);
  if (!t) return undefined;
  return `(SELECT coalesce(sum(n), 0)::float8 FROM ${t.name} WHERE ${['business_id = $1', ...f.charCounted!(t.keys[0].column)].join(' AND ')})`;
}

export interface GroupOptions {
  by: string[];
  sum?: string[];
  /** Only rows whose date (per day, like a list's range filter) of this `by` field is in [from, to]. */
  days?: { key: string; from: string; to: string };
  /** Dates and datetimes grouped per month (YYYY-MM) instead of per day: a year is 12 groups, not 365. */
  perMonth?: boolean;
}

/**
 * The business's rows grouped by the `by` fields (dates and datetimes per day as YYYY-MM-DD, or per month) with
 * their count `n` and the sums of the `sum` fields (money in cents): from the smallest counter table
 * that has them (a few hundred rows for a year of orders by day and plan), else from the rows
 * themselves (the same groups, read the slow way).
 */
export async function groupCounts(db: Queryable, e: EntitySchema, businessId: string, o: GroupOptions): Promise<Array<Record<string, string | number>>> {
  const sums = o.sum ?? [];
  const fits = (c: CountTable) => o.by.every((k) => c.keys.some((x) => x.key === k)) && sums.every((k) => c.sums.some((x) => x.key === k));
  const t = smallestCountTable(e, fits);
  const monthly = t && monthlySql(e, t, fits, o);
  if (monthly) return db.query(monthly, [businessId, o.days!.from, o.days!.to], { prepare: true });
  const keys = o.by.map((k) => countKeyOf(k, e.fields[k]));
  const keySql = (k: (typeof keys)[number]) => (t ? k.column : k.expr('r'));
  const sumSql = (k: string) => (t ? `sum(${t.sums.find((x) => x.key === k)!.column})` : `sum(coalesce(r.${columnOf(k, e.fields[k])}, 0))`);
  // Grouped by the day or the month itself, and formatted once per group: per row, to_char took about
  // a sixth of PGlite's time for the workbench's 12 months (1,452 counter rows into 48 groups).
  const groupSql = (k: (typeof keys)[number]) => (k.day && o.perMonth ? monthStart(keySql(k)) : keySql(k));
  const select = [
    ...keys.map((k) => `${k.day ? `to_char(${groupSql(k)}, '${o.perMonth ? 'YYYY-MM' : 'YYYY-MM-DD'}')` : keySql(k)} AS "${k.key}"`),
    `${t ? 'sum(n)' : 'count(*)'}::float8 AS n`,
    ...sums.map((k) => `${sumSql(k)}::float8 AS "${k}"`),
  ];
  const params: unknown[] = [businessId];
  const where = [`${t ? '' : 'r.'}business_id = $1`];
  if (o.days) {
    const k = countKeyOf(o.days.key, e.fields[o.days.key]);
    params.push(o.days.from, o.days.to);
    where.push(`${keySql(k)} BETWEEN $2::date AND $3::date`);
  }
  const from = t ? t.name : `${tableOf(e)} r`;
  return db.query(`SELECT ${select.join(', ')} FROM ${from} WHERE ${where.join(' AND ')} GROUP BY ${keys.map(groupSql).join(', ')}`, params, { prepare: true });
}

/**
 * Per-month groups from whole months (`days.from` a month's first day, grouped by that date): the months
 * before `days.to`'s from a counter table per month (`per: "month"`: 12 rows a year and plan, not 365),
 * `days.to`'s own month from the day counts `t` up to `days.to` (the month table would add its later
 * days). Undefined when the entity has no such month counts. Parameters: business, from, to.
 */
function monthlySql(e: EntitySchema, t: CountTable, fits: (c: CountTable) => boolean, o: GroupOptions): string | undefined {
  const d = o.days;
  if (!o.perMonth || !d || !/-01$/.test(d.from) || !o.by.includes(d.key)) return undefined;
  const m = smallestCountTable(e, (c) => fits(c) && c.keys.length === t.keys.length && c.keys.some((k) => k.month && k.key === d.key), 'month');
  if (!m) return undefined;
  const col = (c: CountTable, key: string) => c.keys.find((k) => k.key === key)!.column;
  const sums = o.sum ?? [];
  const others = o.by.filter((k) => k !== d.key);
  const part = (c: CountTable, month: string, where: string) =>
    `SELECT ${[month, ...others.map((k) => col(c, k)), 'n', ...sums.map((k) => c.sums.find((x) => x.key === k)!.column)].join(', ')} FROM ${c.name} WHERE business_id = $1 AND ${where}`;
  const lastMonth = monthStart('$3::date');
  const rows = [
    part(m, `${col(m, d.key)} AS m_`, `${col(m, d.key)} >= $2::date AND ${col(m, d.key)} < ${lastMonth}`),
    part(t, `${monthStart(col(t, d.key))} AS m_`, `${col(t, d.key)} BETWEEN greatest($2::date, ${lastMonth}) AND $3::date`),
  ].join(' UNION ALL ');
  const select = [
    ...o.by.map((k) => (k === d.key ? `to_char(m_, 'YYYY-MM') AS "${k}"` : `${col(t, k)} AS "${k}"`)),
    'sum(n)::float8 AS n',
    ...sums.map((k) => `sum(${t.sums.find((x) => x.key === k)!.column})::float8 AS "${k}"`),
  ];
  return `SELECT ${select.join(', ')} FROM (${rows}) x GROUP BY ${['m_', ...others.map((k) => col(t, k))].join(', ')}`;
}

/** SQL of one value with its own $1… parameters. */
export interface Statement {
  sql: string;
  params: unknown[];
}

/**
 * A statement reading only some of a plan's parameters, renumbered to those it reads ($1 $3 → $1 $2): a
 * parameter it skips before one it reads has no type, and PostgreSQL refuses the statement (a
 * one-character term counted on its characters reads the term, not its LIKE pattern).
 */
export function ownParams(sql: string, params: unknown[]): Statement {
  const used = [...new Set([...sql.matchAll(/\$(\d+)/g)].map((m) => Number(m[1])))].sort((a, b) => a - b);
  const to = new Map(used.map((n, i) => [n, i + 1]));
  return { sql: sql.replace(/\$(\d+)/g, (_, n: string) => `$${to.get(Number(n))}`), params: used.map((n) => params[n - 1]) };
}

/**
 * Several single-value statements (scalar subqueries, such as countedStatement's) read in one round
 * trip: each one's $n are renumbered after the parameters of those before it.
 */
export async function readMany(db: Queryable, parts: Statement[]): Promise<number[]> {
  if (parts.length === 0) return [];
  const params: unknown[] = [];
  const cols = parts.map((p, i) => {
    const shift = params.length;
    params.push(...p.params);
    return `${p.sql.replace(/\$(\d+)/g, (_, n: string) => `$${Number(n) + shift}`)} AS v${i}`;
  });
  // Prepared: the workbench sends the same text for every business and day, and planning its dozen
  // subqueries took about half of PGlite's time for it.
  const [row] = await db.query<Record<string, number | string>>(`SELECT ${cols.join(', ')}`, params, { prepare: true });
  return parts.map((_, i) => Number(row[`v${i}`]));
}
