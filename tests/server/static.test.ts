import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDb, type Db } from '../../src/server/db.ts';
import { migrate } from '../../src/server/migrate.ts';
import { seed } from '../../src/server/seed.ts';
import { startServer, type RunningServer } from '../../src/server/server.ts';
import { DEMO } from './helpers.ts';

const INDEX = `<!doctype html><html><head><title>t</title>
<script type="module" crossorigin src="./assets/index-abc.js"></script>
<link rel="stylesheet" href="./assets/index-abc.css"></head><body><div id="root"></div></body></html>`;

let dir: string;
let db: Db;
let rooted: RunningServer;
let based: RunningServer;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'gw-static-'));
  mkdirSync(join(dir, 'assets'));
  writeFileSync(join(dir, 'index.html'), INDEX);
  writeFileSync(join(dir, 'assets', 'index-abc.js'), 'console.log("hi")');
  writeFileSync(join(dir, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  writeFileSync(join(tmpdir(), 'gw-secret.txt'), 'secret');
  // One database shared by two servers: mounted at '/' and under '/console/'.
  db = await openDb({ dataDir: 'memory' });
  await migrate(db);
  await seed(db);
  rooted = await startServer({ port: 0, db, staticDir: dir });
  based = await startServer({ port: 0, db, staticDir: dir, basePath: '/console' });
}, 60000);

afterAll(async () => {
  await rooted?.close();
  await based?.close();
  await db?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('static serving', () => {
  it('normalises the base path in the url', () => {
    expect(based.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/console\/$/);
    expect(rooted.url).toMatch(/\/$/);
  });

  it('SPA fallback rewrites index.html for the base path', async () => {
    const res = await fetch(`${based.url}orders/123?tab=x`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/text\/html/);
    const html = await res.text();
    expect(html).not.toContain('"./assets/');
    expect(html).toContain('src="/console/assets/index-abc.js"');
    expect(html).toContain('href="/console/assets/index-abc.css"');
    // The one inline script carries a per-response CSP nonce.
    expect(html).toMatch(/<script nonce="[A-Za-z0-9+/=]{24}">window\.__APP_CONFIG__=\{"basePath":"\/console\/","env":"production"\}<\/script><\/head>/);
    const root = await (await fetch(based.url)).text();
    const noNonce = (s: string) => s.replace(/nonce="[^"]*"/, 'nonce=""');
    expect(noNonce(root)).toBe(noNonce(html));
  });

  it('rewrites for the root base path too', async () => {
    const html = await (await fetch(`${rooted.url}claims`)).text();
    expect(html).toContain('src="/assets/index-abc.js"');
    expect(html).toContain('window.__APP_CONFIG__={"basePath":"/","env":"production"}');
  });

  it('serves assets with content type and long cache', async () => {
    const res = await fetch(`${based.url}assets/index-abc.js`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/text\/javascript/);
    expect(res.headers.get('cache-control')).toMatch(/immutable/);
    expect(await res.text()).toBe('console.log("hi")');
    const svg = await fetch(`${based.url}favicon.svg`);
    expect(svg.headers.get('content-type')).toBe('image/svg+xml');
    const missing = await fetch(`${based.url}assets/missing.js`);
    expect(missing.status).toBe(404);
    expect(await missing.json()).toEqual({ code: 40400, message: '资源不存在：/console/assets/missing.js' });
  });

  it('does not escape the static directory', async () => {
    const res = await fetch(`${rooted.url}..%2Fgw-secret.txt`);
    expect(await res.text()).not.toBe('secret');
  });

  it('serves the API both at /api and under the base path', async () => {
    const origin = based.url.replace(/\/console\/$/, '');
    for (const p of ['/api/auth/login', '/console/api/auth/login']) {
      const r = await fetch(origin + p, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(DEMO) });
      expect(r.status).toBe(200);
      expect((await r.json()).code).toBe(0);
    }
    const nf = await fetch(`${origin}/console/api/nothing`);
    expect(nf.status).toBe(404);
    expect(await nf.json()).toEqual({ code: 40400, message: '接口不存在：GET /api/nothing' });
  });
});
