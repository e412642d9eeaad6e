import { afterEach, describe, expect, it } from 'vitest';
import { resolve } from 'node:path';
import type { Db } from '../../src/server/db.ts';
import { loadSchemaFiles } from '../../src/schema/load-node.ts';
import { buildEntityRegistry } from '../../src/shared/entity/registry.ts';
import type { EntitySchema } from '../../src/shared/entity/types.ts';
import { indexesFor, isBusinessScoped, tableOf } from '../../src/server/entity/ddl.ts';
import { migrateEntities, MigrationFileFailed, MigrationRefused } from '../../src/server/entity/migrate.ts';
import { createDayCountsSql, dayCountsOf } from '../../src/server/entity/day-counts.ts';
import { LEGACY_DDL as LEGACY_MIGRATIONS } from './fixtures/legacy-ddl.ts';
import { openTestDb } from './entity-helpers.ts';

const files = loadSchemaFiles(resolve(__dirname, '../..')).files;
const entities = (): EntitySchema[] => structuredClone(Object.values(buildEntityRegistry(files).entities));
const stored = (list: EntitySchema[]) => list.filter((e) => e.storage !== false);
const patch = (list: EntitySchema[], name: string, fn: (e: EntitySchema) => void) => {
  fn(list.find((e) => e.name === name)!);
  return list;
};

async function columns(db: Db, table: string): Promise<Record<string, string>> {
  const rows = await db.query<{ column_name: string; data_type: string }>(
    `SELECT column_name, data_type FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = $1`,
    [table],
  );
  return Object.fromEntries(rows.map((r) => [r.column_name, r.data_type]));
}

async function indexNames(db: Db): Promise<Set<string>> {
  const rows = await db.query<{ indexname: string }>(`SELECT indexname FROM pg_indexes WHERE schemaname = current_schema()`);
  return new Set(rows.map((r) => r.indexname));
}

const targets: Array<[string, string | undefined]> = [['PGlite', undefined]];
if (process.env.TEST_DATABASE_URL) targets.push(['PostgreSQL', process.env.TEST_DATABASE_URL]);

describe.each(targets)('entity migrate on %s', (_name, url) => {
  let db: Db | undefined;
  afterEach(async () => {
    await db?.close();
    db = undefined;
  });

  it('creates every table and index on a fresh database, and is idempotent', async () => {
    db = await openTestDb(url);
    const list = entities();
    const first = await migrateEntities(db, { entities: list });
    expect(first.statements.length).toBeGreaterThan(10);
    const idx = await indexNames(db);
    for (const e of stored(list)) {
      const cols = await columns(db, tableOf(e));
      // A platform entity's rows (plans) belong to no business.
      expect(Object.keys(cols), e.name).toEqual(expect.arrayContaining(isBusinessScoped(e) ? ['id', 'business_id'] : ['id']));
      expect(Object.keys(cols).includes('business_id'), e.name).toBe(isBusinessScoped(e));
      for (const i of indexesFor(e, { trigram: 'public' })) expect(idx.has(i.name), i.name).toBe(true);
    }
    expect((await columns(db, 'orders')).amount_cents).toBe('bigint');
    expect((await columns(db, 'invoices')).order_nos).toBe('ARRAY');
    expect((await columns(db, 'claims')).accident_date).toBe('date');
    expect(idx.has('orders_order_no_key')).toBe(true); // serial numbers: unique across businesses
    expect(idx.has('insured_persons_id_card_uniq')).toBe(true); // other unique fields: per business
    expect(idx.has('orders_amount_cents_sort_idx')).toBe(true);
    expect(idx.has('insured_persons_name_trgm')).toBe(true); // contains-search: trigram GIN (3+ characters)
    expect(idx.has('insured_persons_name_chars')).toBe(true); // and the characters' GIN (shorter terms)
    expect(idx.has('orders_paid_at_desc_idx')).toBe(true); // nullable sort column: DESC NULLS LAST
    expect((await migrateEntities(db, { entities: list })).statements).toEqual([]);
    // A cover status's event column: indexed over the rows that have an event only; the full index of
    // an older database is replaced.
    const eventIdx = `SELECT indexdef FROM pg_indexes WHERE schemaname = current_schema() AND indexname = 'insured_persons_cover_event_set_idx'`;
    expect((await db.query<{ indexdef: string }>(eventIdx))[0].indexdef).toMatch(/\(business_id, cover_event\) WHERE \(cover_event IS NOT NULL\)$/);
    await db.query('DROP INDEX insured_persons_cover_event_set_idx');
    await db.query('CREATE INDEX insured_persons_cover_event_idx ON insured_persons (business_id, cover_event)');
    expect((await migrateEntities(db, { entities: list })).statements).toEqual([
      'CREATE INDEX IF NOT EXISTS insured_persons_cover_event_set_idx ON insured_persons (business_id, cover_event) WHERE cover_event IS NOT NULL',
      'DROP INDEX IF EXISTS insured_persons_cover_event_idx',
    ]);
  });

  it('upgrades a database created by the hand-written gateway DDL without refusing anything', async () => {
    db = await openTestDb(url);
    for (const sql of LEGACY_MIGRATIONS) await db.query(sql);
    // The repository's migration files turn the stored statuses into events (derived statuses, docs/cover-status.md).
    const report = await migrateEntities(db, { entities: entities(), migrationsDir: resolve(__dirname, '../../schemas/migrations') });
    expect(report.migrationsApplied).toContain('001-cover-status-from-dates.sql');
    expect(report.statements.some((s) => s.startsWith('CREATE TABLE IF NOT EXISTS insure_batch_rows'))).toBe(true);
    // Only the fields added to the entities after the hand-written DDL: new nullable columns, nothing else.
    expect(report.statements.filter((s) => s.startsWith('ALTER TABLE'))).toEqual([
      "ALTER TABLE claims ADD COLUMN attachment_ids TEXT[] NOT NULL DEFAULT '{}'",
      "ALTER TABLE insured_persons ADD COLUMN auto_status TEXT CHECK (auto_status IN ('0', '1', '2', '3'))",
      'ALTER TABLE insured_persons ADD COLUMN auto_reason TEXT',
      'ALTER TABLE orders ADD COLUMN invoiced BOOLEAN NOT NULL DEFAULT false',
    ]);
  });

  it('adds a new field as a column with its index on the next migrate', async () => {
    db = await openTestDb(url);
    await migrateEntities(db, { entities: entities() });
    const next = patch(entities(), 'insured-person', (e) => {
      e.fields.employeeNo = { type: 'string', label: '工号', maxLength: 20, search: 'contains' };
      e.fields.level = { type: 'enum', label: '等级', default: 'A', options: [{ value: 'A', label: 'A' }] };
    });
    const report = await migrateEntities(db, { entities: next });
    expect(report.statements).toContain('ALTER TABLE insured_persons ADD COLUMN employee_no TEXT');
    expect(report.statements).toContain(`ALTER TABLE insured_persons ADD COLUMN level TEXT NOT NULL DEFAULT 'A' CHECK (level IN ('A'))`);
    expect((await columns(db, 'insured_persons')).employee_no).toBe('text');
    expect((await indexNames(db)).has('insured_persons_employee_no_trgm')).toBe(true);
    expect((await indexNames(db)).has('insured_persons_employee_no_chars')).toBe(true);
  });

  it("bounds every contains-search GIN index's pending list, and merges the list of an index created without the bound", async () => {
    db = await openTestDb(url);
    await migrateEntities(db, { entities: entities() });
    const options = async () =>
      Object.fromEntries(
        (
          await db!.query<{ name: string; options: string[] | null }>(
            `SELECT c.relname AS name, c.reloptions AS options FROM pg_class c JOIN pg_am a ON a.oid = c.relam
              WHERE a.amname = 'gin' AND c.relnamespace = current_schema()::regnamespace`,
          )
        ).map((r) => [r.name, r.options ?? []]),
      );
    const created = await options();
    expect(Object.keys(created)).toEqual(expect.arrayContaining(['insured_persons_name_chars', 'insured_persons_name_trgm', 'orders_product_name_chars']));
    for (const [name, opts] of Object.entries(created)) expect(opts, name).toEqual(['gin_pending_list_limit=256']);
    // An index as an earlier release created it (no bound), with keys waiting in its pending list.
    await db.query('ALTER INDEX insured_persons_name_chars RESET (gin_pending_list_limit)');
    await db.query(`INSERT INTO businesses (id, name, charge_form) VALUES ('B1', '一号企业', 'prepaid')`);
    await db.query(
      `INSERT INTO insured_persons (business_id, name, id_card, start_date, end_date)
       SELECT 'B1', '张' || i, '11010119900101' || lpad(i::text, 4, '0'), '2026-01-01', '2026-12-31' FROM generate_series(1, 200) i`,
    );
    const pending = async () => (await db!.query<{ n: number }>(`SELECT gin_clean_pending_list('insured_persons_name_chars'::regclass)::int AS n`))[0].n;
    const report = await migrateEntities(db, { entities: entities() });
    expect(report.statements).toEqual([
      'ALTER INDEX insured_persons_name_chars SET (gin_pending_list_limit=256)',
      `SELECT gin_clean_pending_list('insured_persons_name_chars'::regclass)`,
    ]);
    expect((await options()).insured_persons_name_chars).toEqual(['gin_pending_list_limit=256']);
    expect(await pending()).toBe(0); // merged by the migration: nothing left for the check to merge
    expect((await migrateEntities(db, { entities: entities() })).statements).toEqual([]);
  });

  it('drops an index the schemas no longer derive, and keeps the ones code or a migration file created', async () => {
    db = await openTestDb(url);
    await migrateEntities(db, { entities: entities() });
    await db.query('CREATE INDEX IF NOT EXISTS insure_records_cover_idx ON insure_records (business_id, id_card, effective_date)');
    await db.query('CREATE INDEX IF NOT EXISTS insure_records_id_card_idx ON insure_records (id_card)');
    const migrations = [{ id: '001-job-type-index.sql', sql: 'CREATE INDEX IF NOT EXISTS insured_persons_job_type_idx ON insured_persons (job_type);\n' }];
    const exact = patch(entities(), 'insure-record', (e) => {
      e.fields.personName = { ...e.fields.personName, search: 'exact' };
      e.fields.premium = { ...e.fields.premium, sort: false };
    });
    const report = await migrateEntities(db, { entities: exact, codeIndexes: ['insure_records_id_card_idx'], migrations });
    expect(report.statements.filter((s) => s.startsWith('DROP INDEX')).sort()).toEqual([
      'DROP INDEX IF EXISTS insure_records_person_name_chars',
      'DROP INDEX IF EXISTS insure_records_person_name_trgm',
      'DROP INDEX IF EXISTS insure_records_premium_cents_sort_idx',
    ]);
    const idx = await indexNames(db);
    expect(idx.has('insure_records_person_name_trgm')).toBe(false);
    expect(idx.has('insure_records_person_name_chars')).toBe(false);
    expect(idx.has('insure_records_person_name_idx')).toBe(true); // the exact search's btree
    for (const kept of ['insure_records_cover_idx', 'insure_records_id_card_idx', 'insured_persons_job_type_idx', 'insure_records_pkey']) {
      expect(idx.has(kept), kept).toBe(true);
    }
    expect((await migrateEntities(db, { entities: exact, codeIndexes: ['insure_records_id_card_idx'], migrations })).statements).toEqual([]);
  });

  it('day counts: filled from the rows already there when an entity asks for them, dropped with their triggers when not', async () => {
    db = await openTestDb(url);
    const without = patch(entities(), 'order', (e) => delete e.defaultSort!.dayCounts);
    await migrateEntities(db, { entities: without });
    await db.query(`INSERT INTO businesses (id, name, charge_form) VALUES ('B1', '一号企业', 'prepaid')`);
    const insert = (no: string, at: string) =>
      db!.query(`INSERT INTO orders (business_id, order_no, product_name, person_count, amount_cents, created_at) VALUES ('B1', $1, '产品', 1, 100, $2)`, [no, at]);
    await insert('OD1', '2025-03-01T23:30:00Z');
    await insert('OD2', '2025-03-01T08:00:00Z');
    await insert('OD3', '2025-03-02T00:30:00Z');
    const kept = () => db!.query<{ day: string; n: number }>(`SELECT to_char(day, 'YYYY-MM-DD') AS day, n::int AS n FROM orders_created_at_days ORDER BY day`);
    const report = await migrateEntities(db, { entities: entities() });
    expect(report.statements.some((s) => s.startsWith('CREATE TABLE IF NOT EXISTS orders_created_at_days'))).toBe(true);
    expect(await kept()).toEqual([{ day: '2025-03-01', n: 2 }, { day: '2025-03-02', n: 1 }]);
    await insert('OD4', '2025-03-02T10:00:00Z'); // counted by the trigger from now on
    expect(await kept()).toEqual([{ day: '2025-03-01', n: 2 }, { day: '2025-03-02', n: 2 }]);
    expect((await migrateEntities(db, { entities: entities() })).statements).toEqual([]);
    // A second gateway that planned the same change before the first committed: nothing counted twice.
    await db.tx(async (tx) => {
      for (const s of createDayCountsSql(dayCountsOf(entities().find((e) => e.name === 'order')!)!)) await tx.query(s);
    });
    expect(await kept()).toEqual([{ day: '2025-03-01', n: 2 }, { day: '2025-03-02', n: 2 }]);
    // The counted table dropped and created again outside the migration (its triggers went with it):
    // the next migration rebuilds the counts from the rows there are now.
    await db.query('DROP TABLE orders CASCADE');
    await migrateEntities(db, { entities: entities() });
    expect(await kept()).toEqual([]);
    await insert('OD1', '2025-03-05T10:00:00Z');
    expect(await kept()).toEqual([{ day: '2025-03-05', n: 1 }]);

    const dropped = await migrateEntities(db, { entities: without });
    expect(dropped.statements).toContain('DROP TABLE IF EXISTS orders_created_at_days');
    const left = await db.query(
      `SELECT tgname FROM pg_trigger WHERE tgrelid = 'orders'::regclass AND tgname LIKE 'orders_created_at_days%'
        UNION ALL SELECT proname FROM pg_proc WHERE pronamespace = current_schema()::regnamespace AND proname LIKE 'orders_created_at_days%'
        UNION ALL SELECT relname FROM pg_class WHERE relname = 'orders_created_at_days' AND relnamespace = current_schema()::regnamespace`,
    );
    expect(left).toEqual([]);
    await insert('OD5', '2025-03-03T10:00:00Z'); // writes no longer touch counts
    expect((await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM orders`))[0].n).toBe(2);
  });

  it('refuses a removed field or a type change with a clear message and applies nothing', async () => {
    db = await openTestDb(url);
    await migrateEntities(db, { entities: entities() });
    const removed = patch(entities(), 'order', (e) => {
      delete e.fields.productName;
    });
    patch(removed, 'insured-person', (e) => {
      e.fields.employeeNo = { type: 'string', label: '工号', search: 'contains' };
    });
    const err = await migrateEntities(db, { entities: removed }).catch((x: unknown) => x);
    expect(err).toBeInstanceOf(MigrationRefused);
    expect((err as MigrationRefused).problems).toEqual(['实体 order（表 orders）的字段 product_name 在数据库中存在但 schema 中已删除']);
    // the exact file to write (the first number, none exist yet) and the SQL to put in it
    expect((err as MigrationRefused).migration).toEqual({ file: 'schemas/migrations/001-drop-orders-product-name.sql', sql: ['ALTER TABLE orders DROP COLUMN product_name;'] });
    const message = (err as MigrationRefused).message;
    expect(message).toContain('请新建文件 schemas/migrations/001-drop-orders-product-name.sql，写入（按需修改）：\n\n  ALTER TABLE orders DROP COLUMN product_name;');
    expect(message).toContain('schemas/migrations/README.md');
    expect((await columns(db, 'insured_persons')).employee_no).toBeUndefined();

    const retyped = patch(entities(), 'claim', (e) => {
      e.fields.amount = { ...e.fields.amount, type: 'string' };
    });
    const migrations = [{ id: '007-earlier.sql', sql: 'SELECT 1;' }];
    const err2 = (await migrateEntities(db, { entities: retyped, migrations }).catch((x: unknown) => x)) as MigrationRefused;
    expect(err2.message).toContain('实体 claim（表 claims）的字段 amount 类型由 bigint 变为 text');
    expect(err2.migration).toEqual({
      file: 'schemas/migrations/008-retype-claims-amount-cents.sql',
      sql: ['ALTER TABLE claims ALTER COLUMN amount_cents TYPE TEXT USING amount_cents::text;'],
    });
  });

  it('a removed column and a new field of the same type are offered as a rename that keeps the data', async () => {
    db = await openTestDb(url);
    const before = patch(entities(), 'insured-person', (e) => {
      e.fields.employeeNo = { type: 'string', label: '工号', maxLength: 20 };
    });
    await migrateEntities(db, { entities: before });
    const renamed = patch(entities(), 'insured-person', (e) => {
      e.fields.staffNo = { type: 'string', label: '员工编号', maxLength: 20 };
    });
    const err = (await migrateEntities(db, { entities: renamed }).catch((x: unknown) => x)) as MigrationRefused;
    expect(err.problems).toEqual(['实体 insured-person（表 insured_persons）的字段 employee_no 在数据库中存在但 schema 中已删除；新字段 staffNo（列 staff_no）类型相同，可能是改名']);
    expect(err.migration.file).toBe('schemas/migrations/001-rename-insured-persons-employee-no-to-staff-no.sql');
    expect(err.message).toContain('改名（保留数据）：ALTER TABLE insured_persons RENAME COLUMN employee_no TO staff_no;');
    expect(err.message).toContain('删除（数据将丢失）：ALTER TABLE insured_persons DROP COLUMN employee_no;');
    expect((await columns(db, 'insured_persons')).staff_no).toBeUndefined(); // nothing applied
    // the suggested file, written as suggested, keeps the data and the new field is then in place
    await db.query(`INSERT INTO businesses (id, name, charge_form) VALUES ('B1', '一号企业', 'prepaid')`);
    await db.query(`INSERT INTO insured_persons (business_id, name, id_card, employee_no, start_date, end_date) VALUES ('B1', '张三', '110101199003077777', 'E-1', '2026-01-01', '2026-12-31')`);
    const migrations = [{ id: '001-rename-insured-persons-employee-no-to-staff-no.sql', sql: err.migration.sql.join('\n') + '\n' }];
    const r = await migrateEntities(db, { entities: renamed, migrations });
    expect(r.migrationsApplied).toEqual(['001-rename-insured-persons-employee-no-to-staff-no.sql']);
    const cols = await columns(db, 'insured_persons');
    expect(cols.staff_no).toBe('text');
    expect(cols.employee_no).toBeUndefined();
    expect(await db.query('SELECT name, staff_no FROM insured_persons')).toEqual([{ name: '张三', staff_no: 'E-1' }]);
  });

  it('a migration file handles the destructive change and is applied once', async () => {
    db = await openTestDb(url);
    await migrateEntities(db, { entities: entities() });
    const removed = patch(entities(), 'order', (e) => {
      delete e.fields.productName;
    });
    const migrations = [{ id: '001-drop-order-product-name.sql', sql: '-- product name moves to the order items\nALTER TABLE orders DROP COLUMN product_name;\n' }];
    const r1 = await migrateEntities(db, { entities: removed, migrations });
    expect(r1.migrationsApplied).toEqual(['001-drop-order-product-name.sql']);
    expect((await columns(db, 'orders')).product_name).toBeUndefined();
    const r2 = await migrateEntities(db, { entities: removed, migrations });
    expect(r2.migrationsApplied).toEqual([]);
    expect(await db.query('SELECT id FROM schema_migrations')).toEqual([{ id: '001-drop-order-product-name.sql' }]);
    // a failing file rolls back, is not recorded, and says which file failed
    const bad = [{ id: '002-bad.sql', sql: 'ALTER TABLE orders ADD COLUMN note TEXT;\nALTER TABLE nope ADD COLUMN x TEXT;\n' }];
    const err = await migrateEntities(db, { entities: removed, migrations: [...migrations, ...bad] }).catch((x: unknown) => x);
    expect(err).toBeInstanceOf(MigrationFileFailed);
    expect((err as Error).message).toMatch(/^迁移文件 002-bad\.sql 执行失败，已回滚：/);
    expect((await columns(db, 'orders')).note).toBeUndefined();
    expect(await db.query('SELECT id FROM schema_migrations')).toEqual([{ id: '001-drop-order-product-name.sql' }]);
  });
});
