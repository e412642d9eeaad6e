/**
 * The one place an export reads its rows: it pages through the list query the list endpoint uses
 * (src/server/entity/query.ts listRows: same filters, sorting, business scope and masking), so an
 * export holds exactly what the list shows. Swap the list query here if lists move elsewhere.
 */
import type { Queryable } from '../db.ts';
import { countList, listRows, type ListQuery } from '../entity/query.ts';
import type { EntitySchema } from '../../shared/entity/types.ts';

/** Rows per list query (the list query's own maximum page size). */
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

/** Every row of the filtered list, page by page (masked as in the list), at most `limit` rows. */
export async function* exportRows(
  db: Queryable,
  entity: EntitySchema,
  businessId: string,
  filters: ListQuery,
  limit = Infinity,
  today?: string,
): AsyncGenerator<Record<string, unknown>> {
  let sent = 0;
  for (let page = 1; sent < limit; page++) {
    const r = await listRows(db, entity, businessId, { ...filters, current: String(page), pageSize: String(EXPORT_PAGE_SIZE) }, { today });
    for (const row of r.list) {
      if (sent >= limit) return;
      sent++;
      yield row;
    }
    if (r.list.length < EXPORT_PAGE_SIZE) return;
  }
}
