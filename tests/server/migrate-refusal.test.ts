import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openDb } from '../../src/server/db.ts';
import { migrate } from '../../src/server/migrate.ts';

const dir = mkdtempSync(join(tmpdir(), 'gw-refusal-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('a refused migration at start-up (what a configurator sees)', () => {
  it('prints one message with the file to write and its SQL, no stack trace, and exits 2', async () => {
    // A database with a column the schemas no longer have (a field removed from schemas/entities/order.json).
    const dataDir = join(dir, 'pglite');
    const db = await openDb({ dataDir });
    await migrate(db);
    await db.query('ALTER TABLE orders ADD COLUMN legacy_note TEXT');
    await db.close();

    const child = spawn(process.execPath, ['--import', 'tsx', resolve('src/server/main.ts')], {
      cwd: resolve('.'),
      env: { ...process.env, DATA_DIR: dataDir, PORT: '0', STATIC_DIR: dir, LOG_LEVEL: 'silent' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    const code = await new Promise<number | null>((ok) => child.on('exit', ok));

    expect(code).toBe(2);
    expect(stderr).toContain('Cannot start: 数据库迁移被拒绝，数据库未做任何修改');
    expect(stderr).toContain('实体 order（表 orders）的字段 legacy_note 在数据库中存在但 schema 中已删除');
    expect(stderr).toMatch(/请新建文件 schemas\/migrations\/\d{3}-drop-orders-legacy-note\.sql，写入（按需修改）：\n\n {2}ALTER TABLE orders DROP COLUMN legacy_note;\n/);
    expect(stderr).not.toMatch(/\n\s+at /); // no stack trace
  }, 120_000);
});
