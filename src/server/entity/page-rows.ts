/**
 * Every row of a filter, slice after slice, for callers that read them all (exports): keyset paging
 * over listRows' filters, sort and masks (query.ts).
 */
import type { Queryable } from '../db.ts';
import type { EntitySchema } from '../../shared/entity/types.ts';
import type { SeekKey } from './ddl.ts';
import { pageIdsSql } from './page-ids.ts';
import { decidedPlan, sortColumn, type ListQuery, type PageOptions } from './query.ts';
import { applyMasks, selectList } from './select.ts';

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
  const pl = await decidedPlan(db, e, businessId, opts.after ? { ...q, current: undefined } : q, opts);
  const col = sortColumn(e, pl.sort);
  const rows = await db.query<Record<string, unknown>>(
    `SELECT ${selectList(e, pl.today())}, ${col === 'id' ? 'NULL' : `${col}::text`} AS "__seek"
       FROM ${pl.table} WHERE id IN (${pageIdsSql(pl)}) ORDER BY ${pl.sort.sql}`,
    pl.params,
  );
  const tail = rows.at(-1);
  const last = tail ? { value: tail.__seek as string | null, id: Number(tail.id) } : null;
  for (const r of rows) delete r.__seek;
  return { rows: rows.map((r) => applyMasks(e, r)), last };
}
