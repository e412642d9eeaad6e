import { afterEach, describe, expect, it, vi } from 'vitest';
import { api, ApiError, configureAuth } from '../../src/services/request';

function json(status: number, body: unknown) {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
}

function session(token = 'old', refreshToken = 'r-old') {
  const s = { token, refreshToken, lost: [] as string[] };
  configureAuth({
    getToken: () => s.token,
    getRefreshToken: () => s.refreshToken,
    getCompanyId: () => 'B10001',
    onTokens: (t, r) => {
      s.token = t;
      s.refreshToken = r;
    },
    onAuthLost: (m) => s.lost.push(m),
  });
  return s;
}

const headerOf = (init: unknown, name: string) => new Headers((init as RequestInit).headers).get(name);

afterEach(() => vi.unstubAllGlobals());

describe('API client', () => {
  it('sends the token and business, and unwraps the envelope', async () => {
    session();
    const fetchMock = vi.fn().mockResolvedValue(json(200, { code: 0, data: { list: [1], total: 1 }, message: 'ok' }));
    vi.stubGlobal('fetch', fetchMock);
    await expect(api.get('/api/orders', { current: 1, orderNo: '', payStatus: 'paid' })).resolves.toEqual({ list: [1], total: 1 });
    const [url, init] = fetchMock.mock.calls[0];
    expect(String(url)).toBe('/api/orders?current=1&payStatus=paid');
    expect(headerOf(init, 'Authorization')).toBe('Bearer old');
    expect(headerOf(init, 'X-Company-Id')).toBe('B10001');
  });

  it('renews an expired token once and retries with the new one', async () => {
    const s = session();
    const fetchMock = vi
      .fn()
      .mockResolvedValueOnce(json(401, { code: 40100, message: '登录已过期，请重新登录' }))
      .mockResolvedValueOnce(json(200, { code: 0, data: { token: 'new', refreshToken: 'r-new' } }))
      .mockResolvedValueOnce(json(200, { code: 0, data: { ok: true } }));
    vi.stubGlobal('fetch', fetchMock);
    await expect(api.get('/api/overview')).resolves.toEqual({ ok: true });
    expect(String(fetchMock.mock.calls[1][0])).toBe('/api/auth/refresh');
    expect(JSON.parse(String((fetchMock.mock.calls[1][1] as RequestInit).body))).toEqual({ refreshToken: 'r-old' });
    expect(headerOf(fetchMock.mock.calls[2][1], 'Authorization')).toBe('Bearer new');
    expect(s).toMatchObject({ token: 'new', refreshToken: 'r-new', lost: [] });
  });

  it('signs out when the session cannot be renewed, passing on the gateway message', async () => {
    const s = session();
    const fetchMock = vi
      .fn()
      .mockResolvedValueOnce(json(401, { code: 40100, message: '登录已过期，请重新登录' }))
      .mockResolvedValueOnce(json(401, { code: 40100, message: '刷新令牌无效' }));
    vi.stubGlobal('fetch', fetchMock);
    const err = await api.get('/api/overview').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect(err).toMatchObject({ status: 401, code: 40100, message: '登录已过期，请重新登录' });
    expect(s.lost).toEqual(['登录已过期，请重新登录']);
    expect(fetchMock).toHaveBeenCalledTimes(2);
  });

  it('carries per-field errors of a refused write', async () => {
    session();
    vi.stubGlobal(
      'fetch',
      vi.fn().mockResolvedValue(json(400, { code: 40000, message: '填写内容有误，请按提示修改', errors: [{ field: 'rows[1].idCard', message: '第 2 行：身份证号不正确' }] })),
    );
    const err = (await api.post('/api/insure/roster', {}).catch((e: unknown) => e)) as ApiError;
    expect(err.fieldErrors).toEqual([{ field: 'rows[1].idCard', message: '第 2 行：身份证号不正确' }]);
    expect(err.status).toBe(400);
  });
});
