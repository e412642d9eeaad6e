import { describe, expect, it } from 'vitest';
import { checkClaimCover, coverStartError, createClaim, earliestCoverStart } from '../../src/server/domain/cover.ts';
import { createInsuranceBatch } from '../../src/server/domain/insure.ts';
import { addDays, fmtYuan } from '../../src/server/domain/util.ts';
import { count, makeBusiness, people, targets, today, useTargetDb } from './money-helpers.ts';

// 2026-11-23 in Shanghai (UTC+8): 09:30 and 17:30 local.
const MORNING = new Date('2026-11-23T01:30:00Z');
const EVENING = new Date('2026-11-23T09:30:00Z');

describe('cover start rules (pure)', () => {
  it('refuses a past start date, allows today', () => {
    expect(coverStartError('2026-11-22', MORNING, '24:00')).toBe('起保日期不能早于 2026-11-23');
    expect(coverStartError('2026-11-23', MORNING, '24:00')).toBeNull();
    expect(coverStartError('2026-11-23', EVENING, '24:00')).toBeNull();
  });
  it('respects the daily cut-off', () => {
    expect(coverStartError('2026-11-23', MORNING, '17:00')).toBeNull();
    expect(coverStartError('2026-11-23', EVENING, '17:00')).toBe('起保日期不能早于 2026-11-24');
    expect(coverStartError('2026-11-24', EVENING, '17:00')).toBeNull();
    expect(earliestCoverStart(new Date('2026-11-23T16:30:00Z'), '24:00')).toBe('2026-11-24'); // 00:30 next day local
  });
  it('formats yuan from integer cents', () => {
    expect(fmtYuan(60_000_000)).toBe('600,000.00');
    expect(fmtYuan(163_405)).toBe('1,634.05');
  });
});

for (const t of targets()) {
  describe(`cover and claims (${t.name})`, () => {
    const db = useTargetDb(t);

    it('roster and attendance refuse past start dates and store nothing', async () => {
      const biz = await makeBusiness(db, { chargeForm: 'postpaid' });
      const rows = people(3, 100);
      const past = addDays(today(), -1);
      await expect(createInsuranceBatch(db, biz, { source: 'roster', planId: 'employer-std-60w', startDate: past, rows })).rejects.toThrow(
        `起保日期不能早于 ${today()}`,
      );
      await expect(createInsuranceBatch(db, biz, { source: 'attendance', planId: 'flex-day', startDate: past, rows })).rejects.toThrow(
        `出勤日期不能早于 ${today()}`,
      );
      expect(await count(db, 'SELECT count(*) FROM insure_batches WHERE business_id = $1', [biz.businessId])).toBe(0);
      const ok = await createInsuranceBatch(db, biz, { source: 'roster', planId: 'employer-std-60w', startDate: today(), rows });
      expect(ok.people).toBe(3);
      expect(await count(db, `SELECT count(*) FROM insure_records WHERE batch_id = $1 AND cover_event IS NULL`, [ok.batchId])).toBe(3);
    });

    it('cut-off: after 17:00 the earliest start is tomorrow (injected now)', async () => {
      const biz = await makeBusiness(db, { chargeForm: 'postpaid' });
      const rows = people(1, 200);
      const evening = new Date(`${today()}T09:30:00Z`); // 17:30 in Shanghai
      await expect(
        createInsuranceBatch(db, biz, { source: 'roster', planId: 'employer-std-60w', startDate: today(), rows }, { now: evening, cutoff: '17:00' }),
      ).rejects.toThrow(`起保日期不能早于 ${addDays(today(), 1)}`);
      const r = await createInsuranceBatch(
        db,
        biz,
        { source: 'roster', planId: 'employer-std-60w', startDate: addDays(today(), 1), rows },
        { now: evening, cutoff: '17:00' },
      );
      expect(r.startDate).toBe(addDays(today(), 1));
    });

    it('claims: only for people covered on the accident date, within the plan limit', async () => {
      const biz = await makeBusiness(db, { chargeForm: 'postpaid' });
      const [p] = people(1, 300);
      const [never] = people(1, 301);
      const start = today();
      await createInsuranceBatch(db, biz, { source: 'roster', planId: 'employer-std-60w', startDate: start, rows: [p] });
      const base = { personName: p.name, accidentType: '意外伤害' };

      // Someone never insured: 10,000,000 yuan is refused.
      await expect(
        createClaim(db, biz, { ...base, idCard: never.idCard, accidentDate: start, amountCents: 1_000_000_000 }),
      ).rejects.toThrow('该人员在本企业无有效保单');
      // Insured in another business does not count here.
      const other = await makeBusiness(db, { chargeForm: 'postpaid' });
      await expect(checkClaimCover(db, other.businessId, { idCard: p.idCard, accidentDate: start, amountCents: 100 })).rejects.toThrow(
        '该人员在本企业无有效保单',
      );
      // Accident before the cover started.
      await expect(
        createClaim(db, biz, { ...base, idCard: p.idCard, accidentDate: addDays(start, -1), amountCents: 100_000 }),
      ).rejects.toThrow('出险日期不在该人员的保障期内');
      // Over the 60万 limit.
      await expect(
        createClaim(db, biz, { ...base, idCard: p.idCard, accidentDate: start, amountCents: 60_000_001 }),
      ).rejects.toThrow('申请金额超过方案赔付限额 600,000.00 元');
      expect(await count(db, 'SELECT count(*) FROM claims WHERE business_id = $1', [biz.businessId])).toBe(0);

      // A valid claim is stored with the person, plan and the cover check.
      const ok = await createClaim(db, biz, { ...base, idCard: p.idCard.toLowerCase(), accidentDate: start, amountCents: 60_000_000 });
      const [row] = await db.query<{ person_id: number; plan_id: string; cover_checked: boolean; amount: number }>(
        'SELECT person_id, plan_id, cover_checked, amount_cents::float8 AS amount FROM claims WHERE id = $1',
        [ok.id],
      );
      expect(row).toMatchObject({ plan_id: 'employer-std-60w', cover_checked: true, amount: 60_000_000 });
      expect(row.person_id).toBeGreaterThan(0);

      // The limit is per person and cover period: the first claim used all of it.
      await expect(
        createClaim(db, biz, { ...base, idCard: p.idCard, accidentDate: start, amountCents: 1 }),
      ).rejects.toThrow('申请金额超过该人员本保障期剩余可赔付额度 0.00 元（方案赔付限额 600,000.00 元）');
      await db.query(`UPDATE claims SET status = 'rejected' WHERE id = $1`, [ok.id]);
      const again = await createClaim(db, biz, { ...base, idCard: p.idCard, accidentDate: start, amountCents: 40_000_000 });
      expect(again.planId).toBe('employer-std-60w');
    });

    it('claims: a future accident date is refused; cover from the seed (plan backfilled) counts', async () => {
      const biz = await makeBusiness(db, { chargeForm: 'postpaid' });
      await expect(
        createClaim(db, biz, { personName: '张三', idCard: people(1, 400)[0].idCard, accidentDate: addDays(today(), 2), accidentType: '意外伤害', amountCents: 100 }),
      ).rejects.toThrow('出险日期不能晚于今天');
      const [seeded] = await db.query<{ id_card: string; d: string }>(
        `SELECT id_card, effective_date::text AS d FROM insure_records
          WHERE business_id = 'B10001' AND cover_event IS NULL AND effective_date <= current_date ORDER BY id LIMIT 1`,
      );
      const cover = await checkClaimCover(db, 'B10001', { idCard: seeded.id_card, accidentDate: seeded.d, amountCents: 100 });
      expect(cover.claimLimitCents).toBeGreaterThan(0);
    });
  });
}
