/**
 * What the gateway will do to the database for a draft of the schemas, found by doing it: in one
 * transaction that is always rolled back, the migration files not yet applied run (a file the studio
 * proposes included), then the entity plan is computed and applied. So the configurator sees exactly
 * the statements of the next start — and whether they succeed on the real rows — before anything is
 * saved. A destructive difference (a removed field, a changed type) is reported with the migration file
 * the gateway would ask for; a removal next to an addition of the same type is offered as a rename
 * that keeps the data.
 */
import type { Db } from '../db.ts';
import { planEntityChanges, readMigrationFiles, splitSql, indexNamesIn, type MigrationFile } from '../entity/migrate.ts';
import { suggestMigration, type MigrationProblem, type SuggestedMigration } from '../entity/migrate-advice.ts';
import { codeOwned } from '../migrate.ts';
import type { EntitySchema } from '../../shared/entity/types.ts';

export interface DatabasePreview {
  /** Migration files that would run first (not yet recorded in schema_migrations), with their statements. */
  migrations: Array<{ id: string; statements: string[] }>;
  /** The additive statements the entity migration would apply after them. */
  statements: string[];
  /** Differences the gateway would refuse without a migration file. */
  problems: MigrationProblem[];
  /** The file it would ask for (the rename when a removal looks like one: data kept). */
  suggestion?: SuggestedMigration;
  /** The database's own error when the statements fail on the real rows (nothing is changed either way). */
  error?: string;
}

const ROLLBACK = Symbol('rollback');

/**
 * A rename's statements for a suggested migration: the column, and the derived indexes named after it
 * (`<table>_<column>_<suffix>`, entity/ddl.ts indexesFor), so the renamed column keeps one index each.
 */
export function renameStatements(p: Extract<MigrationProblem, { kind: 'removed' }>): string[] {
  if (!p.renamedTo) return [];
  const to = p.renamedTo.column;
  return [
    `ALTER TABLE ${p.table} RENAME COLUMN ${p.column} TO ${to};`,
    ...['trgm', 'chars', 'sort_idx', 'desc_idx', 'idx'].map((s) => `ALTER INDEX IF EXISTS ${p.table}_${p.column}_${s} RENAME TO ${p.table}_${to}_${s};`),
  ];
}

/** The migration file the studio writes for the problems: renames keep their data; anything else as the gateway advises. */
export function proposedMigration(problems: MigrationProblem[], existing: readonly string[], dir: string): SuggestedMigration {
  const s = suggestMigration(problems, existing, dir);
  return { file: s.file, sql: problems.flatMap((p, i) => (p.kind === 'removed' && p.renamedTo ? renameStatements(p) : [s.sql[i]])) };
}

/** Dry-runs the migration of `entities` against the database (see the module comment). */
export async function previewDatabase(db: Db, entities: EntitySchema[], migrationsDir: string, extra?: MigrationFile): Promise<DatabasePreview> {
  const files = [...readMigrationFiles(migrationsDir), ...(extra ? [extra] : [])].sort((a, b) => a.id.localeCompare(b.id));
  const out: DatabasePreview = { migrations: [], statements: [], problems: [] };
  const { codeColumns, codeIndexes } = codeOwned();
  try {
    await db.tx(async (tx) => {
      const done = new Set((await tx.query<{ id: string }>('SELECT id FROM schema_migrations')).map((r) => r.id));
      for (const m of files.filter((f) => !done.has(f.id))) {
        const statements = splitSql(m.sql);
        out.migrations.push({ id: m.id, statements });
        for (const s of statements) await tx.query(s);
      }
      const trigram = (await tx.query<{ nspname: string }>(`SELECT n.nspname FROM pg_extension e JOIN pg_namespace n ON n.oid = e.extnamespace WHERE e.extname = 'pg_trgm'`))[0]?.nspname;
      const stored = entities.filter((e) => e.storage !== false);
      const plan = await planEntityChanges(tx, stored, codeColumns, { trigram }, [...codeIndexes, ...indexNamesIn(files.map((f) => f.sql))]);
      out.statements = plan.statements;
      out.problems = plan.problems;
      if (plan.problems.length) {
        out.suggestion = proposedMigration(plan.problems, files.map((f) => f.id), 'schemas/migrations');
      } else {
        for (const s of plan.statements) await tx.query(s);
      }
      throw ROLLBACK;
    });
  } catch (err) {
    if (err !== ROLLBACK) out.error = (err as Error).message;
  }
  return out;
}
