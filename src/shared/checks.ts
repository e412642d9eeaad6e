/** Input checks used by both the gateway and the browser (no Node or DOM dependencies). */

export const PHONE_RE = /^1[3-9]\d{9}$/;

const ID_WEIGHTS = [7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2];
const ID_CHECK = '10X98765432';

/** ISO 7064 MOD 11-2 check character for the first 17 digits of a mainland ID number. */
export function idCardCheckChar(first17: string): string {
  let sum = 0;
  for (let i = 0; i < 17; i++) sum += (first17.charCodeAt(i) - 48) * ID_WEIGHTS[i];
  return ID_CHECK[sum % 11];
}

/** Dates accepted anywhere in the console: years 1900–2100. */
export const MIN_YEAR = 1900;
export const MAX_YEAR = 2100;

export function isValidDate(s: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(s)) return false;
  return isCalendarDay(digitsAt(s, 0, 4), digitsAt(s, 5, 2), digitsAt(s, 8, 2));
}

/** Days of each month in a common year (checked per call, without building a Date). */
const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/**
 * A real calendar day between MIN_YEAR and MAX_YEAR: bounded so dates like 0000-01-01 or 9999-12-31
 * never reach the database (or date arithmetic).
 */
function isCalendarDay(year: number, month: number, day: number): boolean {
  if (year < MIN_YEAR || year > MAX_YEAR || month < 1 || month > 12 || day < 1) return false;
  const leap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
  return day <= (month === 2 ? (leap ? 29 : 28) : DAYS_IN_MONTH[month - 1]);
}

/** 18-character mainland resident ID: region, valid birth date (not in the future), sequence, ISO 7064 check. */
export function isValidIdCard(value: unknown): boolean {
  if (typeof value !== 'string') return false;
  const s = value.toUpperCase();
  if (!/^[1-9]\d{16}[\dX]$/.test(s)) return false;
  // Digits only from here on (checked above): the birth date as a number, no strings, Dates or closures
  // built per call (under tsx every closure is also named with a defineProperty call).
  const year = digitsAt(s, 6, 4);
  const month = digitsAt(s, 10, 2);
  const day = digitsAt(s, 12, 2);
  if (!isCalendarDay(year, month, day) || year * 10000 + month * 100 + day > todayUtcNumber()) return false;
  return idCardCheckChar(s) === s[17];
}

/** The number written by `count` ASCII digits of s from `from`. */
function digitsAt(s: string, from: number, count: number): number {
  let n = 0;
  for (let i = from; i < from + count; i++) n = n * 10 + s.charCodeAt(i) - 48;
  return n;
}

/** Today (UTC) as YYYYMMDD, recomputed only when the day has changed. */
let today = { value: 0, until: 0 };
function todayUtcNumber(): number {
  const now = Date.now();
  if (now >= today.until) {
    const t = new Date(now);
    const value = t.getUTCFullYear() * 10000 + (t.getUTCMonth() + 1) * 100 + t.getUTCDate();
    today = { value, until: Date.UTC(t.getUTCFullYear(), t.getUTCMonth(), t.getUTCDate() + 1) };
  }
  return today.value;
}

/**
 * Characters no text in the console may hold: control characters (NUL and the rest of C0/C1; tab and
 * line breaks only in multi-line text), zero-width and invisible formatting characters, and bidi
 * overrides/isolates, which make a stored name read differently from what it is.
 */
const FORBIDDEN_ANYWHERE = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F\u00AD\u061C\u180E\u200B-\u200F\u202A-\u202E\u2060-\u2064\u2066-\u206F\uFEFF\uFFF9-\uFFFB]/u;
const FORBIDDEN_IN_A_LINE = /[\t\n\r\u2028\u2029]/u;

/** The first forbidden character of s as U+XXXX, or undefined when s is clean. */
export function forbiddenCharacter(s: string, multiline: boolean): string | undefined {
  const m = FORBIDDEN_ANYWHERE.exec(s) ?? (multiline ? null : FORBIDDEN_IN_A_LINE.exec(s));
  return m ? `U+${m[0].codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}` : undefined;
}
