import { PATHS } from '../paths';

import type { ListName, Metric } from '../../../../shared/workbench';

export type { ListName, Metric };

const LIST_PATHS: Record<ListName, string> = {
  order: PATHS.orders,
  'insured-person': PATHS.insurePersons,
  'insure-record': PATHS.insuredRecord,
  claim: PATHS.claims,
  invoice: PATHS.invoices,
};

/**
 * The filtered list a number links to, by the list URL contract: filters named like the API's list
 * query (`?payStatus=unpaid&current=1`), date ranges as `createdAt=2024-01-01,2024-01-31`.
 */
export function listLink(list: ListName | undefined, query: Record<string, string> = {}): string {
  if (!list) return PATHS.accountCenter;
  const qs = new URLSearchParams({ ...query, current: '1' }).toString();
  return `${LIST_PATHS[list]}?${qs}`;
}
