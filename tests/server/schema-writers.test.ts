/**
 * No writer forgets a field (issue 19): in a copy of schemas/, every stored entity that a write
 * endpoint fills from its input gets one synthetic field of each kind (text with contains-search,
 * integer, money, date, enum). The gateway starts on that copy, every such endpoint is called with
 * values for the new fields, and each value must come back in the detail, the list, a filter on it and
 * the Excel export. Write endpoints are read from the gateway's OpenAPI document: one that the table
 * below does not know fails the test, so a future endpoint cannot be skipped silently.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { earliestCoverStart } from '../../src/server/domain/cover.ts';
import { startServer, type RunningServer } from '../../src/server/server.ts';
import type { Db } from '../../src/server/db.ts';
import { BIZ_ADMIN, makeIdCard, toRes, type Res } from './helpers.ts';
import { targets } from './money-helpers.ts';

/** One synthetic field of each kind, with the filter that finds a value of it. */
const SYNTH = {
  xText: { type: 'string', label: '扩展文本', maxLength: 40, search: 'contains' },
  xCount: { type: 'integer', label: '扩展整数', min: 0, max: 100000, search: 'exact' },
  xAmount: { type: 'money', label: '扩展金额', min: 0, max: 100000, search: 'range' },
  xDay: { type: 'date', label: '扩展日期', search: 'range' },
  xKind: { type: 'enum', label: '扩展类别', search: 'exact', options: [{ value: 'a', label: '甲类' }, { value: 'b', label: '乙类' }] },
} as const;

type Values = { xText: string; xCount: number; xAmount: number; xDay: string; xKind: 'a' | 'b' };
const KIND_LABEL = { a: '甲类', b: '乙类' } as const;

/** Distinct values per write, so each filter finds exactly the row the write stored. */
function valuesFor(n: number): Values {
  return { xText: `扩展-${n}-${Date.now() % 100000}`, xCount: 1000 + n, xAmount: Number(`${n}.37`), xDay: `2025-0${(n % 9) + 1}-1${n % 10}`, xKind: n % 2 ? 'a' : 'b' };
}
/** The same values as a spreadsheet or the roster editor holds them: text, enum by label. */
const asCells = (v: Values) => ({ ...v, xCount: String(v.xCount), xAmount: v.xAmount.toFixed(2), xKind: KIND_LABEL[v.xKind] });

/** The entities whose write endpoints take their fields from the request (the table below names them). */
const ENTITIES = ['insured-person', 'claim', 'bank-account', 'invoice', 'invoice-refund'];

interface Ctx {
  call(method: string, path: string, body?: unknown): Promise<Res>;
  origin: string;
  token: string;
  businessName: string;
  plan: (unit: 'month' | 'day') => Promise<string>;
  person: (n: number) => { name: string; idCard: string; phone: string; jobType: string };
}

/** What a write endpoint stored: the entity, its API collection and the row's id, and the values it was given. */
interface Written {
  api: string;
  id: number;
  values: Values;
}

type Writer = { none: string } | { run: (c: Ctx, n: number) => Promise<Written[]> };

const ok = (r: Res, what: string) => {
  if (r.status !== 200 && r.status !== 202) throw new Error(`${what}: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body.data;
};

async function personId(c: Ctx, idCard: string): Promise<number> {
  const list = ok(await c.call('GET', `/api/insured-persons?idCard=${idCard}`), 'person lookup').list;
  expect(list.length, `person ${idCard} stored`).toBe(1);
  return list[0].id;
}

async function waitUpload(c: Ctx, id: number, until: (s: string) => boolean): Promise<any> {
  for (let i = 0; i < 600; i++) {
    const view = ok(await c.call('GET', `/api/insure-uploads/${id}`), 'upload status');
    if (until(view.status)) return view;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`upload ${id} did not finish`);
}

/** A person insured by a roster today (for the claim and the info edit). */
async function rosterPerson(c: Ctx, n: number, values: Values) {
  const p = c.person(n);
  ok(await c.call('POST', '/api/insure/roster', { planName: await c.plan('month'), startDate: earliestCoverStart(), rows: [{ ...p, ...values }] }), 'roster');
  return { ...p, id: await personId(c, p.idCard) };
}

/** Every write endpoint of the API: what it stores from its input, or why it stores no entity field. */
const WRITERS: Record<string, Writer> = {
  'POST /api/auth/login': { none: 'signs in' },
  'POST /api/auth/refresh': { none: 'renews a session' },
  'POST /api/auth/logout': { none: 'ends a session' },
  'POST /api/auth/sms-code': { none: 'sends a one-time code' },
  'POST /api/auth/set-password': { none: 'sets a password' },
  'POST /api/settings/password': { none: 'changes a password' },
  'POST /api/orders/{id}/pay': { none: 'pays an order (status only)' },
  'POST /api/insure/quote': { none: 'quotes a price, stores nothing' },
  'POST /api/insure-uploads/read': { none: 'reads a roster file into rows for a form (attendance import), stores nothing' },
  'POST /api/insured-persons/{id}/start': { none: 'moves the automatic-insurance status' },
  'POST /api/insured-persons/{id}/stop': { none: 'moves the automatic-insurance status' },
  'POST /api/claim-attachments': { none: 'stores a file' },
  'DELETE /api/claim-attachments/{id}': { none: 'deletes a file' },
  'DELETE /api/bank-accounts/{id}': { none: 'deletes an account' },
  'POST /api/operator/businesses': { none: 'operator: a business (a platform table, not an entity schema)' },
  'POST /api/operator/users': { none: 'operator: a user and their role (platform tables)' },
  'POST /api/operator/invitations': { none: 'operator: a set-password code' },
  'POST /api/operator/unlock': { none: 'operator: clears sign-in limits' },
  'POST /api/insure/roster': {
    run: async (c, n) => {
      const values = valuesFor(n);
      const p = await rosterPerson(c, n, values);
      return [{ api: 'insured-persons', id: p.id, values }];
    },
  },
  'POST /api/insure/attendance': {
    run: async (c, n) => {
      const values = valuesFor(n);
      const p = c.person(n);
      ok(await c.call('POST', '/api/insure/attendance', { planName: await c.plan('day'), workDate: earliestCoverStart(), rows: [{ ...p, ...values }] }), 'attendance');
      return [{ api: 'insured-persons', id: await personId(c, p.idCard), values }];
    },
  },
  'POST /api/insure-uploads': {
    // A file whose columns are the roster's (labels from /api/insure-uploads/config), confirmed as stored.
    run: async (c, n) => {
      const values = valuesFor(n);
      const p = c.person(n);
      const cols = ok(await c.call('GET', '/api/insure-uploads/config'), 'upload config').columns as Array<{ key: string; label: string }>;
      for (const k of Object.keys(SYNTH)) expect(cols.map((x) => x.key), `the roster has a ${k} column`).toContain(k);
      const row: Record<string, string> = { ...p, ...asCells(values) };
      const csv = `${cols.map((x) => x.label).join(',')}\n${cols.map((x) => row[x.key] ?? '').join(',')}\n`;
      const fd = new FormData();
      fd.append('planName', await c.plan('month'));
      fd.append('startDate', earliestCoverStart());
      fd.append('file', new Blob([csv]), 'roster.csv');
      const up = await toRes(await fetch(`${c.origin}/api/insure-uploads`, { method: 'POST', headers: { authorization: `Bearer ${c.token}`, 'x-company-id': BIZ_ADMIN }, body: fd }));
      const id = ok(up, 'upload').id as number;
      const parsed = await waitUpload(c, id, (s) => s !== 'parsing');
      expect(parsed.status, JSON.stringify(parsed)).toBe('ready');
      ok(await c.call('POST', '/api/insure-uploads/confirm', { uploadId: id, planName: await c.plan('month'), startDate: earliestCoverStart() }), 'confirm upload');
      expect((await waitUpload(c, id, (s) => s !== 'confirming')).status).toBe('confirmed');
      return [{ api: 'insured-persons', id: await personId(c, p.idCard), values }];
    },
  },
  'POST /api/insure-uploads/confirm': {
    // Rows typed into the roster editor (no file): the editor sends every cell as text.
    run: async (c, n) => {
      const values = valuesFor(n);
      const p = c.person(n);
      ok(await c.call('POST', '/api/insure-uploads/confirm', { planName: await c.plan('month'), startDate: earliestCoverStart(), rows: [{ ...p, ...asCells(values) }] }), 'confirm rows');
      return [{ api: 'insured-persons', id: await personId(c, p.idCard), values }];
    },
  },
  'PUT /api/insured-persons/{id}/info': {
    run: async (c, n) => {
      const p = await rosterPerson(c, n, valuesFor(n + 50));
      const values = valuesFor(n);
      ok(await c.call('PUT', `/api/insured-persons/${p.id}/info`, values), 'edit person');
      return [{ api: 'insured-persons', id: p.id, values }];
    },
  },
  'POST /api/claims': {
    run: async (c, n) => {
      const p = await rosterPerson(c, n, valuesFor(n + 50));
      const values = valuesFor(n);
      const body = { personName: p.name, idCard: p.idCard, accidentDate: earliestCoverStart(), accidentType: '意外伤害', description: '搬运货物时扭伤', amount: 100, ...values };
      return [{ api: 'claims', id: ok(await c.call('POST', '/api/claims', body), 'claim').id, values }];
    },
  },
  'POST /api/bank-accounts': {
    run: async (c, n) => {
      const values = valuesFor(n);
      const body = { accountName: c.businessName, bankName: '招商银行', accountNo: `62148300${String(Date.now()).slice(-8)}${n}`, ...values };
      return [{ api: 'bank-accounts', id: ok(await c.call('POST', '/api/bank-accounts', body), 'bank account').id, values }];
    },
  },
  'POST /api/invoices': {
    run: async (c, n) => {
      await rosterPerson(c, n, valuesFor(n + 50)); // a paid order of today, not yet invoiced
      const orders = ok(await c.call('GET', '/api/orders?payStatus=paid&pageSize=1'), 'orders').list;
      const values = valuesFor(n);
      const body = { orderNos: [orders[0].orderNo], title: c.businessName, taxNo: '91310000MA1FL0000X', type: 'normal', email: 'finance@example.com', ...values };
      return [{ api: 'invoices', id: ok(await c.call('POST', '/api/invoices', body), 'invoice').id, values }];
    },
  },
  'POST /api/invoice-refunds': {
    run: async (c, n) => {
      const issued = ok(await c.call('GET', '/api/invoices?status=issued&pageSize=100'), 'invoices').list as Array<{ invoiceNo: string }>;
      expect(issued.length, 'the demo business has issued invoices').toBeGreaterThan(0);
      const values = valuesFor(n);
      const body = { invoiceNo: issued[0].invoiceNo, amount: 0.01, reason: '开票信息有误', ...values };
      return [{ api: 'invoice-refunds', id: ok(await c.call('POST', '/api/invoice-refunds', body), 'refund').id, values }];
    },
  },
};

/** A copy of schemas/ with the synthetic fields added to ENTITIES. */
function schemasWithSynthFields(): string {
  const root = mkdtempSync(join(tmpdir(), 'schema-writers-'));
  cpSync(resolve(import.meta.dirname, '../../schemas'), join(root, 'schemas'), { recursive: true });
  for (const name of ENTITIES) {
    const file = join(root, 'schemas/entities', `${name}.json`);
    const e = JSON.parse(readFileSync(file, 'utf8'));
    e.fields = { ...e.fields, ...SYNTH };
    writeFileSync(file, JSON.stringify(e, null, 2));
  }
  return root;
}

/** The stored row comes back with each value in the detail, a list filtered on each field, and the export. */
async function checkStored(c: Ctx, w: Written) {
  const detail = ok(await c.call('GET', `/api/${w.api}/${w.id}`), `${w.api} detail`);
  for (const [k, v] of Object.entries(w.values)) expect(detail[k], `${w.api} detail ${k}`).toEqual(v);
  const filters: Record<keyof Values, string> = {
    xText: w.values.xText.slice(3),
    xCount: String(w.values.xCount),
    xAmount: `${w.values.xAmount},${w.values.xAmount}`,
    xDay: `${w.values.xDay},${w.values.xDay}`,
    xKind: w.values.xKind,
  };
  for (const [k, q] of Object.entries(filters)) {
    const list = ok(await c.call('GET', `/api/${w.api}?${k}=${encodeURIComponent(q)}&pageSize=100`), `${w.api} list by ${k}`).list as Array<Record<string, unknown>>;
    const row = list.find((r) => r.id === w.id);
    expect(row, `${w.api} list filtered by ${k}=${q} has row ${w.id}`).toBeTruthy();
    expect(row![k], `${w.api} list ${k}`).toEqual(w.values[k as keyof Values]);
  }
  const res = await fetch(`${c.origin}/api/${w.api}/export?format=xlsx&columns=${Object.keys(SYNTH).join(',')}&xText=${encodeURIComponent(w.values.xText)}`, {
    headers: { authorization: `Bearer ${c.token}`, 'x-company-id': BIZ_ADMIN },
  });
  expect(res.status, `${w.api} export`).toBe(200);
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(await res.arrayBuffer());
  const sheet = wb.worksheets[0];
  expect(sheet.getRow(1).values, `${w.api} export headers`).toEqual([undefined, ...Object.values(SYNTH).map((f) => f.label)]);
  expect(sheet.getRow(2).values, `${w.api} export row`).toEqual([undefined, w.values.xText, w.values.xCount, w.values.xAmount, w.values.xDay, KIND_LABEL[w.values.xKind]]);
}

for (const target of targets()) {
  describe(`every writer stores every field of its entity (${target.name})`, () => {
    let root = '';
    let server: RunningServer;
    /** Given to the gateway, so closed here: the gateway closes only a database it opened itself. */
    let db: Db | undefined;
    let c: Ctx;
    let routes: string[] = [];
    beforeAll(async () => {
      root = schemasWithSynthFields();
      // PGlite: an in-memory database, so the uploaded roster is stored in it, not under .data/files
      // (files-backends.test.ts checks that nothing reaches the repository's data folders).
      db = await target.openEmpty();
      server = await startServer({ port: 0, host: '127.0.0.1', db, seed: true, schemaRoot: root, ...(target.name === 'pglite' ? { dataDir: 'memory' } : {}) });
      const origin = server.url.replace(/\/$/, '');
      const login = await toRes(await fetch(`${origin}/api/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ phone: '13800000000', password: 'demo1234' }) }));
      const token = login.body.data.token as string;
      const businessName = (login.body.data.businessList as Array<{ businessId: string; businessName: string }>).find((b) => b.businessId === BIZ_ADMIN)!.businessName;
      const call = async (method: string, path: string, body?: unknown) =>
        toRes(
          await fetch(origin + path, {
            method,
            headers: { authorization: `Bearer ${token}`, 'x-company-id': BIZ_ADMIN, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
            body: body === undefined ? undefined : JSON.stringify(body),
          }),
        );
      const plans: Record<string, string> = {};
      c = {
        call,
        origin,
        token,
        businessName,
        plan: async (unit) => (plans[unit] ??= ok(await call('GET', `/api/plans?unit=${unit}`), 'plans')[0].value),
        person: (n) => ({ name: `扩展${'甲乙丙丁戊己庚辛壬癸'[n % 10]}${n}`, idCard: makeIdCard('310104', '19900101', 300 + n), phone: '13900000000', jobType: '装卸工' }),
      };
      const doc = (await toRes(await fetch(`${origin}/api/docs/json`))).body;
      routes = Object.entries(doc.paths as Record<string, Record<string, unknown>>).flatMap(([p, ops]) =>
        Object.keys(ops).filter((m) => !['get', 'head', 'options'].includes(m)).map((m) => `${m.toUpperCase()} ${p}`),
      );
    }, 180_000);
    afterAll(async () => {
      await server?.close();
      await db?.close();
      if (root) rmSync(root, { recursive: true, force: true });
    });

    it('knows every write endpoint of the API (a new one must be added to WRITERS)', () => {
      expect(routes.length).toBeGreaterThan(10);
      const unknown = routes.filter((r) => !WRITERS[r]);
      expect(unknown, 'write endpoints this test does not know: say what they store in WRITERS').toEqual([]);
    });

    const entries = Object.entries(WRITERS).filter((e): e is [string, { run: (c: Ctx, n: number) => Promise<Written[]> }] => 'run' in e[1]);
    entries.forEach(([route, w], i) => {
      it(`${route} stores the new fields: detail, list, filters, export`, async () => {
        for (const written of await w.run(c, i + 1)) await checkStored(c, written);
      }, 60_000);
    });
  });
}
