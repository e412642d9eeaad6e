import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Readable } from 'node:stream';
import S3rver from 's3rver';
import { CreateBucketCommand, S3Client } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../src/server/db.ts';
import { chooseFileStorage } from '../../src/server/files/storage-config.ts';
import { DbFileStorage } from '../../src/server/files/storage-db.ts';
import { S3FileStorage } from '../../src/server/files/storage-s3.ts';
import { FileNotFoundError, LocalFileStorage, streamToBuffer, type FileStorage } from '../../src/server/files/storage.ts';
import { startServer } from '../../src/server/server.ts';
import { BIZ_ADMIN, DEMO, toRes } from './helpers.ts';
import { targets } from './money-helpers.ts';
import { makePng } from './png.ts';

/** What every FileStorage must do, whatever keeps the bytes. */
function contract(name: string, storage: () => FileStorage) {
  describe(`FileStorage contract: ${name}`, () => {
    it('puts, stats, streams back, replaces and deletes; a missing key is null / FileNotFoundError', async () => {
      const s = storage();
      const key = `claims/B1/${Date.now()}-a.png`;
      const bytes = makePng(20, 10);
      const put = await s.put(key, bytes);
      expect(put.size).toBe(bytes.length);
      expect(put.sha256).toMatch(/^[0-9a-f]{64}$/);
      expect((await s.stat(key))?.size).toBe(bytes.length);
      expect(Buffer.compare(await streamToBuffer(await s.get(key)), bytes)).toBe(0);
      await s.put(key, Readable.from([Buffer.from('new '), Buffer.from('bytes')]));
      expect((await streamToBuffer(await s.get(key))).toString()).toBe('new bytes');
      await s.delete(key);
      await s.delete(key); // idempotent
      expect(await s.stat(key)).toBeNull();
      await expect(s.get(key)).rejects.toBeInstanceOf(FileNotFoundError);
      await expect(s.put('../escape', bytes)).rejects.toThrow(/Invalid storage key/);
    });
  });
}

for (const t of targets()) {
  let db: Db;
  beforeAll(async () => {
    db = await t.open();
  }, 120_000);
  afterAll(async () => db?.close());
  contract(`database (${t.name})`, () => new DbFileStorage(db));
}

describe('S3-compatible store (a local s3rver)', () => {
  let server: S3rver;
  let endpoint = '';
  const dir = mkdtempSync(join(tmpdir(), 's3rver-'));
  beforeAll(async () => {
    server = new S3rver({ port: 0, address: '127.0.0.1', silent: true, directory: dir });
    const { port } = (await server.run()) as { port: number };
    endpoint = `http://127.0.0.1:${port}`;
    const client = new S3Client({ endpoint, region: 'us-east-1', forcePathStyle: true, credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' } });
    await client.send(new CreateBucketCommand({ Bucket: 'console-files' }));
    client.destroy();
  });
  afterAll(async () => {
    await server?.close();
    rmSync(dir, { recursive: true, force: true });
  });
  const env = () => ({ S3_BUCKET: 'console-files', S3_PREFIX: 'test/', S3_ENDPOINT: endpoint, S3_ACCESS_KEY_ID: 'S3RVER', S3_SECRET_ACCESS_KEY: 'S3RVER' });
  contract('S3', () => chooseFileStorage({ db: undefined as never, postgres: false, memory: false }, env()).storage);

  it('is chosen by S3_BUCKET before everything else, and keeps keys under the prefix', async () => {
    const choice = chooseFileStorage({ db: undefined as never, postgres: true, memory: false }, { ...env(), FILES_DIR: '/tmp/x' });
    expect(choice.storage).toBeInstanceOf(S3FileStorage);
    expect(choice.description).toBe(`S3-compatible store (${endpoint} bucket console-files prefix test/)`);
    await choice.storage.put('roster/k.csv', Buffer.from('a,b'));
    expect(existsSync(join(dir, 'console-files', 'test', 'roster', 'k.csv._S3rver_object'))).toBe(true);
    choice.close();
  });
});

describe('which storage a gateway uses', () => {
  it('FILES_DIR, else the database for PostgreSQL or memory, else the folder next to the embedded database', () => {
    const db = {} as Db;
    expect(chooseFileStorage({ db, postgres: true, memory: false }, { FILES_DIR: '/srv/files' }).storage).toBeInstanceOf(LocalFileStorage);
    expect(chooseFileStorage({ db, postgres: true, memory: false }, {}).description).toBe('PostgreSQL (table stored_files)');
    expect(chooseFileStorage({ db, postgres: false, memory: true }, {}).description).toBe('the in-memory database (nothing on disk)');
    const local = chooseFileStorage({ db, postgres: false, memory: false }, { DATA_DIR: '/srv/console' });
    expect(local.description).toBe(`local folder ${resolve('/srv/console/files')}`);
  });
});

for (const t of targets()) {
  describe(`files are reachable from every gateway on one database (${t.name})`, () => {
    it('a claim photo uploaded through one gateway is read through another; with an in-memory database nothing reaches the disk', async () => {
      const db = await t.open();
      const saved = process.env.FILES_DIR;
      delete process.env.FILES_DIR;
      // PGlite: two gateways in one process share the in-memory database (the memory case); PostgreSQL: the database itself.
      const opts = { port: 0, db, production: false, ...(t.name === 'pglite' ? { dataDir: 'memory' } : {}) };
      const a = await startServer(opts);
      const b = await startServer(opts);
      try {
        expect(a.providers).toContain(t.name === 'pglite' ? 'files: the in-memory database (nothing on disk)' : 'files: PostgreSQL (table stored_files)');
        const login = await toRes(await fetch(`${a.url}api/auth/login`, { method: 'POST', body: JSON.stringify(DEMO) }));
        const headers = { authorization: `Bearer ${login.body.data.token}`, 'x-company-id': BIZ_ADMIN };
        const png = makePng(30, 20);
        const form = new FormData();
        form.append('file', new Blob([new Uint8Array(png)], { type: 'image/png' }), '现场.png');
        const up = await toRes(await fetch(`${a.url}api/claim-attachments`, { method: 'POST', headers, body: form }));
        expect(up.status, JSON.stringify(up.body)).toBe(200);
        const got = await fetch(`${b.url}api/claim-attachments/${up.body.data.id}/content`, { headers });
        expect(got.status).toBe(200);
        expect(Buffer.compare(Buffer.from(await got.arrayBuffer()), png)).toBe(0);
        const [row] = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM stored_files WHERE size = $1', [png.length]);
        expect(row.n).toBe(1);
        // Nothing under the repository's data folders (the former 'memory/files' or '.data/files').
        for (const d of ['memory', '.data/files']) expect(existsSync(resolve(d)) ? readdirSync(resolve(d)) : []).toEqual([]);
      } finally {
        await a.close();
        await b.close();
        await db.close();
        if (saved !== undefined) process.env.FILES_DIR = saved;
      }
    }, 180_000);
  });
}
