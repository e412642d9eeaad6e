/**
 * Business-scoped, parameterised reads of entity tables: list (filters from `search` fields,
 * sorting on `sort` fields, paging, masking) and detail by id. Only column names derived from
 * the entity schema ever reach SQL text; user input always travels as parameters.
 */
import type { Queryable } from '../db.ts';
import { localParts } from '../domain/util.ts';
import type { EntitySchema, FieldSchema } from '../../shared/entity/types.ts';
import { FREQUENT_TERM, walkSql } from './short-terms.ts';
import { cappedCountSql, countedSql, estimateSql, EXACT_COUNT_LIMIT, totalColumns, totalOf } from './count.ts';
import { dayCountsOf, type DayCounts } from './day-counts.ts';
import { columnOf, seekAfter, sortKey, tableOf, type SeekKey } from './ddl.ts';
import { hasDerived } from './derived-sql.ts';
import { applyMasks, selectList } from './select.ts';
import { parseFilters, QueryError, type Param } from './filters.ts';
import { fewIdsSql, pageIdsSql, TENANT } from './page-ids.ts';

export { QueryError } from './filters.ts';

/**
 * A paging value: absent → the default; a whole number from 1 → at most max (a larger page size is
 * served as the largest, and says so in the answer); anything else (-1, abc, 1e1, 2.5) is a 400.
 */
function positiveInt(v: string | undefined, def: number, max: number, field: string, label: string): number {
  if (v === undefined || v === '') return def;
  if (!/^[1-9]\d{0,15}$/.test(v)) throw new QueryError(field, `${label}应为正整数`);
  return Math.min(Number(v), max);
}

export type ListQuery = Record<string, string | undefined>;

export interface ListResult {
  list: Record<string, unknown>[];
  total: number;
  current: number;
  pageSize: number;
  /**
   * Set when total is the planner's estimate (more than EXACT_COUNT_LIMIT rows match and no counter
   * table answers the filters). Such a total is never below the rows a full page proves to exist, so
   * the pager goes on until the last page, whose total is exact again.
   */
  estimated?: true;
}

/** The business's calendar day now (BUSINESS_TZ), for callers that pass no `today`. */
export const businessToday = (now: Date = new Date()): string => localParts(now).date;

export interface Sort {
  /** the field key sorted on ('id' for the id order) */
  field: string;
  order: 'ascend' | 'descend';
  /** the ORDER BY text (sortKey) */
  sql: string;
}

function orderBy(e: EntitySchema, q: ListQuery): Sort {
  const asked = q.sortField?.trim();
  const raw = q.sortOrder?.trim();
  if (raw && raw !== 'ascend' && raw !== 'descend') throw new QueryError('sortOrder', '排序方向只能为 ascend 或 descend');
  const ds = e.defaultSort ?? { field: 'id', order: 'descend' };
  const field = asked || ds.field;
  const order = (raw as 'ascend' | 'descend' | undefined) ?? (asked ? 'descend' : ds.order);
  if (field === 'id') return { field, order, sql: sortKey('id', undefined, order) };
  const f = e.fields[field];
  if (asked && (!f || !f.sort)) throw new QueryError('sortField', `不支持按“${f?.label ?? field}”排序`);
  return { field, order, sql: f ? sortKey(columnOf(field, f), f, order) : sortKey('id', undefined, order) };
}

/**
 * Unfiltered first pages of these sizes are prepared statements (QueryOptions.prepare): the API's
 * default (20), the console's default and options (30, 50, 100) and antd's (10). Opening a list and
 * sorting it are most of the list requests, and their statement text is fixed (the page size is a
 * literal in it, the business a parameter), so PostgreSQL parses it once per connection and, after
 * five runs, keeps its generic plan instead of planning it again: 0.6–0.7 instead of 1.3 ms of
 * database CPU per request at 1M rows, and 640–780 instead of 485–513 requests/s with 10 connections
 * (docs/benchmarks.md). A filtered list is planned for its values each time: a generic plan assumes an
 * average match, and for a contains-filter that matches nothing it walked the whole business in sort
 * order (8 s at 1M rows) where the planned statement asks the trigram index (a term of 3+ characters).
 * Deeper pages, whose offsets would make a statement per page, are planned each time too. The set
 * bounds the statements a connection holds to page sizes × sort orders.
 */
const PREPARED_PAGE_SIZES: ReadonlySet<number> = new Set([10, 20, 30, 50, 100]);

export interface PageOptions {
  /** Largest page a caller may ask for (default 100; an export may read bigger pages). */
  maxPageSize?: number;
  /** The business's today (YYYY-MM-DD) derived fields are computed on; default: businessToday(). */
  today?: string;
  /** Keyset paging (pageRows): the rows after this one in the sort order; `current` is then ignored. */
  after?: SeekKey;
}

export interface Plan {
  table: string;
  where: string;
  /** The WHERE of the planner's estimate (filters.ts: a short contains-term is estimated by its LIKE). */
  estimateWhere: string;
  /**
   * SQL text of today for derived fields: a parameter, added to `params` when first asked for (a
   * statement that computes no derived field must not carry a parameter it never reads).
   */
  today: () => string;
  sort: Sort;
  /** Every parameter of the statement: the business ($1), today (with derived fields) and the filters' values. */
  params: unknown[];
  current: number;
  pageSize: number;
  /** Rows before the page: (current - 1) * pageSize. */
  offset: number;
  /** The entity's day counts when the list has no filter: they hold its exact total. */
  counts?: DayCounts;
  /**
   * SQL of the exact total (or the sum asked of plan) from a counter table (count.ts countedSql), when
   * one answers the filters; its parameters are added when it is first asked for.
   */
  counted: () => string | undefined;
  /** An unfiltered first page of a common size: its statement is prepared (PREPARED_PAGE_SIZES). */
  prepare: boolean;
  /** Contains-fields whose short term the characters index serves: asked how frequent first (decidedPlan). */
  shortTerms: string[];
  /** The WHERE of those terms alone (their LIKE), whose estimate decides. */
  shortWhere: string;
  /** `where` without the characters index's clauses: a page read by walking the sort order. */
  walkWhere: string;
  /**
   * `where` with the business test in IS TRUE, which no index claims: every match of a short term is read
   * through the characters index alone, also by a prepared statement's generic plan (countedList), which
   * took the business's index as well and read every row of the business into a bitmap.
   */
  matchWhere: string;
}

/** The sort column of a plan ('id' when the list is sorted by id). */
export const sortColumn = (e: EntitySchema, sort: Sort): string => (e.fields[sort.field] ? columnOf(sort.field, e.fields[sort.field]) : 'id');

/** The statement's parts for a list query; with `sum`, `counted` is that field's sum instead of the row count. */
export function plan(e: EntitySchema, businessId: string, q: ListQuery, opts: PageOptions, sum?: string, frequent?: ReadonlySet<string>): Plan {
  const params: unknown[] = [businessId];
  const p: Param = (v) => {
    params.push(v);
    return `$${params.length}`;
  };
  let todayRef: string | undefined;
  const today = () => (todayRef ??= hasDerived(e) ? `${p(opts.today ?? businessToday())}::date` : 'CURRENT_DATE');
  const filtered = parseFilters(e, q, p, today, frequent);
  const sort = orderBy(e, q);
  // Keyset paging (opts.after): the rows after the previous slice's last, a condition of the page's WHERE only.
  const seek = opts.after ? [seekAfter(sortColumn(e, sort), e.fields[sort.field], sort.order, opts.after, p)] : [];
  const counts = filtered.length || sum || seek.length ? undefined : dayCountsOf(e);
  let countedRef: { sql: string | undefined } | undefined;
  const counted = () => (countedRef ??= { sql: counts ? undefined : countedSql(e, filtered, today, sum) }).sql;
  const current = positiveInt(q.current, 1, 1_000_000, 'current', '页码');
  const pageSize = positiveInt(q.pageSize, 20, opts.maxPageSize ?? 100, 'pageSize', '每页条数');
  const and = (clauses: string[]) => [TENANT, ...clauses].join(' AND ');
  return {
    table: tableOf(e),
    where: and([...filtered.flatMap((f) => f.where), ...seek]),
    walkWhere: and([...filtered.flatMap((f) => f.walk ?? f.where), ...seek]),
    matchWhere: ['(business_id = $1) IS TRUE', ...filtered.flatMap((f) => f.where), ...seek].join(' AND '),
    estimateWhere: and(filtered.flatMap((f) => f.estimate ?? f.where)),
    today,
    sort,
    params,
    current,
    pageSize,
    offset: (current - 1) * pageSize,
    ...(counts ? { counts } : {}),
    counted,
    prepare: current === 1 && !filtered.length && !seek.length && PREPARED_PAGE_SIZES.has(pageSize),
    shortTerms: filtered.filter((f) => f.shortTerm).map((f) => f.key),
    shortWhere: and(filtered.filter((f) => f.shortTerm).flatMap((f) => f.estimate ?? [])),
  };
}

/**
 * The plan of a list query whose short contains-terms are decided, for callers that read every match
 * (totals.ts, pageRows): one statement asks the planner how many of the business's rows the terms match
 * (its estimate of their LIKE alone, from the column's statistics: the characters index's bitmap holds
 * that many); a frequent term is planned as a walk of the rows. The statement reads only the terms' text
 * parameters; the others (arrays, numbers) go as null, unread. Lists without such a term plan once.
 */
export async function decidedPlan(db: Queryable, e: EntitySchema, businessId: string, q: ListQuery, opts: PageOptions, sum?: string): Promise<Plan> {
  const pl = plan(e, businessId, q, opts, sum);
  if (!pl.shortTerms.length) return pl;
  const texts = pl.params.map((v) => (typeof v === 'string' ? v : null));
  const [row] = await db.query<{ n: number | string }>(`SELECT ${estimateSql(pl.table, pl.shortWhere, texts.length, true)} AS n`, texts);
  return Number(row.n) >= FREQUENT_TERM ? plan(e, businessId, q, opts, sum, new Set(pl.shortTerms)) : pl;
}

/**
 * The page's rows as one JSON array (column `rows`), in the order of a row number so json_agg cannot
 * reorder them; `ids` is pageIdsSql.
 */
function pageJsonSql(e: EntitySchema, pl: Plan, ids: string): string {
  return `SELECT coalesce(json_agg(r ORDER BY r."__pos"), '[]'::json) AS rows
            FROM (SELECT ${selectList(e, pl.today())}, row_number() OVER (ORDER BY ${pl.sort.sql}) AS "__pos" FROM ${pl.table}
                   WHERE id IN (${ids})) r`;
}

/** The rows of pageJsonSql's JSON (text on PGlite), masked, without their row numbers. */
function pageList(e: EntitySchema, json: unknown): Record<string, unknown>[] {
  const rows = (typeof json === 'string' ? JSON.parse(json) : json) as Record<string, unknown>[];
  return rows.map((r) => {
    delete r.__pos;
    return applyMasks(e, r);
  });
}

/**
 * One page of an entity's rows for a business, with its total, in one round trip. The total is exact
 * from counts when they answer the filters: the day counts without a filter, a counter table for
 * filters on counted fields and derived statuses (countedList). Otherwise: the capped count, the
 * planner's estimate (only computed when the count reaches the cap) and the page's rows with one row
 * more as JSON (pageJsonSql): that extra row says whether a next page exists, so an estimated total
 * never ends the pager before the rows do, and the last page (no extra row) makes the total exact.
 * A page that starts at row EXACT_COUNT_LIMIT or later and has rows proves the count is over the cap,
 * so deep pages skip the count (at 1M rows page 1000 then pays only for its own OFFSET). That total is
 * MATERIALIZED: inlined, its CASE would be copied into both columns that read it, and a deep page past
 * the end would count twice.
 */
export async function listRows(db: Queryable, e: EntitySchema, businessId: string, q: ListQuery, opts: PageOptions = {}): Promise<ListResult> {
  // Counts that answer the total exactly also decide how a short term's page is read (countedList):
  // the planner is not asked how frequent the term is.
  const pl = plan(e, businessId, q, opts);
  if (pl.counts) return countedList(db, e, pl, `(SELECT coalesce(sum(n), 0)::bigint FROM ${pl.counts.counts} WHERE business_id = $1)`);
  const exact = pl.counted();
  if (exact) return countedList(db, e, pl, exact);
  const totals = totalColumns(pl.table, pl.estimateWhere, pl.params.length);
  const [row] = await db.query<{ n: number; estimate: number | string | null; rows: unknown }>(
    pl.shortTerms.length ? shortTermSql(e, pl, totals) : pageAndTotalSql(e, pl, totals),
    pl.params,
    // A short term's statement reads right on any plan: its generic one saves PGlite the planning.
    { prepare: prepared(pl), generic: pl.shortTerms.length > 0 },
  );
  const list = pageList(e, row.rows);
  const more = list.length > pl.pageSize;
  if (more) list.length = pl.pageSize;
  const capped = totalOf(row.n, row.estimate === null ? null : Number(row.estimate));
  const { total, estimated } = honestTotal(capped.total, capped.estimated, pl, list.length, more);
  return { list, total, current: pl.current, pageSize: pl.pageSize, ...(estimated ? { estimated: true } : {}) };
}

/** listRows' statement for other filters: the page, the capped count (skipped by a deep page with rows) and the estimate. */
function pageAndTotalSql(e: EntitySchema, pl: Plan, totals: string): string {
  const deep = pl.offset >= EXACT_COUNT_LIMIT;
  const counted = cappedCountSql(pl.table, pl.where);
  return `WITH page AS (${pageJsonSql(e, pl, pageIdsSql(pl, 1))}),
     total AS ${deep ? 'MATERIALIZED ' : ''}(${deep ? `SELECT CASE WHEN json_array_length((SELECT rows FROM page)) > 0 THEN ${EXACT_COUNT_LIMIT + 1} ELSE (${counted}) END AS count` : counted})
     SELECT ${totals}, page.rows FROM total, page`;
}

/**
 * Whether the statement is prepared: an unfiltered first page (Plan.prepare), or a short term's first
 * page, whose reads are chosen by its count and estimate in the statement, not by the plan.
 */
const prepared = (pl: Plan): boolean => pl.prepare || (pl.shortTerms.length > 0 && pl.current === 1 && PREPARED_PAGE_SIZES.has(pl.pageSize));

/** walkSql for this plan's page, the business's rows being the planner's estimate of them. */
const walkOf = (pl: Plan, matches: string, count: string): string =>
  walkSql(matches, count, estimateSql(pl.table, TENANT, 1), pl.offset + pl.pageSize + 1);

/**
 * listRows' statement for short contains-terms no counter answers (2 characters: 郑杰), which decides in
 * itself how to read, so the planner is asked once, in the same round trip:
 * - the planner's estimate of the terms' matches (`est`): a frequent term (short-terms.ts) is counted by
 *   walking the rows until the cap;
 * - else its matches, up to the cap, are read once through the characters index (`m`, the business test
 *   in IS TRUE so a prepared statement's generic plan cannot add the business's index): their number is
 *   the capped count, and when they are all the matches the page is read from them;
 * - past the cap the page walks the sort order when that pays against the business's rows (the planner's
 *   estimate; the first pages of a common term), else it reads every match through the index.
 * Its first page is prepared (`prepared`), on its generic plan where the driver allows (QueryOptions.generic).
 */
function shortTermSql(e: EntitySchema, pl: Plan, totals: string): string {
  const col = sortColumn(e, pl.sort);
  const cap = EXACT_COUNT_LIMIT;
  const reads: Array<[string, string]> = [
    ['total.walk', pageIdsSql({ ...pl, where: pl.walkWhere }, 1)],
    [`NOT total.walk AND total.count <= ${cap}`, `SELECT id FROM m ORDER BY ${pl.sort.sql} LIMIT ${pl.pageSize + 1} OFFSET ${pl.offset}`],
    [`NOT total.walk AND total.count > ${cap}`, fewIdsSql(pl, true, 1)],
  ];
  // m before est: est hands the parameters to format(), which gives them no type; m's filters do.
  return `WITH m AS MATERIALIZED (SELECT id${col === 'id' ? '' : `, ${col}`} FROM ${pl.table} WHERE ${pl.matchWhere} LIMIT ${cap + 1}),
     est AS MATERIALIZED (SELECT ${estimateSql(pl.table, pl.shortWhere, pl.params.length)} AS n),
     counted AS MATERIALIZED (SELECT n, CASE WHEN n >= ${FREQUENT_TERM} THEN (${cappedCountSql(pl.table, pl.walkWhere)}) ELSE (SELECT count(*)::int FROM m) END AS count FROM est),
     total AS MATERIALIZED (SELECT count, ${walkOf(pl, 'n', 'count')} AS walk FROM counted)
     SELECT ${totals}, ${rowsByTotal(e, pl, reads)} AS rows FROM total`;
}

/**
 * An estimated total made consistent with the page: a full page with a row after it proves at least
 * one more row (the pager offers the next page); a page without one is the last, so the total is
 * exact; an empty page past the end bounds the total by its offset.
 */
function honestTotal(total: number, estimated: boolean, pl: Plan, rows: number, more: boolean): { total: number; estimated: boolean } {
  if (!estimated) return { total, estimated };
  if (more) return { total: Math.max(total, pl.offset + pl.pageSize + 1), estimated };
  if (rows > 0) return { total: pl.offset + rows, estimated: false };
  return { total: Math.max(EXACT_COUNT_LIMIT + 1, Math.min(total, pl.offset)), estimated };
}

/**
 * The page's rows by one of several id queries, chosen by conditions (`when`, exclusive) over the
 * statement's materialized total: one page (its select list, derived fields and all) over the id
 * queries, each behind a one-time filter, so only the chosen one runs. A CASE of two whole pages, used
 * before, made PostgreSQL plan the select list twice: for the 在保 persons at 1M rows 3.4 ms of planning
 * and 3.0 of execution per request, 1.1 and 2.4 this way (待生效: 3.2 and 2.5, now 1.3 and 0.3).
 */
function rowsByTotal(e: EntitySchema, pl: Plan, reads: Array<[when: string, ids: string]>): string {
  return `(${pageJsonSql(e, pl, reads.map(([when, ids], i) => `SELECT id FROM (${ids}) read${i} WHERE ${when}`).join(' UNION ALL '))})`;
}

/**
 * listRows when counts answer the total exactly (`total` is its SQL over the plan's parameters): the
 * day counts (a list without a filter, one row per day) or a counter table (count.ts countedSql). The
 * exact total chooses how the page is read in the same statement (only the chosen id query runs): the
 * few matches through the filter's indexes (fewIdsSql), else in the sort order (pageIdsSql). For a short
 * contains-term past the cap the count also says whether walking the sort order pays (short-terms.ts,
 * over the planner's estimate of the business's rows) or reading every match through the characters
 * index does.
 */
async function countedList(db: Queryable, e: EntitySchema, pl: Plan, total: string): Promise<ListResult> {
  const over = `total.n > ${EXACT_COUNT_LIMIT}`;
  const short = pl.shortTerms.length > 0;
  const reads: Array<[string, string]> = short
    ? [['total.walk', pageIdsSql({ ...pl, where: pl.walkWhere })], ['NOT total.walk', fewIdsSql(pl, true)]]
    : [[`NOT (${over})`, fewIdsSql(pl)], [over, pageIdsSql(pl)]];
  const [row] = await db.query<{ n: number | string; rows: unknown }>(
    `WITH ${short ? `counted AS MATERIALIZED (SELECT ${total} AS n), total AS MATERIALIZED (SELECT n, ${walkOf(pl, 'n', 'n')} AS walk FROM counted)` : `total AS MATERIALIZED (SELECT ${total} AS n)`}
     SELECT total.n, ${rowsByTotal(e, pl, reads)} AS rows FROM total`,
    pl.params,
    { prepare: prepared(pl) },
  );
  return { list: pageList(e, row.rows), total: Number(row.n), current: pl.current, pageSize: pl.pageSize };
}

/** One row by id within the business, or null. Derived fields are computed on opts.today. */
export async function getRow(
  db: Queryable,
  e: EntitySchema,
  businessId: string,
  id: number,
  opts: { unmasked?: boolean; today?: string } = {},
): Promise<Record<string, unknown> | null> {
  if (!Number.isInteger(id) || id < 1 || id > 2147483647) return null;
  const derived = hasDerived(e);
  const rows = await db.query<Record<string, unknown>>(
    `SELECT ${selectList(e, derived ? '$3::date' : 'CURRENT_DATE')} FROM ${tableOf(e)} WHERE business_id = $1 AND id = $2`,
    derived ? [businessId, id, opts.today ?? businessToday()] : [businessId, id],
  );
  if (!rows[0]) return null;
  return opts.unmasked ? rows[0] : applyMasks(e, rows[0]);
}
