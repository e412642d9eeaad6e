/**
 * Schema migration driven by the entity files. Fixed DDL for the non-entity tables (users,
 * businesses, memberships, tokens); then migration files (schemas/migrations/*.sql, each applied
 * once and recorded in schema_migrations); then a diff of every stored entity against the live
 * database (information_schema / pg_indexes) that applies only additive changes: new tables, new
 * columns (nullable or with a default) and new indexes. Anything destructive is refused with a
 * clear message and nothing is applied. An index the schemas derived earlier but no longer do (a
 * field that stopped being searchable or sortable, a contains-search made exact) is dropped: it
 * holds no data, and every write would keep paying for it. Day-count tables (defaultSort.dayCounts,
 * day-counts.ts) and counts (`counts`, counts.ts) are created and filled when an entity asks for them and
 * dropped when it no longer does.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Db, Queryable } from '../db.ts';
import { storedFields, type EntitySchema } from '../../shared/entity/types.ts';
import { liveCounts as liveCountTables, planCounts } from './counts.ts';
import { ROW_ESTIMATE_DDL } from './count.ts';
import { describeProblem, refusalMessage, suggestMigration, type MigrationProblem, type SuggestedMigration } from './migrate-advice.ts';
import { createDayCountsSql, dayCountsOf, dropDayCountsSql, liveDayCounts } from './day-counts.ts';
import { columnDef, columnOf, createTableSql, creationOrder, indexesFor, infoSchemaType, sqlType, tableOf, type IndexDef, type IndexOptions } from './ddl.ts';

/** Tables that are not entities: accounts, businesses, memberships, sessions. */
export const FIXED_DDL: string[] = [
  `CREATE TABLE IF NOT EXISTS users (
    id SERIAL PRIMARY KEY,
    phone TEXT NOT NULL UNIQUE,
    password_hash TEXT NOT NULL,
    created_at TIMESTAMPTZ NOT NULL DEFAULT now()
  )`,
  `CREATE TABLE IF NOT EXISTS businesses (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    charge_form TEXT NOT NULL CHECK (charge_form IN ('prepaid','postpaid')),
    service_packs TEXT[] NOT NULL DEFAULT '{}',
    balance_cents BIGINT NOT NULL DEFAULT 0,
    created_at TIMESTAMPTZ NOT NULL DEFAULT now()
  )`,
  `CREATE TABLE IF NOT EXISTS user_businesses (
    user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    business_id TEXT NOT NULL REFERENCES businesses(id) ON DELETE CASCADE,
    user_type TEXT NOT NULL CHECK (user_type IN ('admin','operator')),
    PRIMARY KEY (user_id, business_id)
  )`,
  `CREATE TABLE IF NOT EXISTS auth_tokens (
    token_hash TEXT PRIMARY KEY,
    user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    family TEXT NOT NULL,
    kind TEXT NOT NULL CHECK (kind IN ('access','refresh')),
    expires_at TIMESTAMPTZ NOT NULL,
    revoked_at TIMESTAMPTZ,
    created_at TIMESTAMPTZ NOT NULL DEFAULT now()
  )`,
  `CREATE INDEX IF NOT EXISTS auth_tokens_family_idx ON auth_tokens (family)`,
  `CREATE TABLE IF NOT EXISTS schema_migrations (
    id TEXT PRIMARY KEY,
    applied_at TIMESTAMPTZ NOT NULL DEFAULT now()
  )`,
];

export interface MigrationFile {
  /** file name, e.g. 001-rename-order-foo.sql */
  id: string;
  sql: string;
}

/**
 * A destructive difference was found and nothing was applied. `message` is the whole advice for a
 * configurator (migrate-advice.ts); `problems` one sentence per difference; `migration` the file to write.
 */
export class MigrationRefused extends Error {
  readonly problems: string[];
  constructor(
    readonly details: MigrationProblem[],
    readonly migration: SuggestedMigration,
  ) {
    super(refusalMessage(details, migration));
    this.name = 'MigrationRefused';
    this.problems = details.map(describeProblem);
  }
}

/** A migration file failed (its transaction rolled back): which file, and what the database said. */
export class MigrationFileFailed extends Error {
  constructor(
    readonly file: string,
    readonly cause: Error,
  ) {
    super(`迁移文件 ${file} 执行失败，已回滚：${cause.message}\n改正该文件后重新启动网关（它还没有记录在 schema_migrations 表中，会再次执行）。`);
    this.name = 'MigrationFileFailed';
  }
}

export interface MigrateOptions {
  entities: EntitySchema[];
  /** directory with NNN-*.sql files (default: none) */
  migrationsDir?: string;
  /** migration files given directly (tests) */
  migrations?: MigrationFile[];
  /**
   * Columns that code owns rather than an entity (e.g. the money rules' bookkeeping columns, added by
   * src/server/domain/ddl.ts): table → column names. They are neither reported as removed nor touched.
   */
  codeColumns?: Record<string, readonly string[]>;
  /** Names of indexes that code creates (see indexNamesIn); never dropped as stale. */
  codeIndexes?: readonly string[];
}

/** The index names a list of DDL statements creates (`CREATE [UNIQUE] INDEX [IF NOT EXISTS] name`). */
export function indexNamesIn(statements: readonly string[]): string[] {
  const out: string[] = [];
  for (const s of statements) {
    for (const m of s.matchAll(/CREATE\s+(?:UNIQUE\s+)?INDEX\s+(?:CONCURRENTLY\s+)?(?:IF\s+NOT\s+EXISTS\s+)?"?(\w+)"?/gi)) out.push(m[1]);
  }
  return out;
}

/** Suffixes indexesFor gives the non-unique indexes it derives (`<table>_<column>_<suffix>`). */
const DERIVED_SUFFIXES = ['trgm', 'chars', 'sort_idx', 'desc_idx', 'set_idx', 'idx'] as const;

export interface MigrateReport {
  /** every statement applied, in order */
  statements: string[];
  /** migration files applied in this run */
  migrationsApplied: string[];
}

/** Reads schemas/migrations/*.sql in name order; a missing directory means no migrations. */
export function readMigrationFiles(dir: string): MigrationFile[] {
  let names: string[];
  try {
    names = readdirSync(dir).filter((n) => n.endsWith('.sql')).sort();
  } catch {
    return [];
  }
  return names.map((id) => ({ id, sql: readFileSync(join(dir, id), 'utf8') }));
}

/**
 * Splits a migration file into statements: one per `;` at the end of a line, except inside a `$$ … $$`
 * body (a DO block or a function is one statement, whatever its lines end with).
 */
export function splitSql(sql: string): string[] {
  const out: string[] = [];
  let lines: string[] = [];
  let quoted = false;
  for (const line of sql.replace(/^\s*--.*$/gm, '').split('\n')) {
    lines.push(line);
    if ((line.match(/\$\$/g)?.length ?? 0) % 2 === 1) quoted = !quoted;
    if (!quoted && /;\s*$/.test(line)) {
      out.push(lines.join('\n').replace(/;\s*$/, ''));
      lines = [];
    }
  }
  out.push(lines.join('\n'));
  return out.map((s) => s.trim()).filter(Boolean);
}

interface LiveColumn {
  table_name: string;
  column_name: string;
  data_type: string;
}

/** The additive plan for the entities, or the list of refused (destructive) differences. */
export async function planEntityChanges(
  q: Queryable,
  entities: EntitySchema[],
  codeColumns: Record<string, readonly string[]> = {},
  indexOpts: IndexOptions = {},
  keepIndexes: readonly string[] = [],
): Promise<{ statements: string[]; problems: MigrationProblem[] }> {
  const cols = await q.query<LiveColumn>(
    `SELECT table_name, column_name, data_type FROM information_schema.columns WHERE table_schema = current_schema()`,
  );
  const idx = await q.query<{ indexname: string; tablename: string; plain: boolean; options: string[] | null }>(
    `SELECT c.relname AS indexname, t.relname AS tablename, c.reloptions AS options,
            (NOT i.indisunique AND NOT i.indisprimary AND NOT EXISTS (SELECT 1 FROM pg_constraint k WHERE k.conindid = i.indexrelid)) AS plain
       FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid JOIN pg_class t ON t.oid = i.indrelid
      WHERE t.relnamespace = current_schema()::regnamespace`,
  );
  const liveIdx = new Map(idx.map((i) => [i.indexname, i]));
  const keep = new Set(keepIndexes);
  const live = new Map<string, Map<string, string>>();
  for (const c of cols) {
    if (!live.has(c.table_name)) live.set(c.table_name, new Map());
    live.get(c.table_name)!.set(c.column_name, c.data_type);
  }
  const liveCounts = await liveDayCounts(q);
  const counted = await liveCountTables(q);
  const byName = Object.fromEntries(entities.map((e) => [e.name, e]));
  const statements: string[] = [];
  const problems: MigrationProblem[] = [];
  for (const e of creationOrder(entities)) {
    const t = tableOf(e);
    const liveCols = live.get(t);
    if (!liveCols) {
      statements.push(createTableSql(e, byName));
    } else {
      const expected = new Map(storedFields(e).map(([k, f]) => [columnOf(k, f), { key: k, f }]));
      const added = [...expected].filter(([col]) => !liveCols.has(col));
      const ownCol = (col: string) => col === 'id' || col === 'business_id' || codeColumns[t]?.includes(col);
      const removed = [...liveCols].filter(([col]) => !ownCol(col) && !expected.has(col));
      for (const [col, type] of liveCols) {
        if (ownCol(col)) continue;
        const want = expected.get(col);
        if (!want) {
          // One removed column and one new field of the same column type: maybe a rename.
          const same = added.filter(([, a]) => infoSchemaType(sqlType(a.f)) === type);
          const alone = removed.filter(([, rt]) => rt === type).length === 1;
          const renamedTo = alone && same.length === 1 ? { key: same[0][1].key, column: same[0][0] } : undefined;
          problems.push({ kind: 'removed', entity: e.name, table: t, column: col, ...(renamedTo ? { renamedTo } : {}) });
        } else if (infoSchemaType(sqlType(want.f)) !== type) {
          problems.push({ kind: 'retyped', entity: e.name, table: t, key: want.key, column: col, from: type, to: sqlType(want.f).toLowerCase() });
        }
      }
      for (const [col, { key, f }] of added) statements.push(`ALTER TABLE ${t} ADD COLUMN ${columnDef(key, f, byName, true)}`);
    }
    const derived = indexesFor(e, indexOpts);
    for (const i of derived) {
      const liveIndex = liveIdx.get(i.name);
      if (!liveIndex) statements.push(i.sql);
      else statements.push(...indexOptionsSql(i, liveIndex.options ?? []));
    }
    if (liveCols) {
      const wanted = new Set(derived.map((i) => i.name));
      for (const i of idx) {
        if (i.tablename !== t || !i.plain || wanted.has(i.indexname) || keep.has(i.indexname)) continue;
        if (wasDerived(i.indexname, t, liveCols)) statements.push(`DROP INDEX IF EXISTS ${i.indexname}`);
      }
    }
    // Day counts hold only derived data: created (and filled) when asked for, dropped when not, rebuilt
    // when the counted table lost their triggers (dropped and created again outside the migration).
    const counts = dayCountsOf(e);
    const kept = counts && liveCounts.find((l) => l.counts === counts.counts);
    if (counts && kept && !kept.intact) statements.push(...dropDayCountsSql(counts.counts, t));
    if (counts && !kept?.intact) statements.push(...createDayCountsSql(counts));
    for (const l of liveCounts) if (l.table === t && l.counts !== counts?.counts) statements.push(...dropDayCountsSql(l.counts, t));
    // Counts (counts.ts) likewise: created and filled when asked for, rebuilt when changed or broken, dropped when not.
    statements.push(...planCounts(e, counted));
  }
  return { statements, problems };
}

/**
 * An index created before its storage parameters were derived (ddl.ts GIN_OPTIONS) is brought to them;
 * a GIN index's pending list is then merged once, since a smaller limit does not shrink a longer list.
 */
function indexOptionsSql(i: IndexDef, live: readonly string[]): string[] {
  const missing = (i.options ?? []).filter((o) => !live.includes(o));
  if (!missing.length) return [];
  const out = [`ALTER INDEX ${i.name} SET (${missing.join(', ')})`];
  if (/ USING gin /.test(i.sql)) out.push(`SELECT gin_clean_pending_list('${i.name}'::regclass)`);
  return out;
}

/** Whether a plain index's name is one indexesFor gives: `<table>_<live column>_<derived suffix>`. */
function wasDerived(name: string, table: string, liveCols: Map<string, string>): boolean {
  if (!name.startsWith(`${table}_`)) return false;
  const rest = name.slice(table.length + 1);
  return DERIVED_SUFFIXES.some((suffix) => rest.endsWith(`_${suffix}`) && liveCols.has(rest.slice(0, -suffix.length - 1)));
}

/**
 * Installs pg_trgm (trusted since PostgreSQL 13; PGlite loads it in db.ts) for contains-search indexes.
 * Without it (no privilege, not available) contains fields keep a btree and ILIKE still answers.
 */
export async function ensureTrigram(db: Db): Promise<string | undefined> {
  const schema = async () =>
    (
      await db.query<{ nspname: string }>(
        `SELECT n.nspname FROM pg_extension e JOIN pg_namespace n ON n.oid = e.extnamespace WHERE e.extname = 'pg_trgm'`,
      )
    )[0]?.nspname;
  const found = await schema();
  if (found) return found;
  try {
    await db.query('CREATE EXTENSION IF NOT EXISTS pg_trgm');
  } catch {
    return undefined;
  }
  return schema();
}

/**
 * Brings the database up to the entity schemas. Idempotent; safe to call at every start-up.
 * Throws MigrationRefused (nothing applied) when an entity would need a destructive change.
 */
export async function migrateEntities(db: Db, opts: MigrateOptions): Promise<MigrateReport> {
  const report: MigrateReport = { statements: [], migrationsApplied: [] };
  for (const sql of FIXED_DDL) await db.query(sql);
  await db.query(ROW_ESTIMATE_DDL);
  const files = [...(opts.migrations ?? []), ...(opts.migrationsDir ? readMigrationFiles(opts.migrationsDir) : [])];
  const done = new Set((await db.query<{ id: string }>('SELECT id FROM schema_migrations')).map((r) => r.id));
  for (const m of files.sort((a, b) => a.id.localeCompare(b.id))) {
    if (done.has(m.id)) continue;
    await db
      .tx(async (tx) => {
        for (const s of splitSql(m.sql)) await tx.query(s);
        await tx.query('INSERT INTO schema_migrations (id) VALUES ($1)', [m.id]);
      })
      .catch((e: Error) => {
        throw new MigrationFileFailed(opts.migrationsDir && !opts.migrations?.includes(m) ? `schemas/migrations/${m.id}` : m.id, e);
      });
    report.migrationsApplied.push(m.id);
  }
  const stored = opts.entities.filter((e) => e.storage !== false);
  // Indexes of migration files are a configurator's own: never dropped as stale.
  const keep = [...(opts.codeIndexes ?? []), ...indexNamesIn(files.map((f) => f.sql))];
  const plan = await planEntityChanges(db, stored, opts.codeColumns, { trigram: await ensureTrigram(db) }, keep);
  if (plan.problems.length)
    throw new MigrationRefused(plan.problems, suggestMigration(plan.problems, files.map((f) => f.id), opts.migrationsDir));
  await db.tx(async (tx) => {
    // Gateways starting together apply their plans one after another instead of racing on the same
    // catalog rows (a CREATE … IF NOT EXISTS that waits for another's uncommitted CREATE then fails).
    if (plan.statements.length) await tx.query(`SELECT pg_advisory_xact_lock(hashtext('console:migrate-entities'))`);
    for (const s of plan.statements) await tx.query(s);
  });
  report.statements = plan.statements;
  return report;
}
