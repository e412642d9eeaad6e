import type { TableSchema } from '../../schema/types';
import { toQuery } from '../tableColumns';
import { DEFAULT_PAGE_SIZE } from './sizing';
import { readListState } from './urlState';

/** The business picker's table (账户中心): the user's businesses from its API, one list with no query. */
export const isBusinessPicker = (schema: Pick<TableSchema, 'id'>): boolean => schema.id === 'businesses';

/**
 * The gateway query of a list's first load on a URL whose query names no filter (a menu link, a list's
 * own page or sort in the URL): what TablePage's request asks when the table mounts (page and page size
 * from the URL or the table's default, the URL's sort). Undefined when the URL filters the list, whose
 * search form shapes the values first, and for the business picker, which asks its API without a query.
 * preloadRouteData sends it with the link that opens the list, so the rows are on their way while the
 * page's code loads and the page renders.
 */
export function firstLoadQuery(schema: TableSchema, search: string): Record<string, string | number> | undefined {
  if (isBusinessPicker(schema)) return undefined;
  const state = readListState(search, schema.columns, schema.pageSize ?? DEFAULT_PAGE_SIZE);
  if (Object.keys(state.filters).length > 0) return undefined;
  const sort = state.sortField && state.sortOrder ? { [state.sortField]: state.sortOrder } : {};
  return toQuery(schema.columns, { current: state.current, pageSize: state.pageSize }, sort);
}
