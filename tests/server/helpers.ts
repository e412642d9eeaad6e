import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { startServer, type RunningServer, type StartServerOptions } from '../../src/server/server.ts';
import { windowAt } from '../../src/server/services/rate-limit.ts';

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
  /** Where the gateway answers, without the base path and the trailing slash. */
  readonly origin: string;
  call(method: string, path: string, opts?: { body?: unknown; raw?: string; token?: string | null; biz?: string | null; headers?: Record<string, string> }): Promise<Res>;
  login(): Promise<{ token: string; refreshToken: string }>;
  token: string;
}

/** A fetch response as tests read it: the status, the body parsed as JSON when it is JSON, the headers. */
export async function toRes(res: Response): Promise<Res> {
  const text = await res.text();
  let body: any = text;
  try {
    body = JSON.parse(text);
  } catch {
    /* not JSON */
  }
  return { status: res.status, body, headers: res.headers };
}

const START_DEFAULTS: StartServerOptions = { port: 0, host: '127.0.0.1', dataDir: 'memory', seed: true };

/** A client of the gateway `server()` returns (read on each call, so the server may start later). */
function clientOf(server: () => RunningServer): Client {
  const client: Client = {
    get server() {
      return server();
    },
    get origin() {
      const s = server();
      return s.url.replace(/\/$/, '').replace(new RegExp(`${s.basePath.replace(/\/$/, '')}$`), '');
    },
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
      return toRes(await fetch(client.origin + path, { method, headers, body: payload }));
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

export async function boot(opts: StartServerOptions = {}): Promise<Client> {
  const server = await startServer({ ...START_DEFAULTS, ...opts });
  return clientOf(() => server);
}

/**
 * For a test file (or describe block): a gateway with demo data, started and signed in as the demo
 * user before its tests and closed after them.
 */
export function useGateway(opts: StartServerOptions = {}, timeout = 60_000): Client {
  let running: RunningServer | undefined;
  const client = clientOf(() => {
    if (!running) throw new Error('the gateway starts in beforeAll: use it inside a test');
    return running;
  });
  beforeAll(async () => {
    running = await startServer({ ...START_DEFAULTS, ...opts });
    await client.login();
  }, timeout);
  afterAll(async () => {
    await running?.close();
  });
  return client;
}

/**
 * For a test file: a fresh temporary directory as FILES_DIR (where a gateway started after it stores
 * files), so call it before useGateway; FILES_DIR is restored and the directory removed afterwards.
 */
export function useFilesDir(prefix = 'test-files-'): { readonly dir: string } {
  const files = { dir: '' };
  const saved = process.env.FILES_DIR;
  beforeAll(() => {
    files.dir = mkdtempSync(join(tmpdir(), prefix));
    process.env.FILES_DIR = files.dir;
  });
  afterAll(() => {
    if (saved === undefined) delete process.env.FILES_DIR;
    else process.env.FILES_DIR = saved;
    if (files.dir) rmSync(files.dir, { recursive: true, force: true });
  });
  return files;
}

/**
 * Waits, when needed, until the gateway's fixed rate-limit window of `windowMs` has at least `marginMs`
 * left, so requests a test expects to be counted together do not fall into two windows (a test that
 * started a second before the minute turned saw its second code request allowed).
 */
export async function clearOfWindowEdge(windowMs: number, marginMs = 5_000): Promise<void> {
  const { resetMs } = windowAt(windowMs);
  if (resetMs < marginMs) await new Promise((r) => setTimeout(r, resetMs + 50));
}

/** Valid 18-digit mainland ID numbers for test data (tests/id-card.ts, shared with the browser tests). */
export { makeIdCard } from '../id-card.ts';
