/** Node-only loader for schemas/**\/*.json (uses fs; not imported by the browser bundle). */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import type { SchemaIssue } from './types';
import { validateSchemas } from './validator';

export interface LoadedSchemas {
  /** parsed JSON keyed by repo-relative path, e.g. 'schemas/tables/orders.json' */
  files: Record<string, unknown>;
  /** JSON syntax / read errors (path '$') */
  issues: SchemaIssue[];
}

function walk(dir: string, out: string[]): void {
  let entries: string[];
  try {
    entries = readdirSync(dir);
  } catch {
    return;
  }
  for (const name of entries.sort()) {
    const full = join(dir, name);
    if (statSync(full).isDirectory()) walk(full, out);
    else if (name.endsWith('.json')) out.push(full);
  }
}

/** Read and parse every rootDir/schemas/**\/*.json. Syntax errors become issues, never throws. */
export function loadSchemaFiles(rootDir: string): LoadedSchemas {
  const files: Record<string, unknown> = {};
  const issues: SchemaIssue[] = [];
  const paths: string[] = [];
  walk(join(rootDir, 'schemas'), paths);
  for (const full of paths) {
    const rel = relative(rootDir, full).split(sep).join('/');
    let text: string;
    try {
      text = readFileSync(full, 'utf8');
    } catch (e) {
      issues.push({ file: rel, path: '$', reason: `cannot read file: ${(e as Error).message}` });
      continue;
    }
    try {
      files[rel] = JSON.parse(text);
    } catch (e) {
      issues.push({ file: rel, path: '$', reason: `invalid JSON: ${(e as Error).message}` });
    }
  }
  return { files, issues };
}

/** Load and validate in one go: syntax issues first, then validation issues of the parsable files. */
export function validateSchemaDir(rootDir: string): { files: Record<string, unknown>; issues: SchemaIssue[] } {
  const { files, issues } = loadSchemaFiles(rootDir);
  return { files, issues: [...issues, ...validateSchemas(files)] };
}
