/**
 * Insurable age: one rule for every way a person is insured (roster preview and confirm, the roster
 * API, attendance, automatic insurance). The range is the plan's (schemas/entities/plan.json minAge /
 * maxAge); the age is counted in whole years on the cover start (attendance: the work day) from the
 * birth date in the 18-digit ID number. Shared by the gateway (which enforces it) and the browser.
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
