import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolve } from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { Db } from '../../src/server/db.ts';
import { buildEntityRegistry } from '../../src/shared/entity/registry.ts';
import { loadSchemaFiles } from '../../src/schema/load-node.ts';
import { countRows, EXACT_COUNT_LIMIT, roundEstimate, staleStatsSql } from '../../src/server/entity/count.ts';
import { dayCountsOf } from '../../src/server/entity/day-counts.ts';
import { listRows } from '../../src/server/entity/query.ts';
import { pageRows } from '../../src/server/entity/page-rows.ts';
import type { SeekKey } from '../../src/server/entity/ddl.ts';
import type { QueryOptions } from '../../src/server/db.ts';
import { buildApp } from './entity-helpers.ts';
import { targets } from './money-helpers.ts';

const registry = buildEntityRegistry(loadSchemaFiles(resolve(__dirname, '../..')).files);
// PGlite always; PostgreSQL too with TEST_DATABASE_URL (in a schema of its own, so files can run in parallel).
for (const target of targets()) {
  describe(`lists at scale (${target.name}): capped counts, estimates, deep pages, index-friendly sorts`, () => {
    let db: Db;
    let app: FastifyInstance;
    const N = 10 * EXACT_COUNT_LIMIT + 500;
    const get = async (q: string, biz = 'B1') => {
      const r = await app.inject({ method: 'GET', url: `/api/orders?${q}`, headers: { 'x-test-business': biz } });
      return { status: r.statusCode, body: r.json() };
    };

    beforeAll(async () => {
      db = await target.openEmpty();
      app = await buildApp(db, registry);
      // N orders in B1 (every 10th unpaid with no payment time), 30 in B2.
      await db.query(
        `INSERT INTO orders (business_id, order_no, product_name, person_count, amount_cents, pay_status, order_status, created_at, paid_at)
         SELECT CASE WHEN g <= $1 THEN 'B1' ELSE 'B2' END, 'OD' || lpad(g::text, 10, '0'),
                CASE WHEN g % 2 = 0 THEN '雇主责任险·标准版' ELSE '团体意外险_基础版' END, 1 + g % 30, 100 * (1 + g % 997),
                CASE WHEN g % 10 = 0 THEN 'unpaid' ELSE 'paid' END, CASE WHEN g % 10 = 0 THEN 'pending_payment' ELSE 'completed' END,
                timestamptz '2025-01-01 00:00:00Z' + g * interval '1 minute',
                CASE WHEN g % 10 = 0 THEN NULL ELSE timestamptz '2025-01-01 00:00:00Z' + g * interval '1 minute' + interval '5 minutes' END
           FROM generate_series(1, $1 + 30) AS g`,
        [N],
      );
    }, 120_000);
    afterAll(async () => {
      await app?.close();
      await db?.close();
    });

    it('counts exactly while the count is small, estimates beyond, flagged estimated', async () => {
      // Without a filter, orders (defaultSort.dayCounts) take their exact total from the day counts, at any size.
      const all = await get('pageSize=20');
      expect(all.status).toBe(200);
      expect(all.body.data).toMatchObject({ current: 1, pageSize: 20, total: N });
      expect(all.body.data.estimated).toBeUndefined();
      expect(all.body.data.list).toHaveLength(20);
      expect((await get('pageSize=20&sortField=amount&sortOrder=ascend')).body.data).toMatchObject({ total: N });
      // Filtered on counted fields only (order.json `counts`: payStatus, createdAt per day): exact at any size.
      for (const [q, want] of [
        ['payStatus=paid', N * 0.9],
        ['payStatus=paid,unpaid', N],
        ['createdAt=2025-01-01,2025-12-31', N],
        ['createdAt=2025-01-02,2025-01-02', 60 * 24],
        // A contains-term on a counted field, of any length: the same LIKE over the counter's values.
        [`productName=${encodeURIComponent('雇主责任险')}`, N / 2],
        [`productName=${encodeURIComponent('雇主')}`, N / 2],
        [`productName=${encodeURIComponent('险·标')}&createdAt=2025-01-02,2025-01-02`, 60 * 12],
      ] as const) {
        const r = await get(`${q}&pageSize=10`);
        expect(r.body.data.total, q).toBe(want);
        expect(r.body.data.estimated).toBeUndefined();
      }
      // Filtered otherwise, 10,500 rows match: over the cap, so the total is the planner's estimate, rounded, never below the count.
      // Estimates of filtered lists: the filter's values (a LIKE pattern with an escaped wildcard, a text
      // array, dates) reach the planner as quoted literals.
      for (const [q, want] of [['payStatus=paid&createdAt=2025-01-01,2025-12-31', N * 0.9]] as const) {
        const r = await get(`${q}&pageSize=10`);
        expect(r.status).toBe(200);
        expect(r.body.data.estimated).toBe(true);
        expect(Math.abs(r.body.data.total - want) / want).toBeLessThan(0.15);
        expect(r.body.data.list).toHaveLength(10);
      }
      expect((await get(`productName=${encodeURIComponent("50%'_x")}`)).body.data).toMatchObject({ total: 0, list: [] });
      // Under the cap: exact, in the same statement as the page.
      const unpaid = await get('payStatus=unpaid&orderNo=OD0000000010');
      expect(unpaid.body.data).toMatchObject({ total: 1, current: 1 });
      expect(unpaid.body.data.estimated).toBeUndefined();
      const small = await get('pageSize=5', 'B2');
      expect(small.body.data).toMatchObject({ total: 30 });
      expect(small.body.data.list).toHaveLength(5);
      // countRows alone, with a lower cap: estimated above it, exact under it.
      const big = await countRows(db, 'orders', `business_id = $1`, ['B1'], 100);
      expect(big.estimated).toBe(true);
      expect(big.total).toBeGreaterThan(100);
      expect(big.total % 100).toBe(0); // 2 significant digits
      expect(await countRows(db, 'orders', `business_id = $1`, ['B2'], 100)).toEqual({ total: 30, estimated: false });
      expect(roundEstimate(998_734)).toBe(1_000_000);
      expect(roundEstimate(12_345)).toBe(12_000);
    });

    it('a page keeps the sort order and the masking of the plain query', async () => {
      const page = (await get('sortField=amount&sortOrder=descend&pageSize=50')).body.data.list as Array<{ id: number; amount: number }>;
      const want = await db.query<{ id: number }>(
        `SELECT id FROM orders WHERE business_id = 'B1' ORDER BY amount_cents DESC, id DESC LIMIT 50`,
      );
      expect(page.map((r) => r.id)).toEqual(want.map((r) => r.id));
      expect(typeof page[0].amount).toBe('number');
      expect(Object.keys(page[0])).not.toContain('__pos');
    });

    it('a counted filter reads its page by its own indexes when few rows match and by the sort walk when many do: the same rows as the plain query', async () => {
      // Unpaid is every 10th order: 144 on one day (the few-rows read), 1,050 in all (the sort walk).
      const cases = [
        ['payStatus=unpaid&createdAt=2025-01-02,2025-01-02', `pay_status = 'unpaid' AND created_at >= '2025-01-02Z' AND created_at < '2025-01-03Z'`, 144],
        ['payStatus=unpaid', `pay_status = 'unpaid'`, N / 10],
      ] as const;
      for (const [q, where, total] of cases) {
        for (const [sort, order] of [
          ['', 'created_at DESC, id DESC'],
          ['&sortField=amount&sortOrder=ascend', 'amount_cents ASC, id ASC'],
        ] as const) {
          for (const current of [1, 3, Math.ceil(total / 20) + 1]) {
            const r = await get(`${q}${sort}&current=${current}&pageSize=20`);
            const want = await db.query<{ id: number }>(
              `SELECT id FROM orders WHERE business_id = 'B1' AND ${where} ORDER BY ${order} LIMIT 20 OFFSET ${(current - 1) * 20}`,
            );
            expect(r.body.data.total, q).toBe(total);
            expect((r.body.data.list as Array<{ id: number }>).map((x) => x.id), `${q}${sort} page ${current}`).toEqual(want.map((x) => x.id));
          }
        }
      }
    });

    it('a deep page holds the same rows as a plain OFFSET query', async () => {
      const page = await get('current=400&pageSize=20');
      const want = await db.query<{ id: number }>(
        `SELECT id FROM orders WHERE business_id = 'B1' ORDER BY created_at DESC, id DESC LIMIT 20 OFFSET ${399 * 20}`,
      );
      expect(page.body.data.list.map((r: { id: number }) => r.id)).toEqual(want.map((r) => r.id));
      // The exact total of the day counts, as on page 1; a filtered deep page with rows proves there are
      // more than the cap: the estimate, uncounted.
      expect(page.body.data).toMatchObject({ total: N });
      expect(page.body.data.estimated).toBeUndefined();
      const everyRow = 'payStatus=paid,unpaid&createdAt=2025-01-01,2025-12-31';
      const filteredDeep = await get(`current=400&pageSize=20&${everyRow}`);
      expect(filteredDeep.body.data).toMatchObject({ estimated: true, total: (await get(`pageSize=20&${everyRow}`)).body.data.total });
      expect(filteredDeep.body.data.list.map((r: { id: number }) => r.id)).toEqual(want.map((r) => r.id));
      // A deep page past the end of a filter over the cap: no rows, an estimate no higher than the offset.
      const past = (await get(`productName=${encodeURIComponent('雇主')}&payStatus=unpaid&pageSize=100&current=15`)).body.data; // 1,050 rows, offset 1,400
      expect(past).toMatchObject({ list: [], estimated: true });
      expect(past.total).toBeGreaterThan(EXACT_COUNT_LIMIT);
      expect(past.total).toBeLessThanOrEqual(1400);
      const sorted = await get('current=300&pageSize=20&sortField=amount&sortOrder=ascend');
      const want2 = await db.query<{ id: number }>(
        `SELECT id FROM orders WHERE business_id = 'B1' ORDER BY amount_cents ASC, id ASC LIMIT 20 OFFSET ${299 * 20}`,
      );
      expect(sorted.body.data.list.map((r: { id: number }) => r.id)).toEqual(want2.map((r) => r.id));
      // Past the end of an exact total: an empty page, not an error.
      expect((await get('current=99&pageSize=100', 'B2')).body.data).toMatchObject({ list: [], total: 30, current: 99 });
      expect((await get('current=99&pageSize=100', 'B2')).body.data.estimated).toBeUndefined();
    });

    it('day counts: kept by every kind of write, and deep pages started from them hold the plain OFFSET rows', async () => {
      const counts = dayCountsOf(registry.get('order'))!;
      expect(counts.counts).toBe('orders_created_at_days');
      const drift = async () =>
        db.query(
          `SELECT coalesce(k.business_id, r.business_id) AS b, coalesce(k.day, r.day) AS day, k.n::int AS kept, r.n::int AS real
             FROM orders_created_at_days k
             FULL JOIN (SELECT business_id, (created_at AT TIME ZONE 'UTC')::date AS day, count(*) AS n FROM orders GROUP BY 1, 2) r
               ON r.business_id = k.business_id AND r.day = k.day
            WHERE k.n IS DISTINCT FROM r.n AND NOT (k.n = 0 AND r.n IS NULL)`,
        );
      // Filled by the migration's INSERT … SELECT above (10,530 rows over 8 days).
      expect(await drift()).toEqual([]);
      const wantIds = async (order: string, offset: number, size = 20) =>
        (await db.query<{ id: number }>(`SELECT id FROM orders WHERE business_id = 'B1' ORDER BY ${order} LIMIT ${size} OFFSET ${offset}`)).map((r) => r.id);
      const pageIds = async (q: string) => ((await get(q)).body.data.list as { id: number }[]).map((r) => r.id);
      // Rows on other days, a second business, ties on the same instant (ordered by id), then some of
      // them removed, a row moved to another day (and back at the end), a row changed on another column.
      await db.tx(async (tx) => {
        await tx.query(
          `INSERT INTO orders (business_id, order_no, product_name, person_count, amount_cents, created_at)
           SELECT CASE WHEN g % 3 = 0 THEN 'B2' ELSE 'B1' END, 'ODDAY' || lpad(g::text, 6, '0'), '日计数', 1, 100,
                  timestamptz '2025-01-03 23:59:59.5Z' + (g % 4) * interval '12 hours'
             FROM generate_series(1, 600) AS g`,
        );
      });
      await db.query(`DELETE FROM orders WHERE order_no LIKE 'ODDAY%' AND created_at >= '2025-01-04 12:00Z'`);
      await db.query(`UPDATE orders SET created_at = created_at - interval '3 days' WHERE order_no = 'OD0000000100'`);
      await db.query(`UPDATE orders SET person_count = 2 WHERE order_no = 'OD0000000101'`);
      expect(await drift()).toEqual([]);
      const total = Number((await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM orders WHERE business_id = 'B1'`))[0].n);
      expect((await get('pageSize=1')).body.data).toMatchObject({ total });
      const inB2 = Number((await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM orders WHERE business_id = 'B2'`))[0].n);
      expect(inB2).toBeGreaterThan(30);
      expect((await get('pageSize=1', 'B2')).body.data).toMatchObject({ total: inB2 });
      for (const [q, order, offset] of [
        ['current=60&pageSize=20', 'created_at DESC, id DESC', 59 * 20],
        ['current=151&pageSize=20', 'created_at DESC, id DESC', 150 * 20],
        [`current=${Math.floor(total / 20)}&pageSize=20`, 'created_at DESC, id DESC', (Math.floor(total / 20) - 1) * 20],
        ['current=77&pageSize=33&sortField=createdAt&sortOrder=ascend', 'created_at ASC, id ASC', 76 * 33],
        ['current=300&pageSize=25&sortField=createdAt&sortOrder=ascend', 'created_at ASC, id ASC', 299 * 25],
      ] as const) {
        const size = Number(new URLSearchParams(q).get('pageSize'));
        const want = await wantIds(order, offset, size);
        expect(want.length, q).toBeGreaterThan(0);
        expect(await pageIds(q), q).toEqual(want);
      }
      // Past the last row: no anchor day, no rows; exports read deep pages the same way.
      expect((await get(`current=${Math.ceil(total / 20) + 5}&pageSize=20`)).body.data.list).toEqual([]);
      const exported = await pageRows(db, registry.get('order'), 'B1', { current: '11', pageSize: '400' }, { maxPageSize: 400 });
      expect(exported.rows.map((r) => r.id)).toEqual(await wantIds('created_at DESC, id DESC', 4000, 400));
      await db.query(`DELETE FROM orders WHERE order_no LIKE 'ODDAY%'`);
      await db.query(`UPDATE orders SET created_at = created_at + interval '3 days' WHERE order_no = 'OD0000000100'`);
      expect(await drift()).toEqual([]);
    });

    it('empty values sort as the smallest: last when descending, first when ascending', async () => {
      const desc = (await get('sortField=paidAt&sortOrder=descend&pageSize=100')).body.data.list;
      expect(desc[0].paidAt).not.toBeNull();
      const asc = (await get('sortField=paidAt&sortOrder=ascend&pageSize=100')).body.data.list;
      expect(asc[0].paidAt).toBeNull();
      const tail = (await get(`sortField=paidAt&sortOrder=descend&pageSize=100&current=${Math.ceil(N / 100)}`)).body.data.list;
      expect(tail[tail.length - 1].paidAt).toBeNull();
    });

    it('contains-search uses the trigram index, or the characters index for 1-2 characters, and treats wildcards literally', async () => {
      const idx = await db.query<{ indexdef: string }>(`SELECT indexdef FROM pg_indexes WHERE schemaname = current_schema() AND indexname = 'orders_product_name_trgm'`);
      expect(idx[0]?.indexdef).toContain('gin_trgm_ops');
      const chars = await db.query<{ indexdef: string }>(`SELECT indexdef FROM pg_indexes WHERE schemaname = current_schema() AND indexname = 'orders_product_name_chars'`);
      expect(chars[0]?.indexdef).toContain('string_to_array(lower(product_name), NULL');
      // Short terms: the rows holding the term, not just its characters (标准 is in 雇主责任险·标准版 only;
      // 准标 has the same characters and matches nothing).
      const std = (await get(`productName=${encodeURIComponent('标准')}&pageSize=10`)).body.data;
      expect(std).toMatchObject({ total: N / 2 }); // 5,250 rows match, counted over the product counter's values
      expect(std.estimated).toBeUndefined();
      expect(std.list.map((o: { productName: string }) => o.productName)).toEqual(Array(10).fill('雇主责任险·标准版'));
      expect((await get(`productName=${encodeURIComponent('准标')}`)).body.data).toMatchObject({ total: 0, list: [] });
      expect((await get(`productName=${encodeURIComponent('外卖')}`)).body.data).toMatchObject({ total: 0, list: [] });
      expect((await get(`productName=${encodeURIComponent('险')}&pageSize=5`, 'B2')).body.data).toMatchObject({ total: 30 });
      expect((await get(`productName=${encodeURIComponent('_')}`, 'B2')).body.data.list.map((o: { productName: string }) => o.productName)).toEqual(
        Array(15).fill('团体意外险_基础版'),
      );
      const under = await get(`productName=${encodeURIComponent('险_基')}&pageSize=1`);
      expect(under.body.data.list[0].productName).toBe('团体意外险_基础版');
      expect((await get('productName=%25', 'B2')).body.data.total).toBe(0);
      // Latin letters match whatever their case; Chinese terms go through LIKE with the same result.
      await db.query(
        `INSERT INTO orders (business_id, order_no, product_name, person_count, amount_cents, pay_status, order_status)
         VALUES ('B2', 'ODCASE0001', 'Rider Plus 骑手险', 1, 100, 'paid', 'completed')`,
      );
      try {
        for (const term of ['rider PLUS', 'Rider', '骑手', 'plus 骑', 'rI', 'P', '骑']) {
          const r = (await get(`productName=${encodeURIComponent(term)}`, 'B2')).body.data;
          expect(r.list.map((o: { orderNo: string }) => o.orderNo), term).toEqual(['ODCASE0001']);
        }
      } finally {
        await db.query(`DELETE FROM orders WHERE order_no = 'ODCASE0001'`);
      }
    });

    it('a short term past the count cap walks the sort order for its page, a rarer one reads the characters index: the same rows as the plain query', async () => {
      // 标准: 5,250 of B1's orders (the walk, once the count passes its cap; page 60, past the cap, reads
      // every match through the characters index); 险 in B2: 30 (the index's matches).
      for (const [term, biz, like] of [['标准', 'B1', '%标准%'], ['险', 'B2', '%险%']] as const) {
        for (const [sort, order] of [
          ['', 'created_at DESC, id DESC'],
          ['&sortField=amount&sortOrder=ascend', 'amount_cents ASC, id ASC'],
        ] as const) {
          for (const current of [1, 3, 60]) {
            const r = await get(`productName=${encodeURIComponent(term)}${sort}&current=${current}&pageSize=20`, biz);
            const want = await db.query<{ id: number }>(
              `SELECT id FROM orders WHERE business_id = $1 AND product_name LIKE $2 ORDER BY ${order} LIMIT 20 OFFSET ${(current - 1) * 20}`,
              [biz, like],
            );
            expect((r.body.data.list as Array<{ id: number }>).map((x) => x.id), `${term}${sort} page ${current}`).toEqual(want.map((x) => x.id));
          }
        }
      }
    });

    it('statistics count as stale until analysed and again after a fifth of the table changed', async () => {
      const stale = async () => (await db.query<{ s: boolean }>(`SELECT (${staleStatsSql('claims')}) AS s`))[0].s;
      // claims: created empty by the migration, never analysed.
      await db.query(`ANALYZE claims`);
      expect(await stale()).toBe(false);
      // Backends hand over their statistics at most once a second, later under load: earlier tests'
      // writes (on other pool connections) may arrive after an ANALYZE, so analyse until they have.
      let before = true;
      for (let i = 0; i < 30 && before; i++) {
        await db.query(`ANALYZE orders`);
        before = (await db.query<{ s: boolean }>(`SELECT (${staleStatsSql('orders')}) AS s`))[0].s;
        if (before) await new Promise((r) => setTimeout(r, 500));
      }
      expect(before).toBe(false);
      // 3,000 changed rows of 10,530: more than a fifth since the last ANALYZE.
      // The backend hands its counters to the statistics system when it next goes idle (forced here).
      await db.tx(async (tx) => {
        await tx.query(`UPDATE orders SET person_count = person_count + 1 WHERE business_id = 'B1' AND id % 7 < 2`);
        await tx.query(`SELECT pg_stat_force_next_flush()`);
      });
      let after = false;
      for (let i = 0; i < 30 && !after; i++) {
        after = (await db.query<{ s: boolean }>(`SELECT (${staleStatsSql('orders')}) AS s`))[0].s;
        if (!after) await new Promise((r) => setTimeout(r, 100));
      }
      expect(after).toBe(true);
      await db.query(`UPDATE orders SET person_count = person_count - 1 WHERE business_id = 'B1' AND id % 7 < 2`);
      await db.query(`ANALYZE orders`);
    });

    it('unfiltered first pages are prepared statements and keep their rows once PostgreSQL plans them generically', async () => {
      const order = registry.get('order');
      const prepared: boolean[] = [];
      const spy = { query: (sql: string, params?: unknown[], opts?: QueryOptions) => (prepared.push(Boolean(opts?.prepare)), db.query(sql, params, opts)) };
      const preparedFor = async (q: Record<string, string>) => {
        prepared.length = 0;
        await listRows(spy as Db, order, 'B1', q);
        return prepared;
      };
      expect(await preparedFor({})).toEqual([true]);
      expect(await preparedFor({ pageSize: '30', sortField: 'amount', sortOrder: 'ascend' })).toEqual([true]);
      // A later page, an unusual size or a filter: planned for its values each time.
      expect(await preparedFor({ current: '2' })).toEqual([false]);
      expect(await preparedFor({ pageSize: '7' })).toEqual([false]);
      expect(await preparedFor({ payStatus: 'unpaid' })).toEqual([false]);
      // Past PostgreSQL's five custom plans, alternating a large and a small business: the rows of the plain query.
      for (let i = 0; i < 8; i++) {
        for (const biz of ['B1', 'B2']) {
          const page = await listRows(db, order, biz, { pageSize: '20', sortField: 'paidAt', sortOrder: 'descend' });
          const want = await db.query<{ id: number }>(
            `SELECT id FROM orders WHERE business_id = $1 ORDER BY paid_at DESC NULLS LAST, id DESC LIMIT 20`,
            [biz],
          );
          expect(page.list.map((r) => r.id)).toEqual(want.map((r) => r.id));
          expect(page.total).toBe(biz === 'B1' ? N : 30);
        }
      }
    });

    it("a page in id order reads the business's own rows: another business's newer rows are not walked", async () => {
      // 3,000 newer orders of B2 on top of B1's (ids above all of them), none matching B1's filter.
      await db.query(
        `INSERT INTO orders (business_id, order_no, product_name, person_count, amount_cents, pay_status, order_status)
         SELECT 'B2', 'ODTOP' || lpad(g::text, 6, '0'), '团体意外险_基础版', 1, 100, 'paid', 'completed' FROM generate_series(1, 3000) AS g`,
      );
      await db.query('ANALYZE orders');
      try {
        const order = registry.get('order');
        const statements: Array<{ sql: string; params?: unknown[] }> = [];
        const spy = { query: (sql: string, params?: unknown[], opts?: QueryOptions) => (statements.push({ sql, params }), db.query(sql, params, opts)) };
        for (const q of [{ sortField: 'id', sortOrder: 'descend' }, { sortField: 'id', sortOrder: 'descend', productName: '标准版' }]) {
          statements.length = 0;
          const page = await listRows(spy as Db, order, 'B1', { ...q, pageSize: '20' });
          const want = await db.query<{ id: number }>(
            `SELECT id FROM orders WHERE business_id = 'B1' ${q.productName ? `AND product_name LIKE '%标准版%'` : ''} ORDER BY id DESC LIMIT 20`,
          );
          expect(page.list.map((r) => r.id)).toEqual(want.map((r) => r.id));
          // What the statements read of the orders table: no scan drops thousands of rows on its way.
          for (const { sql, params } of statements) {
            const [plan] = await db.query<{ 'QUERY PLAN': unknown }>(`EXPLAIN (ANALYZE, FORMAT JSON) ${sql}`, params);
            const raw = plan['QUERY PLAN'];
            const removed = [...JSON.stringify(typeof raw === 'string' ? JSON.parse(raw) : raw).matchAll(/"Rows Removed by (?:Filter|Index Recheck)":\s*(\d+)/g)].map((m) => Number(m[1]));
            expect(Math.max(0, ...removed), `${JSON.stringify(q)}: ${sql}`).toBeLessThan(100);
          }
        }
      } finally {
        await db.query(`DELETE FROM orders WHERE order_no LIKE 'ODTOP%'`);
        await db.query('ANALYZE orders');
      }
    });

    it('pageRows walks every row of a filter slice after slice (exports): in the list order, ties and empty values included, new rows shift nothing', async () => {
      const order = registry.get('order');
      const walk = async (q: Record<string, string>, size: number, between?: () => Promise<unknown>) => {
        const ids: number[] = [];
        let after: SeekKey | undefined;
        for (;;) {
          const { rows, last } = await pageRows(db, order, 'B1', { ...q, pageSize: String(size) }, { after, maxPageSize: size });
          ids.push(...rows.map((r) => r.id as number));
          if (!last || rows.length < size) return ids;
          after = last;
          await between?.();
        }
      };
      const sql = async (where: string, by: string) =>
        (await db.query<{ id: number }>(`SELECT id FROM orders WHERE business_id = 'B1' AND ${where} ORDER BY ${by}`)).map((r) => r.id);
      expect(await walk({ payStatus: 'unpaid' }, 400)).toEqual(await sql(`pay_status = 'unpaid'`, 'created_at DESC, id DESC'));
      // A column with many equal values, and a column with empty values in both directions.
      const early = `created_at < timestamptz '2025-01-03 00:00:00Z'`;
      expect(await walk({ sortField: 'amount', sortOrder: 'ascend', createdAt: '2025-01-01,2025-01-02' }, 97)).toEqual(await sql(early, 'amount_cents ASC, id ASC'));
      expect(await walk({ sortField: 'paidAt', sortOrder: 'descend', createdAt: '2025-01-01,2025-01-02' }, 97)).toEqual(await sql(early, 'paid_at DESC NULLS LAST, id DESC'));
      expect(await walk({ sortField: 'paidAt', sortOrder: 'ascend', createdAt: '2025-01-01,2025-01-02' }, 97)).toEqual(await sql(early, 'paid_at ASC NULLS FIRST, id ASC'));
      // Orders placed while the export runs come before where it is (newest first): it holds exactly the rows it started with.
      const before = await sql(`pay_status = 'unpaid'`, 'created_at DESC, id DESC');
      let n = 0;
      const placed = () =>
        db.query(`INSERT INTO orders (business_id, order_no, product_name, person_count, amount_cents, pay_status, order_status)
                  VALUES ('B1', $1, '雇主责任险·标准版', 1, 100, 'unpaid', 'pending_payment')`, [`ODSEEK${String(++n).padStart(4, '0')}`]);
      expect(await walk({ payStatus: 'unpaid' }, 100, placed)).toEqual(before);
      expect(n).toBeGreaterThan(5);
      await db.query(`DELETE FROM orders WHERE order_no LIKE 'ODSEEK%'`);
    });
  });
}
