/**
 * Which ids a list page reads (a deferred join: the page's rows are then read whole by id): the walk of
 * the sort order's index for filters many rows match, or every match sorted for filters few rows match.
 */
import { EXACT_COUNT_LIMIT } from './count.ts';
import { anchoredIdsSql } from './day-counts.ts';
import type { Plan, Sort } from './query.ts';

/** Pages that start at this offset or later start from the day counts (shallower ones skip little). */
const DAY_COUNTS_FROM = EXACT_COUNT_LIMIT;

/** The business test every list WHERE starts with (plan's `and`). */
export const TENANT = 'business_id = $1';

/**
 * A page in id order, read from the (business_id, id) index. With the business as an equality the
 * order is `id` alone, which the primary key also gives: for a business holding most rows the planner
 * expects its rows among the newest and walks the primary key backwards, through every newer row of
 * other businesses (在保 persons of B10001: 20,010 rows of another business's upload dropped, 601
 * buffers, 8 ms a request, instead of 4 buffers). As `= ANY (ARRAY[$1])` the business is no constant of
 * the sort, so `business_id, id` is an order only the business index gives, and its other indexes
 * (business_id, phone …) still use the business and the filter as one key.
 */
function idOrdered(where: string, sort: Sort): { where: string; order: string } {
  if (!where.startsWith(TENANT)) throw new Error(`list WHERE without the business test: ${where}`);
  const dir = sort.order === 'ascend' ? 'ASC' : 'DESC';
  return { where: `business_id = ANY (ARRAY[$1])${where.slice(TENANT.length)}`, order: `business_id ${dir}, ${sort.sql}` };
}

/**
 * The ids of one page (and `extra` rows after it), read from the (business_id, sort column, id) index
 * alone (a deferred join: only the page's own rows are read whole). A deep page in the order of an
 * entity's day counts starts at the day its offset falls in rather than skipping every index entry
 * before it. LIMIT and OFFSET are literals (integers the plan computed): with parameters there, a
 * prepared first page's generic plan would assume a tenth of the business is fetched and lose to
 * planning each run.
 */
export function pageIdsSql(pl: Plan, extra = 0): string {
  const limit = String(pl.pageSize + extra);
  const offset = String(pl.offset);
  if (pl.counts && pl.sort.field === pl.counts.field && pl.offset >= DAY_COUNTS_FROM) {
    return anchoredIdsSql(pl.counts, pl.sort.order === 'ascend' ? 'ASC' : 'DESC', '$1', pl.sort.sql, limit, offset);
  }
  const read = pl.sort.field === 'id' ? idOrdered(pl.where, pl.sort) : { where: pl.where, order: pl.sort.sql };
  return `SELECT id FROM ${pl.table} WHERE ${read.where} ORDER BY ${read.order} LIMIT ${limit} OFFSET ${offset}`;
}

/**
 * The ids of one page of a filter that matches few rows (at most EXACT_COUNT_LIMIT): every match is read
 * first, by the filter's own indexes, then sorted. Walking the sort index instead, as pageIdsSql does, is
 * right for a filter many rows match; for a rare one it reads nearly all the business's rows to find
 * its few (待生效 persons: 4 among 100,000, 47 ms, because the planner guessed 297). The inner LIMIT
 * (never reached: this runs only for at most EXACT_COUNT_LIMIT matches) keeps the planner from walking
 * the sort order into the filter, and keeps the statement's estimated cost low: costed as a read of
 * every row, this branch that does not run pushed the unfiltered list's statement over PostgreSQL's JIT
 * threshold, and page 1000 spent 34 ms compiling (64 ms instead of 2 ms). `all`: every match of a short
 * term whose count says walking costs more, read through its characters index (Plan.matchWhere; OFFSET 0
 * keeps the sort out of the read).
 */
export function fewIdsSql(pl: Plan, all = false, extra = 0): string {
  return `SELECT id FROM (SELECT * FROM ${pl.table} WHERE ${all ? pl.matchWhere : pl.where} ${all ? 'OFFSET 0' : `LIMIT ${EXACT_COUNT_LIMIT + 1}`}) few ORDER BY ${pl.sort.sql} LIMIT ${pl.pageSize + extra} OFFSET ${pl.offset}`;
}
