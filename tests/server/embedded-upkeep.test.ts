import Fastify from 'fastify';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { openDb, type Db } from '../../src/server/db.ts';
import embeddedUpkeep, { embeddedUpkeepFromEnv } from '../../src/server/http/embedded-upkeep.ts';
import { tablesDue } from '../../src/server/services/vacuum.ts';

/**
 * PGlite runs no autovacuum: the gateway vacuums its tables once it is quiet (src/server/services/vacuum.ts).
 * Checked by what the database says: dead rows gone, pages counted as vacuumed, nothing done while a request waits.
 */
let cleanup: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const c of cleanup.reverse()) await c();
  cleanup = [];
});

async function pglite(): Promise<Db> {
  const db = await openDb({ dataDir: 'memory' });
  cleanup.push(() => db.close());
  await db.query('CREATE TABLE people (id int PRIMARY KEY, name text NOT NULL)');
  await db.query(`INSERT INTO people SELECT i, '张' || i FROM generate_series(1, 2000) i`);
  return db;
}

/** The statistics of one table, once this session's pending counts are flushed (else at most once a second). */
async function stats(db: Db, table: string) {
  await db.query('SELECT pg_stat_force_next_flush()');
  await db.query('SELECT 1');
  const [s] = await db.query<{ dead: number; vacuums: number }>(
    `SELECT n_dead_tup::int AS dead, vacuum_count::int AS vacuums FROM pg_stat_user_tables WHERE relname = $1`,
    [table],
  );
  return s;
}

describe('embedded database upkeep', () => {
  it('names the tables autovacuum would vacuum: dead rows over 50 + 20 %, or every table on the first pass', async () => {
    const db = await pglite();
    await stats(db, 'people'); // the inserts counted first, so the vacuum resets them
    await db.query('VACUUM ANALYZE people');
    await db.query(`UPDATE people SET name = name || '·' WHERE id <= 300`); // 300 dead: under 50 + 400
    await stats(db, 'people');
    expect((await tablesDue(db)).find((t) => t.table === 'people')).toBeUndefined();
    expect((await tablesDue(db, true)).find((t) => t.table === 'people')).toEqual({ table: 'people', vacuum: true, analyze: false });
    await db.query(`UPDATE people SET name = name || '·' WHERE id > 1000`); // 1,300 dead
    expect((await stats(db, 'people')).dead).toBe(1300);
    expect((await tablesDue(db)).find((t) => t.table === 'people')).toEqual({ table: 'people', vacuum: true, analyze: true });
  });

  it('vacuums once the gateway is quiet, never while a request is in flight, and not again with nothing new', async () => {
    const db = await pglite();
    let release = () => {};
    const app = Fastify();
    await app.register(embeddedUpkeep, { db, idleMs: 300, checkMs: 20 });
    app.get('/held', () => new Promise((r) => (release = () => r({ ok: true }))));
    await app.listen({ port: 0, host: '127.0.0.1' });
    cleanup.push(() => app.close());
    const url = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;
    // A request held open from the start: the first pass (every table) waits for it.
    const held = fetch(`${url}/held`);
    await db.query(`UPDATE people SET name = name || '·'`);
    expect(await stats(db, 'people')).toEqual({ dead: 2000, vacuums: 0 });
    await sleep(400);
    expect(await stats(db, 'people'), 'nothing while a request waits for its answer').toEqual({ dead: 2000, vacuums: 0 });
    release();
    await held;
    await expect.poll(async () => stats(db, 'people'), { timeout: 10_000, interval: 100 }).toEqual({ dead: 0, vacuums: 1 });
    // Quiet, nothing new: no further pass.
    await sleep(500);
    expect((await stats(db, 'people')).vacuums).toBe(1);
  });

  it('does nothing on PostgreSQL, whose autovacuum does it', async () => {
    let asked = 0;
    const db = { driver: 'postgres', query: async () => (asked++, []) } as unknown as Db;
    const app = Fastify();
    await app.register(embeddedUpkeep, { db, idleMs: 0, checkMs: 10 });
    await app.ready();
    cleanup.push(() => app.close());
    await sleep(100);
    expect(asked).toBe(0);
  });
});

describe('EMBEDDED_VACUUM_SECONDS', () => {
  it('sets the quiet time; 0 turns the upkeep off; anything else is refused', () => {
    expect(embeddedUpkeepFromEnv({})).toEqual({});
    expect(embeddedUpkeepFromEnv({ EMBEDDED_VACUUM_SECONDS: '30' })).toEqual({ idleMs: 30_000 });
    expect(embeddedUpkeepFromEnv({ EMBEDDED_VACUUM_SECONDS: '0' })).toBe(false);
    expect(() => embeddedUpkeepFromEnv({ EMBEDDED_VACUUM_SECONDS: 'soon' })).toThrow(/EMBEDDED_VACUUM_SECONDS/);
  });
});
