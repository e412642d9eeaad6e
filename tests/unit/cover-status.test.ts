import { afterEach, describe, expect, it } from 'vitest';
import { coverStatus, coverStatusSql, coverStatusWhere, type CoverRow } from '../../src/shared/cover-status';
import { earliestCoverStart } from '../../src/server/domain/cover';
import { localParts } from '../../src/server/domain/util';

const PERSON = { values: { before: 'pending', during: 'insured', after: 'ended' } } as const;
const RECORD = { values: { before: 'pending', during: 'effective', after: 'expired' } } as const;
const cols = { start: 'start_date', end: 'end_date', event: 'cover_event' };

/** A year of cover from 1 January. */
const year = (start: string, event?: string | null): CoverRow => ({ start, end: `${start.slice(0, 4)}-12-31`, event });

describe('cover status from the dates (src/shared/cover-status.ts)', () => {
  it('is 待生效 before the start day, in force from the start to the end day inclusive, then expired', () => {
    const row: CoverRow = { start: '2026-11-25', end: '2027-11-24' };
    expect(coverStatus(PERSON, row, '2026-11-24')).toBe('pending');
    expect(coverStatus(PERSON, row, '2026-11-25')).toBe('insured');
    expect(coverStatus(PERSON, row, '2027-11-24')).toBe('insured');
    expect(coverStatus(PERSON, row, '2027-11-25')).toBe('ended');
    expect(coverStatus(RECORD, row, '2026-11-24')).toBe('pending');
    expect(coverStatus(RECORD, row, '2026-12-01')).toBe('effective');
    expect(coverStatus(RECORD, row, '2028-01-01')).toBe('expired');
    // A one-day cover (attendance) is in force on its day only.
    expect(['2026-11-24', '2026-11-25', '2026-11-26'].map((d) => coverStatus(RECORD, { start: '2026-11-25', end: '2026-11-25' }, d))).toEqual(['pending', 'effective', 'expired']);
  });

  it('gives a stored event (awaiting payment, cancelled) precedence over the dates', () => {
    expect(coverStatus(RECORD, year('2026-01-01', 'pending'), '2026-06-01')).toBe('pending');
    expect(coverStatus(RECORD, year('2026-01-01', 'cancelled'), '2026-06-01')).toBe('cancelled');
    expect(coverStatus(RECORD, year('2026-01-01', 'cancelled'), '2025-06-01')).toBe('cancelled');
    expect(coverStatus(RECORD, year('2026-01-01', null), '2026-06-01')).toBe('effective');
  });

  it('writes the same rule as a SQL CASE and as one predicate per status, whose date comparisons an index serves', () => {
    expect(coverStatusSql(PERSON, cols, '$2::date')).toBe(
      "(CASE WHEN cover_event IS NOT NULL THEN cover_event WHEN start_date > $2::date THEN 'pending' WHEN end_date < $2::date THEN 'ended' ELSE 'insured' END)",
    );
    expect(coverStatusWhere(PERSON, cols, '$2::date', 'insured', ['pending'])).toBe('cover_event IS NULL AND start_date <= $2::date AND end_date >= $2::date');
    expect(coverStatusWhere(PERSON, cols, '$2::date', 'ended', ['pending'])).toBe('cover_event IS NULL AND start_date <= $2::date AND end_date < $2::date');
    expect(coverStatusWhere(PERSON, cols, '$2::date', 'pending', ['pending'])).toBe("((cover_event = 'pending') OR (cover_event IS NULL AND start_date > $2::date))");
    expect(coverStatusWhere(RECORD, cols, '$2::date', 'cancelled', ['pending', 'cancelled'])).toBe("cover_event = 'cancelled'");
    expect(coverStatusWhere(RECORD, cols, '$2::date', 'cancelled', [])).toBeNull();
  });
});

describe('the business day across the cut-off and a date change (fake clock)', () => {
  const saved = { ...process.env };
  afterEach(() => {
    for (const k of ['BUSINESS_TZ', 'COVER_CUTOFF'] as const) {
      if (saved[k] === undefined) delete process.env[k];
      else process.env[k] = saved[k];
    }
  });

  it('cover bought after the cut-off starts tomorrow: 待生效 until midnight in the business time zone, 在保 after it', () => {
    process.env.BUSINESS_TZ = 'Asia/Shanghai';
    // 18:30 in Shanghai, cut-off 18:00: the earliest start is tomorrow.
    const evening = new Date('2026-11-24T10:30:00Z');
    const start = earliestCoverStart(evening, '18:00');
    expect(start).toBe('2026-11-25');
    const row: CoverRow = { start, end: '2027-11-24' };
    const at = (d: Date) => coverStatus(PERSON, row, localParts(d).date);
    expect(at(evening)).toBe('pending');
    // 23:59 in Shanghai (15:59 UTC): still the 24th there.
    expect(at(new Date('2026-11-24T15:59:00Z'))).toBe('pending');
    // 00:01 in Shanghai on the 25th is still the 24th in UTC: the business's day decides.
    expect(at(new Date('2026-11-24T16:01:00Z'))).toBe('insured');
    // Before the cut-off the same purchase starts today and is in force at once.
    const morning = new Date('2026-11-24T01:00:00Z');
    expect(coverStatus(PERSON, { start: earliestCoverStart(morning, '18:00'), end: '2027-11-23' }, localParts(morning).date)).toBe('insured');
  });

  it('follows BUSINESS_TZ', () => {
    process.env.BUSINESS_TZ = 'UTC';
    expect(coverStatus(PERSON, { start: '2026-11-25', end: '2027-11-24' }, localParts(new Date('2026-11-24T16:01:00Z')).date)).toBe('pending');
  });
});
