/** What GET /api/overview/workbench answers: shared by the gateway (overview.ts) and the workbench page. */

/** Entity whose list a workbench number was counted from. */
export type ListName = 'order' | 'insured-person' | 'insure-record' | 'claim' | 'invoice';

export interface Metric {
  key: string;
  value: number;
  valueType: 'digit' | 'money';
  /** Entity whose list the number links to; absent for the balance (account center). */
  list?: ListName;
  /** The list's filters as query parameters (the list URL contract: `field=value`, ranges `from,to`). */
  query?: Record<string, string>;
  /** Extra figure shown with a to-do (e.g. the amount due). */
  amount?: number;
}
