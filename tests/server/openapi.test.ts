/**
 * The OpenAPI document describes every response body (issue 21.8), derived from the entity schemas:
 * the gateway runs on a copy of schemas/ in which two entities get a field a configurator could add,
 * and that field appears in their list and detail response schemas. The response schemas are in the
 * document only, never used to serialize, so such a field also reaches the client (schema-writers.test.ts
 * reads added fields back from lists and details).
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPglite, type Db } from '../../src/server/db.ts';
import { startServer, type RunningServer } from '../../src/server/server.ts';

/** Entities given the extra field, and their API collections. */
const ADDED = { order: 'orders', claim: 'claims' } as const;
const FIELD = { type: 'string', label: '扩展备注', maxLength: 40 };

type Schema = { type?: string; properties?: Record<string, Schema>; items?: Schema; required?: string[]; nullable?: boolean; description?: string };
type Operation = { responses: Record<string, { content?: Record<string, { schema: Schema }> }> };
type Doc = { paths: Record<string, Record<string, Operation>> };

let root: string;
let server: RunningServer;
let doc: Doc;
let db: Db | undefined;

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'openapi-'));
  cpSync(resolve(import.meta.dirname, '../../schemas'), join(root, 'schemas'), { recursive: true });
  for (const name of Object.keys(ADDED)) {
    const file = join(root, 'schemas/entities', `${name}.json`);
    const e = JSON.parse(readFileSync(file, 'utf8'));
    e.fields = { ...e.fields, xNote: FIELD };
    writeFileSync(file, JSON.stringify(e, null, 2));
  }
  db = await openPglite('memory');
  server = await startServer({ port: 0, host: '127.0.0.1', db, seed: false, schemaRoot: root });
  const r = await fetch(`${server.url.replace(/\/$/, '')}/api/docs/json`);
  expect(r.status).toBe(200);
  doc = (await r.json()) as Doc;
}, 120_000);

afterAll(async () => {
  await server?.close();
  await db?.close(); // given to the gateway, which closes only a database it opened itself
  rmSync(root, { recursive: true, force: true });
});

const body = (op: Operation, status: string): Schema | undefined => {
  const content = op.responses[status]?.content;
  return content ? Object.values(content)[0]?.schema : undefined;
};

describe('OpenAPI response bodies', () => {
  it('every operation describes its success body (envelope or file) and its error bodies', () => {
    const ops = Object.entries(doc.paths).flatMap(([path, methods]) => Object.entries(methods).map(([method, op]) => ({ path, method, op })));
    expect(ops.length).toBeGreaterThan(50);
    for (const { path, method, op } of ops) {
      const what = `${method.toUpperCase()} ${path}`;
      const success = Object.keys(op.responses).filter((s) => s === '200' || s === '202');
      expect(success, what).not.toEqual([]);
      for (const s of success) {
        const b = body(op, s);
        expect(b, `${what} ${s}`).toBeTruthy();
        if (b!.type === 'object') expect(b!.properties && Object.keys(b!.properties).sort(), `${what} ${s}`).toEqual(['code', 'data', 'message']);
        else expect(b, `${what} ${s}`).toMatchObject({ type: 'string', format: 'binary' });
      }
      const err = body(op, '400');
      expect(err?.properties && Object.keys(err.properties).sort(), `${what} 400`).toEqual(['code', 'errors', 'message']);
      expect(err!.properties!.errors.items!.properties && Object.keys(err!.properties!.errors.items!.properties).sort()).toEqual(['field', 'message']);
      expect(op.responses['429'], what).toBeTruthy();
      if (path.includes('{')) expect(op.responses['404'], what).toBeTruthy();
    }
    // The accepted-for-later routes say so.
    expect(Object.keys(doc.paths['/api/insure-uploads'].post.responses)).toContain('202');
    expect(Object.keys(doc.paths['/api/insure-uploads/confirm'].post.responses)).toEqual(expect.arrayContaining(['200', '202']));
  });

  it('entity lists and details are described from the entity schema: a field added in schemas/ appears, money in yuan, masked fields as text', () => {
    for (const api of Object.values(ADDED)) {
      const list = body(doc.paths[`/api/${api}`].get, '200')!.properties!.data;
      expect(list.required).toEqual(['list', 'total', 'current', 'pageSize']);
      const row = list.properties!.list.items!;
      const detail = body(doc.paths[`/api/${api}/{id}`].get, '200')!.properties!.data;
      expect(detail).toEqual(row);
      expect(row.properties!.id).toMatchObject({ type: 'integer' });
      expect(row.properties!.xNote).toMatchObject({ type: 'string', title: '扩展备注', nullable: true });
    }
    const order = body(doc.paths['/api/orders/{id}'].get, '200')!.properties!.data;
    expect(order.properties!.amount).toMatchObject({ type: 'number' });
    expect(order.properties!.amount.description).toContain('元');
    const claim = body(doc.paths['/api/claims/{id}'].get, '200')!.properties!.data;
    expect(claim.properties!.idCard).toEqual({ type: 'string', title: '身份证号', description: expect.stringContaining('脱敏') });
  });
});
