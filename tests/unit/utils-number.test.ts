import { describe, expect, it } from 'vitest';
import { addCurrency, formatMoney, formatNumber, mulCurrency, subCurrency } from '../../src/utils/number';

describe('formatNumber / formatMoney', () => {
  it('uses thousands separators and 2 decimals by default', () => {
    expect(formatNumber(1234567.891)).toBe('1,234,567.89');
    expect(formatNumber('1234.5')).toBe('1,234.50');
    expect(formatNumber(0)).toBe('0.00');
    expect(formatNumber(-9876.5)).toBe('-9,876.50');
    expect(formatNumber(1.005)).toBe('1.01');
    expect(formatNumber(1234.5678, 0)).toBe('1,235');
    expect(formatNumber(1.5, 3)).toBe('1.500');
  });

  it("shows '-' for non-present values and leaves non-numbers as they are", () => {
    expect(formatNumber(undefined)).toBe('-');
    expect(formatNumber(null)).toBe('-');
    expect(formatNumber('')).toBe('-');
    expect(formatNumber('abc')).toBe('abc');
    expect(formatMoney('')).toBe('-');
  });

  it('prefixes money with ¥', () => {
    expect(formatMoney(1234.5)).toBe('¥1,234.50');
    expect(formatMoney('99')).toBe('¥99.00');
  });
});

describe('currency arithmetic', () => {
  it('adds without floating-point error', () => {
    expect(addCurrency(0.1, 0.2)).toBe(0.3);
    expect(addCurrency('0.1', 0.2, '1.15')).toBe(1.45);
    expect(addCurrency()).toBe(0);
    expect(addCurrency(1, undefined, null, '')).toBe(1);
    expect(addCurrency('1,000.10', 0.05)).toBe(1000.15);
  });

  it('stays exact over large sums', () => {
    const values = Array.from({ length: 100000 }, () => 0.01);
    expect(addCurrency(...values)).toBe(1000);
    const big = Array.from({ length: 1000 }, () => '123456789.99');
    expect(addCurrency(...big)).toBe(123456789990);
    let naive = 0;
    for (let i = 0; i < 10; i++) naive += 0.1;
    expect(naive).not.toBe(1);
    expect(addCurrency(...Array.from({ length: 10 }, () => 0.1))).toBe(1);
  });

  it('subtracts and multiplies exactly', () => {
    expect(subCurrency(0.3, 0.1)).toBe(0.2);
    expect(subCurrency(1, 0.9, 0.05)).toBe(0.05);
    expect(subCurrency(0.1, 0.3)).toBe(-0.2);
    expect(mulCurrency(19.9, 3)).toBe(59.7);
    expect(mulCurrency('1.15', 100)).toBe(115);
    expect(mulCurrency(4.35, 7, 31)).toBe(943.95); // price × people × days
    expect(mulCurrency(10, 0.333)).toBe(3.33);
    expect(mulCurrency(1.005, 1)).toBe(1.01);
    expect(mulCurrency(-2.5, 3)).toBe(-7.5);
    expect(mulCurrency(99999999.99, 1000, 365)).toBe(36499999996350);
  });
});
