import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  api,
  apiRequest,
  ApiError,
  clearRequestCache,
  configureAuth,
  preloadGet,
  PRELOAD_TTL_MS,
  RequestError,
  resolveServiceUrl,
  serializeParams,
} from '../../src/services/request';

// A real HTTP server on port 0: the client is exercised through axios' own node adapter, so what is checked
// here (query strings, bodies, headers, timeouts) is what goes over the wire.
type Seen = { method: string; url: string; headers: IncomingHttpHeaders; body: string };
type Handler = (req: Seen, res: ServerResponse) => void;
let server: Server;
let base = '';
let seen: Seen[] = [];
let handlers: Handler[] = [];
let fallback: Handler = (_r, res) => json(res, 200, { code: 0, data: null });

function json(res: ServerResponse, status: number, body: unknown) {
  res.writeHead(status, { 'Content-Type': 'application/json' });
  res.end(JSON.stringify(body));
}
const reply = (status: number, body: unknown): Handler => (_r, res) => json(res, status, body);
const queue = (...h: Handler[]) => handlers.push(...h);

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString('utf8')));
    req.on('end', () => {
      const s: Seen = { method: req.method ?? '', url: req.url ?? '', headers: req.headers, body };
      seen.push(s);
      (handlers.shift() ?? fallback)(s, res);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

beforeEach(() => {
  seen = [];
  handlers = [];
  fallback = reply(200, { code: 0, data: null });
  clearRequestCache();
  vi.stubGlobal('window', { __APP_CONFIG__: { services: { business: base } } });
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

function session(token = 'old', refreshToken = 'r-old', company = 'B10001') {
  const s = { token, refreshToken, company, lost: [] as string[] };
  configureAuth({
    getToken: () => s.token,
    getRefreshToken: () => s.refreshToken,
    getCompanyId: () => s.company,
    onTokens: (t, r) => {
      s.token = t;
      s.refreshToken = r;
    },
    onAuthLost: (m) => s.lost.push(m),
  });
  return s;
}

describe('API client: session', () => {
  it('sends the token and business, and unwraps the envelope', async () => {
    session();
    queue(reply(200, { code: 0, data: { list: [1], total: 1 }, message: 'ok' }));
    await expect(api.get('/api/orders', { current: 1, orderNo: '', payStatus: 'paid' })).resolves.toEqual({ list: [1], total: 1 });
    expect(seen[0].url).toBe('/api/orders?current=1&payStatus=paid');
    expect(seen[0].headers.authorization).toBe('Bearer old');
    expect(seen[0].headers['x-company-id']).toBe('B10001');
    expect(seen[0].headers['idempotency-key']).toBeUndefined();
  });

  it('renews an expired token once and retries with the new one', async () => {
    const s = session();
    queue(
      reply(401, { code: 40100, message: '登录已过期，请重新登录' }),
      reply(200, { code: 0, data: { token: 'new', refreshToken: 'r-new' } }),
      reply(200, { code: 0, data: { ok: true } }),
    );
    await expect(api.get('/api/overview')).resolves.toEqual({ ok: true });
    expect(seen[1].method).toBe('POST');
    expect(seen[1].url).toBe('/api/auth/refresh');
    expect(JSON.parse(seen[1].body)).toEqual({ refreshToken: 'r-old' });
    expect(seen[2].headers.authorization).toBe('Bearer new');
    expect(s).toMatchObject({ token: 'new', refreshToken: 'r-new', lost: [] });
  });

  it('signs out when the session cannot be renewed, passing on the gateway message', async () => {
    const s = session();
    queue(reply(401, { code: 40100, message: '登录已过期，请重新登录' }), reply(401, { code: 40100, message: '刷新令牌无效' }));
    const err = await api.get('/api/overview').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect(err).toMatchObject({ status: 401, code: 40100, kind: 'http', message: '登录已过期，请重新登录' });
    expect(s.lost).toEqual(['登录已过期，请重新登录']);
    expect(seen).toHaveLength(2);
  });

  it('shares one renewal between concurrent 401s and does not reuse a finished one', async () => {
    const s = session();
    fallback = (r, res) => {
      if (r.url === '/api/auth/refresh') {
        const n = seen.filter((x) => x.url === '/api/auth/refresh').length;
        setTimeout(() => json(res, 200, { code: 0, data: { token: `t${n}`, refreshToken: `r${n}` } }), 30);
      } else if (r.headers.authorization === 'Bearer old' || r.headers.authorization === 'Bearer t1-expired') {
        json(res, 401, { code: 40100, message: '登录已过期，请重新登录' });
      } else json(res, 200, { code: 0, data: r.headers.authorization });
    };
    const results = await Promise.all([api.get('/api/a'), api.get('/api/b'), api.get('/api/c')]);
    expect(results).toEqual(['Bearer t1', 'Bearer t1', 'Bearer t1']);
    expect(seen.filter((x) => x.url === '/api/auth/refresh')).toHaveLength(1);
    s.token = 't1-expired';
    await expect(api.get('/api/d')).resolves.toBe('Bearer t2');
    expect(seen.filter((x) => x.url === '/api/auth/refresh')).toHaveLength(2);
    expect(s.lost).toEqual([]);
  });

  it('never retries auth calls', async () => {
    const s = session();
    queue(reply(401, { code: 40100, message: '手机号或密码错误' }));
    await expect(api.post('/api/auth/login', { phone: '1', password: 'x' })).rejects.toMatchObject({ status: 401, message: '手机号或密码错误' });
    expect(seen).toHaveLength(1);
    expect(s.lost).toEqual([]);
  });

  it('carries per-field errors of a refused write', async () => {
    session();
    queue(reply(400, { code: 40000, message: '填写内容有误，请按提示修改', errors: [{ field: 'rows[1].idCard', message: '第 2 行：身份证号不正确' }] }));
    const err = (await api.post('/api/insure/roster', {}).catch((e: unknown) => e)) as ApiError;
    expect(err.fieldErrors).toEqual([{ field: 'rows[1].idCard', message: '第 2 行：身份证号不正确' }]);
    expect(err.status).toBe(400);
    expect(err.kind).toBe('http');
  });
});

describe('API client: encoding', () => {
  it('repeats array keys and drops empty values in GET params', async () => {
    session();
    await api.get('/api/orders', { ids: [1, 2, '', null], status: 'paid', a: undefined, b: null, c: '', zero: 0, name: '张三 & 李四' });
    expect(seen[0].url).toBe('/api/orders?ids=1&ids=2&status=paid&zero=0&name=%E5%BC%A0%E4%B8%89+%26+%E6%9D%8E%E5%9B%9B');
    expect(decodeURIComponent(seen[0].url)).not.toContain('[]');
    expect(serializeParams({ ids: ['a', 'b'] })).toBe('ids=a&ids=b');
  });

  it('sends JSON bodies by default', async () => {
    session();
    await api.post('/api/invoices', { title: '甲公司', orderNos: ['O1', 'O2'] });
    expect(seen[0].headers['content-type']).toMatch(/^application\/json/);
    expect(JSON.parse(seen[0].body)).toEqual({ title: '甲公司', orderNos: ['O1', 'O2'] });
    await api.put('/api/x', { a: 1 });
    await api.patch('/api/x', { b: 2 });
    expect(seen.slice(1).map((s) => [s.method, s.body])).toEqual([['PUT', '{"a":1}'], ['PATCH', '{"b":2}']]);
  });

  it('form-encodes bodies when asked', async () => {
    session();
    await api.post('/api/form', { name: '张三', ids: [1, 2], empty: '', gone: undefined }, { form: true });
    await apiRequest('PUT', '/api/form', { data: { a: 'x y' }, requestType: 'form' });
    expect(seen[0].headers['content-type']).toMatch(/^application\/x-www-form-urlencoded/);
    expect(seen[0].body).toBe('name=%E5%BC%A0%E4%B8%89&ids=1&ids=2&empty=');
    expect(seen[1].body).toBe('a=x+y');
  });

  it('puts /api/ calls under the base path when same-origin, in one rule', () => {
    expect(resolveServiceUrl('/api/orders', '', '/')).toBe('/api/orders');
    expect(resolveServiceUrl('/api/orders', '', '/console/')).toBe('/console/api/orders');
    expect(resolveServiceUrl('/assets/x.png', '', '/console/')).toBe('/assets/x.png');
    expect(resolveServiceUrl('/api/orders', 'https://gw.example.com/', '/console/')).toBe('https://gw.example.com/api/orders');
    expect(resolveServiceUrl('https://cdn.example.com/a', '', '/console/')).toBe('https://cdn.example.com/a');
  });
});

describe('API client: transport', () => {
  it('goes through fetch with same-origin credentials, relative under the base path when same-origin', async () => {
    session();
    vi.stubGlobal('window', { __APP_CONFIG__: { basePath: '/console/' } });
    const fetchMock = vi.fn().mockResolvedValue(new Response(JSON.stringify({ code: 0, data: 7 }), { status: 200 }));
    vi.stubGlobal('fetch', fetchMock);
    await expect(api.get('/api/orders', { ids: [1, 2] })).resolves.toBe(7);
    const [url, init] = fetchMock.mock.calls[0] as [string, RequestInit];
    expect(url).toBe('/console/api/orders?ids=1&ids=2');
    expect(init.credentials).toBe('same-origin');
    expect(new Headers(init.headers).get('Authorization')).toBe('Bearer old');
  });

  it('reports a cancelled call as a network error', async () => {
    session();
    queue((_r, res) => setTimeout(() => json(res, 200, { code: 0, data: 1 }), 300));
    const ac = new AbortController();
    const p = api.get('/api/slow', undefined, { signal: ac.signal });
    setTimeout(() => ac.abort(), 20);
    await expect(p).rejects.toMatchObject({ kind: 'network', message: '请求已取消' });
  });
});

describe('API client: error kinds', () => {
  it('reports a timeout with the standard text', async () => {
    session();
    queue((_r, res) => setTimeout(() => json(res, 200, { code: 0, data: 1 }), 500));
    const err = (await api.get('/api/slow', undefined, { timeout: 50 }).catch((e: unknown) => e)) as RequestError;
    expect(err).toBeInstanceOf(RequestError);
    expect(err).toBeInstanceOf(ApiError);
    expect(err.kind).toBe('timeout');
    expect(err.message).toBe('timeout of 50ms exceeded');
  });

  it('reports a 2xx answer that is not JSON as a parse error', async () => {
    session();
    queue((_r, res) => {
      res.writeHead(200, { 'Content-Type': 'text/html' });
      res.end('<html>gateway page</html>');
    });
    await expect(api.get('/api/x')).rejects.toMatchObject({ kind: 'parse', status: 200 });
  });

  it('reports non-2xx as an HTTP error with its status, even without an envelope', async () => {
    session();
    queue((_r, res) => {
      res.writeHead(502);
      res.end('Bad Gateway');
    });
    await expect(api.get('/api/x')).rejects.toMatchObject({ kind: 'http', status: 502, message: '服务器错误（502）' });
  });

  it('reports a non-zero envelope code as a business error with field errors', async () => {
    session();
    queue(reply(200, { code: 42201, message: '该订单已开票', errors: [{ field: 'orderNos', message: '订单 O1 已开票' }] }));
    await expect(api.post('/api/invoices', {})).rejects.toMatchObject({
      kind: 'business',
      code: 42201,
      message: '该订单已开票',
      fieldErrors: [{ field: 'orderNos', message: '订单 O1 已开票' }],
    });
  });

  it('reports an unreachable server as a network error', async () => {
    session();
    vi.stubGlobal('window', { __APP_CONFIG__: { services: { business: 'http://127.0.0.1:1' } } });
    await expect(api.get('/api/x')).rejects.toMatchObject({ kind: 'network', status: 0 });
  });
});

describe('API client: cache and idempotency', () => {
  it('serves a cached GET within the ttl and asks again after it', async () => {
    const s = session();
    vi.useFakeTimers({ toFake: ['Date'] });
    let n = 0;
    fallback = (_r, res) => json(res, 200, { code: 0, data: ++n });
    expect(await api.get('/api/plans', { unit: 'month' }, { cache: true })).toBe(1);
    vi.setSystemTime(Date.now() + 59000);
    expect(await api.get('/api/plans', { unit: 'month' }, { cache: true })).toBe(1);
    expect(await api.get('/api/plans', { unit: 'day' }, { cache: true })).toBe(2); // other params, other entry
    expect(await api.get('/api/plans', { unit: 'month' })).toBe(3); // not asked to cache
    s.company = 'B2';
    expect(await api.get('/api/plans', { unit: 'month' }, { cache: true })).toBe(4); // other business
    s.company = 'B10001';
    vi.setSystemTime(Date.now() + 1001);
    expect(await api.get('/api/plans', { unit: 'month' }, { cache: true })).toBe(5);
    expect(await api.get('/api/plans', { unit: 'month' }, { cache: { ttl: 10 } })).toBe(5);
  });

  it('honours a custom ttl and is cleared by writes and clearRequestCache', async () => {
    session();
    vi.useFakeTimers({ toFake: ['Date'] });
    let n = 0;
    fallback = (r, res) => json(res, 200, { code: 0, data: r.method === 'GET' ? ++n : null });
    expect(await api.get('/api/a', undefined, { cache: { ttl: 1000 } })).toBe(1);
    vi.setSystemTime(Date.now() + 1001);
    expect(await api.get('/api/a', undefined, { cache: { ttl: 1000 } })).toBe(2);
    expect(await api.get('/api/a', undefined, { cache: true })).toBe(2);
    await api.del('/api/bank-accounts/1');
    expect(await api.get('/api/a', undefined, { cache: true })).toBe(3);
    clearRequestCache();
    expect(await api.get('/api/a', undefined, { cache: true })).toBe(4);
  });

  it('shares a GET already on its way with a second caller, but not across a write, a business, a signal or own headers', async () => {
    const s = session();
    let n = 0;
    fallback = (r, res) => setTimeout(() => json(res, 200, { code: 0, data: r.method === 'GET' ? ++n : null }), 20);
    // A detail and its pay card ask for the same order at once: one request, one answer for both.
    expect(await Promise.all([api.get('/api/orders/4'), api.get('/api/orders/4')])).toEqual([1, 1]);
    expect(seen.filter((r) => r.method === 'GET')).toHaveLength(1);
    // Finished: the next caller asks again.
    expect(await api.get('/api/orders/4')).toBe(2);
    // Other query, other business, its own signal: requests of their own.
    seen = [];
    const ac = new AbortController();
    const other = api.get('/api/orders', { current: 1 });
    const same = api.get('/api/orders', { current: 1 });
    const own = api.get('/api/orders', { current: 1 }, { signal: ac.signal });
    const ownHeaders = api.get('/api/orders', { current: 1 }, { headers: { Accept: 'text/csv' } });
    s.company = 'B2';
    const otherBusiness = api.get('/api/orders', { current: 1 });
    await Promise.all([other, same, own, ownHeaders, otherBusiness]);
    expect(await other).toBe(await same);
    expect(seen.filter((r) => r.method === 'GET')).toHaveLength(4);
    // A GET asked for after a write started does not get the answer of one sent before it.
    seen = [];
    const before = api.get('/api/a');
    const write = api.post('/api/claims', {});
    const after = api.get('/api/a');
    await Promise.all([before, write, after]);
    expect(await after).not.toBe(await before);
    expect(seen.filter((r) => r.method === 'GET')).toHaveLength(2);
  });

  it('a preloaded GET answers the page that opens, its parts for a second after, then no one; a write drops it', async () => {
    session();
    vi.useFakeTimers({ toFake: ['Date'] });
    let n = 0;
    fallback = (r, res) => json(res, 200, { code: 0, data: r.method === 'GET' ? ++n : null });
    const settled = () => new Promise((r) => setTimeout(r, 20));
    // Pressed a link: the order is asked for once; the detail and its pay card, opening later, get that answer.
    preloadGet('/api/orders/4');
    preloadGet('/api/orders/4');
    await settled();
    vi.setSystemTime(Date.now() + 100);
    expect(await api.get('/api/orders/4')).toBe(1);
    vi.setSystemTime(Date.now() + 900);
    expect(await api.get('/api/orders/4')).toBe(1);
    expect(seen.filter((r) => r.method === 'GET')).toHaveLength(1);
    // A second after the page read it, a reload asks the gateway again.
    vi.setSystemTime(Date.now() + 101);
    expect(await api.get('/api/orders/4')).toBe(2);
    // Not read within PRELOAD_TTL_MS: dropped; pressing the link again asks again, and that answer is read.
    preloadGet('/api/orders/5');
    await settled();
    vi.setSystemTime(Date.now() + PRELOAD_TTL_MS + 1);
    preloadGet('/api/orders/5');
    await settled();
    expect(seen.filter((r) => r.method === 'GET')).toHaveLength(4);
    expect(await api.get('/api/orders/5')).toBe(4);
    // A write between the preload and the page: the page's GET is sent after the write.
    preloadGet('/api/orders/6');
    await settled();
    await api.post('/api/payments/pay', {});
    expect(await api.get('/api/orders/6')).toBe(6);
    expect(seen.filter((r) => r.method === 'GET').map((r) => r.url)).toEqual(['/api/orders/4', '/api/orders/4', '/api/orders/5', '/api/orders/5', '/api/orders/6', '/api/orders/6']);
  });

  it('a page that reads a preloaded GET still on its way shares it; a second after the answer, a reload asks again', async () => {
    session();
    let n = 0;
    fallback = (r, res) => setTimeout(() => json(res, 200, { code: 0, data: r.method === 'GET' ? ++n : null }), 30);
    preloadGet('/api/orders/7');
    const first = api.get('/api/orders/7');
    expect(await first).toBe(1);
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() + 900);
    expect(await api.get('/api/orders/7')).toBe(1); // the pay card, a moment later
    vi.setSystemTime(Date.now() + 200);
    expect(await api.get('/api/orders/7')).toBe(2); // a reload
    expect(seen.filter((r) => r.method === 'GET')).toHaveLength(2);
  });

  it('sends an Idempotency-Key on writes, fresh per call unless given, kept across a renewal', async () => {
    session();
    await api.post('/api/claims', {});
    await api.post('/api/claims', {});
    await api.del('/api/bank-accounts/1', { idempotencyKey: 'submit-1' });
    await api.put('/api/x', {}, { idempotencyKey: 'submit-1' });
    const keys = seen.map((s) => s.headers['idempotency-key']);
    expect(keys[0]).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(keys[1]).not.toBe(keys[0]);
    expect(keys.slice(2)).toEqual(['submit-1', 'submit-1']);

    seen = [];
    queue(reply(401, { code: 40100, message: '登录已过期' }), reply(200, { code: 0, data: { token: 'n', refreshToken: 'rn' } }));
    await api.post('/api/claims', { a: 1 });
    expect(seen[2].headers['idempotency-key']).toBe(seen[0].headers['idempotency-key']);
  });
});
