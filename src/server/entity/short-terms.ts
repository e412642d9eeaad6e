/**
 * How the page of a list filtered by a short contains-term (one or two characters, filters.ts
 * containsFilter) is read, from the planner's estimates of its matches and of the business's rows
 * (query.ts decidedPlan asks for both in one statement).
 */
import { EXACT_COUNT_LIMIT } from './count.ts';

/**
 * A short contains-term matching at least this many rows (the planner's estimate of its LIKE) is read by
 * walking rows rather than through the characters index, whose bitmap of every match costs about 0.8 µs
 * per match (filters.ts containsFilter): at this many, the walk of a capped count reads at most 1,001 /
 * (20,000 / the business's rows) rows, the bitmap 20,000 entries.
 */
export const FREQUENT_TERM = 20_000;

/**
 * Whether a page of a short term that matches `matches` of the business's `rows` (estimates) is read
 * cheaper by walking the sort order (about 0.6 µs per row walked: pageSize + 1 matches take rows / matches
 * each) than through the characters index (about 2 µs per match: every match's row is read, then
 * sorted). 郑 among 100,000 persons (2,705 matches): 0.5 ms walking against 6 ms through the index. The
 * walk is only taken once the capped count has passed EXACT_COUNT_LIMIT (listRows), so `matches` is at
 * least that; below it the index reads few rows anyway.
 */
function walkPays(matches: number, rows: number, pageSize: number): boolean {
  return matches * matches * 2 >= WALK_ROW_COST * (pageSize + 1) * rows;
}

/** About 0.6 µs per row walked against 2 µs per match read through the index (walkPays). */
const WALK_ROW_COST = 0.6;

/** walkPays in SQL, over the SQL of the exact matches (a counter's) and of the business's rows. */
export function walkPaysSql(matches: string, rows: string, pageSize: number): string {
  return `(${matches})::float8 * (${matches}) * 2 >= ${WALK_ROW_COST * (pageSize + 1)} * (${rows})`;
}

/**
 * 'walk': a frequent term, whose page and capped count both walk the rows; 'walk-past-cap': the count
 * reads the characters index and, once it passes EXACT_COUNT_LIMIT, the page walks (listRows); 'index':
 * both read the characters index's matches.
 */
export function shortTermRead(matches: number, rows: number, pageSize: number): 'walk' | 'walk-past-cap' | 'index' {
  if (matches >= FREQUENT_TERM) return 'walk';
  return walkPays(Math.max(matches, EXACT_COUNT_LIMIT + 1), rows, pageSize) ? 'walk-past-cap' : 'index';
}
