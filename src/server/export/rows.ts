/**
 * The one place an export reads its rows: it walks the list query the list endpoint uses
 * (src/server/entity/query.ts pageRows: same filters, sorting, business scope and masking), so an
 * export holds exactly what the list shows. Swap the list query here if lists move elsewhere.
 *
 * It reads in short slices, each starting after the previous one's last row (keyset paging: the
 * 450th slice costs what the first does, and rows written during the export shift nothing), and lets
 * the event loop run between slices. On the embedded database, which runs one statement at a time and
 * whose statements never yield to the event loop, that is what lets other businesses' requests in
 * between: a 45,000-row export used to hold them for the whole export (bench/embedded.ts).
 */
import type { Queryable } from '../db.ts';
import { pageRows } from '../entity/page-rows.ts';
import type { ListQuery } from '../entity/query.ts';
import { countList } from '../entity/totals.ts';
import type { SeekKey } from '../entity/ddl.ts';
import type { EntitySchema } from '../../shared/entity/types.ts';
import { yieldToLoop } from '../util.ts';

/** Rows per slice: a statement of a few milliseconds (the list query's own largest page). */
export const EXPORT_PAGE_SIZE = 100;

/** Filters and sort of a list request, without its paging. */
export function listFilters(query: Record<string, unknown>): ListQuery {
  const out: ListQuery = {};
  for (const [k, v] of Object.entries(query)) {
    if (k === 'current' || k === 'pageSize' || k === 'format' || k === 'columns') continue;
    if (typeof v === 'string') out[k] = v;
  }
  return out;
}

/**
 * Row count of the filtered list as the list reports it (throws the list query's QueryError on a bad
 * filter). `estimated` when the list query estimates large totals instead of counting them. Derived
 * fields (statuses) are computed on `today`, the business's day of the request.
 */
export async function countRows(db: Queryable, entity: EntitySchema, businessId: string, filters: ListQuery, today?: string): Promise<{ total: number; estimated: boolean }> {
  return countList(db, entity, businessId, filters, { today });
}

/** Every row of the filtered list, slice by slice (masked as in the list), at most `limit` rows. */
export async function* exportRows(
  db: Queryable,
  entity: EntitySchema,
  businessId: string,
  filters: ListQuery,
  limit = Infinity,
  today?: string,
): AsyncGenerator<Record<string, unknown>> {
  let sent = 0;
  let after: SeekKey | undefined;
  while (sent < limit) {
    const { rows, last } = await pageRows(db, entity, businessId, { ...filters, pageSize: String(EXPORT_PAGE_SIZE) }, { after, today });
    for (const row of rows) {
      if (sent >= limit) return;
      sent++;
      yield row;
    }
    if (!last || rows.length < EXPORT_PAGE_SIZE) return;
    after = last;
    // Other requests' turn (a macrotask: the statements above resolve as microtasks on PGlite).
    await yieldToLoop();
  }
}
