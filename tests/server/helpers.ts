import { startServer, type RunningServer, type StartServerOptions } from '../../src/server/server.ts';

export const DEMO = { phone: '13800000000', password: 'demo1234' };
export const BIZ_ADMIN = 'B10001'; // prepaid, admin, attendance pack
export const BIZ_OPERATOR = 'B10002'; // postpaid, operator, no packs
export const BIZ_OTHER = 'B10003'; // belongs to another user

export interface Res {
  status: number;
  body: any;
  headers: Headers;
}

export interface Client {
  server: RunningServer;
  call(method: string, path: string, opts?: { body?: unknown; raw?: string; token?: string | null; biz?: string | null; headers?: Record<string, string> }): Promise<Res>;
  login(): Promise<{ token: string; refreshToken: string }>;
  token: string;
}

export async function boot(opts: StartServerOptions = {}): Promise<Client> {
  const server = await startServer({ port: 0, host: '127.0.0.1', dataDir: 'memory', seed: true, ...opts });
  const origin = server.url.replace(/\/$/, '').replace(new RegExp(`${server.basePath.replace(/\/$/, '')}$`), '');
  const client: Client = {
    server,
    token: '',
    async call(method, path, o = {}) {
      const headers: Record<string, string> = {};
      const token = o.token === undefined ? client.token : o.token;
      if (token) headers.authorization = `Bearer ${token}`;
      const biz = o.biz === undefined ? BIZ_ADMIN : o.biz;
      if (biz) headers['x-company-id'] = biz;
      let payload: string | undefined;
      if (o.raw !== undefined) payload = o.raw;
      else if (o.body !== undefined) payload = JSON.stringify(o.body);
      if (payload !== undefined) headers['content-type'] = 'application/json';
      Object.assign(headers, o.headers);
      const res = await fetch(origin + path, { method, headers, body: payload });
      const text = await res.text();
      let body: any = text;
      try {
        body = JSON.parse(text);
      } catch {
        /* not JSON */
      }
      return { status: res.status, body, headers: res.headers };
    },
    async login() {
      const r = await client.call('POST', '/api/auth/login', { body: DEMO, token: null, biz: null });
      if (r.status !== 200) throw new Error(`login failed: ${JSON.stringify(r.body)}`);
      client.token = r.body.data.token;
      return r.body.data;
    },
  };
  return client;
}

/** Valid 18-digit mainland ID numbers for test data (tests/id-card.ts, shared with the browser tests). */
export { makeIdCard } from '../id-card.ts';
