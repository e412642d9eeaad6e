import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDb, type Db } from '../../src/server/db.ts';
import { appConfigFromEnv } from '../../src/server/http/static.ts';
import { mapAjvErrors } from '../../src/server/http/validation.ts';
import { bodyAjv } from '../../src/server/http/validation.ts';
import { migrate } from '../../src/server/migrate.ts';
import { seed } from '../../src/server/seed.ts';
import { startServer, type RunningServer } from '../../src/server/server.ts';
import { DEMO } from './helpers.ts';

let db: Db;
let s: RunningServer;

beforeAll(async () => {
  db = await openDb({ dataDir: 'memory' });
  await migrate(db);
  await seed(db);
  s = await startServer({ port: 0, db, basePath: '/console/', production: false });
}, 60000);

afterAll(async () => {
  await s?.close();
  await db?.close();
});

const origin = () => s.url.replace(/\/console\/$/, '');
const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(origin() + path, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });

describe('plumbing', () => {
  it('echoes a valid X-Request-Id and makes one up otherwise', async () => {
    const mine = await fetch(`${origin()}/healthz`, { headers: { 'x-request-id': 'abc-123' } });
    expect(mine.headers.get('x-request-id')).toBe('abc-123');
    const made = await fetch(`${origin()}/healthz`, { headers: { 'x-request-id': 'bad id <script>' } });
    expect(made.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('answers health and readiness at the root and under the base path', async () => {
    for (const p of ['/healthz', '/readyz', '/console/healthz', '/console/readyz']) {
      const r = await fetch(origin() + p);
      expect(r.status, p).toBe(200);
      expect(await r.json()).toEqual({ status: 'ok' });
    }
  });

  it('publishes the OpenAPI document generated from route schemas', async () => {
    const r = await fetch(`${origin()}/api/docs/json`);
    expect(r.status).toBe(200);
    const doc = await r.json();
    expect(doc.openapi).toMatch(/^3\./);
    expect(doc.paths['/api/auth/login'].post.requestBody.content['application/json'].schema.properties.phone.title).toBe('手机号');
    expect(doc.paths['/api/bank-accounts']).toBeTruthy();
    expect((await fetch(`${origin()}/api/docs`)).status).toBeLessThan(400);
  });
});

describe('validation', () => {
  it('gives Chinese per-field messages and 400 for wrong types, lengths and shapes', async () => {
    const long = await post('/api/auth/login', { phone: '1'.repeat(21), password: 'x' });
    expect(long.status).toBe(400);
    expect((await long.json()).errors).toEqual([{ field: 'phone', message: '手机号不能超过 20 个字符' }]);
    const typed = await post('/api/auth/login', { phone: 13800000000, password: ['x'] });
    expect((await typed.json()).errors).toEqual([
      { field: 'phone', message: '手机号格式不正确' },
      { field: 'password', message: '密码格式不正确' },
    ]);
    const arr = await post('/api/auth/login', [1, 2]);
    expect(arr.status).toBe(400);
    expect((await arr.json()).message).toBe('请求体必须是 JSON 对象');
  });

  it('maps nested paths like rows[0].name and uses titles as labels', () => {
    const validate = bodyAjv.compile({
      type: 'object',
      required: ['rows'],
      properties: {
        rows: {
          type: 'array',
          items: {
            type: 'object',
            required: ['name'],
            properties: { name: { type: 'string', title: '姓名', maxLength: 3 }, kind: { enum: ['a', 'b'], title: '类型' } },
          },
        },
      },
    });
    expect(validate({ rows: [{ name: '张三四五', kind: 'c' }, {}] })).toBe(false);
    expect(mapAjvErrors(validate.errors ?? [])).toEqual([
      { field: 'rows[0].name', message: '姓名不能超过 3 个字符' },
      { field: 'rows[0].kind', message: '类型只能是 a、b 之一' },
      { field: 'rows[1].name', message: '请填写姓名' },
    ]);
  });
});

describe('config', () => {
  it('reads window.__APP_CONFIG__ values from the environment', () => {
    expect(appConfigFromEnv({})).toEqual({ env: 'production' });
    expect(appConfigFromEnv({ APP_ENV: 'staging', SERVICE_URLS: '{"files":"/files"}', SENTRY_DSN: 'dsn' })).toEqual({
      env: 'staging',
      services: { files: '/files' },
      sentryDsn: 'dsn',
    });
    expect(() => appConfigFromEnv({ SERVICE_URLS: 'nope' })).toThrow(/SERVICE_URLS must be JSON/);
  });
});

describe('graceful shutdown', () => {
  it('lets an in-flight write finish and store its row while new work is refused', async () => {
    let entered!: () => void;
    const inHandler = new Promise<void>((r) => (entered = r));
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const g = await startServer({
      port: 0,
      db,
      production: false,
      testHooks: {
        async beforeHandler(method, url) {
          if (method === 'POST' && url.startsWith('/api/bank-accounts')) {
            entered();
            await gate;
          }
        },
      },
    });
    const base = g.url.replace(/\/$/, '');
    const login = await (await fetch(`${base}/api/auth/login`, { method: 'POST', body: JSON.stringify(DEMO) })).json();
    const headers = { authorization: `Bearer ${login.data.token}`, 'x-company-id': 'B10001' };
    const slow = fetch(`${base}/api/bank-accounts`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ accountName: '上海鑫达人力资源有限公司', bankName: '招商银行', accountNo: '6214000011112222' }),
    });
    await inHandler;
    const closing = g.close();
    await new Promise((r) => setTimeout(r, 50));
    // New work is refused while draining (new connections are not accepted).
    const late = await fetch(`${base}/api/overview`, { headers }).then((r) => r.status, () => 'refused');
    expect([503, 'refused']).toContain(late);
    release();
    const res = await slow;
    expect(res.status).toBe(200);
    await closing;
    const rows = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM bank_accounts WHERE account_no = '6214000011112222'`);
    expect(rows[0].n).toBe(1);
  });
});
