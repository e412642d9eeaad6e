/**
 * Counts: how many rows of each business have each value of some fields (date and datetime fields
 * per day), with sums of money or integer fields, kept exact by statement-level triggers in the same
 * transaction as the rows. Declared by an entity's `counts` (docs/entity-schema.md); a derived status
 * (src/shared/cover-status.ts) implies two more, rows by (event, start day) and by (event, end day),
 * from which its totals on any day are sums. They give lists filtered on counted fields their exact
 * total and the workbench its numbers in constant time (a few hundred counter rows per business, not
 * its million orders).
 *
 * Every change is one upsert of signed deltas, so n has no CHECK (n >= 0): PostgreSQL checks a CHECK
 * on the row an upsert proposes before it finds the conflicting counter row.
 *
 * The price is on writes: a statement that writes rows upserts one counter row per business and group
 * it touches (in key order, so concurrent writers lock them in the same order), and two transactions
 * writing rows of the same group take turns on its counter row until the first commits. An UPDATE that
 * changes no counted field changes no counter row (its net change per group is zero).
 */
import { hasColumn, type EntitySchema, type FieldSchema } from '../../shared/entity/types.ts';
import { commentedTables } from './day-counts.ts';
import { charsOf, columnOf, isNullable, tableOf } from './ddl.ts';

export interface CountKey {
  /** entity field key */
  key: string;
  /** column of the counter table */
  column: string;
  /** the key's SQL over a row of the counted table (alias r): its day, or its value ('' for none) */
  expr: (r: string) => string;
  /** date and datetime fields are counted per day */
  day: boolean;
  /** …or per month (`per: "month"`): the column holds each month's first day */
  month?: boolean;
  /**
   * A FROM item joined to each counted row (alias r) that `expr` reads: a row is counted once per
   * value it yields (charCountTableOf: once per distinct character of a text).
   */
  join?: (r: string) => string;
}

export interface CountTable {
  /** the counter table */
  name: string;
  /** the counted table */
  table: string;
  keys: CountKey[];
  sums: Array<{ key: string; column: string; source: string }>;
  /** the definition, kept as the counter table's comment: a changed definition rebuilds it */
  definition: string;
  /**
   * The only columns the counts read: an UPDATE is counted for the rows where one of them changed (the
   * others' deltas are nil anyway), so updates of other fields (a status, a phone) skip the work.
   */
  reads?: string[];
}

const COMMENT_PREFIX = 'counts of ';
const TRIGGERS = ['ins', 'del', 'upd', 'trunc'] as const;

/** Whether a counter table counts its date per month (`per: "month"`): only the charts' month groups read those. */
export const isMonthly = (t: CountTable): boolean => t.keys.some((k) => k.month);

/** SQL of the first day of the month of a date (or timestamp) expression, free of the session's time zone. */
export const monthStart = (date: string): string => `date_trunc('month', (${date})::timestamp)::date`;

/** A counted field's key: its counter column and its SQL over a row of the counted table (dates per day, or per month). */
export function countKeyOf(key: string, f: FieldSchema, per: 'day' | 'month' = 'day'): CountKey {
  const c = columnOf(key, f);
  if (per === 'month' && (f.type === 'date' || f.type === 'datetime')) {
    const day = countKeyOf(key, f);
    return { key, column: `${c}_month`, expr: (r) => monthStart(day.expr(r)), day: true, month: true };
  }
  if (f.type === 'datetime') {
    const none = isNullable(f) ? (r: string) => `coalesce((${r}.${c} AT TIME ZONE 'UTC')::date, 'infinity'::date)` : (r: string) => `(${r}.${c} AT TIME ZONE 'UTC')::date`;
    return { key, column: `${c}_day`, expr: none, day: true };
  }
  if (f.type === 'date') return { key, column: c, expr: isNullable(f) ? (r) => `coalesce(${r}.${c}, 'infinity'::date)` : (r) => `${r}.${c}`, day: true };
  return { key, column: c, expr: isNullable(f) ? (r) => `coalesce(${r}.${c}::text, '')` : (r) => `${r}.${c}::text`, day: false };
}

/** A counter table's name: `<table>_n_<key columns>`, shortened with a hash past PostgreSQL's 63 bytes. */
function nameOf(table: string, keys: CountKey[]): string {
  const full = `${table}_n_${keys.map((k) => k.column).join('_')}`;
  if (full.length <= 58) return full;
  let h = 0;
  for (const ch of full) h = (h * 31 + ch.charCodeAt(0)) >>> 0;
  return `${full.slice(0, 49)}_${h.toString(36)}`;
}

/** Every counter table an entity asks for: its `counts`, then two per derived status with an event. */
export function countTablesOf(e: EntitySchema): CountTable[] {
  if (e.storage === false) return [];
  const table = tableOf(e);
  const wanted: Array<{ by: string[]; sum: string[]; per?: 'day' | 'month' }> = (e.counts ?? []).map((c) => ({ by: c.by, sum: c.sum ?? [], per: c.per }));
  for (const f of Object.values(e.fields)) {
    const d = f.derived;
    if (d?.rule !== 'coverPeriod') continue;
    for (const date of [d.start, d.end]) wanted.push({ by: d.event ? [d.event, date] : [date], sum: [] });
  }
  const out: CountTable[] = [];
  const stored = (k: string) => e.fields[k] !== undefined && hasColumn(e.fields[k]);
  // The schema check refuses counts of missing fields; an entity edited in code may still have them: skipped.
  for (const w of wanted.filter((x) => [...x.by, ...x.sum].every(stored))) {
    const keys = w.by.map((k) => countKeyOf(k, e.fields[k], w.per));
    const sums = w.sum.map((k) => ({ key: k, column: `${columnOf(k, e.fields[k])}_sum`, source: columnOf(k, e.fields[k]) }));
    const name = nameOf(table, keys);
    if (out.some((t) => t.name === name)) continue;
    const definition = `${COMMENT_PREFIX}${table} by ${keys.map((k) => k.column).join(', ')}${sums.length ? ` sum ${sums.map((s) => s.source).join(', ')}` : ''}`;
    out.push({ name, table, keys, sums, definition });
  }
  return out;
}

/**
 * The counter table of a contains-search field's characters: per business and lower-cased character, how
 * many rows hold it (a row once, however often its text repeats the character). A term of one character
 * is then counted exactly in one counter row (count.ts countedSql), where counting its rows read one heap
 * row per match: 「郑」 among 100,000 persons, 2,705 matches, capped at 1,001 and then estimated. Kept for a
 * contains field of a stored text unless a counter table by the field's value answers its terms already
 * (order.productName: any term is counted over its few values).
 */
export function charCountTableOf(e: EntitySchema, key: string): CountTable | undefined {
  const f = e.fields[key];
  if (e.storage === false || !f || f.search !== 'contains' || f.mask || !hasColumn(f)) return undefined;
  if (countTablesOf(e).some((t) => t.keys.some((k) => k.key === key))) return undefined;
  const table = tableOf(e);
  const c = columnOf(key, f);
  const keys: CountKey[] = [{ key, column: `${c}_char`, expr: () => `${c}_chars.ch`, day: false, join: (r) => ` CROSS JOIN LATERAL (SELECT DISTINCT unnest(${charsOf(`${r}.${c}`)}) AS ch) ${c}_chars` }];
  return { name: nameOf(table, keys), table, keys, sums: [], definition: `${COMMENT_PREFIX}${table} by the characters of ${c} (updates of business_id, ${c})`, reads: ['business_id', c] };
}

/**
 * SQL of the net change each group gets from a statement's rows: +1 per row of `added`, -1 per row
 * of `removed` (transition tables), groups whose change is nil left out, in key order.
 */
function deltasSql(t: CountTable, added: string | null, removed: string | null): string {
  const part = (rel: string, sign: string) =>
    `SELECT r.business_id, ${t.keys.map((k) => `${k.expr('r')} AS ${k.column}`).join(', ')}, ${sign}1 AS d${t.sums.map((s) => `, ${sign}coalesce(r.${s.source}, 0) AS ${s.column}`).join('')} FROM ${rel} r${t.keys.map((k) => k.join?.('r') ?? '').join('')}`;
  const rows = [added && part(added, ''), removed && part(removed, '-')].filter(Boolean).join(' UNION ALL ');
  const groups = ['business_id', ...t.keys.map((k) => k.column)];
  const sumsNonZero = t.sums.map((s) => ` OR sum(${s.column}) <> 0`).join('');
  return `SELECT ${groups.join(', ')}, sum(d) AS n${t.sums.map((s) => `, sum(${s.column}) AS ${s.column}`).join('')}
      FROM (${rows}) x GROUP BY ${groups.join(', ')} HAVING sum(d) <> 0${sumsNonZero} ORDER BY ${groups.join(', ')}`;
}

function upsertSql(t: CountTable, deltas: string): string {
  const cols = ['business_id', ...t.keys.map((k) => k.column), 'n', ...t.sums.map((s) => s.column)];
  const sets = ['n', ...t.sums.map((s) => s.column)].map((c) => `${c} = ${t.name}.${c} + EXCLUDED.${c}`);
  return `INSERT INTO ${t.name} (${cols.join(', ')}) ${deltas}
       ON CONFLICT (business_id, ${t.keys.map((k) => k.column).join(', ')}) DO UPDATE SET ${sets.join(', ')};`;
}

/** The rows of transition table `rel` whose `cols` differ from their other version's in `other` (matched by id). */
function changedRows(cols: string[], rel: string, other: string): string {
  const of = (a: string) => `(${cols.map((c) => `${a}.${c}`).join(', ')})`;
  return `(SELECT a.* FROM ${rel} a JOIN ${other} b ON b.id = a.id WHERE ${of('a')} IS DISTINCT FROM ${of('b')})`;
}

/**
 * Creates the counter table, its triggers and fills it from the rows already there, in one
 * transaction (CREATE TRIGGER locks out writers of the table until commit, so no row is missed or
 * counted twice). Idempotent, like day counts (day-counts.ts).
 */
export function createCountsSql(t: CountTable): string[] {
  const c = t.name;
  // One function for every event (TG_OP picks the transition tables the trigger has).
  const body = `IF TG_OP = 'INSERT' THEN
         ${upsertSql(t, deltasSql(t, 'new_rows', null))}
       ELSIF TG_OP = 'DELETE' THEN
         ${upsertSql(t, deltasSql(t, null, 'old_rows'))}
       ELSIF TG_OP = 'UPDATE' THEN
         ${upsertSql(t, t.reads ? deltasSql(t, changedRows(t.reads, 'new_rows', 'old_rows'), changedRows(t.reads, 'old_rows', 'new_rows')) : deltasSql(t, 'new_rows', 'old_rows'))}
       ELSE
         DELETE FROM ${c};
       END IF;`;
  const trigger = (suffix: string, event: string, refs: string) =>
    `CREATE OR REPLACE TRIGGER ${c}_${suffix} AFTER ${event} ON ${t.table}${refs} FOR EACH STATEMENT EXECUTE FUNCTION ${c}_count()`;
  return [
    `CREATE TABLE IF NOT EXISTS ${c} (
       business_id TEXT NOT NULL,
       ${t.keys.map((k) => `${k.column} ${k.day ? 'DATE' : 'TEXT'} NOT NULL`).join(',\n       ')},
       n BIGINT NOT NULL,
       ${t.sums.map((s) => `${s.column} BIGINT NOT NULL DEFAULT 0,`).join('\n       ')}
       PRIMARY KEY (business_id, ${t.keys.map((k) => k.column).join(', ')})
     )`,
    `COMMENT ON TABLE ${c} IS '${t.definition}'`,
    `CREATE OR REPLACE FUNCTION ${c}_count() RETURNS trigger LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
     BEGIN
       ${body}
       RETURN NULL;
     END $$`,
    trigger('ins', 'INSERT', ' REFERENCING NEW TABLE AS new_rows'),
    trigger('del', 'DELETE', ' REFERENCING OLD TABLE AS old_rows'),
    trigger('upd', 'UPDATE', ' REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows'),
    trigger('trunc', 'TRUNCATE', ''),
    `DELETE FROM ${c}`,
    upsertSql(t, deltasSql(t, t.table, null)).replace(/;$/, ''),
  ];
}

/** Drops a counter table with its triggers and functions. */
export function dropCountsSql(name: string, table: string): string[] {
  return [...TRIGGERS.map((s) => `DROP TRIGGER IF EXISTS ${name}_${s} ON ${table}`), `DROP TABLE IF EXISTS ${name}`, `DROP FUNCTION IF EXISTS ${name}_count()`];
}

export interface LiveCounts {
  name: string;
  table: string;
  definition: string;
  /** false when a trigger is missing from the counted table: the counts must be rebuilt */
  intact: boolean;
}

/** The live counter tables, from their comments, and whether the counted table still has their triggers. */
export async function liveCounts(q: { query<T>(sql: string): Promise<T[]> }): Promise<LiveCounts[]> {
  return (await commentedTables(q, COMMENT_PREFIX, ' ')).map((r) => ({
    name: r.name,
    table: r.table,
    definition: r.note,
    intact: TRIGGERS.every((s) => r.triggers.has(`${r.name}_${s}`)),
  }));
}

/** The statements that bring an entity's counter tables to what it asks for. */
export function planCounts(e: EntitySchema, live: LiveCounts[]): string[] {
  const table = tableOf(e);
  const wanted = [...countTablesOf(e), ...Object.keys(e.fields).flatMap((k) => charCountTableOf(e, k) ?? [])];
  const out: string[] = [];
  for (const t of wanted) {
    const have = live.find((l) => l.name === t.name);
    if (have && have.intact && have.definition === t.definition) continue;
    if (have) out.push(...dropCountsSql(t.name, table));
    out.push(...createCountsSql(t));
  }
  for (const l of live) if (l.table === table && !wanted.some((t) => t.name === l.name)) out.push(...dropCountsSql(l.name, table));
  return out;
}
