import { createHash } from 'node:crypto';
import type { Readable } from 'node:stream';
import { DeleteObjectCommand, GetObjectCommand, HeadObjectCommand, PutObjectCommand, S3Client, S3ServiceException } from '@aws-sdk/client-s3';
import { checkKey, FileNotFoundError, streamToBuffer, type FileStat, type FileStorage, type StoredFile } from './storage.ts';

/** Where and how to reach an S3-compatible object store (AWS S3, MinIO, Ceph, OSS/COS S3 endpoints). */
export interface S3Options {
  bucket: string;
  /** Key prefix inside the bucket, e.g. 'console/' (default none). */
  prefix?: string;
  /** Endpoint URL of a non-AWS store, e.g. http://minio:9000 (default: AWS for the region). */
  endpoint?: string;
  region?: string;
  /** Path-style addressing (bucket in the path), which most self-hosted stores need. */
  forcePathStyle?: boolean;
  /** Static credentials; otherwise the SDK's default chain (AWS_ACCESS_KEY_ID…, instance role). */
  accessKeyId?: string;
  secretAccessKey?: string;
}

/** S3 options from S3_BUCKET, S3_PREFIX, S3_ENDPOINT, S3_REGION, S3_FORCE_PATH_STYLE, S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY. */
export function s3OptionsFromEnv(env: NodeJS.ProcessEnv = process.env): S3Options | null {
  if (!env.S3_BUCKET) return null;
  return {
    bucket: env.S3_BUCKET,
    prefix: env.S3_PREFIX || '',
    endpoint: env.S3_ENDPOINT || undefined,
    region: env.S3_REGION || env.AWS_REGION || 'us-east-1',
    forcePathStyle: env.S3_FORCE_PATH_STYLE ? env.S3_FORCE_PATH_STYLE === '1' || env.S3_FORCE_PATH_STYLE === 'true' : Boolean(env.S3_ENDPOINT),
    accessKeyId: env.S3_ACCESS_KEY_ID || undefined,
    secretAccessKey: env.S3_SECRET_ACCESS_KEY || undefined,
  };
}

const missing = (err: unknown) =>
  err instanceof S3ServiceException && (err.name === 'NoSuchKey' || err.name === 'NotFound' || err.$metadata?.httpStatusCode === 404);

/**
 * FileStorage on an S3-compatible object store, so every gateway reads the same files. PutObject is
 * atomic (a reader never sees part of an object); the file's SHA-256 is computed here and kept as
 * object metadata.
 */
export class S3FileStorage implements FileStorage {
  private readonly client: S3Client;
  readonly bucket: string;
  private readonly prefix: string;

  constructor(opts: S3Options) {
    this.bucket = opts.bucket;
    this.prefix = opts.prefix ?? '';
    this.client = new S3Client({
      region: opts.region ?? 'us-east-1',
      endpoint: opts.endpoint,
      forcePathStyle: opts.forcePathStyle,
      credentials: opts.accessKeyId && opts.secretAccessKey ? { accessKeyId: opts.accessKeyId, secretAccessKey: opts.secretAccessKey } : undefined,
    });
  }

  private objectKey(key: string): string {
    checkKey(key);
    return `${this.prefix}${key}`;
  }

  async put(key: string, data: Buffer | Readable): Promise<StoredFile> {
    const Key = this.objectKey(key);
    const body = Buffer.isBuffer(data) ? data : await streamToBuffer(data);
    const sha256 = createHash('sha256').update(body).digest('hex');
    await this.client.send(new PutObjectCommand({ Bucket: this.bucket, Key, Body: body, ContentLength: body.length, Metadata: { sha256 } }));
    return { key, size: body.length, sha256 };
  }

  async get(key: string): Promise<Readable> {
    try {
      const res = await this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key: this.objectKey(key) }));
      return res.Body as Readable;
    } catch (err) {
      if (missing(err)) throw new FileNotFoundError(key);
      throw err;
    }
  }

  async stat(key: string): Promise<FileStat | null> {
    try {
      const res = await this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: this.objectKey(key) }));
      return { key, size: Number(res.ContentLength ?? 0), modifiedAt: res.LastModified ?? new Date(0) };
    } catch (err) {
      if (missing(err)) return null;
      throw err;
    }
  }

  async delete(key: string): Promise<void> {
    await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: this.objectKey(key) }));
  }

  /** Closes the client's connections (at gateway shutdown). */
  destroy(): void {
    this.client.destroy();
  }
}
