import { createHash, randomBytes } from 'node:crypto';
import { mkdir, open, rename, rm, stat as fsStat, unlink } from 'node:fs/promises';
import { dirname, isAbsolute, join, resolve, sep } from 'node:path';
import type { Readable } from 'node:stream';

export interface StoredFile {
  key: string;
  size: number;
  /** Hex SHA-256 of the stored bytes. */
  sha256: string;
}

export interface FileStat {
  key: string;
  size: number;
  modifiedAt: Date;
}

/**
 * Where uploaded and generated files are kept (historical roster forms must stay downloadable).
 *
 * Keys are opaque relative paths made of segments of [A-Za-z0-9._-] separated by '/',
 * e.g. 'roster/2024/06/3f2a….xlsx'; keep the user's original file name in the database,
 * never in the key. The interface is deliberately small so that an S3-compatible object
 * store (PutObject / GetObject / HeadObject / DeleteObject) can implement it unchanged:
 * put() is all-or-nothing (a reader never sees a partial object), get() streams,
 * stat() returns null for a missing key, delete() is idempotent.
 */
export interface FileStorage {
  /** Store data under key (replacing any previous object) atomically; returns its size and SHA-256. */
  put(key: string, data: Buffer | Readable): Promise<StoredFile>;
  /** Stream the object; rejects with a FileNotFoundError when it does not exist. */
  get(key: string): Promise<Readable>;
  /** Size and modification time, or null when the key does not exist. */
  stat(key: string): Promise<FileStat | null>;
  /** Remove the object; no error when it does not exist. */
  delete(key: string): Promise<void>;
}

export class FileNotFoundError extends Error {
  readonly code = 'NOT_FOUND';
  constructor(readonly key: string) {
    super(`文件不存在：${key}`);
    this.name = 'FileNotFoundError';
  }
}

export class InvalidKeyError extends Error {
  readonly code = 'INVALID_KEY';
  constructor(key: unknown, why: string) {
    super(`Invalid storage key ${JSON.stringify(String(key)).slice(0, 200)}: ${why}`);
    this.name = 'InvalidKeyError';
  }
}

const SEGMENT_RE = /^[A-Za-z0-9_-][A-Za-z0-9._-]*$/;

/** Check a key and return its segments; throws InvalidKeyError for anything that could escape the root. */
export function checkKey(key: unknown): string[] {
  if (typeof key !== 'string' || key.length === 0) throw new InvalidKeyError(key, 'empty');
  if (key.length > 512) throw new InvalidKeyError(key, 'longer than 512 characters');
  if (key.includes('\0')) throw new InvalidKeyError(key, 'contains NUL');
  if (key.includes('\\')) throw new InvalidKeyError(key, 'contains a backslash');
  if (key.startsWith('/') || isAbsolute(key) || /^[A-Za-z]:/.test(key)) throw new InvalidKeyError(key, 'absolute path');
  const segments = key.split('/');
  for (const s of segments) {
    if (s === '' || s === '.' || s === '..') throw new InvalidKeyError(key, `bad segment "${s}"`);
    // Segments may not start with '.', so temp files (".tmp-…") never collide with keys.
    if (!SEGMENT_RE.test(s)) throw new InvalidKeyError(key, `segment "${s}" must match [A-Za-z0-9_-][A-Za-z0-9._-]*`);
  }
  return segments;
}

/** Root of the local-disk storage: $FILES_DIR, else <DATA_DIR>/files, else .data/files. */
export function defaultFilesDir(env: NodeJS.ProcessEnv = process.env): string {
  if (env.FILES_DIR) return resolve(env.FILES_DIR);
  return resolve(env.DATA_DIR || '.data', 'files');
}

/** FileStorage on the local disk under rootDir. */
export class LocalFileStorage implements FileStorage {
  readonly root: string;

  constructor(rootDir: string = defaultFilesDir()) {
    this.root = resolve(rootDir);
  }

  /** Absolute path of a key; never outside the root. */
  pathOf(key: string): string {
    const p = resolve(this.root, ...checkKey(key));
    if (!p.startsWith(this.root + sep)) throw new InvalidKeyError(key, 'escapes the storage root');
    return p;
  }

  async put(key: string, data: Buffer | Readable): Promise<StoredFile> {
    const dest = this.pathOf(key);
    const dir = dirname(dest);
    await mkdir(dir, { recursive: true });
    const tmp = join(dir, `.tmp-${randomBytes(8).toString('hex')}`);
    const hash = createHash('sha256');
    let size = 0;
    const fh = await open(tmp, 'wx', 0o640);
    try {
      if (Buffer.isBuffer(data)) {
        hash.update(data);
        size = data.length;
        await fh.writeFile(data);
      } else {
        for await (const chunk of data) {
          const b = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as Uint8Array);
          hash.update(b);
          size += b.length;
          await fh.write(b);
        }
      }
      await fh.sync();
      await fh.close();
      await rename(tmp, dest);
    } catch (err) {
      await fh.close().catch(() => {});
      await unlink(tmp).catch(() => {});
      throw err;
    }
    await syncDir(dir);
    return { key, size, sha256: hash.digest('hex') };
  }

  async get(key: string): Promise<Readable> {
    const p = this.pathOf(key);
    const fh = await open(p, 'r').catch((err: NodeJS.ErrnoException) => {
      throw err.code === 'ENOENT' || err.code === 'EISDIR' ? new FileNotFoundError(key) : err;
    });
    const st = await fh.stat();
    if (!st.isFile()) {
      await fh.close();
      throw new FileNotFoundError(key);
    }
    return fh.createReadStream({ autoClose: true });
  }

  async stat(key: string): Promise<FileStat | null> {
    try {
      const st = await fsStat(this.pathOf(key));
      return st.isFile() ? { key, size: st.size, modifiedAt: st.mtime } : null;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw err;
    }
  }

  async delete(key: string): Promise<void> {
    await rm(this.pathOf(key), { force: true });
  }
}

/** fsync a directory so a rename survives a crash (not supported on Windows: ignored). */
async function syncDir(dir: string): Promise<void> {
  try {
    const d = await open(dir, 'r');
    try {
      await d.sync();
    } finally {
      await d.close();
    }
  } catch {
    /* best effort */
  }
}

/** Read a whole stream into a Buffer (e.g. to parse a stored roster). */
export async function streamToBuffer(stream: Readable, maxBytes = Infinity): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let n = 0;
  for await (const chunk of stream) {
    const b = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as Uint8Array);
    n += b.length;
    if (n > maxBytes) {
      stream.destroy();
      throw new RangeError(`stream exceeds ${maxBytes} bytes`);
    }
    chunks.push(b);
  }
  return Buffer.concat(chunks);
}
