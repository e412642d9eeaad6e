/**
 * The SQL of derived fields (FieldSchema.derived): their value in a list or detail, the predicate of a
 * filter on them and their exact totals from counter tables, all from the shared rule
 * (src/shared/cover-status.ts) applied to the entity's columns. `today` is SQL text of a date (a
 * parameter: the business's today, computed once per request).
 */
import { coverCountSql, coverStatusSql, coverStatusWhere, type CountSelection, type CoverColumns } from '../../shared/cover-status.ts';
import type { EntitySchema, FieldSchema } from '../../shared/entity/types.ts';
import { countTablesOf, type CountTable } from './counts.ts';
import { columnOf } from './ddl.ts';

export const hasDerived = (e: EntitySchema): boolean => Object.values(e.fields).some((f) => f.derived);

const TODAY = '\u0000today\u0000';

/**
 * SQL built with a stand-in for today, which asks `today()` (a statement parameter, added when first
 * asked for) only when the SQL uses it: a statement must not carry a parameter it never reads.
 */
function withToday(sql: string, today: () => string): string {
  return sql.includes(TODAY) ? sql.replaceAll(TODAY, today()) : sql;
}

function coverOf(e: EntitySchema, f: FieldSchema, prefix = '') {
  const rule = f.derived!;
  const col = (k: string) => `${prefix}${columnOf(k, e.fields[k])}`;
  const cols: CoverColumns = { start: col(rule.start), end: col(rule.end), ...(rule.event ? { event: col(rule.event) } : {}) };
  const eventValues = rule.event ? (e.fields[rule.event].options ?? []).map((o) => o.value) : [];
  return { rule, cols, eventValues };
}

/** The field's value on `today`, as a SQL expression over the row's columns (`prefix` qualifies them). */
export function derivedSelect(e: EntitySchema, f: FieldSchema, today: string, prefix = ''): string {
  const { rule, cols } = coverOf(e, f, prefix);
  return coverStatusSql(rule, cols, today);
}

/** The rows whose value on `today()` is one of `values`. */
export function derivedWhere(e: EntitySchema, f: FieldSchema, values: readonly string[], today: () => string, prefix = ''): string {
  const { rule, cols, eventValues } = coverOf(e, f, prefix);
  const each = values.map((v) => coverStatusWhere(rule, cols, TODAY, v, eventValues) ?? 'FALSE');
  return withToday(each.length === 1 ? each[0] : `(${each.map((w) => `(${w})`).join(' OR ')})`, today);
}

/**
 * SQL of the exact number of the business's rows whose value on `today` is one of `values`, from the
 * counter tables by (event, start day) and (event, end day) (counts.ts); `business` is SQL text.
 */
export function derivedCountSql(e: EntitySchema, f: FieldSchema, values: readonly string[], today: () => string, business: string): string | null {
  const { rule, eventValues } = coverOf(e, f);
  const tables = countTablesOf(e);
  const byDay = (date: string): CountTable | undefined =>
    tables.find((t) => t.keys.length === (rule.event ? 2 : 1) && t.keys.at(-1)!.key === date && (!rule.event || t.keys[0].key === rule.event));
  const starts = byDay(rule.start);
  const ends = byDay(rule.end);
  if (!starts || !ends) return null;
  const sum = (t: CountTable) => (sel: CountSelection) => {
    const conds = [`business_id = ${business}`];
    if (rule.event) conds.push(`${t.keys[0].column} = '${(sel.event ?? '').replace(/'/g, "''")}'`);
    if (sel.day) conds.push(`${t.keys.at(-1)!.column} ${sel.day} ${TODAY}`);
    return `(SELECT coalesce(sum(n), 0) FROM ${t.name} WHERE ${conds.join(' AND ')})`;
  };
  // A value no row can have counts nothing.
  return withToday(values.map((v) => coverCountSql(rule, v, eventValues, sum(starts), sum(ends)) ?? '0').join(' + '), today);
}
