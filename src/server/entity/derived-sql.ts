/**
 * The SQL of derived fields (FieldSchema.derived): their value in a list or detail, the predicate of a
 * filter on them and their exact totals from counter tables, all from the shared rules
 * (src/shared/cover-status.ts, src/shared/insurable-age.ts) applied to the entity's columns. `today`
 * is SQL text of a date (a parameter: the business's today, computed once per request).
 */
import { coverCountSql, coverStatusSql, coverStatusWhere, type CountSelection, type CoverColumns } from '../../shared/cover-status.ts';
import { ageStatusSql, ageStatusWhere, type PlanAgesSql } from '../../shared/insurable-age.ts';
import type { EntitySchema } from '../../shared/entity/types.ts';
import { countTablesOf, isMonthly, type CountTable } from './counts.ts';
import { columnOf, tableOf } from './ddl.ts';
import { repoEntities } from './repo.ts';

export const hasDerived = (e: EntitySchema): boolean => Object.values(e.fields).some((f) => f.derived);

const TODAY = '\u0000today\u0000';

/**
 * SQL built with a stand-in for today, which asks `today()` (a statement parameter, added when first
 * asked for) only when the SQL uses it: a statement must not carry a parameter it never reads.
 */
function withToday(sql: string, today: () => string): string {
  return sql.includes(TODAY) ? sql.replaceAll(TODAY, today()) : sql;
}

const col = (e: EntitySchema, k: string, prefix: string) => `${prefix}${columnOf(k, e.fields[k])}`;
const literal = (s: string): string => `'${s.replace(/'/g, "''")}'`;

/**
 * The plans whose ages decide 1 / 3 of an insurableAge status: the day plans on sale, any of which an
 * attendance submission may buy (domain/plans.ts autoInsureAges), with the plan entity's columns.
 */
function dayPlanAges(): PlanAgesSql {
  const plan = repoEntities().registry.get('plan');
  const c = (k: string) => `p.${columnOf(k, plan.fields[k])}`;
  return { from: `${tableOf(plan)} p WHERE ${c('unit')} = 'day' AND ${c('onSale')}`, minAge: c('minAge'), maxAge: c('maxAge') };
}

function coverOf(e: EntitySchema, key: string, prefix = '') {
  const rule = e.fields[key].derived;
  if (rule?.rule !== 'coverPeriod') throw new Error(`${e.name}.${key} is not a coverPeriod status`);
  const cols: CoverColumns = { start: col(e, rule.start, prefix), end: col(e, rule.end, prefix), ...(rule.event ? { event: col(e, rule.event, prefix) } : {}) };
  const eventValues = rule.event ? (e.fields[rule.event].options ?? []).map((o) => o.value) : [];
  return { rule, cols, eventValues };
}

/** The field's value on `today`, as a SQL expression over the row's columns (`prefix` qualifies them). */
export function derivedSelect(e: EntitySchema, key: string, today: string, prefix = ''): string {
  const rule = e.fields[key].derived!;
  if (rule.rule === 'insurableAge') return ageStatusSql(rule, col(e, key, prefix), col(e, rule.idCard, prefix), today, dayPlanAges());
  const { cols } = coverOf(e, key, prefix);
  return coverStatusSql(rule, cols, today);
}

/** The rows whose value on `today()` is one of `values`. */
export function derivedWhere(e: EntitySchema, key: string, values: readonly string[], today: () => string, prefix = ''): string {
  const rule = e.fields[key].derived!;
  const each =
    rule.rule === 'insurableAge'
      ? values.map((v) => ageStatusWhere(rule, col(e, key, prefix), col(e, rule.idCard, prefix), TODAY, v, dayPlanAges()))
      : values.map((v) => {
          const { cols, eventValues } = coverOf(e, key, prefix);
          return coverStatusWhere(rule, cols, TODAY, v, eventValues) ?? 'FALSE';
        });
  return withToday(each.length === 1 ? each[0] : `(${each.map((w) => `(${w})`).join(' OR ')})`, today);
}

/**
 * SQL of the exact number of the business's rows whose value on `today` is one of `values`, from
 * counter tables (counts.ts), or null when none answers: a cover status from the counts by (event, start
 * day) and (event, end day); an age-dependent status from its own counts only for the values the age does
 * not decide (信息待完善, 已停止自动投保). `business` is SQL text.
 */
export function derivedCountSql(e: EntitySchema, key: string, values: readonly string[], today: () => string, business: string): string | null {
  const rule = e.fields[key].derived!;
  const tables = countTablesOf(e);
  if (rule.rule === 'insurableAge') {
    const own = tables.find((t) => t.keys.length === 1 && t.keys[0].key === key);
    if (!own || values.some((v) => v === rule.values.ok || v === rule.values.refused)) return null;
    return `(SELECT coalesce(sum(n), 0) FROM ${own.name} WHERE business_id = ${business} AND ${own.keys[0].column} IN (${values.map(literal).join(', ')}))`;
  }
  const { eventValues } = coverOf(e, key);
  const byDay = (date: string): CountTable | undefined =>
    tables.find((t) => t.keys.length === (rule.event ? 2 : 1) && t.keys.at(-1)!.key === date && !isMonthly(t) && (!rule.event || t.keys[0].key === rule.event));
  const starts = byDay(rule.start);
  const ends = byDay(rule.end);
  if (!starts || !ends) return null;
  const sum = (t: CountTable) => (sel: CountSelection) => {
    const conds = [`business_id = ${business}`];
    if (rule.event) conds.push(`${t.keys[0].column} = ${literal(sel.event ?? '')}`);
    if (sel.day) conds.push(`${t.keys.at(-1)!.column} ${sel.day} ${TODAY}`);
    return `(SELECT coalesce(sum(n), 0) FROM ${t.name} WHERE ${conds.join(' AND ')})`;
  };
  // A value no row can have counts nothing.
  return withToday(values.map((v) => coverCountSql(rule, v, eventValues, sum(starts), sum(ends)) ?? '0').join(' + '), today);
}
