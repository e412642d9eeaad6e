import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { writeWhole } from '../schema/write-whole-node.ts';

export interface QueryOptions {
  /**
   * A hot statement with fixed text and selective lookups (session, rate limit): PostgreSQL keeps it
   * prepared per connection, so each run skips parsing and, once its generic plan is chosen, planning;
   * so does PGlite's one connection (pglite-prepared.ts), outside a transaction.
   */
  prepare?: boolean;
  /**
   * With `prepare`: on PGlite, the statement runs on its generic plan (planned once for any parameters),
   * for a statement built to be read right by any plan (its reads chosen by one-time filters, as a short
   * contains-term's: query.ts shortTermSql), whose custom plans PostgreSQL keeps choosing. Planning it
   * took some 3 of PGlite's 9–18 ms for 「郑杰」 at 100k persons. On PostgreSQL planning is a fraction of
   * that and setting the mode for one statement would take a connection of its own: ignored there.
   */
  generic?: boolean;
}

/** Row-returning query interface shared by both drivers (Postgres dialect, $1 params). */
export interface Queryable {
  query<T = Record<string, unknown>>(sql: string, params?: unknown[], opts?: QueryOptions): Promise<T[]>;
}

/** The prepared-statement name of a statement text (the same on every connection). */
function statementName(sql: string): string {
  return `s_${createHash('sha1').update(sql).digest('hex').slice(0, 20)}`;
}

export interface Db extends Queryable {
  /** Runs fn inside one transaction; nested calls reuse the outer transaction. */
  tx<T>(fn: (db: Db) => Promise<T>): Promise<T>;
  close(): Promise<void>;
  readonly driver: 'pglite' | 'postgres';
}

export interface OpenDbOptions {
  /** When set, connect to real PostgreSQL through a pg Pool. */
  databaseUrl?: string;
  /** PGlite data directory; 'memory' (or 'memory://') keeps everything in memory. */
  dataDir?: string;
  /** A new embedded database starts from this dump (PGlite's dumpDataDir) instead of the cluster template. */
  template?: Blob;
}

/** What PGlite can dump: its files as one uncompressed archive (dumpDataDir). */
interface Dumpable {
  dumpDataDir(compression?: 'none'): Promise<Blob | File>;
}

/** The PGlite instance of each embedded database, for writeDump. */
const pglites = new WeakMap<Db, Dumpable>();

/** The dumps read by this process, by path: a dump is written whole (a temp file renamed), never in place. */
const dumps = new Map<string, { at: number; size: number; blob: Blob }>();

/**
 * A dump as a Blob whose arrayBuffer() (all that PGlite's loadDataDir reads of it) hands over the bytes
 * read from the file instead of copying them: Node's own streams the Blob in chunks and concatenates
 * them. Sharing is safe: PGlite only reads the archive (its untar slices a copy of each file out of it).
 * Six starts in a loop: 1.7 core-seconds each with Node's, 1.3 with one copy per start, 1.0 with none
 * (within the server tests' files, about 0.25 less per start).
 */
class DumpBlob extends Blob {
  readonly #data: Uint8Array<ArrayBuffer>;

  constructor(data: Uint8Array<ArrayBuffer>) {
    super([data]);
    this.#data = data;
  }

  override arrayBuffer(): Promise<ArrayBuffer> {
    const { buffer, byteOffset, byteLength } = this.#data;
    return Promise.resolve(byteOffset === 0 && byteLength === buffer.byteLength ? buffer : buffer.slice(byteOffset, byteOffset + byteLength));
  }
}

/**
 * A dump file as PGlite's loadDataDir takes it; undefined when it cannot be read. A Blob is read-only, so
 * one process's databases started from the same file share one copy of it (some 40 MB, read and copied
 * for each start before: a third of a second of every test gateway's start).
 */
export function readDump(file: string): Blob | undefined {
  try {
    const { mtimeMs: at, size } = statSync(file);
    const known = dumps.get(file);
    if (known && known.at === at && known.size === size) return known.blob;
    const blob = new DumpBlob(readFileSync(file));
    dumps.set(file, { at, size, blob });
    return blob;
  } catch {
    return undefined;
  }
}

/** Writes an embedded database's files to `file`, whole or not at all (a temp file renamed); false for PostgreSQL. */
export async function writeDump(db: Db, file: string): Promise<boolean> {
  const pg = pglites.get(db);
  if (pg) await dumpTo(pg, file);
  return Boolean(pg);
}

/**
 * An embedded database's files as a dump that new databases can start from (openPglite's startFrom),
 * without a file in between; undefined for PostgreSQL. Several databases may start from the one dump.
 */
export async function dumpOf(db: Db): Promise<Blob | undefined> {
  const pg = pglites.get(db);
  return pg && new DumpBlob(await dumpBytes(pg));
}

async function dumpBytes(pg: Dumpable): Promise<Uint8Array<ArrayBuffer>> {
  return new Uint8Array(await (await pg.dumpDataDir('none')).arrayBuffer());
}

async function dumpTo(pg: Dumpable, file: string): Promise<void> {
  writeWhole(file, await dumpBytes(pg));
}

function txView(driver: Db['driver'], run: Queryable['query']): Db {
  const db: Db = {
    driver,
    query: run,
    tx: (fn) => fn(db),
    close: async () => {
      throw new Error('close() is not available inside a transaction');
    },
  };
  return db;
}

/** PostgreSQL's shared_buffers for the data dir `dir`: the size of its relation files in MB, between 16 and 128. */
export function sharedBuffersMb(dir: string): number {
  let bytes = 0;
  const base = join(dir, 'base');
  if (existsSync(base)) {
    for (const e of readdirSync(base, { recursive: true, withFileTypes: true })) {
      if (e.isFile()) bytes += statSync(join(e.parentPath, e.name)).size;
    }
  }
  return Math.min(128, Math.max(16, Math.ceil(bytes / 2 ** 20)));
}

export async function openPglite(dataDir = '.data/pglite', startFrom?: Blob): Promise<Db> {
  const { PGlite } = await import('@electric-sql/pglite');
  // Trigram indexes for contains-search (src/server/entity/ddl.ts indexesFor).
  const { pg_trgm } = await import('@electric-sql/pglite/contrib/pg_trgm');
  let target: string;
  if (dataDir === 'memory' || dataDir.startsWith('memory://')) {
    target = 'memory://';
  } else {
    target = resolve(dataDir);
    mkdirSync(target, { recursive: true });
  }
  const release = target === 'memory://' ? () => undefined : claimDataDir(target);
  // Durability: a NodeFS data dir is an Emscripten NODEFS mount, so PostgreSQL's own writes (WAL on
  // commit) go straight to files in the directory through node:fs, not to an in-memory copy that is
  // flushed later. relaxedDurability: false (the default, stated here on purpose) makes every query
  // wait for PGlite's syncToFs before its result is returned, so a write is on disk (in the OS page
  // cache; it survives a killed process, see tests/server/durability.test.ts) before we answer 200.
  // An in-memory database's pages are in memory already: PostgreSQL's default 128 MB buffer pool (and
  // room for 100 connections PGlite's one session never opens) only doubled them, and setting that
  // shared memory up was 0.45 of the 1.2 s such a database took to start.
  // A data dir gets a buffer pool as large as its database, between 16 MB and PostgreSQL's default of
  // 128 MB: zeroing 128 MB took 0.4 s of every start of a small one (each `npm run admin` command, each
  // restart of the development gateway on a schema edit), while a large database keeps the default.
  const startParams =
    target === 'memory://'
      ? [...PGlite.defaultStartParams, '-c', 'shared_buffers=16MB', '-c', 'max_connections=10']
      : [...PGlite.defaultStartParams, '-c', `shared_buffers=${sharedBuffersMb(target)}MB`];
  const create = (loadDataDir?: Blob) => PGlite.create(target, { relaxedDurability: false, extensions: { pg_trgm }, loadDataDir, startParams });
  // A new database (in memory, or a data dir without a cluster yet) may start from the template.
  const template = target === 'memory://' || !existsSync(join(target, 'PG_VERSION')) ? (startFrom ?? memoryTemplate()) : undefined;
  const pg = await (template ? create(template).catch(() => undefined) : Promise.resolve(undefined))
    .then(async (fromTemplate) => {
      if (fromTemplate) return fromTemplate;
      const fresh = await create();
      if (target === 'memory://' && !startFrom) await saveMemoryTemplate(fresh);
      return fresh;
    })
    .catch((err: unknown) => {
      release();
      throw err;
    });
  // Loaded with PGlite itself: a gateway on PostgreSQL never imports it.
  const prepared = (await import('./pglite-prepared.ts')).preparedRunner(pg);
  const db: Db = {
    driver: 'pglite',
    async query<T>(sql: string, params: unknown[] = [], opts?: QueryOptions) {
      if (opts?.prepare) return prepared<T>(statementName(sql), sql, params, opts.generic === true);
      const res = await pg.query<T>(sql, params);
      return res.rows;
    },
    async tx<T>(fn: (db: Db) => Promise<T>) {
      return pg.transaction(async (t) =>
        fn(
          txView('pglite', async <R,>(sql: string, params: unknown[] = []) => {
            const res = await t.query<R>(sql, params);
            return res.rows;
          }),
        ),
      );
    },
    async close() {
      try {
        await pg.close();
      } finally {
        release();
      }
    },
  };
  pglites.set(db, pg);
  return db;
}

/**
 * PGLITE_MEMORY_TEMPLATE (set by the test suite, vite.config.ts): a file holding a freshly initialised
 * cluster (PGlite's dumpDataDir), which in-memory databases start from instead of running initdb again
 * (about 0.6 s instead of 2.5 s on a 2-core machine), and so do new data directories (the gateways the
 * tests start as processes: 1.5 s instead of 3.8 s). The first in-memory open without the file writes it
 * (atomically: a temp file renamed); a file that cannot be read is ignored and written again.
 */
function memoryTemplate(): Blob | undefined {
  const file = process.env.PGLITE_MEMORY_TEMPLATE;
  return file ? readDump(file) : undefined;
}

async function saveMemoryTemplate(pg: Dumpable): Promise<void> {
  const file = process.env.PGLITE_MEMORY_TEMPLATE;
  if (file) await dumpTo(pg, file);
}

/** Refusal to open an embedded database another live process has open. */
export class DataDirInUseError extends Error {
  readonly code = 'E_DATA_DIR_IN_USE';
}

/**
 * The embedded database is one process's: a second process (another gateway, `npm run admin`) writing
 * the same folder would corrupt it. The folder's owner is written to <dir>/console.pid; a live owner
 * refuses the open, a dead one (killed) is taken over. Returns the release function.
 */
function claimDataDir(dir: string): () => void {
  const file = join(dir, 'console.pid');
  let owner = 0;
  try {
    owner = Number(readFileSync(file, 'utf8').trim());
  } catch {
    /* no owner */
  }
  if (owner && owner !== process.pid && alive(owner)) {
    throw new DataDirInUseError(
      `the embedded database ${dir} is open in process ${owner} (a running gateway?); stop it first, or use PostgreSQL (DATABASE_URL) and the operator API`,
    );
  }
  writeFileSync(file, String(process.pid));
  return () => {
    try {
      if (readFileSync(file, 'utf8').trim() === String(process.pid)) rmSync(file, { force: true });
    } catch {
      /* already gone */
    }
  };
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

export async function openPostgres(databaseUrl: string): Promise<Db> {
  const pgMod = await import('pg');
  const Pool = pgMod.default?.Pool ?? (pgMod as unknown as { Pool: typeof import('pg').Pool }).Pool;
  const pool = new Pool({ connectionString: databaseUrl, max: 10 });
  // Fail fast on a bad URL.
  const probe = await pool.connect();
  probe.release();
  const db: Db = {
    driver: 'postgres',
    async query<T>(sql: string, params: unknown[] = [], opts?: QueryOptions) {
      const res = await pool.query(opts?.prepare ? { name: statementName(sql), text: sql, values: params } : { text: sql, values: params });
      return res.rows as T[];
    },
    async tx<T>(fn: (db: Db) => Promise<T>) {
      const client = await pool.connect();
      try {
        await client.query('BEGIN');
        const result = await fn(
          txView('postgres', async <R,>(sql: string, params: unknown[] = [], opts?: QueryOptions) => {
            const res = await client.query(opts?.prepare ? { name: statementName(sql), text: sql, values: params } : { text: sql, values: params });
            return res.rows as R[];
          }),
        );
        await client.query('COMMIT');
        return result;
      } catch (err) {
        await client.query('ROLLBACK').catch(() => undefined);
        throw err;
      } finally {
        client.release();
      }
    },
    async close() {
      await pool.end();
    },
  };
  return db;
}

/** Picks PostgreSQL when a URL is given, otherwise embedded PGlite. */
export async function openDb(opts: OpenDbOptions = {}): Promise<Db> {
  if (opts.databaseUrl) return openPostgres(opts.databaseUrl);
  return openPglite(opts.dataDir || '.data/pglite', opts.template);
}
