import numeral from 'numeral';
import { isPresent } from './present';

/** Default number of decimals for displayed numbers and amounts (spec §9). */
export const DEFAULT_DECIMALS = 2;

function toFinite(v: unknown): number | undefined {
  if (!isPresent(v)) return undefined;
  const n = typeof v === 'number' ? v : Number(String(v).replace(/,/g, '').trim());
  return Number.isFinite(n) ? n : undefined;
}

/** Thousands separators and `decimals` decimals ('1,234.50'); '-' for a non-present value; other text unchanged. */
export function formatNumber(v: unknown, decimals = DEFAULT_DECIMALS): string {
  if (!isPresent(v)) return '-';
  const n = toFinite(v);
  if (n === undefined) return String(v);
  const d = Math.max(0, Math.floor(decimals));
  // Round through the fixed-scale helpers first so 1.005 shows as 1.01, not 1.00.
  const rounded = d <= 6 ? fromScaled(toScaled(n, d), d) : n;
  return numeral(rounded).format(d > 0 ? `0,0.${'0'.repeat(d)}` : '0,0');
}

/** Money: '¥' + formatNumber ('¥1,234.50'); '-' for a non-present value. */
export function formatMoney(v: unknown, decimals = DEFAULT_DECIMALS): string {
  const s = formatNumber(v, decimals);
  return s === '-' || toFinite(v) === undefined ? s : `¥${s}`;
}

/**
 * Currency arithmetic works on integers at a fixed scale of 10^SCALE (amounts have at most 2 decimals;
 * the extra digits keep factors like 0.5 day exact before the final rounding).
 */
const SCALE = 2;

/** Integer representation of v × 10^scale, rounded half away from zero, parsed from the decimal text. */
function toScaled(v: unknown, scale = SCALE): number {
  const n = toFinite(v);
  if (n === undefined) return 0;
  // Shift the decimal point in the exponent string to avoid binary multiplication error (1.005 × 100).
  const [mant, exp = '0'] = String(Math.abs(n)).split('e');
  const shifted = Number(`${mant}e${Number(exp) + scale}`);
  return Math.sign(n) * Math.round(shifted);
}

function fromScaled(i: number, scale = SCALE): number {
  // Integer ÷ 10^scale is correctly rounded, i.e. the same double as parsing the decimal text.
  return i / 10 ** scale + 0;
}

/** Sum of amounts (numbers or numeric strings; non-present counts as 0) exact to 2 decimals: 0.1 + 0.2 === 0.3. */
export function addCurrency(...values: unknown[]): number {
  return fromScaled(values.reduce<number>((sum, v) => sum + toScaled(v), 0));
}

/** a − b − c … exact to 2 decimals. */
export function subCurrency(first: unknown, ...rest: unknown[]): number {
  return fromScaled(rest.reduce<number>((acc, v) => acc - toScaled(v), toScaled(first)));
}

/**
 * amount × factor × … (e.g. price × people × days), rounded once to 2 decimals at the end (half away from zero).
 * Computed with BigInt on values scaled to 6 decimals, so 19.9 × 3 === 59.7 and large totals stay exact.
 */
export function mulCurrency(amount: unknown, ...factors: unknown[]): number {
  const F = 6;
  let product = BigInt(toScaled(amount, F));
  let scale = F;
  for (const f of factors) {
    product *= BigInt(toScaled(f, F));
    scale += F;
  }
  const divisor = 10n ** BigInt(scale - SCALE);
  const negative = product < 0n;
  const abs = negative ? -product : product;
  let q = abs / divisor;
  if ((abs % divisor) * 2n >= divisor) q += 1n;
  return fromScaled(Number(negative ? -q : q));
}
