import type { Queryable } from '../db.ts';
import { staleStats } from '../entity/count.ts';

/**
 * Upkeep of the embedded database. PGlite runs no autovacuum, so without this a table's dead row
 * versions (every update leaves one) and its GIN indexes' pending lists were never cleared, and new
 * pages were never marked all-visible: on the bench's 100k insured persons, after the one update each
 * row gets when its automatic-insurance reason is filled, a name search read 6,346 pages of which
 * half were dead rows (23 ms for 「郑」, 4 ms after VACUUM). PostgreSQL's autovacuum does this there; the
 * gateway runs these on PGlite only (http/embedded-upkeep.ts).
 *
 * The thresholds are autovacuum's defaults: vacuum when dead rows exceed 50 + 20 % of the table, or
 * rows inserted since the last vacuum exceed 1,000 + 20 % (so their pages become all-visible); analyse
 * when the statistics are stale by the rule the list estimates use (entity/count.ts staleStats).
 * PGlite keeps no statistics across a restart, so the first pass after a start vacuums every table
 * (a table already vacuumed costs little: 0.2 s for all 37 tables of the 1M bench database).
 */
export interface TableUpkeep {
  table: string;
  vacuum: boolean;
  analyze: boolean;
}

/** The tables of the current schema that need a vacuum or an analyse now, the most dead rows first (every table with `all`). */
export async function tablesDue(db: Queryable, all = false): Promise<TableUpkeep[]> {
  return db.query<TableUpkeep>(
    `SELECT * FROM (
       SELECT s.relname AS "table",
              ($1::boolean OR s.n_dead_tup > 50 + 0.2 * greatest(c.reltuples, 0)
                           OR s.n_ins_since_vacuum > 1000 + 0.2 * greatest(c.reltuples, 0)) AS vacuum,
              ${staleStats('c')} AS "analyze",
              s.n_dead_tup AS dead
         FROM pg_stat_user_tables s JOIN pg_class c ON c.oid = s.relid
        WHERE s.schemaname = current_schema()) t
      WHERE vacuum OR "analyze"
      ORDER BY dead DESC, "table"`,
    [all],
  ).then((rows) => rows.map(({ table, vacuum, analyze }) => ({ table, vacuum, analyze })));
}

/** VACUUM and/or ANALYZE of one table (never inside a transaction). */
export async function upkeep(db: Queryable, t: TableUpkeep): Promise<void> {
  const what = t.vacuum && t.analyze ? 'VACUUM (ANALYZE)' : t.vacuum ? 'VACUUM' : 'ANALYZE';
  await db.query(`${what} "${t.table.replace(/"/g, '""')}"`);
}
