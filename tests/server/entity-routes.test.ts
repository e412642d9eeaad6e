import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolve } from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { Db } from '../../src/server/db.ts';
import { buildEntityRegistry } from '../../src/shared/entity/registry.ts';
import { loadSchemaFiles } from '../../src/schema/load-node.ts';
import { defaultHooks } from '../../src/server/hooks/index.ts';
import { buildApp, openTestDb } from './entity-helpers.ts';

const ROOT = resolve(__dirname, '../..');
const registry = buildEntityRegistry(loadSchemaFiles(ROOT).files);

describe('entity routes', () => {
  let db: Db;
  let app: FastifyInstance;
  const call = (method: string, url: string, body?: unknown, biz = 'B1', userType = 'admin') =>
    app.inject({ method: method as 'GET', url, payload: body as object, headers: { 'x-test-business': biz, 'x-test-user-type': userType } });

  beforeAll(async () => {
    db = await openTestDb();
    app = await buildApp(db, registry, defaultHooks());
  });
  afterAll(async () => {
    await app.close();
    await db.close();
  });

  it('creates a claim and lists it', async () => {
    const r = await call('POST', '/api/claims', {
      personName: '张三', idCard: '11010519491231002X', accidentDate: '2024-01-02', accidentType: '其他', description: '摔伤', amount: 12.5,
    });
    expect(r.json()).toMatchObject({ code: 0 });
    const l = await call('GET', '/api/claims');
    expect(l.json().data.total).toBe(1);
  });
});
