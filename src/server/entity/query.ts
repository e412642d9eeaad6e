/**
 * Business-scoped, parameterised reads of entity tables: list (filters from `search` fields,
 * sorting on `sort` fields, paging, masking) and detail by id. Only column names derived from
 * the entity schema ever reach SQL text; user input always travels as parameters.
 */
import type { Queryable } from '../db.ts';
import { FORMAT_CHECKS, isBoundedDate } from '../../shared/entity/rules.ts';
import type { EntitySchema, FieldSchema } from '../../shared/entity/types.ts';
import { yuanToCents } from '../../shared/money.ts';
import { maskAccountNo, maskIdCard, maskPhone } from '../util.ts';
import { cappedCountSql, EXACT_COUNT_LIMIT, totalColumns, totalOf } from './count.ts';
import { anchoredIdsSql, dayCountsOf, type DayCounts } from './day-counts.ts';
import { charsOf, columnOf, seekAfter, sortKey, tableOf, type SeekKey } from './ddl.ts';

export class QueryError extends Error {
  constructor(
    readonly field: string,
    message: string,
  ) {
    super(message);
    this.name = 'QueryError';
  }
}

const MASKS = { idCard: maskIdCard, phone: maskPhone, bankAccount: maskAccountNo } as const;

/** A field's value in API form (money in yuan, dates and times as text). */
export function selectExpr(key: string, f: FieldSchema): string {
  const c = columnOf(key, f);
  switch (f.type) {
    case 'money':
      return `(${c}::float8 / 100)`;
    case 'date':
      return `to_char(${c}, 'YYYY-MM-DD')`;
    case 'datetime':
      return `to_char(${c} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"')`;
    default:
      return c;
  }
}

/** SELECT list exposing every field under its schema key. */
export function selectList(e: EntitySchema): string {
  return ['id AS "id"', ...Object.entries(e.fields).map(([k, f]) => `${selectExpr(k, f)} AS "${k}"`)].join(', ');
}

export function applyMasks(e: EntitySchema, row: Record<string, unknown>): Record<string, unknown> {
  for (const [k, f] of Object.entries(e.fields)) {
    if (f.mask && typeof row[k] === 'string') row[k] = MASKS[f.mask](row[k] as string);
  }
  return row;
}

const escapeLike = (s: string): string => s.replace(/[\\%_]/g, (m) => `\\${m}`);

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
  /** Set when total is the planner's estimate (more than EXACT_COUNT_LIMIT rows match). */
  estimated?: true;
}

type Param = (v: unknown) => string;

function exactFilter(key: string, f: FieldSchema, raw: string, p: Param): string {
  const c = columnOf(key, f);
  if (f.mask) {
    // Masked values must not be recoverable piece by piece: only a complete, well-formed value is a filter.
    const complete = FORMAT_CHECKS[f.type];
    if (complete && !complete(raw)) throw new QueryError(key, `${f.label}仅支持完整号码精确查询`);
  }
  const values = raw.split(',').map((s) => s.trim()).filter(Boolean);
  switch (f.type) {
    case 'enum':
      for (const v of values) {
        if (!f.options?.some((o) => o.value === v)) throw new QueryError(key, `筛选条件“${f.label}”的取值 ${v} 无效`);
      }
      return `${c} = ANY(${p(values)}::text[])`;
    case 'boolean':
      if (raw !== 'true' && raw !== 'false') throw new QueryError(key, `筛选条件“${f.label}”只能为 true 或 false`);
      return `${c} = ${p(raw === 'true')}`;
    case 'money': {
      // Stored in cents: 12.5 finds 1250.
      const nums = values.map(Number);
      if (!nums.length || nums.some((n) => !Number.isFinite(n))) throw new QueryError(key, `筛选条件“${f.label}”必须为金额`);
      return `${c} = ANY(${p(nums.map(yuanToCents))}::bigint[])`;
    }
    case 'integer':
    case 'ref': {
      const nums = values.map(Number);
      if (!nums.length || nums.some((n) => !Number.isInteger(n) || Math.abs(n) > 2147483647)) {
        throw new QueryError(key, `筛选条件“${f.label}”必须为整数`);
      }
      return `${c} = ANY(${p(nums)}::int[])`;
    }
    default:
      // Stored forms are normalised on write (ID numbers upper-case), so equality can use the index.
      return f.type === 'idCard' ? `${c} = ${p(raw.toUpperCase())}` : `${c} = ${p(raw)}`;
  }
}

/** `param` is the query key used (`createdAt` or the older `createdAtRange`), named in errors. */
function rangeFilter(key: string, param: string, f: FieldSchema, raw: string, p: Param): string[] {
  const [fromRaw = '', toRaw = ''] = raw.split(',').map((s) => s.trim());
  if (f.type === 'money' || f.type === 'integer') {
    const nums = [fromRaw, toRaw].map((s) => (s === '' ? undefined : Number(s)));
    if (nums.some((n) => n !== undefined && !Number.isFinite(n))) {
      throw new QueryError(param, `筛选条件“${f.label}”格式不正确，应为“最小值,最大值”`);
    }
    const scale = (n: number) => (f.type === 'money' ? yuanToCents(n) : n);
    const out: string[] = [];
    if (nums[0] !== undefined) out.push(`${columnOf(key, f)} >= ${p(scale(nums[0]))}`);
    if (nums[1] !== undefined) out.push(`${columnOf(key, f)} <= ${p(scale(nums[1]))}`);
    return out;
  }
  const from = fromRaw.slice(0, 10);
  const to = toRaw.slice(0, 10);
  for (const d of [from, to]) {
    if (d && !isBoundedDate(d)) {
      throw new QueryError(param, `“${f.label}”的日期范围格式不正确，应为“开始日期,结束日期”，如 2024-01-01,2024-01-31`);
    }
  }
  const c = columnOf(key, f);
  const out: string[] = [];
  if (f.type === 'date') {
    if (from) out.push(`${c} >= ${p(from)}::date`);
    if (to) out.push(`${c} <= ${p(to)}::date`);
  } else {
    if (from) out.push(`${c} >= (${p(from)}::date)::timestamp AT TIME ZONE 'UTC'`);
    if (to) out.push(`${c} < ((${p(to)}::date + 1)::timestamp AT TIME ZONE 'UTC')`);
  }
  return out;
}

/**
 * Contains-search. A term without upper/lower-case letters (Chinese names, digits) matches the same
 * rows with LIKE as with ILIKE, and LIKE does not case-fold every row it tests (about 3x cheaper on
 * Chinese text); a term with letters stays case-insensitive. A term of 3+ characters uses the trigram
 * index. A shorter one has no trigram, and through the trigram index it read every row (2.4–2.7 s at
 * 1M orders for a term that matches nothing); it asks the characters index instead (charsOf), and its
 * LIKE is wrapped in IS TRUE (the same rows), which the trigram index does not claim while the planner
 * still estimates it from the column's statistics.
 */
function containsFilter(column: string, raw: string, p: Param): string {
  const caseless = raw.toLowerCase() === raw && raw.toUpperCase() === raw;
  const like = `${column} ${caseless ? 'LIKE' : 'ILIKE'} ${p(`%${escapeLike(raw)}%`)}`;
  return Array.from(raw).length >= 3 ? like : `${charsOf(column)} @> ${charsOf(`${p(raw)}::text`)} AND (${like}) IS TRUE`;
}

/** WHERE clauses for the query's filters on `search` fields. */
function filters(e: EntitySchema, q: ListQuery, p: Param): string[] {
  const where: string[] = [];
  for (const [key, f] of Object.entries(e.fields)) {
    if (!f.search) continue;
    const param = q[key] === undefined && f.search === 'range' ? `${key}Range` : key;
    const raw = q[param]?.trim();
    if (!raw) continue;
    if (f.search === 'contains' && !f.mask) where.push(containsFilter(columnOf(key, f), raw, p));
    else if (f.search === 'range') where.push(...rangeFilter(key, param, f, raw, p));
    else where.push(exactFilter(key, f, raw, p));
  }
  return where;
}

interface Sort {
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

/** Pages that start at this offset or later start from the day counts (shallower ones skip little). */
const DAY_COUNTS_FROM = EXACT_COUNT_LIMIT;

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
  /** Keyset paging (pageRows): the rows after this one in the sort order; `current` is then ignored. */
  after?: SeekKey;
}

interface Plan {
  table: string;
  where: string;
  sort: Sort;
  /** Every parameter of the statement: the business ($1) and the filters' values. */
  params: unknown[];
  current: number;
  pageSize: number;
  /** Rows before the page: (current - 1) * pageSize. */
  offset: number;
  /** The entity's day counts when the list has no filter: they hold its exact total. */
  counts?: DayCounts;
  /** An unfiltered first page of a common size: its statement is prepared (PREPARED_PAGE_SIZES). */
  prepare: boolean;
}

/** The sort column of a plan ('id' when the list is sorted by id). */
const sortColumn = (e: EntitySchema, sort: Sort): string => (e.fields[sort.field] ? columnOf(sort.field, e.fields[sort.field]) : 'id');

function plan(e: EntitySchema, businessId: string, q: ListQuery, opts: PageOptions): Plan {
  const params: unknown[] = [businessId];
  const p: Param = (v) => {
    params.push(v);
    return `$${params.length}`;
  };
  const filtered = filters(e, q, p);
  const sort = orderBy(e, q);
  if (opts.after) filtered.push(seekAfter(sortColumn(e, sort), e.fields[sort.field], sort.order, opts.after, p));
  const counts = filtered.length ? undefined : dayCountsOf(e);
  const current = positiveInt(q.current, 1, 1_000_000, 'current', '页码');
  const pageSize = positiveInt(q.pageSize, 20, opts.maxPageSize ?? 100, 'pageSize', '每页条数');
  return {
    table: tableOf(e),
    where: ['business_id = $1', ...filtered].join(' AND '),
    sort,
    params,
    current,
    pageSize,
    offset: (current - 1) * pageSize,
    ...(counts ? { counts } : {}),
    prepare: current === 1 && !filtered.length && PREPARED_PAGE_SIZES.has(pageSize),
  };
}

/**
 * The ids of one page, read from the (business_id, sort column, id) index alone (a deferred join: only
 * the page's own rows are read whole). A deep page in the order of an entity's day counts starts at
 * the day its offset falls in rather than skipping every index entry before it. LIMIT and OFFSET are
 * literals (integers the plan computed): with parameters there, a prepared first page's generic plan
 * would assume a tenth of the business is fetched and lose to planning each run.
 */
function pageIdsSql(pl: Plan): string {
  const limit = String(pl.pageSize);
  const offset = String(pl.offset);
  if (pl.counts && pl.sort.field === pl.counts.field && pl.offset >= DAY_COUNTS_FROM) {
    return anchoredIdsSql(pl.counts, pl.sort.order === 'ascend' ? 'ASC' : 'DESC', '$1', pl.sort.sql, limit, offset);
  }
  return `SELECT id FROM ${pl.table} WHERE ${pl.where} ORDER BY ${pl.sort.sql} LIMIT ${limit} OFFSET ${offset}`;
}

/**
 * The page's rows as one JSON array (column `rows`), in the order of a row number so json_agg cannot
 * reorder them; `ids` is pageIdsSql.
 */
function pageJsonSql(e: EntitySchema, pl: Plan, ids: string): string {
  return `SELECT coalesce(json_agg(r ORDER BY r."__pos"), '[]'::json) AS rows
            FROM (SELECT ${selectList(e)}, row_number() OVER (ORDER BY ${pl.sort.sql}) AS "__pos" FROM ${pl.table}
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
 * One slice of the rows matching the query, without a total, and the key of its last row: for callers
 * that walk every row of a filter (exports), each slice starting after the previous one's `last`
 * (opts.after; keyset paging, so a deep slice costs what the first does). Same filters, sorting and
 * masking as listRows; `last` is null when the slice is empty.
 */
export async function pageRows(
  db: Queryable,
  e: EntitySchema,
  businessId: string,
  q: ListQuery,
  opts: PageOptions = {},
): Promise<{ rows: Record<string, unknown>[]; last: SeekKey | null }> {
  const pl = plan(e, businessId, opts.after ? { ...q, current: undefined } : q, opts);
  const col = sortColumn(e, pl.sort);
  const rows = await db.query<Record<string, unknown>>(
    `SELECT ${selectList(e)}, ${col === 'id' ? 'NULL' : `${col}::text`} AS "__seek"
       FROM ${pl.table} WHERE id IN (${pageIdsSql(pl)}) ORDER BY ${pl.sort.sql}`,
    pl.params,
  );
  const tail = rows.at(-1);
  const last = tail ? { value: tail.__seek as string | null, id: Number(tail.id) } : null;
  for (const r of rows) delete r.__seek;
  return { rows: rows.map((r) => applyMasks(e, r)), last };
}

/**
 * One page of an entity's rows for a business, with the total (exact, or an estimate when large), in
 * one round trip. Without a filter on an entity with day counts the total is their exact sum
 * (countedList). Otherwise: the capped count, the planner's estimate (only computed when the count
 * reaches the cap) and the page's rows as JSON (pageJsonSql).
 * A page that starts at row EXACT_COUNT_LIMIT or later and has rows proves the count is over the cap,
 * so deep pages skip the count (at 1M rows page 1000 then pays only for its own OFFSET). That total is
 * MATERIALIZED: inlined, its CASE would be copied into both columns that read it, and a deep page past
 * the end would count twice.
 */
export async function listRows(db: Queryable, e: EntitySchema, businessId: string, q: ListQuery, opts: PageOptions = {}): Promise<ListResult> {
  const pl = plan(e, businessId, q, opts);
  if (pl.counts) return countedList(db, e, pl, pl.counts);
  const deep = pl.offset >= EXACT_COUNT_LIMIT;
  const ids = pageIdsSql(pl);
  const counted = cappedCountSql(pl.table, pl.where);
  const [row] = await db.query<{ n: number; estimate: number | string | null; rows: unknown }>(
    `WITH page AS (${pageJsonSql(e, pl, ids)}),
     total AS ${deep ? 'MATERIALIZED ' : ''}(${deep ? `SELECT CASE WHEN json_array_length((SELECT rows FROM page)) > 0 THEN ${EXACT_COUNT_LIMIT + 1} ELSE (${counted}) END AS count` : counted})
     SELECT ${totalColumns(pl.table, pl.where, pl.params.length)}, page.rows FROM total, page`,
    pl.params,
    { prepare: pl.prepare },
  );
  const { total, estimated } = totalOf(row.n, row.estimate === null ? null : Number(row.estimate));
  return { list: pageList(e, row.rows), total, current: pl.current, pageSize: pl.pageSize, ...(estimated ? { estimated: true } : {}) };
}

/**
 * listRows for a list without a filter on an entity with day counts: the exact total is the sum of the
 * business's day counts (one row per day), so neither a capped count nor the planner's estimate is needed.
 */
async function countedList(db: Queryable, e: EntitySchema, pl: Plan, counts: DayCounts): Promise<ListResult> {
  const ids = pageIdsSql(pl);
  const [row] = await db.query<{ n: number | string; rows: unknown }>(
    `SELECT (SELECT coalesce(sum(n), 0)::bigint FROM ${counts.counts} WHERE business_id = $1) AS n,
            (${pageJsonSql(e, pl, ids)}) AS rows`,
    pl.params,
    { prepare: pl.prepare },
  );
  return { list: pageList(e, row.rows), total: Number(row.n), current: pl.current, pageSize: pl.pageSize };
}

/** One row by id within the business, or null. */
export async function getRow(
  db: Queryable,
  e: EntitySchema,
  businessId: string,
  id: number,
  opts: { unmasked?: boolean } = {},
): Promise<Record<string, unknown> | null> {
  if (!Number.isInteger(id) || id < 1 || id > 2147483647) return null;
  const rows = await db.query<Record<string, unknown>>(
    `SELECT ${selectList(e)} FROM ${tableOf(e)} WHERE business_id = $1 AND id = $2`,
    [businessId, id],
  );
  if (!rows[0]) return null;
  return opts.unmasked ? rows[0] : applyMasks(e, rows[0]);
}
