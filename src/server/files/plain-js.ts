/**
 * The parse process's code as plain JavaScript: the TypeScript entry (worker.ts) and the validator module
 * it loads, each bundled once per gateway process with esbuild (the compiler tsx itself runs on; npm
 * packages stay imports), so a parse process starts on `node` alone. tsx's loader cost every parse
 * process about 0.45 s of CPU more to start (its hooks thread and the transforms): measured 1.07 against
 * 0.6 core-seconds from fork to `ready`.
 *
 * The files are named by their content's hash under node_modules/.cache/console-parse/ (where the npm
 * packages they import resolve), written once, atomically, and shared by every gateway process of the
 * checkout; new code gets a new name. When a bundle cannot be made (no esbuild, a read-only folder) the
 * caller starts the parse process with tsx as before.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import esbuild from 'esbuild';

const CACHE = fileURLToPath(new URL('../../../node_modules/.cache/console-parse/', import.meta.url));
const made = new Map<string, string | null>();

/** The plain JavaScript file for the module at `path` (a file path or file: URL); undefined when none can be made. */
export function plainModule(path: string): string | undefined {
  const file = path.startsWith('file:') ? fileURLToPath(path) : path;
  if (!/\.[cm]?ts$/.test(file)) return file;
  if (!made.has(file)) made.set(file, bundle(file));
  return made.get(file) ?? undefined;
}

function bundle(file: string): string | null {
  try {
    const { outputFiles } = esbuild.buildSync({ entryPoints: [file], bundle: true, platform: 'node', format: 'esm', packages: 'external', target: 'node20', write: false, logLevel: 'silent' });
    const code = outputFiles[0].contents;
    const out = join(CACHE, `${basename(file).replace(/\.[cm]?ts$/, '')}-${createHash('sha1').update(code).digest('hex').slice(0, 16)}.mjs`);
    if (!existsSync(out)) {
      mkdirSync(CACHE, { recursive: true });
      const temp = `${out}.${process.pid}.tmp`;
      writeFileSync(temp, code);
      renameSync(temp, out);
    }
    return out;
  } catch {
    return null;
  }
}
