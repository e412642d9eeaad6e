import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { localParts } from '../../src/server/domain/util.ts';

/** What localParts answered before its per-hour offsets: Intl's parts of the instant, read each time. */
const intl = new Map<string, Intl.DateTimeFormat>();
function byIntl(d: Date, tz: string) {
  const f = intl.get(tz) ?? new Intl.DateTimeFormat('en-CA', { timeZone: tz, year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });
  intl.set(tz, f);
  const p = Object.fromEntries(f.formatToParts(d).map((x) => [x.type, x.value]));
  return { date: `${p.year}-${p.month}-${p.day}`, time: `${p.hour}:${p.minute}` };
}

// Zones with daylight saving, half- and quarter-hour offsets, a half-hour shift (Lord Howe), seconds in
// their old local mean time (Shanghai before 1901) and a date-line jump (Apia, 2011-12-30 skipped).
const ZONES = ['Asia/Shanghai', 'UTC', 'America/New_York', 'Europe/London', 'Asia/Kathmandu', 'Australia/Lord_Howe', 'America/St_Johns', 'Pacific/Chatham', 'Pacific/Apia'];

describe('localParts', () => {
  it('answers what Intl answers for any instant from 1850 to 2150, in zones with odd offsets and changes', () => {
    const instant = fc.integer({ min: Date.UTC(1850, 0, 1), max: Date.UTC(2150, 0, 1) });
    fc.assert(
      fc.property(instant, fc.constantFrom(...ZONES), (ms, tz) => {
        expect(localParts(new Date(ms), tz)).toEqual(byIntl(new Date(ms), tz));
      }),
      { numRuns: 5_000 },
    );
  });

  it('is right on both sides of daylight-saving changes, to the minute', () => {
    // New York 2026-03-08 02:00 EST → 03:00 EDT (07:00 UTC); 2026-11-01 02:00 EDT → 01:00 EST (06:00 UTC);
    // Lord Howe 2026-04-05 02:00 → 01:30 (15:00 UTC the day before).
    const around = [Date.UTC(2026, 2, 8, 7), Date.UTC(2026, 10, 1, 6), Date.UTC(2026, 3, 4, 15)];
    for (const t of around) {
      for (let m = -90; m <= 90; m++) {
        const d = new Date(t + m * 60_000 + 59_999);
        for (const tz of ['America/New_York', 'Australia/Lord_Howe']) expect(localParts(d, tz)).toEqual(byIntl(d, tz));
      }
    }
    expect(localParts(new Date('2026-03-08T06:59:59Z'), 'America/New_York')).toEqual({ date: '2026-03-08', time: '01:59' });
    expect(localParts(new Date('2026-03-08T07:00:00Z'), 'America/New_York')).toEqual({ date: '2026-03-08', time: '03:00' });
  });

  it('gives the business day in Asia/Shanghai by default', () => {
    expect(localParts(new Date('2026-11-27T16:00:00Z'), 'Asia/Shanghai')).toEqual({ date: '2026-11-28', time: '00:00' });
    expect(localParts(new Date('2026-11-27T15:59:59Z'), 'Asia/Shanghai')).toEqual({ date: '2026-11-27', time: '23:59' });
  });
});
