/**
 * Starts the real gateway through its stable entry point `startServer` on an ephemeral port, in a
 * child process of its own (bench/lib/gateway-child.ts) like a production gateway process, and signs
 * in as the demo user. Only the public HTTP API is used afterwards.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';
import { embeddedUpkeepFromEnv, UPKEEP_IDLE_MS } from '../../src/server/http/embedded-upkeep.ts';
import type { StartServerOptions } from '../../src/server/server.ts';
import { settle } from './settle.ts';

export const DEMO = { phone: '13800000000', password: 'demo1234' };
export const BUSINESS = 'B10001';
export const OTHER_BUSINESS = 'B10002';

export type DbTarget = { driver: 'postgres'; url: string } | { driver: 'pglite'; dataDir: string };

export interface Gateway {
  origin: string;
  /** The gateway's process id (its memory: lib/rss.ts). */
  pid: number;
  token: string;
  /** Headers for business-scoped API calls. */
  headers(business?: string): Record<string, string>;
  get<T = any>(path: string, business?: string): Promise<T>;
  post<T = any>(path: string, body: unknown, business?: string): Promise<{ status: number; body: T }>;
  /**
   * Waits (bounded, 5 min) until the gateway answers a cheap request again: requests a load
   * generator gave up on may still be queued server-side (PGlite runs one query at a time), and they
   * must not be billed to the next case. Returns the milliseconds waited.
   */
  drain(): Promise<number>;
  close(): Promise<void>;
}

export function describeTarget(t: DbTarget): string {
  return t.driver === 'postgres' ? 'PostgreSQL' : 'PGlite';
}

export async function startGateway(target: DbTarget, opts: { staticDir?: string; serverModule?: string } = {}): Promise<Gateway> {
  const server = await spawnGateway(opts.serverModule, {
    port: 0,
    host: '127.0.0.1',
    ...(target.driver === 'postgres' ? { databaseUrl: target.url } : { dataDir: target.dataDir }),
    ...(opts.staticDir ? { staticDir: opts.staticDir } : {}),
    seed: true,
    // The bench measures lists and writes, not the per-IP API limit (600/min), which all its traffic from
    // 127.0.0.1 would hit within seconds.
    limits: { apiPerMinute: 100_000_000 },
  });
  const origin = `http://127.0.0.1:${server.port}`;
  const headers = (business = BUSINESS): Record<string, string> => ({
    authorization: `Bearer ${gw.token}`,
    'x-company-id': business,
  });
  const gw: Gateway = {
    origin,
    pid: server.pid,
    token: '',
    headers,
    async get(path, business) {
      const r = await fetch(origin + path, { headers: headers(business), signal: AbortSignal.timeout(120_000) });
      const body = (await r.json()) as { code: number; message?: string; data: unknown };
      if (!r.ok || body.code !== 0) throw new Error(`GET ${path}: HTTP ${r.status} ${JSON.stringify(body).slice(0, 300)}`);
      return body.data as any;
    },
    async post(path, payload, business) {
      const r = await fetch(origin + path, {
        method: 'POST',
        headers: { ...headers(business), 'content-type': 'application/json' },
        body: JSON.stringify(payload),
        signal: AbortSignal.timeout(300_000),
      });
      const text = await r.text();
      let body: any = text;
      try {
        body = JSON.parse(text);
      } catch {
        /* not JSON */
      }
      return { status: r.status, body };
    },
    async drain() {
      const t0 = Date.now();
      const r = await fetch(`${origin}/api/plans`, { headers: headers(), signal: AbortSignal.timeout(300_000) });
      await r.arrayBuffer();
      return Date.now() - t0;
    },
    close: () => server.close(),
  };
  const login = await fetch(`${origin}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(DEMO),
  });
  const lb = (await login.json()) as { data?: { token?: string } };
  if (!login.ok || !lb.data?.token) {
    await server.close();
    throw new Error(`demo sign-in failed: HTTP ${login.status} ${JSON.stringify(lb).slice(0, 300)}`);
  }
  gw.token = lb.data.token;
  if (target.driver === 'pglite') await quietForUpkeep();
  return gw;
}

/**
 * An embedded database's gateway vacuums its tables once it has been quiet a while
 * (src/server/http/embedded-upkeep.ts): PGlite has no autovacuum, and the demo seed's start-up just
 * updated every bench person (their automatic-insurance reasons). A live gateway has such quiet
 * moments; the bench gives it one before measuring, and waits until the machine is idle again.
 */
async function quietForUpkeep(): Promise<void> {
  const upkeep = embeddedUpkeepFromEnv();
  if (upkeep === false) return;
  const t0 = Date.now();
  await sleep((upkeep.idleMs ?? UPKEEP_IDLE_MS) + 1500);
  await settle({ maxMs: 120_000 });
  console.log(`    PGlite: ${((Date.now() - t0) / 1000).toFixed(1)} s quiet for the gateway's upkeep of its database (VACUUM, ANALYZE)`);
}

/** Runs startServer(options) (of `serverModule`, default this checkout's) in a child process; resolves with its port once it listens. */
async function spawnGateway(serverModule: string | undefined, options: StartServerOptions): Promise<{ port: number; pid: number; close(): Promise<void> }> {
  const child = spawn(process.execPath, [...(process.env.BENCH_GATEWAY_NODE_ARGS?.split(' ').filter(Boolean) ?? []), '--import', 'tsx', fileURLToPath(new URL('./gateway-child.ts', import.meta.url))], {
    env: {
      ...process.env,
      // An embedded database on disk keeps its files in <DATA_DIR>/files, as a deployment's does; without
      // it they went to this checkout's .data/files, which the test suite then found there.
      ...(options.dataDir && options.dataDir !== 'memory' ? { DATA_DIR: options.dataDir } : {}),
      // As `npm start` and `npm run serve` start a gateway (README, Configuration).
      MALLOC_ARENA_MAX: process.env.MALLOC_ARENA_MAX ?? '2',
      BENCH_GATEWAY_OPTIONS: JSON.stringify(options),
      ...(serverModule ? { BENCH_GATEWAY_SERVER: serverModule } : {}),
    },
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const exited = once(child, 'exit');
  const lines = createInterface({ input: child.stdout! });
  // BENCH_GATEWAY_LOG=1: the gateway's log on the bench's stderr (e.g. the roster parses' phase timings).
  if (process.env.BENCH_GATEWAY_LOG) lines.on('line', (line) => process.stderr.write(`${line}\n`));
  const port = await new Promise<number>((resolve, reject) => {
    lines.on('line', (line) => {
      const m = /^\{"port":(\d+)\}$/.exec(line.trim());
      if (m) resolve(Number(m[1]));
    });
    exited.then(([code]) => reject(new Error(`gateway process exited with code ${code} before listening`)));
  });
  return {
    port,
    pid: child.pid!,
    async close() {
      if (child.exitCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}
