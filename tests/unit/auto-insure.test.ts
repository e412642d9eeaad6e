import { describe, expect, it } from 'vitest';
import {
  AUTO_INSURE_LABELS,
  AutoInsureStatus as S,
  availableActions,
  infoProblem,
  initialStatus,
  missingInfo,
  statusReason,
  transition,
} from '../../src/shared/auto-insure';
import { ageOn, ageProblem } from '../../src/shared/insurable-age';

const TODAY = '2026-11-23';
const complete = { name: '王伟', idCard: '11010519900307001X', phone: '13800001111', jobType: '快递员' };
const noPhone = { ...complete, phone: '' };
// Born 2015-01-01: 11 years old on TODAY, outside 16–65.
const child = { ...complete, idCard: '110105201501010014' };
/** The ages automatic insurance judges by: the day plans on sale (here one, 16–65). */
const DAY = [{ minAge: 16, maxAge: 65 }];

describe('auto-insurance statuses (spec §3)', () => {
  it('labels the five values as the spec lists them', () => {
    expect([0, 1, 2, 3, 4].map((v) => AUTO_INSURE_LABELS[v as S])).toEqual([
      '信息待完善',
      '自动投保中',
      '已停止自动投保',
      '投保信息有误',
      '空状态',
    ]);
  });

  it('names missing information by label and computes age on a date', () => {
    expect(missingInfo(noPhone)).toEqual(['手机号']);
    expect(missingInfo({})).toEqual(['姓名', '身份证号', '手机号', '工种']);
    expect(ageOn('11010519900307001X', '2026-03-06')).toBe(35);
    expect(ageOn('11010519900307001X', '2026-03-07')).toBe(36);
    expect(infoProblem(child, TODAY, DAY)).toMatch(/年龄 11 岁，不在该方案可投保年龄 16–65 岁之内/);
    expect(infoProblem(complete, TODAY, DAY)).toBeNull();
  });

  it('starts a new person from what the information allows', () => {
    expect(initialStatus(complete, TODAY, DAY)).toBe(S.Insuring);
    expect(initialStatus(noPhone, TODAY, DAY)).toBe(S.InfoIncomplete);
    expect(initialStatus(child, TODAY, DAY)).toBe(S.InfoIncorrect);
  });
});

describe('insurable age (one rule for every way of insuring)', () => {
  it('is judged by the plan, or by any of several plans', () => {
    expect(ageProblem(child.idCard, TODAY, { minAge: 16, maxAge: 65 })).toBe('年龄 11 岁，不在该方案可投保年龄 16–65 岁之内');
    expect(ageProblem(child.idCard, TODAY, { minAge: 10, maxAge: 65 })).toBeNull();
    expect(ageProblem(child.idCard, TODAY, [{ minAge: 18, maxAge: 60 }, { minAge: 10, maxAge: 12 }])).toBeNull();
    expect(ageProblem(child.idCard, TODAY, [{ minAge: 18, maxAge: 60 }, { minAge: 16, maxAge: 65 }])).toBe('年龄 11 岁，不在可投保年龄 18–60、16–65 岁之内');
    // No plan to judge by (no day plan on sale): nothing to refuse.
    expect(ageProblem(child.idCard, TODAY, [])).toBeNull();
    // The birthday is the day the age changes.
    expect(ageProblem('110105196011230012', '2026-11-22', { minAge: 16, maxAge: 65 })).toBeNull();
    expect(ageProblem('110105196011230012', '2026-11-23', { minAge: 16, maxAge: 65 })).toBe('年龄 66 岁，不在该方案可投保年龄 16–65 岁之内');
  });

  it('gives the reason next to the statuses that keep a person from automatic insurance', () => {
    expect(statusReason(S.InfoIncomplete, noPhone, TODAY, DAY)).toBe('缺少手机号');
    expect(statusReason(S.InfoIncorrect, child, TODAY, DAY)).toBe('年龄 11 岁，不在该方案可投保年龄 16–65 岁之内');
    expect(statusReason(S.InfoIncorrect, complete, TODAY, DAY)).toBe('保险公司未通过该人员的信息，请核对后修改');
    expect(statusReason(S.Insuring, complete, TODAY, DAY)).toBeNull();
    expect(statusReason(S.Stopped, noPhone, TODAY, DAY)).toBeNull();
  });
});

describe('transitions', () => {
  it('completing information moves 0 → 1, correcting moves 3 → 1', () => {
    expect(transition(S.InfoIncomplete, 'edit', complete, TODAY, DAY)).toEqual({ ok: true, status: S.Insuring });
    expect(transition(S.InfoIncomplete, 'edit', noPhone, TODAY, DAY)).toEqual({ ok: true, status: S.InfoIncomplete });
    expect(transition(S.InfoIncorrect, 'edit', complete, TODAY, DAY)).toEqual({ ok: true, status: S.Insuring });
    expect(transition(S.InfoIncorrect, 'edit', child, TODAY, DAY)).toEqual({ ok: true, status: S.InfoIncorrect });
  });

  it('editing a stopped person keeps it stopped; editing an insuring one re-checks it', () => {
    expect(transition(S.Stopped, 'edit', noPhone, TODAY, DAY)).toEqual({ ok: true, status: S.Stopped });
    expect(transition(S.Insuring, 'edit', noPhone, TODAY, DAY)).toEqual({ ok: true, status: S.InfoIncomplete });
  });

  it('stop only from 1, start only from 2 with acceptable information', () => {
    expect(transition(S.Insuring, 'stop', complete, TODAY, DAY)).toEqual({ ok: true, status: S.Stopped });
    expect(transition(S.Stopped, 'stop', complete, TODAY, DAY)).toEqual({ ok: false, message: '该人员已停止自动投保' });
    expect(transition(S.InfoIncomplete, 'stop', noPhone, TODAY, DAY).ok).toBe(false);
    expect(transition(S.Stopped, 'start', complete, TODAY, DAY)).toEqual({ ok: true, status: S.Insuring });
    expect(transition(S.Stopped, 'start', noPhone, TODAY, DAY)).toEqual({ ok: false, message: '请先完善信息：手机号' });
    expect(transition(S.Stopped, 'start', child, TODAY, DAY)).toMatchObject({ ok: false, message: expect.stringMatching(/^投保信息有误：/) });
    expect(transition(S.Insuring, 'start', complete, TODAY, DAY)).toEqual({ ok: false, message: '该人员已在自动投保中' });
    expect(transition(S.InfoIncomplete, 'start', noPhone, TODAY, DAY).ok).toBe(false);
  });

  it('a refusal by the daily run moves 1 → 3 only', () => {
    expect(transition(S.Insuring, 'reject', complete, TODAY, DAY)).toEqual({ ok: true, status: S.InfoIncorrect });
    expect(transition(S.Stopped, 'reject', complete, TODAY, DAY).ok).toBe(false);
  });

  it('offers only the allowed actions', () => {
    expect(availableActions(S.InfoIncomplete)).toEqual(['edit']);
    expect(availableActions(S.Insuring)).toEqual(['edit', 'stop']);
    expect(availableActions(S.Stopped)).toEqual(['edit', 'start']);
    expect(availableActions(S.InfoIncorrect)).toEqual(['edit']);
    expect(availableActions(S.Empty)).toEqual([]);
  });
});

describe('one set of labels', () => {
  it('the entity enum of insured-person.autoStatus carries the labels of AUTO_INSURE_LABELS (4 is the empty state, not stored)', async () => {
    const entity = (await import('../../schemas/entities/insured-person.json')).default as {
      fields: { autoStatus: { options: Array<{ value: string; label: string }> } };
    };
    expect(entity.fields.autoStatus.options.map((o) => [o.value, o.label])).toEqual(
      [S.InfoIncomplete, S.Insuring, S.Stopped, S.InfoIncorrect].map((s) => [String(s), AUTO_INSURE_LABELS[s]]),
    );
  });
});
