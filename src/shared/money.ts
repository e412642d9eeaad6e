/**
 * Money arithmetic shared by the browser and the gateway. Amounts travel as yuan (numbers with at most
 * 2 decimals, or their decimal text) and are stored, charged and summed as integer cents; every
 * conversion between the two goes through this module, so both sides agree to the cent.
 */

/** A finite number from a number or numeric text ('1,234.50'); undefined for anything else, blank text included. */
function toFinite(v: unknown): number | undefined {
  if (typeof v === 'number') return Number.isFinite(v) ? v : undefined;
  if (typeof v !== 'string') return undefined;
  const t = v.replace(/,/g, '').trim();
  if (t === '') return undefined;
  const n = Number(t);
  return Number.isFinite(n) ? n : undefined;
}

/**
 * v × 10^scale as an integer, rounded half away from zero; NaN when v is not a number. The decimal
 * point is moved in v's decimal text, never by a binary multiplication: 1.15 × 100 in floating point
 * is 114.99999999999999, and cutting that off would store one cent short.
 */
export function toScaled(v: unknown, scale: number): number {
  const n = toFinite(v);
  if (n === undefined) return NaN;
  const [mant, exp = '0'] = String(Math.abs(n)).split('e');
  const shifted = Number(`${mant}e${Number(exp) + scale}`);
  return Math.sign(n) * Math.round(shifted) + 0;
}

/** Yuan (at most 2 decimals; a number or its text) → integer cents: 0.29 → 29, 19.99 → 1999, 1.15 → 115. NaN for a non-number. */
export function yuanToCents(yuan: unknown): number {
  return toScaled(yuan, 2);
}

/** Integer cents → yuan: 1999 → 19.99 (the same double as the decimal text). */
export function centsToYuan(cents: number): number {
  // Integer ÷ 100 is correctly rounded, i.e. the same double as parsing the decimal text.
  return cents / 100 + 0;
}

/** Sum of amounts in yuan (numbers or numeric text; non-numbers count as 0) exact to the cent: 0.1 + 0.2 === 0.3. */
export function addCurrency(...values: unknown[]): number {
  return centsToYuan(values.reduce<number>((sum, v) => sum + (yuanToCents(v) || 0), 0));
}

/** a − b − c … in yuan, exact to the cent. */
export function subCurrency(first: unknown, ...rest: unknown[]): number {
  return centsToYuan(rest.reduce<number>((acc, v) => acc - (yuanToCents(v) || 0), yuanToCents(first) || 0));
}

/**
 * amount × factor × … in yuan (e.g. price × people × days), rounded once to the cent at the end (half
 * away from zero). Computed with BigInt on values scaled to 6 decimals, so 19.9 × 3 === 59.7 and large
 * totals stay exact.
 */
export function mulCurrency(amount: unknown, ...factors: unknown[]): number {
  const F = 6;
  const scaled = (v: unknown) => BigInt(toScaled(v, F) || 0);
  let product = scaled(amount);
  let scale = F;
  for (const f of factors) {
    product *= scaled(f);
    scale += F;
  }
  const divisor = 10n ** BigInt(scale - 2);
  const negative = product < 0n;
  const abs = negative ? -product : product;
  let q = abs / divisor;
  if ((abs % divisor) * 2n >= divisor) q += 1n;
  return centsToYuan(Number(negative ? -q : q));
}

/**
 * A premium in cents: unit price (cents) × units (months or days) × people, all integers. Throws a
 * RangeError when an input is not a non-negative safe integer or the total is beyond exact integers.
 */
export function premiumCents(unitPriceCents: number, units: number, people: number): number {
  for (const n of [unitPriceCents, units, people]) {
    if (!Number.isSafeInteger(n) || n < 0) throw new RangeError(`premiumCents: ${n} is not a non-negative integer`);
  }
  const total = unitPriceCents * units * people;
  if (!Number.isSafeInteger(total)) throw new RangeError('premiumCents: the total is beyond exact integers');
  return total;
}
