/**
 * The status of cover on a day, derived from its dates (docs/cover-status.md). One definition, STEPS,
 * read three ways: in JavaScript (coverStatus), as a SQL CASE for a list's column (coverStatusSql) and
 * as the SQL predicate of one status for a list's filter (coverStatusWhere), whose date comparisons
 * an index on the start or end date serves. Shared by the browser and the gateway; the gateway passes
 * the business's today (BUSINESS_TZ) as a parameter, so the status is computed at read time and never
 * stored: cover that starts tomorrow reads 待生效 today and 在保 tomorrow without any write.
 *
 * What dates cannot tell is an event, stored on the row (`event`): cover waiting for the payment of a
 * pay-later batch, or a cancellation. A row with an event has the status its event names.
 */

/** Where `today` falls in a cover period [start, end] (both days inclusive). */
export type CoverPhase = 'before' | 'during' | 'after';

/**
 * A status field derived by this rule, as declared in an entity schema (the field's `derived` key):
 * the date fields (required dates), the optional event field (an enum whose values are statuses) and
 * the status value of each phase.
 */
export interface CoverPeriodRule {
  rule: 'coverPeriod';
  start: string;
  end: string;
  event?: string;
  values: Record<CoverPhase, string>;
}

type Test = { kind: 'event' } | { kind: 'date'; date: 'start' | 'end'; cmp: '>' | '<' } | { kind: 'else' };

/** The rule: the first step whose test holds gives the status. */
export const STEPS: ReadonlyArray<{ test: Test; gives: CoverPhase | 'event' }> = [
  // An event (awaiting payment, cancelled) is the status, whatever the dates.
  { test: { kind: 'event' }, gives: 'event' },
  // Starts after today: 待生效.
  { test: { kind: 'date', date: 'start', cmp: '>' }, gives: 'before' },
  // Ended before today (the end day itself is still covered): 已过期.
  { test: { kind: 'date', date: 'end', cmp: '<' }, gives: 'after' },
  // Otherwise start <= today <= end: 在保 / 已生效.
  { test: { kind: 'else' }, gives: 'during' },
];

export interface CoverRow {
  /** YYYY-MM-DD */
  start: string;
  /** YYYY-MM-DD */
  end: string;
  event?: string | null;
}

function holds(t: Test, row: CoverRow, today: string): boolean {
  switch (t.kind) {
    case 'event':
      return row.event !== undefined && row.event !== null && row.event !== '';
    case 'date': {
      const d = row[t.date];
      return t.cmp === '>' ? d > today : d < today;
    }
    case 'else':
      return true;
  }
}

/** The status of a row on `today` (YYYY-MM-DD, the business's calendar day). */
export function coverStatus(rule: Pick<CoverPeriodRule, 'values'>, row: CoverRow, today: string): string {
  for (const s of STEPS) if (holds(s.test, row, today)) return s.gives === 'event' ? String(row.event) : rule.values[s.gives];
  throw new Error('unreachable: the last step always holds');
}

/** SQL text of the row's columns: `start`/`end` are NOT NULL date columns, `event` a nullable text column. */
export interface CoverColumns {
  start: string;
  end: string;
  event?: string;
}

const literal = (s: string): string => `'${s.replace(/'/g, "''")}'`;

/** A step's test as SQL (negated: its opposite, which an index can serve too). `today` is SQL text of a date. */
function testSql(t: Test, cols: CoverColumns, today: string, negated: boolean): string | null {
  switch (t.kind) {
    case 'event':
      if (!cols.event) return negated ? null : 'FALSE';
      return `${cols.event} IS ${negated ? '' : 'NOT '}NULL`;
    case 'date': {
      const cmp = negated ? (t.cmp === '>' ? '<=' : '>=') : t.cmp;
      return `${cols[t.date]} ${cmp} ${today}`;
    }
    case 'else':
      return negated ? 'FALSE' : null;
  }
}

/** The status as a SQL expression (a CASE over STEPS). */
export function coverStatusSql(rule: Pick<CoverPeriodRule, 'values'>, cols: CoverColumns, today: string): string {
  const whens = STEPS.filter((s) => s.test.kind !== 'else' && !(s.test.kind === 'event' && !cols.event)).map(
    (s) => `WHEN ${testSql(s.test, cols, today, false)} THEN ${s.gives === 'event' ? cols.event : literal(rule.values[s.gives])}`,
  );
  const last = STEPS[STEPS.length - 1].gives as CoverPhase;
  return `(CASE ${whens.join(' ')} ELSE ${literal(rule.values[last])} END)`;
}

/**
 * The SQL predicate of rows whose status is `value`: for each step that gives it, that step's test
 * with every earlier step's test negated (so the predicate and the CASE agree row for row), OR-ed.
 * `eventValues` are the values the event column may hold. Null when no row can have the value.
 */
export function coverStatusWhere(
  rule: Pick<CoverPeriodRule, 'values'>,
  cols: CoverColumns,
  today: string,
  value: string,
  eventValues: readonly string[] = [],
): string | null {
  const alternatives: string[] = [];
  const before: string[] = [];
  for (const s of STEPS) {
    const own = s.gives === 'event' ? (cols.event && eventValues.includes(value) ? `${cols.event} = ${literal(value)}` : null) : rule.values[s.gives] === value ? testSql(s.test, cols, today, false) ?? 'TRUE' : null;
    if (own !== null) alternatives.push([...before, own].filter((c) => c !== 'TRUE').join(' AND ') || 'TRUE');
    const not = testSql(s.test, cols, today, true);
    if (not !== null) before.push(not);
  }
  if (!alternatives.length) return null;
  return alternatives.length === 1 ? alternatives[0] : `(${alternatives.map((a) => `(${a})`).join(' OR ')})`;
}

/** A selection of counted rows: those with this event (null: none) and, when given, a day before/after today. */
export interface CountSelection {
  event: string | null;
  day?: '>' | '<' | '<=';
}

/**
 * How many rows have status `value` on `today`, from two sets of counts kept exact by the gateway:
 * rows by (event, start day) and rows by (event, end day); `starts(sel)` / `ends(sel)` return SQL
 * summing the counts of a selection. It follows STEPS: an event value counts every row with that
 * event; before = no event and start > today; after = no event and end < today; during = no event and
 * start <= today, minus those already after (a period ends on or after its start, so every row that
 * ended before today also started before it). Null when no row can have the value.
 */
export function coverCountSql(
  rule: Pick<CoverPeriodRule, 'values'>,
  value: string,
  eventValues: readonly string[],
  starts: (sel: CountSelection) => string,
  ends: (sel: CountSelection) => string,
): string | null {
  const terms: string[] = [];
  if (eventValues.includes(value)) terms.push(starts({ event: value }));
  if (rule.values.before === value) terms.push(starts({ event: null, day: '>' }));
  if (rule.values.after === value) terms.push(ends({ event: null, day: '<' }));
  if (rule.values.during === value) terms.push(`(${starts({ event: null, day: '<=' })} - ${ends({ event: null, day: '<' })})`);
  return terms.length ? terms.join(' + ') : null;
}
