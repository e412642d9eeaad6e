/**
 * Generated numbers (order, batch, invoice, refund, claim): one format for all of them and for the demo
 * data, PREFIX + the business-local date of creation (YYYYMMDD) + a number of at least 5 digits from one
 * database sequence, e.g. OD2026112500011. The sequence is shared by every gateway and never hands out
 * a value twice (rolled-back transactions leave gaps), so two numbers cannot collide whatever the
 * concurrency; the date only makes a number readable. Numbers stored before this format keep theirs.
 */
import type { Queryable } from '../db.ts';

export const SERIAL_SEQUENCE = 'serial_numbers';

/** Minimum digits of the sequence part (the demo data's width). */
const WIDTH = 5;

/** YYYYMMDD of `now` in the business time zone (BUSINESS_TZ, default Asia/Shanghai). */
function localYmd(now: Date): string {
  const tz = process.env.BUSINESS_TZ || 'Asia/Shanghai';
  return new Intl.DateTimeFormat('en-CA', { timeZone: tz, year: 'numeric', month: '2-digit', day: '2-digit' }).format(now).replace(/-/g, '');
}

/** The number of sequence value `n` created at `now`. */
export function formatSerialNo(prefix: string, n: number | string, now: Date): string {
  return `${prefix}${localYmd(now)}${String(n).padStart(WIDTH, '0')}`;
}

/** `count` fresh numbers with one prefix, in ascending order (one round trip). */
export async function serialNos(q: Queryable, prefix: string, count: number, now = new Date()): Promise<string[]> {
  if (count < 1) return [];
  const rows = await q.query<{ n: string }>(`SELECT nextval('${SERIAL_SEQUENCE}')::text AS n FROM generate_series(1, $1::int)`, [count]);
  return rows.map((r) => formatSerialNo(prefix, r.n, now));
}

/** One fresh number. */
export async function serialNo(q: Queryable, prefix: string, now = new Date()): Promise<string> {
  return (await serialNos(q, prefix, 1, now))[0];
}

/**
 * Numbers already stored that a fresh one could equal: this format with a sequence part as formatSerialNo
 * writes it (5 digits, or more without a leading zero) and at most 11 digits (the earlier random format
 * had 12 after the date).
 */
const SAME_FORMAT = `'^[A-Z]{2}[0-9]{8}([0-9]{${WIDTH}}|[1-9][0-9]{${WIDTH},10})$'`;

/**
 * Creates the sequence and, when it did not exist yet (a database from before it: demo data was seeded
 * in this format with its own counter), moves it past every number stored in the same format, so a new
 * number never equals an old one. `columns` are the [table, column] pairs holding generated numbers.
 */
export async function ensureSerialSequence(q: Queryable, columns: [string, string][]): Promise<void> {
  const [{ fresh }] = await q.query<{ fresh: boolean }>(`SELECT to_regclass('${SERIAL_SEQUENCE}') IS NULL AS fresh`);
  await q.query(`CREATE SEQUENCE IF NOT EXISTS ${SERIAL_SEQUENCE}`);
  if (!fresh || !columns.length) return;
  const maxOf = columns.map(([t, c]) => `SELECT max(substr(${c}, 11)::bigint) AS m FROM ${t} WHERE ${c} ~ ${SAME_FORMAT}`);
  await q.query(
    `SELECT setval('${SERIAL_SEQUENCE}', GREATEST((SELECT last_value FROM ${SERIAL_SEQUENCE}), m), true)
       FROM (SELECT max(m) AS m FROM (${maxOf.join(' UNION ALL ')}) x) y WHERE m IS NOT NULL`,
  );
}
