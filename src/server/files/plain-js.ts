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
import { existsSync } from 'node:fs';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import esbuild from 'esbuild';
import { writeWhole } from '../../schema/write-whole-node.ts';

const CACHE = fileURLToPath(new URL('../../../node_modules/.cache/console-parse/', import.meta.url));
/** Bundled files by source file (null: none could be made). */
const made = new Map<string, string | null>();
/** Source files whose asynchronous build (preparePlainModules) is under way. */
const building = new Set<string>();

const sourceFile = (path: string) => (path.startsWith('file:') ? fileURLToPath(path) : path);
const isTypeScript = (file: string) => /\.[cm]?ts$/.test(file);
const options = (file: string): esbuild.BuildOptions & { write: false } => ({
  entryPoints: [file],
  bundle: true,
  platform: 'node',
  format: 'esm',
  packages: 'external',
  target: 'node20',
  write: false,
  logLevel: 'silent',
});
/** The one file a build of options() returns. */
const codeOf = (r: esbuild.BuildResult<{ write: false }>): Uint8Array => r.outputFiles[0].contents;

/** The plain JavaScript file for the module at `path` (a file path or file: URL); undefined when none can be made. */
export function plainModule(path: string): string | undefined {
  const file = sourceFile(path);
  if (!isTypeScript(file)) return file;
  if (!made.has(file)) made.set(file, attempt(() => save(file, codeOf(esbuild.buildSync(options(file))))));
  return made.get(file) ?? undefined;
}

/**
 * Makes the bundles of `paths` ahead, without blocking the event loop (esbuild works in its own process):
 * called when the gateway registers its upload routes, so the first upload's parse process does not wait
 * for plainModule's synchronous build (some 200 ms with esbuild's start).
 */
export function preparePlainModules(paths: string[]): void {
  for (const file of paths.map(sourceFile).filter(isTypeScript)) {
    // Gateways of one process (the test files') register while the first build still runs: one build each.
    if (made.has(file) || building.has(file)) continue;
    building.add(file);
    esbuild
      .build(options(file))
      .then(
        (r) => {
          if (!made.has(file)) made.set(file, attempt(() => save(file, codeOf(r))));
        },
        () => undefined, // plainModule tries again, and falls back to tsx
      )
      .finally(() => building.delete(file));
  }
}

function attempt(make: () => string): string | null {
  try {
    return make();
  } catch {
    return null;
  }
}

function save(file: string, code: Uint8Array): string {
  const out = join(CACHE, `${basename(file).replace(/\.[cm]?ts$/, '')}-${createHash('sha1').update(code).digest('hex').slice(0, 16)}.mjs`);
  if (!existsSync(out)) writeWhole(out, code);
  return out;
}
