/** Node-only loader for schemas/**\/*.json (uses fs; not imported by the browser bundle). */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { parse, type ParseError } from 'jsonc-parser';
import type { SchemaIssue } from './types';
import { useMetaCache } from './meta-cache-node';
import { validateSchemas } from './validate';

// Node processes validate with the meta validators saved as code (compiling them takes about a second).
useMetaCache();

export interface LoadedSchemas {
  /** parsed JSON keyed by repo-relative path, e.g. 'schemas/tables/orders.json' */
  files: Record<string, unknown>;
  /** JSON syntax / read errors (path '$') */
  issues: SchemaIssue[];
}

/** Line and column (1-based) of a character offset. */
function lineColumn(text: string, offset: number): string {
  const before = text.slice(0, Math.max(0, Math.min(offset, text.length)));
  const line = before.split('\n').length;
  return `line ${line}, column ${before.length - before.lastIndexOf('\n')}`;
}

/**
 * `invalid JSON at line 3, column 9: Expected ',' or '}' after property value`: JSON.parse's reason,
 * placed by the first error of jsonc-parser (JSON.parse of Node 20 names no position for most errors).
 */
export function jsonSyntaxMessage(text: string, error: Error): string {
  const errors: ParseError[] = [];
  parse(text, errors, { allowTrailingComma: false, disallowComments: true, allowEmptyContent: false });
  const at = /at position (\d+)/.exec(error.message);
  const offset = errors.length ? errors[0].offset : at ? Number(at[1]) : undefined;
  const reason = error.message.replace(/\s*in JSON at position \d+.*$/, '').replace(/\s*\(line \d+ column \d+\)$/, '');
  return offset === undefined ? `invalid JSON: ${reason}` : `invalid JSON at ${lineColumn(text, offset)}: ${reason}`;
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
      issues.push({ file: rel, path: '$', reason: jsonSyntaxMessage(text, e as Error) });
    }
  }
  return { files, issues };
}

/**
 * Load and validate in one go: syntax issues first, then validation issues of the parsable files (a
 * file that could not be read is not reported again by the files that refer to it).
 */
export function validateSchemaDir(rootDir: string): { files: Record<string, unknown>; issues: SchemaIssue[] } {
  const { files, issues } = loadSchemaFiles(rootDir);
  return { files, issues: [...issues, ...validateSchemas(files, { unreadable: issues.map((i) => i.file) })] };
}
