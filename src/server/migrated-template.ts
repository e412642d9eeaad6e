import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { readDump, writeDump, type Db } from './db.ts';

/**
 * Under the test suite only (PGLITE_MEMORY_TEMPLATE set, vite.config.ts): the in-memory gateways start
 * from a database the migrations already ran on, instead of each running them on an empty cluster
 * (about 0.4 of the 3.8 core-seconds of a seeded gateway's start on a 2-core machine, for some 45
 * gateways a run). The file is keyed by everything a migration reads: the schema files, the gateway's
 * code and the date. The gateway still migrates after loading it (an up-to-date check, about 0.1 s), as it
 * would any database: a change the key missed is applied or refused there, not skipped;
 * the first start of a key migrates the empty cluster and writes the file (a temp file renamed), and
 * removes all but the newest few of the others (each is some 40 MB, and every code change makes a key).
 *
 * A gateway started with the demo data has a template of its own (`variant` 'seeded', or 'seeded-clock'
 * with the development clock's table), written after the seed: loading it is the migrated dump's cost,
 * where seeding took another 0.6–0.9 core-seconds of each of the suite's some 40 seeded starts (the
 * server project: 343 → 300 core-seconds). It differs from a seed run now only in the created_at the
 * seed stamps with the time it ran, at most an hour before (tests/server/memory-template.test.ts).
 */
export interface MigratedTemplate {
  /** The dump to start from, when an earlier start wrote it. */
  readonly blob: Blob | undefined;
  /** Once the database is what the key names (migrated, or seeded too): writes the file when it was missing. */
  save(db: Db): Promise<void>;
}

/** How many dumps stay in the temp folder (another schema root, such as a test's copy, has its own). */
const KEEP = 8;

const CODE_DIRS = ['src/server', 'src/schema', 'src/shared', 'src/generated'];
const codeHashes = new Map<string, string>();

/** Every file under `dir`, in a stable order (none when it does not exist). */
function files(dir: string): string[] {
  try {
    return (readdirSync(dir, { recursive: true }) as string[])
      .sort()
      .map((n) => join(dir, n))
      .filter((p) => statSync(p).isFile());
  } catch {
    return [];
  }
}

function hashFiles(hash: ReturnType<typeof createHash>, paths: string[]): void {
  for (const p of paths) hash.update(p).update('\0').update(readFileSync(p)).update('\0');
}

/** The code does not change while a process runs: hashed once per repository root. */
function codeHash(root: string): string {
  let h = codeHashes.get(root);
  if (!h) {
    const hash = createHash('sha1');
    hashFiles(hash, CODE_DIRS.flatMap((d) => files(join(root, d))));
    h = hash.digest('hex');
    codeHashes.set(root, h);
  }
  return h;
}

export function migratedTemplate(schemaRoot: string, codeRoot: string, variant: 'migrated' | 'seeded' | 'seeded-clock' = 'migrated'): MigratedTemplate | undefined {
  const base = process.env.PGLITE_MEMORY_TEMPLATE;
  if (!base) return undefined;
  // The demo data is dated from today, and the seed stamps some rows with the time it ran (created_at):
  // a seeded template is kept for the hour it was written in, a migrated one for the day.
  const when = new Date().toISOString().slice(0, variant === 'migrated' ? 10 : 13);
  const hash = createHash('sha1').update(when).update(codeHash(codeRoot)).update(variant);
  hashFiles(hash, files(join(schemaRoot, 'schemas')));
  const file = `${base}.migrated-${hash.digest('hex').slice(0, 16)}`;
  const blob = readDump(file);
  return {
    blob,
    async save(db) {
      if (!blob && (await writeDump(db, file))) prune(`${basename(base)}.migrated-`, dirname(base));
    },
  };
}

/** Removes the migrated dumps beyond the KEEP newest (a missing file is another process's removal). */
function prune(prefix: string, dir: string): void {
  const dumps = readdirSync(dir)
    .filter((n) => n.startsWith(prefix) && !n.endsWith('.tmp'))
    .map((n) => join(dir, n))
    .flatMap((p) => {
      try {
        return [{ p, at: statSync(p).mtimeMs }];
      } catch {
        return [];
      }
    })
    .sort((a, b) => b.at - a.at);
  for (const { p } of dumps.slice(KEEP)) rmSync(p, { force: true });
}
