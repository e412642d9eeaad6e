/**
 * A list's filters from its query string: one per `search` field given a value, as SQL over the
 * entity's columns (values always travel as parameters) and as what a counter table needs to answer
 * the same filter's total (counts.ts). A derived field (src/shared/cover-status.ts) filters by the
 * date predicate of each asked status, so an index on the dates serves it.
 */
import { FORMAT_CHECKS, isBoundedDate } from '../../shared/entity/rules.ts';
import type { EntitySchema, FieldSchema } from '../../shared/entity/types.ts';
import { yuanToCents } from '../../shared/money.ts';
import { derivedWhere } from './derived-sql.ts';
import { charsOf, columnOf } from './ddl.ts';

export class QueryError extends Error {
  constructor(
    readonly field: string,
    message: string,
  ) {
    super(message);
    this.name = 'QueryError';
  }
}

export type Param = (v: unknown) => string;

export interface Filter {
  key: string;
  /** WHERE clauses (AND) */
  where: string[];
  /** WHERE clauses for the planner's estimate, when they differ (see containsFilter) */
  estimate?: string[];
  /**
   * The same filter on a counter table's column of this field (counts.ts), with the same parameters:
   * `value` for an equality or a contains-term (the column holds the value as text), `day` for a range
   * of days.
   */
  counted?: { kind: 'value' | 'day'; where: (column: string) => string[] };
  /** A one-character contains-term on the counter table of the field's characters (counts.ts charCountTableOf). */
  charCounted?: (column: string) => string[];
  /** the statuses asked of a derived field */
  derived?: string[];
  /** a contains-term of one or two characters read through the characters index (see containsFilter) */
  shortTerm?: true;
  /** The filter without its index clause, for a page read by walking the sort order (short-terms.ts). */
  walk?: string[];
}

const escapeLike = (s: string): string => s.replace(/[\\%_]/g, (m) => `\\${m}`);

function enumValues(key: string, f: FieldSchema, raw: string): string[] {
  const values = raw.split(',').map((s) => s.trim()).filter(Boolean);
  for (const v of values) {
    if (!f.options?.some((o) => o.value === v)) throw new QueryError(key, `筛选条件“${f.label}”的取值 ${v} 无效`);
  }
  return values;
}

function exactFilter(e: EntitySchema, key: string, f: FieldSchema, raw: string, p: Param, today: () => string): Filter {
  if (f.derived) {
    const values = enumValues(key, f, raw);
    return { key, where: [derivedWhere(e, key, values, today)], derived: values };
  }
  const c = columnOf(key, f);
  if (f.mask) {
    // Masked values must not be recoverable piece by piece: only a complete, well-formed value is a filter.
    const complete = FORMAT_CHECKS[f.type];
    if (complete && !complete(raw)) throw new QueryError(key, `${f.label}仅支持完整号码精确查询`);
  }
  switch (f.type) {
    case 'enum': {
      const ref = p(enumValues(key, f, raw));
      return { key, where: [`${c} = ANY(${ref}::text[])`], counted: { kind: 'value', where: (col) => [`${col} = ANY(${ref}::text[])`] } };
    }
    case 'boolean': {
      if (raw !== 'true' && raw !== 'false') throw new QueryError(key, `筛选条件“${f.label}”只能为 true 或 false`);
      const ref = p(raw === 'true');
      return { key, where: [`${c} = ${ref}`], counted: { kind: 'value', where: (col) => [`${col} = (${ref}::boolean)::text`] } };
    }
    case 'money': {
      // Stored in cents: 12.5 finds 1250.
      const nums = raw.split(',').map((x) => x.trim()).filter(Boolean).map(Number);
      if (!nums.length || nums.some((n) => !Number.isFinite(n))) throw new QueryError(key, `筛选条件“${f.label}”必须为金额`);
      return { key, where: [`${c} = ANY(${p(nums.map(yuanToCents))}::bigint[])`] };
    }
    case 'integer':
    case 'ref': {
      const nums = raw.split(',').map((s) => s.trim()).filter(Boolean).map(Number);
      if (!nums.length || nums.some((n) => !Number.isInteger(n) || Math.abs(n) > 2147483647)) {
        throw new QueryError(key, `筛选条件“${f.label}”必须为整数`);
      }
      const ref = p(nums);
      return { key, where: [`${c} = ANY(${ref}::int[])`], counted: { kind: 'value', where: (col) => [`${col} = ANY(${ref}::int[]::text[])`] } };
    }
    default: {
      // Stored forms are normalised on write (ID numbers upper-case), so equality can use the index.
      const ref = p(f.type === 'idCard' ? raw.toUpperCase() : raw);
      return { key, where: [`${c} = ${ref}`], counted: { kind: 'value', where: (col) => [`${col} = ${ref}::text`] } };
    }
  }
}

/** `param` is the query key used (`createdAt` or the older `createdAtRange`), named in errors. */
function rangeFilter(key: string, param: string, f: FieldSchema, raw: string, p: Param): Filter {
  const [fromRaw = '', toRaw = ''] = raw.split(',').map((s) => s.trim());
  const c = columnOf(key, f);
  if (f.type === 'money' || f.type === 'integer') {
    const nums = [fromRaw, toRaw].map((s) => (s === '' ? undefined : Number(s)));
    if (nums.some((n) => n !== undefined && !Number.isFinite(n))) {
      throw new QueryError(param, `筛选条件“${f.label}”格式不正确，应为“最小值,最大值”`);
    }
    const scale = (n: number) => (f.type === 'money' ? yuanToCents(n) : n);
    const where: string[] = [];
    if (nums[0] !== undefined) where.push(`${c} >= ${p(scale(nums[0]))}`);
    if (nums[1] !== undefined) where.push(`${c} <= ${p(scale(nums[1]))}`);
    return { key, where };
  }
  const from = fromRaw.slice(0, 10);
  const to = toRaw.slice(0, 10);
  for (const d of [from, to]) {
    if (d && !isBoundedDate(d)) {
      throw new QueryError(param, `“${f.label}”的日期范围格式不正确，应为“开始日期,结束日期”，如 2024-01-01,2024-01-31`);
    }
  }
  const fromRef = from ? p(from) : undefined;
  const toRef = to ? p(to) : undefined;
  const where: string[] = [];
  if (f.type === 'date') {
    if (fromRef) where.push(`${c} >= ${fromRef}::date`);
    if (toRef) where.push(`${c} <= ${toRef}::date`);
  } else {
    if (fromRef) where.push(`${c} >= (${fromRef}::date)::timestamp AT TIME ZONE 'UTC'`);
    if (toRef) where.push(`${c} < ((${toRef}::date + 1)::timestamp AT TIME ZONE 'UTC')`);
  }
  // Per day, a counter column holds the day of a datetime in UTC, as the range above counts days.
  const days = (col: string) => [...(fromRef ? [`${col} >= ${fromRef}::date`] : []), ...(toRef ? [`${col} <= ${toRef}::date`] : [])];
  return { key, where, counted: { kind: 'day', where: days } };
}

/**
 * Contains-search. A term without upper/lower-case letters (Chinese names, digits) matches the same
 * rows with LIKE as with ILIKE, and LIKE does not case-fold every row it tests (about 3x cheaper on
 * Chinese text); a term with letters stays case-insensitive. A term of 3+ characters uses the trigram
 * index. A shorter one has no trigram, and through the trigram index it read every row (2.4–2.7 s at
 * 1M orders for a term that matches nothing); a rare one asks the characters index instead (charsOf),
 * its LIKE wrapped in IS TRUE (the same rows), which the trigram index does not claim. A frequent one
 * (`frequent`: the caller's estimate says so, query.ts) is only the LIKE in IS TRUE, which no index
 * claims: the page and the capped count walk the rows until they have enough, where the characters
 * index built a bitmap of every match first (雇主 at 1M orders: 250,000 entries, 195 ms). The planner's
 * estimate of the total reads the plain LIKE, which the column's statistics estimate well (雇主: 250,000
 * where the characters clause made it 16,000).
 */
function containsFilter(key: string, column: string, raw: string, p: Param, frequent: boolean): Filter {
  const caseless = raw.toLowerCase() === raw && raw.toUpperCase() === raw;
  const pattern = p(`%${escapeLike(raw)}%`);
  const match = (col: string) => `${col} ${caseless ? 'LIKE' : 'ILIKE'} ${pattern}`;
  const like = match(column);
  // On a counter table the same test of each counted value gives the exact total (a value counted by a
  // counter is the field's text, '' for none, which no term matches, as no term matches a NULL): a
  // frequent term's or a long term's total is then exact, where it was the planner's estimate.
  const counted = { kind: 'value' as const, where: (col: string) => [match(col)] };
  const length = Array.from(raw).length;
  if (length >= 3) return { key, where: [like], counted };
  // The LIKE alone, which no index claims: what a walk of the rows tests.
  const walk = [`(${like}) IS TRUE`];
  // The term itself, a parameter once a clause reads it.
  let termRef: string | undefined;
  const term = () => (termRef ??= p(raw));
  // A term of one character is counted exactly where the field's characters are (counts.ts
  // charCountTableOf): the rows whose lower-cased text holds it, as its LIKE (a caseless term) or ILIKE finds them.
  const chars = length === 1 && Array.from(raw.toLowerCase()).length === 1 ? { charCounted: (col: string) => [`${col} = lower(${term()}::text)`] } : {};
  if (frequent) return { key, where: walk, estimate: [like], counted, ...chars };
  // A rare term reads its few matches through the characters index, its total the capped count of them
  // (or a counter's, as above: then the count, not the planner, says how the page is read, query.ts countedList).
  return { key, where: [`${charsOf(column)} @> ${charsOf(`${term()}::text`)}`, ...walk], estimate: [like], walk, shortTerm: true, counted, ...chars };
}

/**
 * The query's filters on `search` fields; `today()` gives the SQL text of the business's today (derived
 * fields); `frequent` names the contains-fields whose short term matches many rows (containsFilter).
 */
export function parseFilters(
  e: EntitySchema,
  q: Record<string, string | undefined>,
  p: Param,
  today: () => string,
  frequent: ReadonlySet<string> = new Set(),
): Filter[] {
  const out: Filter[] = [];
  for (const [key, f] of Object.entries(e.fields)) {
    if (!f.search) continue;
    const param = q[key] === undefined && f.search === 'range' ? `${key}Range` : key;
    const raw = q[param]?.trim();
    if (!raw) continue;
    if (f.search === 'contains' && !f.mask && !f.derived) out.push(containsFilter(key, columnOf(key, f), raw, p, frequent.has(key)));
    else if (f.search === 'range' && !f.derived) out.push(rangeFilter(key, param, f, raw, p));
    else out.push(exactFilter(e, key, f, raw, p, today));
  }
  return out;
}
