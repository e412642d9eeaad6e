import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openDb, sharedBuffersMb } from '../../src/server/db.ts';
import { DEMO } from './helpers.ts';

const dir = mkdtempSync(join(tmpdir(), 'gw-durable-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('durability (embedded database)', () => {
  it('a write acknowledged with 200 survives SIGKILL of the gateway process', async () => {
    // One process (node with the tsx loader), so SIGKILL hits the gateway itself and not a wrapper.
    const child = spawn(process.execPath, ['--import', 'tsx', resolve('tests/server/fixtures/gateway-child.ts'), join(dir, 'pglite')], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    try {
      const url = await new Promise<string>((ok, fail) => {
        let out = '';
        child.stdout.on('data', (c: Buffer) => {
          out += c.toString();
          const m = /READY (\S+)/.exec(out);
          if (m) ok(m[1]);
        });
        child.on('exit', (code) => fail(new Error(`child exited with ${code}`)));
      });
      const login = await (await fetch(`${url}api/auth/login`, { method: 'POST', body: JSON.stringify(DEMO) })).json();
      const res = await fetch(`${url}api/bank-accounts`, {
        method: 'POST',
        headers: { authorization: `Bearer ${login.data.token}`, 'x-company-id': 'B10001' },
        body: JSON.stringify({ accountName: '上海鑫达人力资源有限公司', bankName: '招商银行', accountNo: '6214000099998888' }),
      });
      expect(res.status).toBe(200);
    } finally {
      const gone = new Promise((r) => child.once('exit', r));
      child.kill('SIGKILL');
      await gone;
    }
    const db = await openDb({ dataDir: join(dir, 'pglite') });
    try {
      const rows = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM bank_accounts WHERE account_no = '6214000099998888'`);
      expect(rows[0].n).toBe(1);
      // The reopened demo database (some 20–30 MB) gets a buffer pool of its own size, not 128 MB.
      const [{ shared_buffers }] = await db.query<{ shared_buffers: string }>('SHOW shared_buffers');
      expect(`${sharedBuffersMb(join(dir, 'pglite'))}MB`).toBe(shared_buffers);
      expect(parseInt(shared_buffers, 10)).toBeGreaterThan(16);
      expect(parseInt(shared_buffers, 10)).toBeLessThan(128);
    } finally {
      await db.close();
    }
  }, 120000);

  it('sizes the buffer pool of a data dir to its relation files, between 16 MB and 128 MB', () => {
    const at = (files: Record<string, number>) => {
      const d = mkdtempSync(join(dir, 'sizes-'));
      for (const [name, bytes] of Object.entries(files)) {
        mkdirSync(dirname(join(d, name)), { recursive: true });
        writeFileSync(join(d, name), '');
        truncateSync(join(d, name), bytes); // sparse: the size PostgreSQL sees, no bytes written
      }
      return sharedBuffersMb(d);
    };
    expect(at({})).toBe(16);
    expect(at({ 'base/1/1259': 3 * 2 ** 20 })).toBe(16);
    expect(at({ 'base/1/1259': 30 * 2 ** 20, 'base/5/16384': 10 * 2 ** 20 + 1, 'pg_wal/000000010000000000000001': 16 * 2 ** 20 })).toBe(41);
    expect(at({ 'base/5/16384': 2 ** 30, 'base/5/16385': 2 ** 28 })).toBe(128);
  });
});
