/**
 * How a list filtered by a short contains-term (one or two characters, filters.ts containsFilter) is
 * read: from the planner's estimate of its matches, or from their exact count where a counter table
 * holds it, against the business's rows (query.ts countedList and shortTermSql decide in SQL; decidedPlan
 * for the callers that plan first).
 */
import { EXACT_COUNT_LIMIT } from './count.ts';

/**
 * A short contains-term matching at least this many rows (the planner's estimate of its LIKE) is counted
 * by walking rows rather than through the characters index, whose bitmap of every match costs about 0.8
 * µs per match (filters.ts containsFilter): at this many, the walk of a capped count reads at most 1,001
 * / (20,000 / the business's rows) rows, the bitmap 20,000 entries.
 */
export const FREQUENT_TERM = 20_000;

/** About 0.6 µs per row walked against 2 µs per match read through the characters index (walkPaysSql). */
const WALK_ROW_COST = 0.6;

/**
 * SQL of whether a page of a short term that matches `matches` of the business's `rows` (SQL of each) is
 * read cheaper by walking the sort order (about 0.6 µs per row walked: the `reach` matches up to the
 * page's end take rows / matches each) than through the characters index (about 2 µs per match: every
 * match's row is read, then sorted). 郑 among 100,000 persons (2,705 matches): page 1 0.5 ms walking
 * against 6 ms through the index; page 136 41.5 ms walking against 6.9 ms. Asked only once the count has
 * passed EXACT_COUNT_LIMIT: below it the index reads few rows anyway.
 */
function walkPaysSql(matches: string, rows: string, reach: number): string {
  return `(${matches})::float8 * (${matches}) * 2 >= ${WALK_ROW_COST * reach} * (${rows})`;
}

/**
 * SQL of whether a short term's page walks the sort order, over the SQL of its matches (the exact count
 * or the planner's estimate), of its count up to the cap, and of the business's rows: a frequent term
 * always walks (reading every match would sort tens of thousands of rows), a term still under the cap
 * never does (its few matches are read through the index), and one between when walkPaysSql says so.
 */
export function walkSql(matches: string, count: string, rows: string, reach: number): string {
  return `CASE WHEN ${matches} >= ${FREQUENT_TERM} THEN true WHEN ${count} > ${EXACT_COUNT_LIMIT} THEN ${walkPaysSql(matches, rows, reach)} ELSE false END`;
}
