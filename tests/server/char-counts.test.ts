import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolve } from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { Db } from '../../src/server/db.ts';
import { buildEntityRegistry } from '../../src/shared/entity/registry.ts';
import { loadSchemaFiles } from '../../src/schema/load-node.ts';
import { EXACT_COUNT_LIMIT } from '../../src/server/entity/count.ts';
import { charCountTableOf } from '../../src/server/entity/counts.ts';
import { countList } from '../../src/server/entity/totals.ts';
import { buildApp } from './entity-helpers.ts';
import { targets } from './money-helpers.ts';

const registry = buildEntityRegistry(loadSchemaFiles(resolve(__dirname, '../..')).files);

// The counter table of a contains field's characters (counts.ts charCountTableOf): a one-character term's
// total is exact at any size, kept by every kind of write, and its page holds the plain query's rows.
for (const target of targets()) {
  describe(`one-character searches counted exactly (${target.name})`, () => {
    let db: Db;
    let app: FastifyInstance;
    const MANY = EXACT_COUNT_LIMIT + 200;
    const table = charCountTableOf(registry.get('insured-person'), 'name')!;
    const get = async (q: string, biz = 'B1') => {
      const r = await app.inject({ method: 'GET', url: `/api/insured-persons?${q}`, headers: { 'x-test-business': biz } });
      expect(r.statusCode, r.body).toBe(200);
      return r.json().data as { total: number; estimated?: boolean; list: Array<{ id: number; name: string }> };
    };
    // The counts as the rows say they should be: per business and character, the rows holding it.
    const recount = () =>
      db.query<{ business_id: string; ch: string; n: number }>(
        `SELECT business_id, ch, count(*)::int AS n
           FROM insured_persons, LATERAL (SELECT DISTINCT unnest(string_to_array(lower(name), NULL)) AS ch) c
          GROUP BY 1, 2 ORDER BY 1, 2`,
      );
    const stored = () => db.query<{ business_id: string; ch: string; n: number }>(`SELECT business_id, name_char AS ch, n::int AS n FROM ${table.name} WHERE n <> 0 ORDER BY 1, 2`);
    const insert = (biz: string, from: number, count: number, name: string) =>
      db.query(
        `INSERT INTO insured_persons (business_id, name, id_card, phone, plan_name, start_date, end_date)
         SELECT $1, $4 || g::text, '110108199001' || lpad(g::text, 6, '0'), '13800000000', '日保', date '2026-01-01', date '2026-12-31'
           FROM generate_series($2::int, $2::int + $3::int - 1) AS g`,
        [biz, from, count, name],
      );

    beforeAll(async () => {
      db = await target.openEmpty();
      app = await buildApp(db, registry);
      // B1: MANY persons named 郑郑…, 300 named 王Ab…; B2: 5 named 郑….
      await insert('B1', 1, MANY, '郑郑');
      await insert('B1', 10_000, 300, '王Ab');
      await insert('B2', 20_000, 5, '郑');
    }, 120_000);
    afterAll(async () => {
      await app?.close();
      await db?.close();
    });

    it('a one-character term has its exact total past the count cap, a row counted once however often it holds the character', async () => {
      // Two characters are counted to the cap, then estimated; under it exactly.
      expect(await get(`name=${encodeURIComponent('郑郑')}`)).toMatchObject({ estimated: true });
      expect((await get(`name=${encodeURIComponent('王a')}`)).total).toBe(300);
      expect(table.name).toBe('insured_persons_n_name_char');
      const zheng = await get(`name=${encodeURIComponent('郑')}&pageSize=20`);
      expect(zheng.total).toBe(MANY);
      expect(zheng.estimated).toBeUndefined();
      expect((await get(`name=${encodeURIComponent('郑')}`, 'B2')).total).toBe(5);
      // Letters are counted lower-cased, as ILIKE matches them.
      expect((await get('name=a')).total).toBe(300);
      expect((await get('name=B')).total).toBe(300);
      expect((await get(`name=${encodeURIComponent('龘')}`)).total).toBe(0);
      expect(await stored()).toEqual(await recount());
      // The total alone (an export's row count) reads the counter with only the parameters it uses.
      expect(await countList(db, registry.get('insured-person'), 'B1', { name: '郑' })).toEqual({ total: MANY, estimated: false });
    });

    it('its page is the plain query’s: walked in the sort order when many rows match, read from the characters index when few do', async () => {
      // Two characters have no counter: the statement counts them (郑郑: past the cap, 王A: 300, with ILIKE).
      for (const [term, biz] of [['郑', 'B1'], ['王', 'B1'], ['郑', 'B2'], ['郑郑', 'B1'], ['王A', 'B1'], ['bA', 'B1']] as const) {
        for (const [sort, order] of [
          ['', 'id DESC'],
          ['&sortField=createdAt&sortOrder=ascend', 'created_at ASC, id ASC'],
        ] as const) {
          for (const current of [1, 2, 60]) {
            const page = await get(`name=${encodeURIComponent(term)}${sort}&current=${current}&pageSize=20`, biz);
            const want = await db.query<{ id: number }>(
              `SELECT id FROM insured_persons WHERE business_id = $1 AND name ILIKE $2 ORDER BY ${order} LIMIT 20 OFFSET ${(current - 1) * 20}`,
              [biz, `%${term}%`],
            );
            expect(page.list.map((r) => r.id), `${term} ${biz}${sort} page ${current}`).toEqual(want.map((r) => r.id));
          }
        }
      }
    });

    it.runIf(target.name === 'postgres')('concurrent writers of the same characters keep the counts exact (no deadlock, no lost update)', async () => {
      // Eight transactions at once, each inserting and renaming persons whose names share characters in different orders.
      await Promise.all(
        Array.from({ length: 8 }, (_, w) =>
          db.tx(async (t) => {
            await t.query(
              `INSERT INTO insured_persons (business_id, name, id_card, phone, plan_name, start_date, end_date)
               SELECT 'B2', CASE WHEN g % 2 = 0 THEN '甲乙丙' ELSE '丙乙甲' END || g, '220108199001' || lpad(g::text, 6, '0'), '13800000000', '日保', date '2026-01-01', date '2026-12-31'
                 FROM generate_series($1::int, $1::int + 49) AS g`,
              [30_000 + w * 100],
            );
            await t.query(`UPDATE insured_persons SET name = '乙丁' || id WHERE business_id = 'B2' AND id_card LIKE '220108%' AND id % 8 = $1`, [w]);
          }),
        ),
      );
      expect(await stored()).toEqual(await recount());
      expect((await get(`name=${encodeURIComponent('乙')}`, 'B2')).total).toBe(400);
    });

    it('inserts, renames, deletes and truncation keep the counts exact, in the same transaction', async () => {
      await db.query(`UPDATE insured_persons SET name = '王五' || id WHERE business_id = 'B1' AND id % 10 = 0 AND name LIKE '郑%'`);
      await db.query(`DELETE FROM insured_persons WHERE business_id = 'B1' AND id % 10 = 1 AND name LIKE '郑%'`);
      await db.query(`UPDATE insured_persons SET phone = '13900000000' WHERE business_id = 'B2'`);
      // A failed transaction leaves the counts as they were.
      await expect(
        db.tx(async (t) => {
          await t.query(`DELETE FROM insured_persons WHERE business_id = 'B2'`);
          throw new Error('rolled back');
        }),
      ).rejects.toThrow('rolled back');
      expect(await stored()).toEqual(await recount());
      const [{ n }] = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM insured_persons WHERE business_id = 'B1' AND name LIKE '%郑%'`);
      expect(n).toBeLessThan(MANY);
      expect((await get(`name=${encodeURIComponent('郑')}`)).total).toBe(n);
      expect((await get(`name=${encodeURIComponent('五')}`)).total).toBe(MANY / 10);
      await db.query('TRUNCATE insured_persons CASCADE');
      expect(await stored()).toEqual([]);
      expect((await get(`name=${encodeURIComponent('郑')}`)).total).toBe(0);
    });
  });
}
