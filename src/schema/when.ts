/**
 * The condition under which a row or detail action is offered (`"when"` in table rowActions and detail
 * actions): field → allowed value, or list of allowed values. Every named field must match; a value
 * is compared as text, and '' stands for an empty value (null, undefined or ''). Example — an order
 * can be invoiced when it is paid and not yet invoiced: { "payStatus": "paid", "invoiced": "false" }.
 * Pages mirror the gateway's rules with it, so an action is shown only when it can succeed.
 */
export type ActionWhen = Record<string, string | string[]>;

/** The text a record value is compared as. */
export function whenValue(v: unknown): string {
  return v === undefined || v === null ? '' : String(v);
}

/** True when there is no condition, or the record meets every part of it. */
export function matchesWhen(when: ActionWhen | undefined, record: Record<string, unknown> | undefined): boolean {
  if (!when) return true;
  if (!record) return false;
  return Object.entries(when).every(([field, allowed]) => (Array.isArray(allowed) ? allowed : [allowed]).includes(whenValue(record[field])));
}
