/**
 * The automatic-insurance status as it is today (docs/auto-insure.md): a person with complete
 * information who is not stopped is 1 自动投保中 while their age is insurable and 3 投保信息有误 while it
 * is not, and ages change with the calendar. The stored value says which of 0, 2 or {1, 3} the person
 * is in (the writers decide it on the cover date); which of 1 and 3 shows is the insurable age on the
 * business's today (infoProblem's rule, src/shared/auto-insure.ts), read as SQL from the same bounds.
 */
import { MAX_AGE, MIN_AGE, ageOn } from './auto-insure.ts';

/** An autoStatus field whose 1/3 follow the insurable age today, as declared in the entity schema. */
export interface InsurableAgeRule {
  rule: 'insurableAge';
  /** the ID-number field (the birth date is its characters 7–14) */
  idCard: string;
  /** the stored values that mean "complete, not stopped": `ok` while insurable, `refused` while not */
  values: { ok: string; refused: string };
}

/** Whether someone with this ID number is of insurable age on `today` (YYYY-MM-DD). */
export function insurableOn(idCard: string, today: string): boolean {
  const age = ageOn(idCard, today);
  return age >= MIN_AGE && age <= MAX_AGE;
}

/** The status shown on `today` for a stored status. */
export function ageStatus(rule: Pick<InsurableAgeRule, 'values'>, stored: string | null, idCard: string, today: string): string | null {
  const { ok, refused } = rule.values;
  if (stored !== ok && stored !== refused) return stored;
  return insurableOn(idCard, today) ? ok : refused;
}

const literal = (s: string): string => `'${s.replace(/'/g, "''")}'`;

/**
 * SQL: the person (ID-number column `idCard`) is of insurable age on `today` (SQL text of a date). Age ≥ N
 * on a day is a birth date (YYYYMMDD) no later than that day N years before, compared as text, which is
 * ageOn's rule exactly (29 February included).
 */
export function insurableSql(idCard: string, today: string): string {
  const yearsBefore = (n: number) => `((extract(year FROM ${today})::int - ${n})::text || to_char(${today}, 'MMDD'))`;
  const birth = `substr(${idCard}, 7, 8)`;
  return `(${birth} <= ${yearsBefore(MIN_AGE)} AND ${birth} > ${yearsBefore(MAX_AGE + 1)})`;
}

/** The status shown on `today` as a SQL expression over the stored column. */
export function ageStatusSql(rule: Pick<InsurableAgeRule, 'values'>, column: string, idCard: string, today: string): string {
  const { ok, refused } = rule.values;
  return `(CASE WHEN ${column} IN (${literal(ok)}, ${literal(refused)}) THEN (CASE WHEN ${insurableSql(idCard, today)} THEN ${literal(ok)} ELSE ${literal(refused)} END) ELSE ${column} END)`;
}

/** SQL: the rows whose status shown on `today` is `value`. */
export function ageStatusWhere(rule: Pick<InsurableAgeRule, 'values'>, column: string, idCard: string, today: string, value: string): string {
  const { ok, refused } = rule.values;
  const either = `${column} IN (${literal(ok)}, ${literal(refused)})`;
  if (value === ok) return `${either} AND ${insurableSql(idCard, today)}`;
  if (value === refused) return `${either} AND NOT ${insurableSql(idCard, today)}`;
  return `${column} = ${literal(value)}`;
}
