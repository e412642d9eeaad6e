import { afterEach, describe, expect, it } from 'vitest';
import { openDb, type Db } from '../../src/server/db.ts';
import { isUniqueViolation } from '../../src/server/domain/errors.ts';

/**
 * Statements marked `prepare` run as named prepared statements on PGlite too (src/server/pglite-prepared.ts):
 * the same rows and types as an unprepared run, the same errors, and the same order with transactions.
 */
let db: Db | undefined;
afterEach(async () => {
  await db?.close();
  db = undefined;
});

async function open(): Promise<Db> {
  db = await openDb({ dataDir: 'memory' });
  await db.query(`CREATE TABLE t (id int PRIMARY KEY, name text, day date, at timestamptz, n bigint, tags text[], doc json, ok boolean)`);
  await db.query(
    `INSERT INTO t VALUES (1, '张三', '2026-11-28', '2026-11-28T01:02:03Z', 12345678901, '{a,b}', '{"k":[1,2]}', true), (2, NULL, NULL, NULL, NULL, '{}', NULL, false)`,
  );
  return db;
}

describe('prepared statements on PGlite', () => {
  it('answers as an unprepared run, with its parameters typed, run after run (past the generic plan)', async () => {
    const d = await open();
    const sql = 'SELECT id, name, day, at, n, tags, doc, ok FROM t WHERE id = $1 OR name = $2 OR day = $3 ORDER BY id';
    const plain = await d.query(sql, [2, '张三', null]);
    expect(plain).toHaveLength(2);
    for (let i = 0; i < 8; i++) expect(await d.query(sql, [2, '张三', null], { prepare: true })).toEqual(plain);
    expect(await d.query(sql, [1, null, '2026-11-28'], { prepare: true })).toEqual(await d.query(sql, [1, null, '2026-11-28']));
    expect((await d.query<{ n: number }>('SELECT count(*)::int AS n FROM t WHERE ok = $1', [true], { prepare: true }))[0].n).toBe(1);
  });

  it('runs a `generic` statement on its generic plan from its first run, and leaves the session\'s plan mode as it was', async () => {
    const d = await open();
    const sql = 'SELECT id, name FROM t WHERE id = $1 OR name = $2 ORDER BY id';
    const plain = await d.query(sql, [1, '李四']);
    for (let i = 0; i < 3; i++) expect(await d.query(sql, [1, '李四'], { prepare: true, generic: true })).toEqual(plain);
    const [plans] = await d.query<{ generic_plans: number; custom_plans: number }>(
      `SELECT generic_plans::int, custom_plans::int FROM pg_prepared_statements WHERE statement = $1`,
      [sql],
    );
    expect(plans).toEqual({ generic_plans: 3, custom_plans: 0 });
    expect(await d.query('SHOW plan_cache_mode')).toEqual([{ plan_cache_mode: 'auto' }]);
    // …also after a run that failed.
    await expect(d.query('SELECT 1 / $1::int AS x', [0], { prepare: true, generic: true })).rejects.toThrow(/division by zero/);
    expect(await d.query('SHOW plan_cache_mode')).toEqual([{ plan_cache_mode: 'auto' }]);
  });

  it('writes, throws the database error (a unique violation is one), and keeps working after it', async () => {
    const d = await open();
    const insert = 'INSERT INTO t (id, name) VALUES ($1, $2) RETURNING id';
    expect(await d.query(insert, [3, '李四'], { prepare: true })).toEqual([{ id: 3 }]);
    const err = await d.query(insert, [3, '重复'], { prepare: true }).catch((e: unknown) => e);
    expect(isUniqueViolation(err)).toBe(true);
    await expect(d.query('SELECT nope FROM t', [], { prepare: true })).rejects.toThrow(/nope/);
    expect(await d.query(insert, [4, '王五'], { prepare: true })).toEqual([{ id: 4 }]);
    expect((await d.query<{ name: string }>('SELECT name FROM t WHERE id >= 3 ORDER BY id')).map((r) => r.name)).toEqual(['李四', '王五']);
  });

  it('waits for a transaction in progress, and sees what it committed', async () => {
    const d = await open();
    let release = () => {};
    let updated = () => {};
    const held = new Promise<void>((r) => (release = r));
    const inside = new Promise<void>((r) => (updated = r));
    const tx = d.tx(async (t) => {
      await t.query(`UPDATE t SET name = '改' WHERE id = 1`);
      updated();
      await held;
    });
    await inside;
    const read = d.query<{ name: string }>('SELECT name FROM t WHERE id = $1', [1], { prepare: true });
    let answered = false;
    void read.then(() => (answered = true));
    await new Promise((r) => setTimeout(r, 100));
    const early = answered;
    release();
    expect(early).toBe(false);
    await tx;
    expect((await read)[0].name).toBe('改');
  });
});
