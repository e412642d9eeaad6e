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

/** Why a person with this ID number cannot be insured by the plan on `onDate`, or null when they can. */
export function ageProblem(idCard: string, onDate: string, plan: AgeRange): string | null {
  if (!/^\d{17}[\dX]$/i.test(idCard) || !/^\d{4}-\d{2}-\d{2}$/.test(onDate)) return null;
  const age = ageOn(idCard, onDate);
  if (age >= plan.minAge && age <= plan.maxAge) return null;
  return `年龄 ${age} 岁，不在该方案可投保年龄 ${plan.minAge}–${plan.maxAge} 岁之内`;
}
