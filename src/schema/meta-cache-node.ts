/**
 * Node only: the meta validators kept as Ajv standalone code in node_modules/.cache/schema-meta/, so a
 * process (a gateway start, a test file, vite build) loads them in milliseconds instead of compiling
 * them (about a second). The entry is named by a hash of the meta schemas, meta.ts (the keywords'
 * code) and the Ajv version: an edit to any of them makes a new entry, compiled on first use. When
 * the cache cannot be read or written, the validators are compiled as usual.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import standaloneCode from 'ajv/dist/standalone/index.js';
import { writeWhole } from './write-whole-node';
import { createMetaAjv, FILE_KINDS, META_SCHEMAS, setValidatorSource, validatorsOf, type MetaValidators } from './meta';

/** The repository root (in a jsdom test import.meta.url is no file: URL, then the working directory). */
function repoRoot(): string {
  try {
    return fileURLToPath(new URL('../..', import.meta.url));
  } catch {
    return process.cwd();
  }
}
const ROOT = repoRoot();
const DIR = join(ROOT, 'node_modules', '.cache', 'schema-meta');
const require = createRequire(join(ROOT, 'package.json'));

type Standalone = (ajv: ReturnType<typeof createMetaAjv>, refs: Record<string, string>) => string;
const toCode = ((standaloneCode as unknown as { default?: Standalone }).default ?? standaloneCode) as unknown as Standalone;

function cacheFile(): string {
  const hash = createHash('sha256');
  hash.update(JSON.stringify(META_SCHEMAS));
  hash.update(readFileSync(join(ROOT, 'src', 'schema', 'meta.ts'), 'utf8'));
  hash.update(String((require('ajv/package.json') as { version: string }).version));
  return join(DIR, `${hash.digest('hex').slice(0, 16)}.cjs`);
}

/** The validators from the cache, or compiled (and saved for the next process). */
export function cachedValidators(): MetaValidators {
  let file: string;
  try {
    file = cacheFile();
    if (existsSync(file)) return require(file) as MetaValidators;
  } catch {
    return validatorsOf(createMetaAjv());
  }
  const ajv = createMetaAjv(META_SCHEMAS, { source: true });
  const validators = validatorsOf(ajv);
  try {
    const code = toCode(ajv, Object.fromEntries(FILE_KINDS.map((k) => [k, `${k}.schema.json`])));
    writeWhole(file, code); // whole or not at all, when processes start together
  } catch {
    // no cache this time
  }
  return validators;
}

/** Validation in this process takes its validators from the cache. */
export function useMetaCache(): void {
  setValidatorSource(cachedValidators);
}
