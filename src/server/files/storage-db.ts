import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import type { Queryable } from '../db.ts';
import { checkKey, FileNotFoundError, streamToBuffer, type FileStat, type FileStorage, type StoredFile } from './storage.ts';

/**
 * Files in the database itself (table stored_files): what every gateway on one PostgreSQL reads, with
 * nothing else to set up or back up (pg_dump takes them along), and on an in-memory database what
 * keeps `DATA_DIR=memory` off the disk. Files are bounded (10 MB uploads, generated error sheets),
 * so one row holds one file. put() is one statement: a reader sees the old bytes or the new, never part.
 */
export const STORED_FILES_DDL = `CREATE TABLE IF NOT EXISTS stored_files (
  key TEXT PRIMARY KEY,
  size INTEGER NOT NULL CHECK (size >= 0),
  sha256 TEXT NOT NULL,
  data BYTEA NOT NULL,
  modified_at TIMESTAMPTZ NOT NULL DEFAULT now()
)`;

export class DbFileStorage implements FileStorage {
  constructor(private readonly db: Queryable) {}

  async put(key: string, data: Buffer | Readable): Promise<StoredFile> {
    checkKey(key);
    const bytes = Buffer.isBuffer(data) ? data : await streamToBuffer(data);
    const sha256 = createHash('sha256').update(bytes).digest('hex');
    await this.db.query(
      `INSERT INTO stored_files (key, size, sha256, data) VALUES ($1, $2, $3, $4)
       ON CONFLICT (key) DO UPDATE SET size = EXCLUDED.size, sha256 = EXCLUDED.sha256, data = EXCLUDED.data, modified_at = now()`,
      [key, bytes.length, sha256, bytes],
    );
    return { key, size: bytes.length, sha256 };
  }

  async get(key: string): Promise<Readable> {
    checkKey(key);
    const [row] = await this.db.query<{ data: Uint8Array }>('SELECT data FROM stored_files WHERE key = $1', [key]);
    if (!row) throw new FileNotFoundError(key);
    return Readable.from([Buffer.from(row.data.buffer, row.data.byteOffset, row.data.byteLength)]);
  }

  async stat(key: string): Promise<FileStat | null> {
    checkKey(key);
    const [row] = await this.db.query<{ size: number; modified_at: string | Date }>(
      'SELECT size, modified_at FROM stored_files WHERE key = $1',
      [key],
    );
    return row ? { key, size: Number(row.size), modifiedAt: new Date(row.modified_at) } : null;
  }

  async delete(key: string): Promise<void> {
    checkKey(key);
    await this.db.query('DELETE FROM stored_files WHERE key = $1', [key]);
  }
}
