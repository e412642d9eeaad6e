/**
 * Statuses derived from the dates (docs/cover-status.md) in the gateway's SQL, on PGlite and (with
 * TEST_DATABASE_URL) PostgreSQL: the list's column, its filters and their exact totals from the counter
 * tables agree with the shared rule row for row on any day; every counter table stays equal to its
 * table under inserts, upserts, updates, deletes and truncation; the migration file turns the stored
 * statuses of an older database into events.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolve } from 'node:path';
import type { Db } from '../../src/server/db.ts';
import { buildEntityRegistry } from '../../src/shared/entity/registry.ts';
import { loadSchemaFiles } from '../../src/schema/load-node.ts';
import { coverStatus, type CoverPeriodRule } from '../../src/shared/cover-status.ts';
import { ageStatus, type InsurableAgeRule } from '../../src/shared/insurable-age.ts';
import { makeIdCard } from '../id-card.ts';
import { countTablesOf } from '../../src/server/entity/counts.ts';
import { getRow, listRows } from '../../src/server/entity/query.ts';
import { countList } from '../../src/server/entity/totals.ts';
import { groupCounts } from '../../src/server/entity/count.ts';
import { migrateEntities } from '../../src/server/entity/migrate.ts';
import { addDays } from '../../src/server/domain/util.ts';
import { DOMAIN_COLUMNS } from '../../src/server/domain/ddl.ts';
import { LEGACY_DDL } from './fixtures/legacy-ddl.ts';
import { seedBusinesses } from './entity-helpers.ts';
import { targets } from './money-helpers.ts';

const ROOT = resolve(import.meta.dirname, '../..');
const registry = buildEntityRegistry(loadSchemaFiles(ROOT).files);
const record = registry.get('insure-record');
const person = registry.get('insured-person');
const DAYS = ['2026-01-01', '2026-02-28', '2026-03-01', '2026-06-30', '2026-12-31', '2027-01-01'];

/** Every counter table of every entity against a GROUP BY of its table: the rows where they differ. */
async function drift(db: Db): Promise<unknown[]> {
  const out: unknown[] = [];
  for (const e of Object.values(registry.entities)) {
    for (const t of countTablesOf(e)) {
      const keys = t.keys.map((k) => k.column);
      const real = `SELECT r.business_id, ${t.keys.map((k) => `${k.expr('r')} AS ${k.column}`).join(', ')}, count(*) AS n${t.sums.map((s) => `, sum(coalesce(r.${s.source}, 0)) AS ${s.column}`).join('')}
                      FROM ${t.table} r GROUP BY ${['business_id', ...keys].map((_, i) => i + 1).join(', ')}`;
      const cols = ['n', ...t.sums.map((s) => s.column)];
      const rows = await db.query(
        `SELECT '${t.name}' AS counts, coalesce(k.business_id, r.business_id) AS b, ${keys.map((c) => `coalesce(k.${c}, r.${c})::text AS ${c}`).join(', ')},
                ${cols.map((c) => `k.${c}::float8 AS kept_${c}, r.${c}::float8 AS real_${c}`).join(', ')}
           FROM ${t.name} k FULL JOIN (${real}) r ON r.business_id = k.business_id AND ${keys.map((c) => `r.${c} = k.${c}`).join(' AND ')}
          WHERE ${cols.map((c) => `coalesce(k.${c}, 0) <> coalesce(r.${c}, 0)`).join(' OR ')}`,
      );
      out.push(...rows);
    }
  }
  return out;
}

for (const target of targets()) {
  describe(`statuses derived from dates (${target.name})`, () => {
    let db: Db;
    beforeAll(async () => {
      db = await target.openEmpty();
      await migrateEntities(db, { entities: Object.values(registry.entities) });
      await seedBusinesses(db);
      // 240 records of B1 over 2026 (one-day, month and year periods; some awaiting payment or
      // cancelled) and 10 of B2, and a person per record of B1.
      await db.query(
        `INSERT INTO insure_records (business_id, batch_no, person_name, id_card, plan_name, premium_cents, effective_date, expiry_date, cover_event)
         SELECT CASE WHEN g <= 240 THEN 'B1' ELSE 'B2' END, 'PB1', '人员' || g, lpad(g::text, 18, '0'), '方案', 100,
                date '2026-01-01' + (g * 7) % 365, date '2026-01-01' + (g * 7) % 365 + (ARRAY[0, 30, 364])[1 + g % 3],
                CASE WHEN g % 11 = 0 THEN 'pending' WHEN g % 13 = 0 THEN 'cancelled' END
           FROM generate_series(1, 250) g`,
      );
      await db.query(
        `INSERT INTO insured_persons (business_id, name, id_card, plan_name, start_date, end_date, cover_event, auto_status)
         SELECT business_id, person_name, id_card, plan_name, effective_date, expiry_date, CASE WHEN cover_event = 'pending' THEN 'pending' END, '1'
           FROM insure_records WHERE business_id = 'B1'`,
      );
    }, 120_000);
    afterAll(async () => {
      await db?.close();
    });

    it('a list computes each row’s status on the given day, its filters select the same rows, and their totals are exact', async () => {
      const stored = await db.query<{ id: number; start: string; end: string; event: string | null }>(
        `SELECT id, to_char(effective_date, 'YYYY-MM-DD') AS start, to_char(expiry_date, 'YYYY-MM-DD') AS "end", cover_event AS event
           FROM insure_records WHERE business_id = 'B1'`,
      );
      for (const today of DAYS) {
        const want = new Map(stored.map((r) => [r.id, coverStatus(record.fields.status.derived as CoverPeriodRule, r, today)]));
        const listed = new Map<number, unknown>();
        for (let page = 1; page <= 3; page++) {
          const r = await listRows(db, record, 'B1', { current: String(page), pageSize: '100' }, { today });
          for (const row of r.list) listed.set(row.id as number, row.status);
        }
        expect(listed, today).toEqual(want);
        for (const status of record.fields.status.options!.map((o) => o.value)) {
          const ids = [...want].filter(([, s]) => s === status).map(([id]) => id).sort((a, b) => a - b);
          const r = await listRows(db, record, 'B1', { status, pageSize: '100', sortField: 'id', sortOrder: 'ascend' }, { today });
          expect({ today, status, total: r.total, estimated: r.estimated }).toEqual({ today, status, total: ids.length, estimated: undefined });
          expect(r.list.map((x) => x.id)).toEqual(ids.slice(0, 100));
          expect((await countList(db, record, 'B1', { status }, { today })).total).toBe(ids.length);
        }
        const two = await listRows(db, record, 'B1', { status: 'pending,effective' }, { today });
        expect(two.total).toBe([...want.values()].filter((s) => s === 'pending' || s === 'effective').length);
      }
      const one = stored.find((r) => !r.event)!;
      expect((await getRow(db, record, 'B1', one.id, { today: addDays(one.start, -1) }))?.status).toBe('pending');
      expect((await getRow(db, record, 'B1', one.id, { today: one.start }))?.status).toBe('effective');
      expect((await getRow(db, record, 'B1', one.id, { today: addDays(one.end, 1) }))?.status).toBe('expired');
      // Persons: 在保 / 待生效 / 已过期 on the same dates, an unpaid purchase 待生效 whatever the day.
      const p = await listRows(db, person, 'B1', { status: 'insured', pageSize: '1' }, { today: '2026-06-30' });
      const direct = await db.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM insured_persons WHERE business_id = 'B1' AND cover_event IS NULL AND start_date <= '2026-06-30' AND end_date >= '2026-06-30'`,
      );
      expect(p.total).toBe(direct[0].n);
    });

    it('every counter table stays equal to its table under every kind of write', async () => {
      expect(await drift(db)).toEqual([]);
      await db.tx(async (tx) => {
        await tx.query(`UPDATE insure_records SET cover_event = NULL WHERE business_id = 'B1' AND cover_event = 'pending' AND id % 2 = 0`);
        await tx.query(`UPDATE insure_records SET effective_date = effective_date + 40, expiry_date = expiry_date + 40 WHERE id % 5 = 0`);
        await tx.query(`UPDATE insure_records SET business_id = 'B2' WHERE id % 17 = 0`);
        await tx.query(`UPDATE insure_records SET person_name = person_name || '·' WHERE id % 3 = 0`);
      });
      expect(await drift(db)).toEqual([]);
      await db.query(`DELETE FROM insure_records WHERE id % 7 = 0`);
      // An upsert: some rows inserted, some updated (a new period for a listed person), in one statement.
      await db.query(
        `INSERT INTO insured_persons (business_id, name, id_card, plan_name, start_date, end_date, auto_status)
         SELECT 'B1', '新' || g, lpad(g::text, 18, '0'), '方案', date '2027-01-01', date '2027-12-31', '0' FROM generate_series(200, 320) g
         ON CONFLICT (business_id, id_card) DO UPDATE SET start_date = EXCLUDED.start_date, end_date = EXCLUDED.end_date, cover_event = NULL, auto_status = '2'`,
      );
      await db.query(`INSERT INTO orders (business_id, order_no, product_name, person_count, amount_cents, created_at) VALUES ('B1', 'OD1', '方案', 2, 500, now()), ('B1', 'OD2', '方案', 3, 700, now() - interval '3 days')`);
      await db.query(`UPDATE orders SET pay_status = 'paid', order_status = 'completed' WHERE order_no = 'OD1'`);
      // Counted per day and per month: an order moved to another month, one at a month's last UTC minute.
      await db.query(`UPDATE orders SET created_at = created_at - interval '40 days' WHERE order_no = 'OD2'`);
      await db.query(`INSERT INTO orders (business_id, order_no, product_name, person_count, amount_cents, created_at) VALUES ('B1', 'OD3', '方案', 1, 300, '2026-01-31 23:59:30+00')`);
      expect(await drift(db)).toEqual([]);
      const unpaid = await countList(db, registry.get('order'), 'B1', { payStatus: 'unpaid' });
      expect(unpaid).toEqual({ total: 2, estimated: false }); // OD2 and OD3
      await db.query('TRUNCATE insure_records');
      expect(await drift(db)).toEqual([]);
      expect((await countList(db, record, 'B1', { status: 'effective' }, { today: '2026-06-30' })).total).toBe(0);
    });
  });

  describe(`orders per month for the workbench's chart (${target.name})`, () => {
    it('whole months from the month counts and the last month from the days up to its day equal the rows, however the range falls', async () => {
      const db = await target.openEmpty();
      try {
        await migrateEntities(db, { entities: Object.values(registry.entities) });
        await seedBusinesses(db);
        // 400 orders of B1 over 2025-12 … 2026-07 (two plans, every few hours), and some of B2.
        await db.query(
          `INSERT INTO orders (business_id, order_no, product_name, person_count, amount_cents, created_at)
           SELECT CASE WHEN g % 9 = 0 THEN 'B2' ELSE 'B1' END, 'OD' || g, CASE WHEN g % 2 = 0 THEN '甲' ELSE '乙' END, 1 + g % 4, 100 * g,
                  timestamptz '2025-12-01 00:00+00' + g * interval '13 hours'
             FROM generate_series(1, 400) g`,
        );
        const order = registry.get('order');
        expect(countTablesOf(order).some((t) => t.keys.some((k) => k.month))).toBe(true);
        const rowsOnly = { ...order, counts: [] };
        const o = (from: string, to: string) => ({ by: ['createdAt', 'productName'], sum: ['personCount', 'amount'], days: { key: 'createdAt', from, to }, perMonth: true });
        const sorted = (rows: Array<Record<string, unknown>>) => rows.map((r) => JSON.stringify(r, Object.keys(r).sort())).sort();
        for (const [from, to] of [['2025-12-01', '2026-07-10'], ['2026-01-01', '2026-03-15'], ['2026-02-01', '2026-02-27'], ['2025-12-10', '2026-04-30'], ['2026-06-01', '2026-06-30']]) {
          const counted = await groupCounts(db, order, 'B1', o(from, to));
          expect(counted.length, `${from}…${to}`).toBeGreaterThan(0);
          expect(sorted(counted), `${from}…${to}`).toEqual(sorted(await groupCounts(db, rowsOnly, 'B1', o(from, to))));
        }
        // A range filter on a list never reads the month counts: a mid-month range is exact.
        expect(await countList(db, order, 'B1', { createdAt: '2026-02-10,2026-02-20' })).toEqual({
          total: Number((await db.query<{ n: string }>(`SELECT count(*) AS n FROM orders WHERE business_id = 'B1' AND (created_at AT TIME ZONE 'UTC')::date BETWEEN '2026-02-10' AND '2026-02-20'`))[0].n),
          estimated: false,
        });
      } finally {
        await db.close();
      }
    });
  });

  describe(`automatic insurance as it is today (${target.name})`, () => {
    it('1 and 3 follow the insurable age on the day, 0 and 2 stay; filters and totals agree', async () => {
      const db = await target.openEmpty();
      try {
        await migrateEntities(db, { entities: Object.values(registry.entities) });
        await seedBusinesses(db);
        // Birthdays around the 16th and the 66th on 2026-03-01 (and 29 February), each stored status.
        const births = ['20100228', '20100301', '20100302', '19600229', '19600301', '19600302', '19900615'];
        const people = births.flatMap((b, i) => ['0', '1', '2', '3'].map((s, j) => ({ card: makeIdCard('320506', b, i * 4 + j), s })));
        await db.query(
          `INSERT INTO insured_persons (business_id, name, id_card, plan_name, start_date, end_date, auto_status)
           SELECT 'B1', '人员' || n, c, '方案', '2026-01-01', '2026-12-31', s FROM unnest($1::text[], $2::text[]) WITH ORDINALITY AS t(c, s, n)`,
          [people.map((p) => p.card), people.map((p) => p.s)],
        );
        // The ages are the day plans' on sale (any of which automatic insurance may buy): 16–65 together.
        await db.query(
          `INSERT INTO plans (code, name, unit, price_cents, min_age, max_age, claim_limit_cents, on_sale) VALUES
             ('d1', '日单一', 'day', 300, 16, 65, 100000, true), ('d2', '日单二', 'day', 300, 18, 60, 100000, true),
             ('m1', '月单', 'month', 3000, 10, 70, 100000, true), ('d3', '停售日单', 'day', 300, 0, 120, 100000, false)`,
        );
        const ages = [{ minAge: 16, maxAge: 65 }, { minAge: 18, maxAge: 60 }];
        const rule = person.fields.autoStatus.derived as InsurableAgeRule;
        for (const today of ['2026-02-28', '2026-03-01', '2026-03-02', '2028-02-29']) {
          const listed = (await listRows(db, person, 'B1', { pageSize: '100' }, { today })).list;
          const want = new Map(people.map((p) => [p.card, ageStatus(rule, p.s, p.card, today, ages)]));
          const byCard = new Map<string, unknown>();
          for (const r of (await db.query<{ id: number; id_card: string }>(`SELECT id, id_card FROM insured_persons`))) byCard.set(String(r.id), r.id_card);
          expect(new Map(listed.map((r) => [byCard.get(String(r.id)), r.autoStatus])), today).toEqual(want);
          for (const v of ['0', '1', '2', '3']) {
            const n = [...want.values()].filter((x) => x === v).length;
            expect((await listRows(db, person, 'B1', { autoStatus: v }, { today })).total, `${today} ${v}`).toBe(n);
            expect((await countList(db, person, 'B1', { autoStatus: v }, { today })).total).toBe(n);
          }
        }
      } finally {
        await db.close();
      }
    });
  });

  describe(`the migration file of derived statuses (${target.name})`, () => {
    it('turns stored statuses into events: unpaid cover stays 待生效, a cancellation stays, the rest follows the dates', async () => {
      const db = await target.openEmpty();
      try {
        for (const sql of LEGACY_DDL) await db.query(sql);
        await seedBusinesses(db);
        await db.query(`ALTER TABLE orders ADD COLUMN batch_id INTEGER`);
        await db.query(
          `INSERT INTO insure_batches (id, business_id, batch_no, source, file_name, total, succeeded, failed, status)
           VALUES (7, 'B1', 'PB7', 'roster', 'a.xlsx', 1, 1, 0, 'done'), (8, 'B1', 'PB8', 'roster', 'b.xlsx', 3, 3, 0, 'done')`,
        );
        await db.query(
          `INSERT INTO orders (business_id, order_no, product_name, person_count, amount_cents, pay_status, order_status, batch_id)
           VALUES ('B1', 'OD1', '方案', 1, 100, 'unpaid', 'pending_payment', 7), ('B1', 'OD2', '方案', 1, 100, 'paid', 'completed', 8)`,
        );
        const rec = (id: string, status: string, batch: number, start: string) =>
          db.query(
            `INSERT INTO insure_records (business_id, batch_no, person_name, id_card, plan_name, premium_cents, status, effective_date, expiry_date, batch_id)
             VALUES ('B1', 'PB', '人员', $1, '方案', 100, $2, $3::date, $3::date + 364, $4)`,
            [id, status, start, batch],
          );
        await rec('A', 'pending', 7, '2030-01-01'); // awaiting payment: an event
        await rec('B', 'pending', 8, '2020-01-01'); // "pending" although paid and begun: the dates decide
        await rec('C', 'cancelled', 8, '2020-01-01');
        await rec('D', 'effective', 8, '2020-01-01'); // long expired
        await db.query(
          `INSERT INTO insured_persons (business_id, name, id_card, plan_name, status, start_date, end_date)
           VALUES ('B1', '甲', 'A', '方案', 'pending', '2030-01-01', '2030-12-31'), ('B1', '乙', 'B', '方案', 'pending', '2020-01-01', '2020-12-31')`,
        );
        const report = await migrateEntities(db, {
          entities: Object.values(registry.entities),
          migrationsDir: resolve(ROOT, 'schemas/migrations'),
          codeColumns: DOMAIN_COLUMNS,
        });
        expect(report.migrationsApplied).toContain('001-cover-status-from-dates.sql');
        const events = await db.query<{ id_card: string; cover_event: string | null }>(`SELECT id_card, cover_event FROM insure_records ORDER BY id_card`);
        expect(events).toEqual([
          { id_card: 'A', cover_event: 'pending' },
          { id_card: 'B', cover_event: null },
          { id_card: 'C', cover_event: 'cancelled' },
          { id_card: 'D', cover_event: null },
        ]);
        const today = '2026-11-24';
        const statuses = (await listRows(db, record, 'B1', { sortField: 'id', sortOrder: 'ascend' }, { today })).list.map((r) => r.status);
        expect(statuses).toEqual(['pending', 'expired', 'cancelled', 'expired']);
        const persons = (await listRows(db, person, 'B1', { sortField: 'id', sortOrder: 'ascend' }, { today })).list.map((r) => [r.name, r.status]);
        expect(persons).toEqual([
          ['甲', 'pending'],
          ['乙', 'ended'],
        ]);
        const cols = await db.query(`SELECT table_name FROM information_schema.columns WHERE table_schema = current_schema() AND column_name = 'status' AND table_name IN ('insure_records', 'insured_persons')`);
        expect(cols).toEqual([]);
        expect(await drift(db)).toEqual([]);
      } finally {
        await db.close();
      }
    });
  });
}
