import { createHash, randomBytes, scrypt, scryptSync, timingSafeEqual } from 'node:crypto';
import { promisify } from 'node:util';

const scryptAsync = promisify(scrypt) as (password: string, salt: string, keylen: number) => Promise<Buffer>;

// Input checks shared with the browser, so both sides accept and refuse exactly the same values.
export { PHONE_RE, idCardCheckChar, isValidDate, isValidIdCard } from '../shared/checks.ts';

export { maskAccountNo, maskIdCard, maskPhone } from '../shared/mask.ts';

/**
 * Lets the event loop run pending I/O (other users' requests) before the caller goes on. A request
 * carrying thousands of rows (a roster) does tens of milliseconds of synchronous work per phase
 * (normalising, schema validation, hashing, checks); yielding between phases keeps each slice short,
 * so other requests on this gateway process wait for one phase, not for all of them.
 */
export function yieldToLoop(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/** Rows handled between two yields by mapInSlices: a few milliseconds of work. */
export const SLICE_ROWS = 1000;

/** items.map(fn), yielding to the event loop (yieldToLoop) after every `slice` items. */
export async function mapInSlices<T, R>(items: readonly T[], fn: (item: T, i: number) => R, slice = SLICE_ROWS): Promise<R[]> {
  const out: R[] = new Array(items.length);
  for (let from = 0; from < items.length; from += slice) {
    if (from > 0) await yieldToLoop();
    const to = Math.min(items.length, from + slice);
    for (let i = from; i < to; i++) out[i] = fn(items[i], i);
  }
  return out;
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

/** Off the event loop (libuv thread pool): used by every request path. The sync versions are for seeding only. */
export async function hashPasswordAsync(password: string, salt = randomBytes(16).toString('hex')): Promise<string> {
  const key = await scryptAsync(password, salt, 32);
  return `scrypt$${salt}$${key.toString('hex')}`;
}

export async function verifyPasswordAsync(password: string, stored: string): Promise<boolean> {
  const [scheme, salt, key] = stored.split('$');
  if (scheme !== 'scrypt' || !salt || !key) return false;
  const expected = Buffer.from(key, 'hex');
  const actual = await scryptAsync(password, salt, expected.length);
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

export function sha256(s: string): string {
  return createHash('sha256').update(s).digest('hex');
}

export function newToken(): string {
  return randomBytes(32).toString('base64url');
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
