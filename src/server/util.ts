import { createHash, randomBytes, scryptSync, timingSafeEqual } from 'node:crypto';

export const PHONE_RE = /^1[3-9]\d{9}$/;

const ID_WEIGHTS = [7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2];
const ID_CHECK = '10X98765432';

/** ISO 7064 MOD 11-2 check character for the first 17 digits of a mainland ID number. */
export function idCardCheckChar(first17: string): string {
  let sum = 0;
  for (let i = 0; i < 17; i++) sum += Number(first17[i]) * ID_WEIGHTS[i];
  return ID_CHECK[sum % 11];
}

export function isValidDate(s: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(s)) return false;
  const d = new Date(`${s}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === s;
}

/** 18-character mainland resident ID: region, valid birth date, sequence, ISO 7064 check. */
export function isValidIdCard(value: unknown): boolean {
  if (typeof value !== 'string') return false;
  const s = value.toUpperCase();
  if (!/^[1-9]\d{16}[\dX]$/.test(s)) return false;
  const birth = `${s.slice(6, 10)}-${s.slice(10, 12)}-${s.slice(12, 14)}`;
  if (!isValidDate(birth)) return false;
  const year = Number(s.slice(6, 10));
  if (year < 1900 || birth > new Date().toISOString().slice(0, 10)) return false;
  return idCardCheckChar(s.slice(0, 17)) === s[17];
}

export function maskIdCard(s: string): string {
  if (!s || s.length < 10) return s;
  return `${s.slice(0, 6)}********${s.slice(-4)}`;
}

export function maskAccountNo(s: string): string {
  if (!s || s.length < 8) return s;
  return `${s.slice(0, 4)} **** **** ${s.slice(-4)}`;
}

export function maskPhone(s: string): string {
  return s.length === 11 ? `${s.slice(0, 3)}****${s.slice(-4)}` : s;
}

export function hashPassword(password: string, salt = randomBytes(16).toString('hex')): string {
  const key = scryptSync(password, salt, 32).toString('hex');
  return `scrypt$${salt}$${key}`;
}

export function verifyPassword(password: string, stored: string): boolean {
  const [scheme, salt, key] = stored.split('$');
  if (scheme !== 'scrypt' || !salt || !key) return false;
  const expected = Buffer.from(key, 'hex');
  const actual = scryptSync(password, salt, expected.length);
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

export function sha256(s: string): string {
  return createHash('sha256').update(s).digest('hex');
}

export function newToken(): string {
  return randomBytes(32).toString('base64url');
}

/** Yuan (number, up to 2 decimals) to integer cents. */
export function yuanToCents(yuan: number): number {
  return Math.round(yuan * 100);
}

/** Deterministic PRNG (mulberry32). */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function isoDate(d: Date): string {
  return d.toISOString().slice(0, 10);
}
