import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll } from 'vitest';
import { adminMain } from '../../src/server/admin-commands.ts';
import type { Db } from '../../src/server/db.ts';
import { startServer, type RunningServer, type StartServerOptions } from '../../src/server/server.ts';
import { toRes, type Res } from './helpers.ts';
import type { Target } from './money-helpers.ts';

export const OPERATOR_TOKEN = 'test-operator-token-0123456789abcdef0123456789';

export interface SmsRequest {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: { phone?: string; purpose?: string; code?: string; text?: string };
}

/** A local stand-in for an SMS vendor's HTTP API: records each request and answers `status` (200 unless changed). */
export function useSmsDouble(): { readonly url: string; requests: SmsRequest[]; status: number } {
  const double = { url: '', requests: [] as SmsRequest[], status: 200 };
  const server = createServer((req, res) => {
    let text = '';
    req.on('data', (c) => (text += c));
    req.on('end', () => {
      let body = {};
      try {
        body = JSON.parse(text);
      } catch {
        /* recorded as {} */
      }
      double.requests.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
      res.writeHead(double.status, { 'content-type': 'application/json' }).end('{"ok":true}');
    });
  });
  beforeAll(async () => {
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    double.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/sms/send`;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));
  return double;
}

/** A production gateway (no demo data, no development providers) on the target's empty database. */
export interface ProdGateway {
  db: Db;
  server: RunningServer;
  call(method: string, path: string, o?: { body?: unknown; token?: string | null; headers?: Record<string, string> }): Promise<Res>;
}

export function useProdGateway(t: Target, opts: () => Partial<StartServerOptions> = () => ({})): ProdGateway {
  const g = {} as ProdGateway;
  beforeAll(async () => {
    g.db = await t.openEmpty();
    g.server = await startServer({ port: 0, db: g.db, production: true, ...opts() });
  }, 120_000);
  afterAll(async () => {
    await g.server?.close();
    await g.db?.close();
  });
  g.call = async (method, path, o = {}) => {
    const headers: Record<string, string> = { ...o.headers };
    if (o.token) headers.authorization = `Bearer ${o.token}`;
    if (o.body !== undefined) headers['content-type'] = 'application/json';
    const origin = g.server.url.replace(/\/$/, '');
    return toRes(await fetch(origin + path, { method, headers, body: o.body === undefined ? undefined : JSON.stringify(o.body) }));
  };
  return g;
}

export async function rows(db: Db, sql: string, params: unknown[] = []): Promise<number> {
  const [r] = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM (${sql}) x`, params);
  return Number(r.n);
}

/**
 * `npm run admin -- …` in this process (adminMain, what src/server/admin.ts runs) with `env` set for the
 * call (no SMS provider unless given); saves a tsx start-up per command (admin-cli.test.ts spawns the real one).
 */
export async function runAdmin(args: string[], env: Record<string, string>): Promise<{ code: number; out: string; err: string }> {
  const vars = { SMS_HTTP_URL: '', SMS_HTTP_TOKEN: '', ...env };
  const saved = Object.fromEntries(Object.keys(vars).map((k) => [k, process.env[k]]));
  Object.assign(process.env, vars);
  const out: string[] = [];
  const err: string[] = [];
  try {
    const code = await adminMain(args, { out: (l) => out.push(l), err: (l) => err.push(l) });
    return { code, out: out.join('\n').trim(), err: err.join('\n').trim() };
  } finally {
    for (const [k, v] of Object.entries(saved)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  }
}
