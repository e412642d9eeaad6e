import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { createHash } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { FileNotFoundError, LocalFileStorage, checkKey, defaultFilesDir, streamToBuffer } from '../../src/server/files/storage.ts';

const roots: string[] = [];
async function storage() {
  const root = await mkdtemp(join(tmpdir(), 'files-storage-'));
  roots.push(root);
  return { root, s: new LocalFileStorage(root) };
}
afterAll(async () => {
  for (const r of roots) await rm(r, { recursive: true, force: true });
});

describe('LocalFileStorage', () => {
  it('put/get/stat/delete round trip with a Buffer', async () => {
    const { root, s } = await storage();
    const data = Buffer.from('姓名,身份证号\n张三,110101199003074578\n');
    const r = await s.put('roster/2024/06/a1.csv', data);
    expect(r).toEqual({ key: 'roster/2024/06/a1.csv', size: data.length, sha256: createHash('sha256').update(data).digest('hex') });
    expect(await streamToBuffer(await s.get('roster/2024/06/a1.csv'))).toEqual(data);
    expect(await readFile(join(root, 'roster/2024/06/a1.csv'))).toEqual(data);
    expect(await s.stat('roster/2024/06/a1.csv')).toMatchObject({ key: 'roster/2024/06/a1.csv', size: data.length });
    expect(await readdir(join(root, 'roster/2024/06'))).toEqual(['a1.csv']); // no temp file left
    await s.delete('roster/2024/06/a1.csv');
    await s.delete('roster/2024/06/a1.csv'); // idempotent
    expect(await s.stat('roster/2024/06/a1.csv')).toBeNull();
    await expect(s.get('roster/2024/06/a1.csv')).rejects.toBeInstanceOf(FileNotFoundError);
  });

  it('put from a stream, replacing the previous object', async () => {
    const { s } = await storage();
    await s.put('x/b.bin', Buffer.from('old'));
    const chunks = [Buffer.alloc(100_000, 1), Buffer.alloc(50_000, 2)];
    const r = await s.put('x/b.bin', Readable.from(chunks));
    expect(r.size).toBe(150_000);
    expect(r.sha256).toBe(createHash('sha256').update(Buffer.concat(chunks)).digest('hex'));
    expect((await streamToBuffer(await s.get('x/b.bin'))).length).toBe(150_000);
  });

  it('a failing stream leaves nothing behind', async () => {
    const { root, s } = await storage();
    const bad = new Readable({
      read() {
        this.destroy(new Error('client went away'));
      },
    });
    await expect(s.put('x/c.bin', bad)).rejects.toThrow('client went away');
    expect(await readdir(join(root, 'x'))).toEqual([]);
  });

  it('refuses keys that could escape the root', async () => {
    const { s } = await storage();
    for (const k of ['../etc/passwd', 'a/../../b', '/etc/passwd', 'a\0b', 'a\\..\\b', 'C:/x', '', 'a//b', './a', 'a/.hidden', 'a/名单.xlsx']) {
      expect(() => checkKey(k), k).toThrow();
      await expect(s.put(k, Buffer.from('x')), k).rejects.toThrow();
      await expect(s.get(k), k).rejects.toThrow();
    }
    expect(checkKey('roster/2024/a-b_c.1.xlsx')).toEqual(['roster', '2024', 'a-b_c.1.xlsx']);
  });

  it('default root is <DATA_DIR>/files', () => {
    expect(defaultFilesDir({ DATA_DIR: '/srv/data' })).toBe('/srv/data/files');
    expect(defaultFilesDir({ FILES_DIR: '/srv/f', DATA_DIR: '/srv/data' })).toBe('/srv/f');
  });
});
