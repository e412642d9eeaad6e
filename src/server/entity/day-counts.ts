/**
 * Day counts: how many rows of each business fall on each day (UTC) of an entity's default sort
 * column, kept by triggers in the same transaction as the rows themselves. Opt-in per entity with
 * `defaultSort.dayCounts` (a NOT NULL datetime field). They let a deep page in that column's order start
 * at the day it falls in: page 1000 of a million rows skips the rows of that day (about 1,400 at
 * 1M rows over two years) instead of the 20,000 index entries before it, and returns the same rows as
 * the plain OFFSET (docs/benchmarks.md).
 *
 * The price is on writes: inserting rows upserts one counter row per business and day, so two
 * transactions inserting rows of the same business on the same day take turns on that counter row
 * until the first commits. Worth it on a list that reaches tens of thousands of rows per business and
 * whose rows are written by few concurrent transactions (orders: one statement per insurance batch).
 */
import type { EntitySchema } from '../../shared/entity/types.ts';
import { columnOf, isNullable, tableOf } from './ddl.ts';

export interface DayCounts {
  /** the entity's field key (the default sort field) */
  field: string;
  table: string;
  column: string;
  /** the counter table, `<table>_<column>_days` */
  counts: string;
}

/** Marks a counter table (COMMENT ON TABLE), so a stale one is recognised and dropped. */
const COMMENT_PREFIX = 'day counts of ';

/** The day counts an entity asks for, or undefined (not asked for, or the field cannot have them). */
export function dayCountsOf(e: EntitySchema): DayCounts | undefined {
  const ds = e.defaultSort;
  if (!ds?.dayCounts || e.storage === false) return undefined;
  const f = e.fields[ds.field];
  if (!f || f.type !== 'datetime' || isNullable(f)) return undefined;
  const table = tableOf(e);
  const column = columnOf(ds.field, f);
  return { field: ds.field, table, column, counts: `${table}_${column}_days` };
}

/** Suffixes of the triggers (and their functions) that keep a counter table. */
const TRIGGERS = ['ins', 'del', 'upd', 'trunc'] as const;

const dayOf = (d: DayCounts, rel: string): string => `(${rel}.${d.column} AT TIME ZONE 'UTC')::date`;

/**
 * Creates the counter table, its triggers and fills it from the rows already there. Run in one
 * transaction: CREATE TRIGGER locks out writers of the table until commit, so no row is missed or
 * counted twice. Idempotent: a second gateway that planned the same change before the first committed
 * replaces the functions and triggers with the same ones, and its fill adds nothing (every day with
 * rows already has its counter row). Statement-level triggers see a whole INSERT (a 5,000-row roster)
 * as one grouped upsert; counter rows are upserted in (business, day) order so concurrent inserts lock
 * them in the same order. An UPDATE trigger fires only when the business or the day column changes.
 */
export function createDayCountsSql(d: DayCounts): string[] {
  const { table: t, counts: c } = d;
  const fn = (suffix: string, body: string) =>
    `CREATE OR REPLACE FUNCTION ${c}_${suffix}() RETURNS trigger LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
     BEGIN
       ${body}
       RETURN NULL;
     END $$`;
  const add = (rows: string) =>
    `INSERT INTO ${c} (business_id, day, n)
       SELECT r.business_id, ${dayOf(d, 'r')}, count(*) FROM ${rows} r GROUP BY 1, 2 ORDER BY 1, 2
       ON CONFLICT (business_id, day) DO UPDATE SET n = ${c}.n + EXCLUDED.n;`;
  const remove = (rows: string) =>
    `UPDATE ${c} k SET n = k.n - o.n
       FROM (SELECT r.business_id, ${dayOf(d, 'r')} AS day, count(*) AS n FROM ${rows} r GROUP BY 1, 2) o
      WHERE k.business_id = o.business_id AND k.day = o.day;`;
  return [
    `CREATE TABLE IF NOT EXISTS ${c} (
       business_id TEXT NOT NULL,
       day DATE NOT NULL,
       n BIGINT NOT NULL CHECK (n >= 0),
       PRIMARY KEY (business_id, day)
     )`,
    `COMMENT ON TABLE ${c} IS '${COMMENT_PREFIX}${t}.${d.column}'`,
    fn('ins', add('new_rows')),
    fn('del', remove('old_rows')),
    fn('upd', `${remove('(SELECT OLD.*)')}\n       ${add('(SELECT NEW.*)')}`),
    fn('trunc', `DELETE FROM ${c};`),
    `CREATE OR REPLACE TRIGGER ${c}_ins AFTER INSERT ON ${t} REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION ${c}_ins()`,
    `CREATE OR REPLACE TRIGGER ${c}_del AFTER DELETE ON ${t} REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION ${c}_del()`,
    `CREATE OR REPLACE TRIGGER ${c}_upd AFTER UPDATE OF business_id, ${d.column} ON ${t} FOR EACH ROW
       WHEN (OLD.business_id IS DISTINCT FROM NEW.business_id OR ${dayOf(d, 'OLD')} IS DISTINCT FROM ${dayOf(d, 'NEW')})
       EXECUTE FUNCTION ${c}_upd()`,
    `CREATE OR REPLACE TRIGGER ${c}_trunc AFTER TRUNCATE ON ${t} FOR EACH STATEMENT EXECUTE FUNCTION ${c}_trunc()`,
    `INSERT INTO ${c} (business_id, day, n) SELECT r.business_id, ${dayOf(d, 'r')}, count(*) FROM ${t} r GROUP BY 1, 2
       ON CONFLICT (business_id, day) DO NOTHING`,
  ];
}

/** Drops a counter table with its triggers and functions (no entity asks for it, or it is rebuilt). */
export function dropDayCountsSql(counts: string, table: string): string[] {
  return [
    ...TRIGGERS.map((s) => `DROP TRIGGER IF EXISTS ${counts}_${s} ON ${table}`),
    `DROP TABLE IF EXISTS ${counts}`,
    ...TRIGGERS.map((s) => `DROP FUNCTION IF EXISTS ${counts}_${s}()`),
  ];
}

export interface LiveDayCounts {
  counts: string;
  /** the table counted */
  table: string;
  /**
   * False when a trigger is missing from the counted table (it was dropped and created again outside
   * the migration): the counts no longer follow its rows and must be rebuilt.
   */
  intact: boolean;
}

/**
 * Tables of the current schema whose comment starts with `prefix`, with the table the rest of the
 * comment names (up to `stop`) and the names of that table's triggers (day counts, counts.ts).
 */
export async function commentedTables(
  q: { query<T>(sql: string): Promise<T[]> },
  prefix: string,
  stop: string,
): Promise<Array<{ name: string; note: string; table: string; triggers: Set<string> }>> {
  const rows = await q.query<{ name: string; note: string; triggers: string[] | null }>(
    `SELECT c.relname AS name, d.description AS note,
            (SELECT array_agg(t.tgname::text) FROM pg_trigger t
              WHERE t.tgrelid = to_regclass(quote_ident(split_part(substr(d.description, ${prefix.length + 1}), '${stop}', 1)))
                AND NOT t.tgisinternal) AS triggers
       FROM pg_class c JOIN pg_description d ON d.objoid = c.oid AND d.classoid = 'pg_class'::regclass AND d.objsubid = 0
      WHERE c.relkind = 'r' AND c.relnamespace = current_schema()::regnamespace AND d.description LIKE '${prefix}%'`,
  );
  return rows.map((r) => ({ name: r.name, note: r.note, table: r.note.slice(prefix.length).split(stop)[0], triggers: new Set(r.triggers ?? []) }));
}

/** The live counter tables, from their comments, and whether the counted table still has their triggers. */
export async function liveDayCounts(q: { query<T>(sql: string): Promise<T[]> }): Promise<LiveDayCounts[]> {
  return (await commentedTables(q, COMMENT_PREFIX, '.')).map((r) => ({
    counts: r.name,
    table: r.table,
    intact: TRIGGERS.every((s) => r.triggers.has(`${r.name}_${s}`)),
  }));
}

/**
 * The ids of one page in the counted column's order, starting at the day the offset falls in: `anchor`
 * is that day and the number of rows on the days before it (in the page's direction); the page is then
 * read from that day on, skipping only the offset's remainder. Past the last row there is no anchor and
 * no row. `business`, `limit` and `offset` are parameter placeholders; `order` is the sortKey text.
 */
export function anchoredIdsSql(d: DayCounts, dir: 'ASC' | 'DESC', business: string, order: string, limit: string, offset: string): string {
  const anchor = `SELECT day, upto - n AS before
      FROM (SELECT day, n, (sum(n) OVER (ORDER BY day ${dir}))::bigint AS upto FROM ${d.counts} WHERE business_id = ${business}) b
     WHERE upto > ${offset}::bigint ORDER BY day ${dir} LIMIT 1`;
  const from =
    dir === 'DESC'
      ? `${d.column} < ((SELECT day FROM anchor) + 1)::timestamp AT TIME ZONE 'UTC'`
      : `${d.column} >= (SELECT day FROM anchor)::timestamp AT TIME ZONE 'UTC'`;
  return `WITH anchor AS MATERIALIZED (${anchor})
    SELECT id FROM ${d.table} WHERE business_id = ${business} AND ${from}
     ORDER BY ${order} LIMIT ${limit} OFFSET coalesce(${offset}::bigint - (SELECT before FROM anchor), 0)`;
}
