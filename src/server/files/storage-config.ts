import type { Queryable } from '../db.ts';
import { DbFileStorage } from './storage-db.ts';
import { S3FileStorage, s3OptionsFromEnv } from './storage-s3.ts';
import { defaultFilesDir, LocalFileStorage, type FileStorage } from './storage.ts';

export interface FileStorageChoice {
  storage: FileStorage;
  /** Said at start-up: which storage the gateway uses. */
  description: string;
  close(): void;
}

export interface FileStorageContext {
  /** The gateway's database (the files' home when it is PostgreSQL or in memory). */
  db: Queryable;
  /** The database is a PostgreSQL server (DATABASE_URL), shared by every gateway. */
  postgres: boolean;
  /** The embedded database lives in memory (DATA_DIR=memory): nothing may be written to disk. */
  memory: boolean;
}

/**
 * Where uploaded rosters, their error sheets and claim attachments are kept, in this order:
 * an S3-compatible store when S3_BUCKET is set; the folder FILES_DIR when set (it must then be one
 * folder shared by every gateway); the database when it is PostgreSQL (every gateway reads the same
 * rows) or in memory; otherwise the local disk next to the embedded database (<DATA_DIR>/files).
 */
export function chooseFileStorage(ctx: FileStorageContext, env: NodeJS.ProcessEnv = process.env): FileStorageChoice {
  const s3 = s3OptionsFromEnv(env);
  if (s3) {
    const storage = new S3FileStorage(s3);
    const where = `${s3.endpoint ?? 'AWS'} bucket ${s3.bucket}${s3.prefix ? ` prefix ${s3.prefix}` : ''}`;
    return { storage, description: `S3-compatible store (${where})`, close: () => storage.destroy() };
  }
  if (env.FILES_DIR || (!ctx.postgres && !ctx.memory)) {
    const storage = new LocalFileStorage(defaultFilesDir(env));
    return { storage, description: `local folder ${storage.root}`, close: () => undefined };
  }
  return {
    storage: new DbFileStorage(ctx.db),
    description: ctx.postgres ? 'PostgreSQL (table stored_files)' : 'the in-memory database (nothing on disk)',
    close: () => undefined,
  };
}
