/**
 * The schema studio's API (issue 24), on a copy of schemas/: a preview shows the file diff and exactly
 * what the database will undergo; a save writes the file a person would write; a rename is offered as
 * a migration that keeps the data, and the values survive it. A production gateway has no studio.
 */
import { cpSync, existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPglite, type Db } from '../../src/server/db.ts';
import { startServer, type RunningServer } from '../../src/server/server.ts';
import { BIZ_ADMIN, DEMO, toRes } from './helpers.ts';

const REPO = resolve(import.meta.dirname, '../..');
const EMPLOYEE_NO = { type: 'string', label: '工号', maxLength: 20, search: 'contains' };
const PERSON = 'schemas/entities/insured-person.json';

describe('schema studio API (development gateway on a copy of schemas/)', () => {
  let root = '';
  let db: Db;
  let server: RunningServer | undefined;
  let token = '';
  const start = async () => {
    await server?.close();
    server = await startServer({ port: 0, host: '127.0.0.1', db, seed: true, schemaRoot: root, studio: true });
    const login = await toRes(await fetch(`${server.url}api/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(DEMO) }));
    token = login.body.data.token;
  };
  const call = async (method: string, path: string, body?: unknown) =>
    toRes(
      await fetch(`${server!.url}${path.slice(1)}`, {
        method,
        headers: { authorization: `Bearer ${token}`, 'x-company-id': BIZ_ADMIN, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        body: body === undefined ? undefined : JSON.stringify(body),
      }),
    );

  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), 'studio-'));
    cpSync(join(REPO, 'schemas'), join(root, 'schemas'), { recursive: true });
    db = await openPglite('memory');
    await start();
  }, 120_000);
  afterAll(async () => {
    await server?.close();
    await db?.close();
    if (root) rmSync(root, { recursive: true, force: true });
  });

  it('lists every schema file with where it is used', async () => {
    const r = await call('GET', '/api/studio/files');
    expect(r.status).toBe(200);
    expect(r.body.data.files[PERSON]).toBe(readFileSync(join(root, PERSON), 'utf8'));
    expect(r.body.data.usage[PERSON]).toEqual(expect.arrayContaining(['表格 insured-persons', '详情 insured-person', '实体 insure-batch-row 复制其字段（fieldsFrom）']));
    expect(r.body.data.usage['schemas/tables/insured-persons.json'].some((u: string) => u.startsWith('路由 /main/online-insurance/attendance-insurance/insure-person-manage'))).toBe(true);
  });

  it('previews adding 工号: the one-line diff, and the columns and indexes the gateway will add, nothing written', async () => {
    const before = readFileSync(join(root, PERSON), 'utf8');
    const r = await call('POST', '/api/studio/preview', { changes: [{ file: PERSON, edits: [{ op: 'set', path: ['fields', 'employeeNo'], value: EMPLOYEE_NO }] }] });
    expect(r.status).toBe(200);
    expect(r.body.data.issues).toEqual([]);
    expect(r.body.data.files[0].diff).toContain('+    "employeeNo": { "type": "string", "label": "工号", "maxLength": 20, "search": "contains" }');
    const sql = r.body.data.database.statements as string[];
    expect(sql).toContain('ALTER TABLE insured_persons ADD COLUMN employee_no TEXT');
    expect(sql).toContain('ALTER TABLE insure_batch_rows ADD COLUMN employee_no TEXT'); // a form row copies every person field
    expect(sql.some((s) => /CREATE INDEX .*insured_persons_employee_no_trgm/.test(s))).toBe(true);
    expect(r.body.data.database.problems).toEqual([]);
    expect(readFileSync(join(root, PERSON), 'utf8')).toBe(before);
    const cols = await db.query(`SELECT 1 FROM information_schema.columns WHERE table_name = 'insured_persons' AND column_name = 'employee_no'`);
    expect(cols, 'the preview was rolled back').toEqual([]);
  });

  it('refuses to save a draft with problems, and writes nothing', async () => {
    const before = readFileSync(join(root, PERSON), 'utf8');
    const bad = { ...EMPLOYEE_NO, search: 'range' };
    const r = await call('POST', '/api/studio/save', { changes: [{ file: PERSON, edits: [{ op: 'set', path: ['fields', 'employeeNo'], value: bad }] }] });
    expect(r.status).toBe(400);
    expect(JSON.stringify(r.body.errors)).toContain('search \\"range\\" needs a date/datetime/money/integer field');
    expect(readFileSync(join(root, PERSON), 'utf8')).toBe(before);
  });

  it('saves 工号 as a person writes it; after the next start the column exists and stores values', async () => {
    const r = await call('POST', '/api/studio/save', { changes: [{ file: PERSON, edits: [{ op: 'set', path: ['fields', 'employeeNo'], value: EMPLOYEE_NO }] }] });
    expect(r.status).toBe(200);
    expect(r.body.data.written).toEqual([PERSON]);
    const text = readFileSync(join(root, PERSON), 'utf8');
    expect(text.split('\n').filter((l) => l.includes('employeeNo'))).toEqual(['    "employeeNo": { "type": "string", "label": "工号", "maxLength": 20, "search": "contains" }']);
    await start();
    const list = await call('GET', '/api/insured-persons?pageSize=1');
    const id = list.body.data.list[0].id;
    expect((await call('PUT', `/api/insured-persons/${id}/info`, { employeeNo: 'GH-001' })).status).toBe(200);
    expect((await call('GET', `/api/insured-persons/${id}`)).body.data.employeeNo).toBe('GH-001');
  });

  it('renaming 工号 to 员工编号 (staffNo) is a migration that keeps the data', async () => {
    const edits = [
      { op: 'rename', path: ['fields', 'employeeNo'], to: 'staffNo' },
      { op: 'set', path: ['fields', 'staffNo'], value: { ...EMPLOYEE_NO, label: '员工编号' } },
    ];
    const first = await call('POST', '/api/studio/preview', { changes: [{ file: PERSON, edits }] });
    const db1 = first.body.data.database;
    expect(db1.problems.map((p: { table: string; renamedTo?: { column: string } }) => [p.table, p.renamedTo?.column])).toEqual([
      ['insure_batch_rows', 'staff_no'],
      ['insured_persons', 'staff_no'],
    ]);
    const migration = db1.suggestion;
    expect(migration.file).toBe('schemas/migrations/001-rename-employee-no-to-staff-no.sql');
    expect(migration.sql).toContain('ALTER TABLE insured_persons RENAME COLUMN employee_no TO staff_no;');
    expect(migration.sql.some((s: string) => s.includes('DROP'))).toBe(false);
    // With the migration, nothing is refused and nothing is lost.
    const second = await call('POST', '/api/studio/preview', { changes: [{ file: PERSON, edits }], migration });
    expect(second.body.data.database.problems).toEqual([]);
    expect(second.body.data.database.error).toBeUndefined();
    expect(second.body.data.database.migrations.map((m: { id: string }) => m.id)).toEqual(['001-rename-employee-no-to-staff-no.sql']);
    const saved = await call('POST', '/api/studio/save', { changes: [{ file: PERSON, edits }], migration });
    expect(saved.status).toBe(200);
    expect(saved.body.data.written).toEqual(['schemas/migrations/001-rename-employee-no-to-staff-no.sql', PERSON]);
    expect(readdirSync(join(root, 'schemas/migrations')).filter((f) => f.endsWith('.sql'))).toEqual(['001-rename-employee-no-to-staff-no.sql']);
    await start();
    const person = (await call('GET', '/api/insured-persons?staffNo=GH-001')).body.data.list[0];
    expect(person.staffNo).toBe('GH-001');
    const refused = await call('PUT', `/api/insured-persons/${person.id}/info`, { staffNo: 'X'.repeat(21) });
    expect(refused.body.errors).toContainEqual({ field: 'staffNo', message: '员工编号不能超过 20 个字符' });
  });

  it('offers the pages that put an entity in the menu', async () => {
    const r = await call('POST', '/api/studio/pages', { entity: 'insure-batch-row', label: '投保明细' });
    expect(r.status).toBe(200);
    const files = r.body.data.changes.map((c: { file: string }) => c.file);
    expect(files).toContain('schemas/routes.json');
    const preview = await call('POST', '/api/studio/preview', { changes: r.body.data.changes });
    expect(preview.body.data.issues).toEqual([]);
    expect(preview.body.data.files.find((f: { file: string }) => f.file === 'schemas/routes.json').diff).toContain('"title": "投保明细列表"');
    // An entity whose /claim/… paths are old paths' redirects gets pages of its own under /pages/.
    const claim = await call('POST', '/api/studio/pages', { entity: 'claim', label: '理赔登记' });
    const claimPreview = await call('POST', '/api/studio/preview', { changes: claim.body.data.changes });
    expect(claimPreview.body.data.issues).toEqual([]);
    expect(claimPreview.body.data.files.find((f: { file: string }) => f.file === 'schemas/routes.json').diff).toContain('"path": "/pages/claim/list"');
  });
});

describe('a production gateway has no studio', () => {
  it('answers 404 on /studio and on every studio API, and refuses to start with --studio', async () => {
    const db = await openPglite('memory');
    await expect(startServer({ port: 0, db, production: true, studio: true })).rejects.toThrow(/runs only in development/);
    const dist = mkdtempSync(join(tmpdir(), 'studio-dist-'));
    cpSync(join(REPO, 'index.html'), join(dist, 'index.html'));
    const server = await startServer({ port: 0, db, production: true, staticDir: dist });
    try {
      expect((await fetch(`${server.url}studio`)).status).toBe(404);
      expect((await fetch(`${server.url}studio/entities`)).status).toBe(404);
      for (const [method, path] of [['GET', 'files'], ['POST', 'preview'], ['POST', 'save'], ['POST', 'pages']]) {
        expect((await fetch(`${server.url}api/studio/${path}`, { method, headers: { 'content-type': 'application/json' }, body: method === 'POST' ? '{}' : undefined })).status, `${method} ${path}`).toBe(404);
      }
      expect(existsSync(join(REPO, 'schemas/migrations/README.md'))).toBe(true);
    } finally {
      await server.close();
      await db.close();
      rmSync(dist, { recursive: true, force: true });
    }
  }, 120_000);
});
