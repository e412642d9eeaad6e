/**
 * What a configurator reads when the gateway refuses a destructive schema change: each difference
 * between the entity schemas and the database in one sentence, the SQL that would resolve it (a
 * drop, a rename when a new field of the same type looks like the old column's new name, a type
 * change), and the exact migration file to write (the next free NNN under schemas/migrations/).
 */
import { isAbsolute, relative } from 'node:path';

/** A difference the additive migration refuses to resolve by itself. */
export type MigrationProblem =
  | {
      kind: 'removed';
      entity: string;
      table: string;
      column: string;
      /** a field the schema adds to the same table with the same column type: maybe the new name */
      renamedTo?: { key: string; column: string };
    }
  | { kind: 'retyped'; entity: string; table: string; key: string; column: string; from: string; to: string };

/** A migration file that resolves the problems: its repo-relative path and the SQL to put in it. */
export interface SuggestedMigration {
  file: string;
  sql: string[];
}

/** The problem in one sentence (the first line of its part of the message). */
export function describeProblem(p: MigrationProblem): string {
  if (p.kind === 'retyped') return `实体 ${p.entity}（表 ${p.table}）的字段 ${p.key} 类型由 ${p.from} 变为 ${p.to}`;
  const base = `实体 ${p.entity}（表 ${p.table}）的字段 ${p.column} 在数据库中存在但 schema 中已删除`;
  return p.renamedTo ? `${base}；新字段 ${p.renamedTo.key}（列 ${p.renamedTo.column}）类型相同，可能是改名` : base;
}

/** The statement that resolves the problem (for a possible rename: the rename, which keeps the data). */
export function problemSql(p: MigrationProblem): string {
  if (p.kind === 'retyped') return `ALTER TABLE ${p.table} ALTER COLUMN ${p.column} TYPE ${p.to.toUpperCase()} USING ${p.column}::${p.to};`;
  if (p.renamedTo) return `ALTER TABLE ${p.table} RENAME COLUMN ${p.column} TO ${p.renamedTo.column};`;
  return `ALTER TABLE ${p.table} DROP COLUMN ${p.column};`;
}

const slug = (s: string) => s.replace(/_/g, '-');

function fileTopic(problems: MigrationProblem[]): string {
  // One field renamed, in every table that stores it (an entity's fieldsFrom copies keep the same name).
  const renames = new Set(problems.map((p) => (p.kind === 'removed' && p.renamedTo ? `${slug(p.column)}-to-${slug(p.renamedTo.column)}` : '')));
  if (problems.length > 1 && renames.size === 1 && !renames.has('')) return `rename-${[...renames][0]}`;
  if (problems.length > 1) {
    const tables = [...new Set(problems.map((p) => p.table))];
    return tables.length === 1 ? `update-${slug(tables[0])}` : 'update-schema';
  }
  const p = problems[0];
  if (p.kind === 'retyped') return `retype-${slug(p.table)}-${slug(p.column)}`;
  if (p.renamedTo) return `rename-${slug(p.table)}-${slug(p.column)}-to-${slug(p.renamedTo.column)}`;
  return `drop-${slug(p.table)}-${slug(p.column)}`;
}

/** The next migration file name after the existing ones (`001-…` when there are none). */
export function nextMigrationName(existing: readonly string[], topic: string): string {
  const numbers = existing.map((id) => /^(\d+)-/.exec(id)?.[1]).filter((n): n is string => !!n).map(Number);
  const next = (numbers.length ? Math.max(...numbers) : 0) + 1;
  return `${String(next).padStart(3, '0')}-${topic}.sql`;
}

/** How the migrations folder is shown: relative to the working directory when it lies below it. */
function shownDir(dir: string | undefined): string {
  if (!dir) return 'schemas/migrations';
  const rel = relative(process.cwd(), dir).split('\\').join('/');
  return rel && !rel.startsWith('..') && !isAbsolute(rel) ? rel : dir;
}

export function suggestMigration(problems: MigrationProblem[], existing: readonly string[], dir?: string): SuggestedMigration {
  return { file: `${shownDir(dir)}/${nextMigrationName(existing, fileTopic(problems))}`, sql: problems.map(problemSql) };
}

/** The whole message: what differs, the file to write with its SQL, and what happens next. No stack trace needed. */
export function refusalMessage(problems: MigrationProblem[], migration: SuggestedMigration): string {
  const parts = problems.map((p, i) => {
    const lines = [`${i + 1}. ${describeProblem(p)}。`];
    if (p.kind === 'removed' && p.renamedTo) {
      lines.push(`   改名（保留数据）：${problemSql(p)}`);
      lines.push(`   删除（数据将丢失）：ALTER TABLE ${p.table} DROP COLUMN ${p.column};`);
    } else if (p.kind === 'removed') lines.push(`   删除该列（数据将丢失）：${problemSql(p)}`);
    else lines.push(`   修改类型（按需改写 USING 中的换算）：${problemSql(p)}`);
    return lines.join('\n');
  });
  return [
    '数据库迁移被拒绝，数据库未做任何修改：schemas/entities 中的实体与数据库中已有的列不一致，删除、改名和修改类型需要一个迁移文件说明如何处理。',
    '',
    ...parts,
    '',
    `请新建文件 ${migration.file}，写入（按需修改）：`,
    '',
    ...migration.sql.map((s) => `  ${s}`),
    '',
    '然后重新启动网关：迁移文件在启动时按文件名顺序各执行一次（记录在 schema_migrations 表中），之后再补齐新增的列和索引。说明见 schemas/migrations/README.md。',
  ].join('\n');
}
