/**
 * Automatic (attendance) insurance of an insured person: the statuses of spec §3 and the transitions
 * between them, which the spec leaves open (decided in docs/auto-insure.md). Pure functions, shared by
 * the gateway (which enforces them) and the browser (which offers only the actions that are allowed).
 */

/** Spec §3: 0 to be completed, 1 insuring, 2 stopped, 3 incorrect, 4 the empty state. */
export enum AutoInsureStatus {
  InfoIncomplete = 0,
  Insuring = 1,
  Stopped = 2,
  InfoIncorrect = 3,
  /** Not a person's status: the value the console shows when there is nobody to show (empty state). */
  Empty = 4,
}

export const AUTO_INSURE_LABELS: Record<AutoInsureStatus, string> = {
  [AutoInsureStatus.InfoIncomplete]: '信息待完善',
  [AutoInsureStatus.Insuring]: '自动投保中',
  [AutoInsureStatus.Stopped]: '已停止自动投保',
  [AutoInsureStatus.InfoIncorrect]: '投保信息有误',
  [AutoInsureStatus.Empty]: '空状态',
};

import { ageProblem, type AgeRange } from './insurable-age.ts';

/** What a user (or the daily run) can do to a person. */
export type AutoInsureAction = 'edit' | 'start' | 'stop' | 'reject';

/**
 * A person's information as these rules read it: a record of the insured-person entity (any other
 * fields it carries are not read here; REQUIRED_INFO names the ones automatic insurance needs).
 */
export interface PersonInfo {
  name?: unknown;
  idCard?: unknown;
  phone?: unknown;
  jobType?: unknown;
  [field: string]: unknown;
}

/** Fields a person needs before automatic insurance can run, with their labels. */
export const REQUIRED_INFO: ReadonlyArray<{ key: keyof PersonInfo; label: string }> = [
  { key: 'name', label: '姓名' },
  { key: 'idCard', label: '身份证号' },
  { key: 'phone', label: '手机号' },
  { key: 'jobType', label: '工种' },
];

export function missingInfo(p: PersonInfo): string[] {
  return REQUIRED_INFO.filter(({ key }) => {
    const v = p[key];
    return v === undefined || v === null || String(v).trim() === '';
  }).map(({ label }) => label);
}

/**
 * Why the insurer would refuse this person's information on `onDate`, or null when it is acceptable:
 * the insurable ages of the plans automatic insurance may buy (`plans`: the attendance submission's
 * plan, else every day plan on sale; src/shared/insurable-age.ts).
 */
export function infoProblem(p: PersonInfo, onDate: string, plans: AgeRange | readonly AgeRange[]): string | null {
  if (!p.idCard) return null;
  return ageProblem(String(p.idCard), onDate, plans);
}

/** The status the person's information alone implies when automatic insurance is wanted. */
function statusFromInfo(p: PersonInfo, onDate: string, plans: AgeRange | readonly AgeRange[]): AutoInsureStatus {
  if (missingInfo(p).length > 0) return AutoInsureStatus.InfoIncomplete;
  if (infoProblem(p, onDate, plans)) return AutoInsureStatus.InfoIncorrect;
  return AutoInsureStatus.Insuring;
}

/** The status of a newly registered person: insuring when the information is complete and acceptable. */
export function initialStatus(p: PersonInfo, onDate: string, plans: AgeRange | readonly AgeRange[]): AutoInsureStatus {
  return statusFromInfo(p, onDate, plans);
}

/**
 * What the person's row says next to a status that keeps them from automatic insurance (the
 * insured-person field autoReason): what is missing (0) or why the insurer would refuse them (3); null
 * for the other statuses. A 3 without a problem in the information was refused by the daily run.
 */
export function statusReason(status: AutoInsureStatus, p: PersonInfo, onDate: string, plans: AgeRange | readonly AgeRange[]): string | null {
  if (status === AutoInsureStatus.InfoIncomplete) {
    const missing = missingInfo(p);
    return missing.length ? `缺少${missing.join('、')}` : null;
  }
  if (status === AutoInsureStatus.InfoIncorrect) return infoProblem(p, onDate, plans) ?? '保险公司未通过该人员的信息，请核对后修改';
  return null;
}

export type Transition = { ok: true; status: AutoInsureStatus } | { ok: false; message: string };

/**
 * The transition table:
 * - edit (complete or correct information): 0/3 → 1 when the information is now complete and acceptable,
 *   else 0 (still incomplete) or 3 (still refused); 1 → 1, 0 or 3 by the same rule; 2 stays 2.
 * - start: 2 → 1 (needs complete, acceptable information); refused from 0 and 3 with what to fix; 1 is already running.
 * - stop: 1 → 2; refused from any other status.
 * - reject (the daily run or the insurer refuses the information): 1 → 3.
 */
export function transition(
  current: AutoInsureStatus,
  action: AutoInsureAction,
  info: PersonInfo,
  onDate: string,
  plans: AgeRange | readonly AgeRange[],
): Transition {
  const missing = missingInfo(info);
  switch (action) {
    case 'edit':
      return { ok: true, status: current === AutoInsureStatus.Stopped ? current : statusFromInfo(info, onDate, plans) };
    case 'start': {
      if (current === AutoInsureStatus.Insuring) return { ok: false, message: '该人员已在自动投保中' };
      if (missing.length > 0) return { ok: false, message: `请先完善信息：${missing.join('、')}` };
      const problem = infoProblem(info, onDate, plans);
      if (problem) return { ok: false, message: `投保信息有误：${problem}` };
      if (current === AutoInsureStatus.Stopped) return { ok: true, status: AutoInsureStatus.Insuring };
      return { ok: false, message: '请先完善或修正信息后再开启自动投保' };
    }
    case 'stop':
      if (current === AutoInsureStatus.Insuring) return { ok: true, status: AutoInsureStatus.Stopped };
      return { ok: false, message: current === AutoInsureStatus.Stopped ? '该人员已停止自动投保' : '该人员未在自动投保中，无需停止' };
    case 'reject':
      if (current === AutoInsureStatus.Insuring) return { ok: true, status: AutoInsureStatus.InfoIncorrect };
      return { ok: false, message: '仅自动投保中的人员可被标记为投保信息有误' };
  }
}

/** The actions the console offers for a person in `status` (the gateway still checks each one). */
export function availableActions(status: AutoInsureStatus): AutoInsureAction[] {
  switch (status) {
    case AutoInsureStatus.InfoIncomplete:
    case AutoInsureStatus.InfoIncorrect:
      return ['edit'];
    case AutoInsureStatus.Insuring:
      return ['edit', 'stop'];
    case AutoInsureStatus.Stopped:
      return ['edit', 'start'];
    default:
      return [];
  }
}
