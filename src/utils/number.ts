import numeral from 'numeral';
import { isPresent } from './present';
import { toScaled } from '../shared/money';

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
  const rounded = d <= 6 ? toScaled(n, d) / 10 ** d + 0 : n;
  return numeral(rounded).format(d > 0 ? `0,0.${'0'.repeat(d)}` : '0,0');
}

/** Money: '¥' + formatNumber ('¥1,234.50'); '-' for a non-present value. */
export function formatMoney(v: unknown, decimals = DEFAULT_DECIMALS): string {
  const s = formatNumber(v, decimals);
  return s === '-' || toFinite(v) === undefined ? s : `¥${s}`;
}

/** Currency arithmetic is shared with the gateway: integers at a fixed scale, never binary multiplication. */
export { addCurrency, subCurrency, mulCurrency } from '../shared/money';
