import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { addCurrency, centsToYuan, mulCurrency, premiumCents, subCurrency, yuanToCents } from '../../src/shared/money';
import { formatNumber } from '../../src/utils/number';
import { fmtYuan } from '../../src/server/domain/util';

/**
 * Properties of the money arithmetic the browser and the gateway share (src/shared/money.ts): every
 * amount with at most 2 decimals converts to its exact cents and back, sums and products are exact to
 * the cent, and both sides write the same text for the same cents.
 */

/** Cents of amounts up to ±1,000,000,000.00 yuan (far beyond any premium, balance or claim). */
const CENTS = fc.integer({ min: -100_000_000_000, max: 100_000_000_000 });
/** The decimal text of `cents` as a person writes it ('-12.30', '0.29'), made without floating point. */
const text = (cents: number): string => {
  const abs = BigInt(Math.abs(cents));
  return `${cents < 0 ? '-' : ''}${abs / 100n}.${String(abs % 100n).padStart(2, '0')}`;
};

describe('yuan ↔ cents', () => {
  it('the amounts a truncation gets one cent short convert to their exact cents', () => {
    expect([0.29, 19.99, 1.15, 0.57, 4.35, 1234.56].map(yuanToCents)).toEqual([29, 1999, 115, 57, 435, 123456]);
    expect(['0.29', '19.99', ' 1.15 ', '1,000.10'].map(yuanToCents)).toEqual([29, 1999, 115, 100010]);
    expect([undefined, null, '', 'abc', NaN, Infinity].map(yuanToCents)).toEqual([NaN, NaN, NaN, NaN, NaN, NaN]);
  });

  it('every amount from 0.00 to 1,000.00 yuan: cents → yuan → cents is the identity (number and text)', () => {
    const wrong: string[] = [];
    for (let c = 0; c <= 100_000; c++) {
      const y = centsToYuan(c);
      if (yuanToCents(y) !== c || yuanToCents(text(c)) !== c || yuanToCents(-y) !== -c || Number(text(c)) !== y) wrong.push(text(c));
    }
    expect(wrong).toEqual([]);
  });

  it('any amount with at most 2 decimals in ±1,000,000,000 yuan converts exactly, both ways', () => {
    fc.assert(
      fc.property(CENTS, (c) => {
        const y = centsToYuan(c);
        expect(y).toBe(Number(text(c))); // the same double as the decimal text
        expect(yuanToCents(y)).toBe(c);
        expect(yuanToCents(text(c))).toBe(c);
        expect(yuanToCents(String(y))).toBe(c);
      }),
      { numRuns: 3000 },
    );
  });

  it('the browser (formatNumber) and the gateway (fmtYuan) write the same text for the same cents', () => {
    fc.assert(
      fc.property(CENTS, (c) => {
        expect(fmtYuan(c)).toBe(formatNumber(centsToYuan(c)));
        expect(fmtYuan(c).replace(/,/g, '')).toBe(text(c));
      }),
      { numRuns: 2000 },
    );
  });
});

describe('sums', () => {
  const amounts = fc.array(fc.integer({ min: -1_000_000_00, max: 1_000_000_00 }), { maxLength: 60 });

  it('a sum of yuan amounts is the sum of their cents, in any order, with no floating-point error', () => {
    fc.assert(
      fc.property(amounts, (cents) => {
        const want = centsToYuan(cents.reduce((s, c) => s + c, 0));
        const yuan = cents.map(centsToYuan);
        expect(addCurrency(...yuan)).toBe(want);
        expect(addCurrency(...[...yuan].reverse())).toBe(want);
        expect(addCurrency(...cents.map(text))).toBe(want);
        expect(yuanToCents(addCurrency(...yuan))).toBe(cents.reduce((s, c) => s + c, 0));
      }),
      { numRuns: 1000 },
    );
  });

  it('subtracting undoes adding, to the cent', () => {
    fc.assert(
      fc.property(CENTS, amounts, (first, rest) => {
        const y = rest.map(centsToYuan);
        expect(subCurrency(addCurrency(centsToYuan(first), ...y), ...y)).toBe(centsToYuan(first));
      }),
      { numRuns: 1000 },
    );
  });
});

describe('people × units × price', () => {
  const PRICE = fc.integer({ min: 1, max: 10_000_00 }); // 0.01–10,000.00 yuan per person and unit
  const UNITS = fc.integer({ min: 1, max: 366 }); // 12 months, or 1–366 days
  const PEOPLE = fc.integer({ min: 1, max: 50_000 }); // the largest roster file

  it('the gateway’s premium in cents is the exact integer product', () => {
    fc.assert(
      fc.property(PRICE, UNITS, PEOPLE, (p, u, n) => {
        expect(BigInt(premiumCents(p, u, n))).toBe(BigInt(p) * BigInt(u) * BigInt(n));
      }),
      { numRuns: 2000 },
    );
  });

  it('the browser’s product of yuan is never off by one cent from the gateway’s, whatever the order of the factors', () => {
    fc.assert(
      fc.property(PRICE, UNITS, PEOPLE, (p, u, n) => {
        const want = centsToYuan(premiumCents(p, u, n));
        expect(mulCurrency(centsToYuan(p), n, u)).toBe(want);
        expect(mulCurrency(centsToYuan(p), u, n)).toBe(want);
        expect(mulCurrency(text(p), String(n), String(u))).toBe(want);
        expect(yuanToCents(mulCurrency(centsToYuan(p), n, u))).toBe(p * u * n);
      }),
      { numRuns: 2000 },
    );
  });

  it('one more person or unit costs exactly one more unit price', () => {
    fc.assert(
      fc.property(PRICE, UNITS, PEOPLE, (p, u, n) => {
        expect(premiumCents(p, u, n + 1) - premiumCents(p, u, n)).toBe(p * u);
        expect(premiumCents(p, u + 1, n) - premiumCents(p, u, n)).toBe(p * n);
      }),
      { numRuns: 1000 },
    );
  });

  it('refuses inputs that are not whole non-negative numbers, or a total beyond exact integers', () => {
    expect(() => premiumCents(350.5, 1, 2)).toThrow(RangeError);
    expect(() => premiumCents(350, -1, 2)).toThrow(RangeError);
    expect(() => premiumCents(Number.MAX_SAFE_INTEGER, 2, 1)).toThrow(RangeError);
  });
});
