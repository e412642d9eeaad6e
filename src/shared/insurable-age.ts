/**
 * Insurable age: one rule for every way a person is insured (roster preview and confirm, the roster
 * API, attendance, automatic insurance). The range is the plan's (schemas/entities/plan.json minAge /
 * maxAge); the age is counted in whole years on the cover start (attendance: the work day) from the
 * birth date in the 18-digit ID number. Shared by the gateway (which enforces it) and the browser.
 *
 * The same rule read on the business's today shows the automatic-insurance status as it is now
 * (docs/auto-insure.md): a person with complete information who is not stopped is 1 自动投保中 while
 * their age is insurable by a day plan on sale and 3 投保信息有误 while it is not, and ages change with
 * the calendar. The stored value says which of 0, 2 or {1, 3} the person is in (the writers decide it,
 * with the reason stored on the person, autoReason); which of 1 and 3 shows is read as SQL from the
 * same bounds (insurableSql) over the plans' ages.
 */

export interface AgeRange {
  minAge: number;
  maxAge: number;
}

/** Age in whole years on `onDate` (YYYY-MM-DD) from an 18-digit mainland ID number. */
export function ageOn(idCard: string, onDate: string): number {
  const birth = idCard.slice(6, 14);
  const on = onDate.replace(/-/g, '');
  const years = Number(on.slice(0, 4)) - Number(birth.slice(0, 4));
  return on.slice(4) >= birth.slice(4) ? years : years - 1;
}

/**
 * Why a person with this ID number cannot be insured on `onDate` by the plan (or by any of the plans:
 * automatic insurance may buy any day plan on sale), or null when they can. No plan to judge by: null.
 */
export function ageProblem(idCard: string, onDate: string, plans: AgeRange | readonly AgeRange[]): string | null {
  const ranges: readonly AgeRange[] = Array.isArray(plans) ? plans : [plans as AgeRange];
  if (!ranges.length || !/^\d{17}[\dX]$/i.test(idCard) || !/^\d{4}-\d{2}-\d{2}$/.test(onDate)) return null;
  const age = ageOn(idCard, onDate);
  if (ranges.some((r) => age >= r.minAge && age <= r.maxAge)) return null;
  const spans = [...new Set(ranges.map((r) => `${r.minAge}–${r.maxAge}`))].join('、');
  return `年龄 ${age} 岁，不在${ranges.length > 1 ? '' : '该方案'}可投保年龄 ${spans} 岁之内`;
}

/** An autoStatus field whose 1/3 follow the insurable age today, as declared in the entity schema. */
export interface InsurableAgeRule {
  rule: 'insurableAge';
  /** the ID-number field (the birth date is its characters 7–14) */
  idCard: string;
  /** the stored values that mean "complete, not stopped": `ok` while insurable, `refused` while not */
  values: { ok: string; refused: string };
}

/** The status shown on `today` for a stored status, judged by the ages of `plans` (ageProblem's rule). */
export function ageStatus(
  rule: Pick<InsurableAgeRule, 'values'>,
  stored: string | null,
  idCard: string,
  today: string,
  plans: readonly AgeRange[],
): string | null {
  const { ok, refused } = rule.values;
  if (stored !== ok && stored !== refused) return stored;
  return ageProblem(idCard, today, plans) === null ? ok : refused;
}

/**
 * The plans whose ages judge, as SQL: `from` is a FROM clause (with its WHERE) over the plans rows,
 * `minAge` / `maxAge` their columns there. The server builds it from the plan entity's columns.
 */
export interface PlanAgesSql {
  from: string;
  minAge: string;
  maxAge: string;
}

const literal = (s: string): string => `'${s.replace(/'/g, "''")}'`;

/**
 * SQL: the person (ID-number column `idCard`) is of insurable age on `today` (SQL text of a date) for
 * one of the plans, or there is no plan to judge by (ageProblem's rule). Age ≥ N on a day is a birth
 * date (YYYYMMDD) no later than that day N years before, compared as text, which is ageOn's rule
 * exactly (29 February included).
 */
export function insurableSql(idCard: string, today: string, plans: PlanAgesSql): string {
  const yearsBefore = (n: string) => `((extract(year FROM ${today})::int - ${n})::text || to_char(${today}, 'MMDD'))`;
  const birth = `substr(${idCard}, 7, 8)`;
  const fits = `${birth} <= ${yearsBefore(plans.minAge)} AND ${birth} > ${yearsBefore(`(${plans.maxAge} + 1)`)}`;
  return `(NOT EXISTS (SELECT 1 FROM ${plans.from}) OR EXISTS (SELECT 1 FROM ${plans.from} AND ${fits}))`;
}

/** The status shown on `today` as a SQL expression over the stored column. */
export function ageStatusSql(rule: Pick<InsurableAgeRule, 'values'>, column: string, idCard: string, today: string, plans: PlanAgesSql): string {
  const { ok, refused } = rule.values;
  return `(CASE WHEN ${column} IN (${literal(ok)}, ${literal(refused)}) THEN (CASE WHEN ${insurableSql(idCard, today, plans)} THEN ${literal(ok)} ELSE ${literal(refused)} END) ELSE ${column} END)`;
}

/** SQL: the rows whose status shown on `today` is `value`. */
export function ageStatusWhere(rule: Pick<InsurableAgeRule, 'values'>, column: string, idCard: string, today: string, value: string, plans: PlanAgesSql): string {
  const { ok, refused } = rule.values;
  const either = `${column} IN (${literal(ok)}, ${literal(refused)})`;
  if (value === ok) return `${either} AND ${insurableSql(idCard, today, plans)}`;
  if (value === refused) return `${either} AND NOT ${insurableSql(idCard, today, plans)}`;
  return `${column} = ${literal(value)}`;
}
