/**
 * The studio's drafts: changes to schema files (edits of a file's text, or a new file) applied on top
 * of what is on disk, checked as a whole with the same validator the gateway runs at start-up, and, on
 * save, written back (with the migration file the change needs) followed by codegen.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { createTwoFilesPatch } from 'diff';
import { loadSchemaFiles } from '../../schema/load-node.ts';
import { validateSchemas, type SchemaIssue } from '../../schema/validate.ts';
import { buildEntityRegistry, type EntityRegistry } from '../../shared/entity/registry.ts';
import { editJsonText, newFileText } from './json-text.ts';
import type { StudioChange, StudioMigration } from '../../shared/studio.ts';

export type { StudioChange, StudioMigration };

export interface FileDraft {
  file: string;
  /** Text on disk (undefined: a new file). */
  before?: string;
  after: string;
  /** Unified diff, before → after. */
  diff: string;
}

export interface Draft {
  files: FileDraft[];
  /** Every schema file as it would be (parsed), keyed by path. */
  parsed: Record<string, unknown>;
  issues: SchemaIssue[];
  registry: EntityRegistry;
}

const SCHEMA_FILE = /^schemas\/(routes\.json|(entities|tables|forms|details)\/[a-z][a-z0-9-]*\.json)$/;
const MIGRATION_FILE = /^schemas\/migrations\/\d{3}-[a-z0-9-]+\.sql$/;

export class StudioError extends Error {
  constructor(
    message: string,
    readonly status = 400,
  ) {
    super(message);
  }
}

function checkPath(file: string, re: RegExp): string {
  if (!re.test(file)) throw new StudioError(`不能写入 ${file}：只能修改 schemas/ 下的 schema 文件和迁移文件`);
  return file;
}

export const diffOf = (file: string, before: string | undefined, after: string) =>
  createTwoFilesPatch(before === undefined ? '/dev/null' : `a/${file}`, `b/${file}`, before ?? '', after, undefined, undefined, { context: 3 });

/** The changes applied to the files under `root`, and the whole set checked. */
export function draftOf(root: string, changes: readonly StudioChange[]): Draft {
  const { files: parsed, issues: unreadable } = loadSchemaFiles(root);
  const files: FileDraft[] = [];
  for (const c of changes) {
    const file = checkPath(c.file, SCHEMA_FILE);
    const path = join(root, file);
    const before = existsSync(path) ? readFileSync(path, 'utf8') : undefined;
    let after: string;
    if (c.create !== undefined) {
      if (before !== undefined) throw new StudioError(`${file} 已存在`);
      after = newFileText(c.create);
    } else {
      if (before === undefined) throw new StudioError(`${file} 不存在`);
      try {
        after = editJsonText(before, c.edits ?? []);
      } catch (err) {
        throw new StudioError(`${file}：${(err as Error).message}`);
      }
    }
    parsed[file] = JSON.parse(after);
    files.push({ file, before, after, diff: diffOf(file, before, after) });
  }
  const issues = [...unreadable, ...validateSchemas(parsed, { unreadable: unreadable.map((i) => i.file) })];
  return { files, parsed, issues, registry: buildEntityRegistry(parsed) };
}

/** The migration as the text of its file. */
export const migrationText = (m: StudioMigration) => `-- 由 schema studio 生成：${m.file.split('/').pop()}\n${m.sql.join('\n')}\n`;

/** Writes the draft's files (the migration first) and returns what was written. */
export function writeDraft(root: string, draft: Draft, migration?: StudioMigration): string[] {
  const written: string[] = [];
  if (migration) {
    const file = checkPath(migration.file, MIGRATION_FILE);
    const path = join(root, file);
    if (existsSync(path)) throw new StudioError(`${file} 已存在`);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, migrationText(migration));
    written.push(file);
  }
  for (const f of draft.files) {
    if (f.before === f.after) continue;
    const path = join(root, f.file);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, f.after);
    written.push(f.file);
  }
  return written;
}
