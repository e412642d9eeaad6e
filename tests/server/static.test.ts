import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDb, type Db } from '../../src/server/db.ts';
import { migrate } from '../../src/server/migrate.ts';
import { seed } from '../../src/server/seed.ts';
import { startServer, type RunningServer } from '../../src/server/server.ts';
import { DEMO } from './helpers.ts';

const INDEX = `<!doctype html><html><head><title>t</title>
<script type="module" crossorigin src="./assets/index-abc.js"></script>
<link rel="stylesheet" href="./assets/index-abc.css"></head><body><div id="root"></div></body></html>`;

const BIG = `export const words = ${JSON.stringify('保险'.repeat(2000))};\n`;

let dir: string;
let db: Db;
let rooted: RunningServer;
let based: RunningServer;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'gw-static-'));
  mkdirSync(join(dir, 'assets'));
  writeFileSync(join(dir, 'index.html'), INDEX);
  writeFileSync(join(dir, 'assets', 'index-abc.js'), 'console.log("hi")');
  writeFileSync(join(dir, 'assets', 'big-abc.js'), BIG);
  writeFileSync(join(dir, 'assets', 'big-abc.js.br'), brotliCompressSync(BIG));
  writeFileSync(join(dir, 'assets', 'big-abc.js.gz'), gzipSync(BIG));
  writeFileSync(join(dir, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  writeFileSync(join(tmpdir(), 'gw-secret.txt'), 'secret');
  // One database shared by two servers: mounted at '/' and under '/console/'.
  db = await openDb({ dataDir: 'memory' });
  await migrate(db);
  await seed(db);
  rooted = await startServer({ port: 0, db, staticDir: dir, production: false });
  based = await startServer({ port: 0, db, staticDir: dir, basePath: '/console', production: false });
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
    // The one inline script carries a per-response CSP nonce, the config and the schemas the gateway runs on.
    expect(html).toMatch(/<script nonce="[A-Za-z0-9+/=]{24}">window\.__APP_CONFIG__=\{"basePath":"\/console\/","env":"development"\};window\.__APP_SCHEMAS__=\{"schemas\/.*\}<\/script><\/head>/);
    const schemas = JSON.parse(/window\.__APP_SCHEMAS__=(\{.*\})<\/script>/.exec(html)![1]);
    expect(schemas['schemas/routes.json'].defaultPath).toBe('/mine/home');
    expect(schemas['schemas/entities/order.json'].label).toBe('订单');
    expect(Object.keys(schemas).some((k) => k.startsWith('schemas/meta/')), 'editor meta schemas stay on the server').toBe(false);
    const root = await (await fetch(based.url)).text();
    const noNonce = (s: string) => s.replace(/nonce="[^"]*"/, 'nonce=""');
    expect(noNonce(root)).toBe(noNonce(html));
  });

  it('rewrites for the root base path too', async () => {
    const html = await (await fetch(`${rooted.url}claims`)).text();
    expect(html).toContain('src="/assets/index-abc.js"');
    expect(html).toContain('window.__APP_CONFIG__={"basePath":"/","env":"development"}');
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

  it('serves precompressed brotli or gzip siblings of assets with the immutable header', async () => {
    const br = await fetch(`${based.url}assets/big-abc.js`, { headers: { 'accept-encoding': 'br, gzip' } });
    expect(br.status).toBe(200);
    expect(br.headers.get('content-encoding')).toBe('br');
    expect(br.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(br.headers.get('content-type')).toMatch(/text\/javascript/);
    expect(await br.text()).toBe(BIG);
    const gz = await fetch(`${based.url}assets/big-abc.js`, { headers: { 'accept-encoding': 'gzip' } });
    expect(gz.headers.get('content-encoding')).toBe('gzip');
    expect(gz.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(await gz.text()).toBe(BIG);
  });

  it('sends security headers; the injected config script carries the CSP nonce', async () => {
    const res = await fetch(`${based.url}orders`);
    expect(res.headers.get('cache-control')).toBe('no-cache');
    const csp = res.headers.get('content-security-policy') ?? '';
    const nonce = /'nonce-([^']+)'/.exec(csp)?.[1];
    expect(nonce).toBeTruthy();
    expect(await res.text()).toContain(`<script nonce="${nonce}">window.__APP_CONFIG__=`);
    for (const d of [
      "default-src 'self'",
      `script-src 'self' 'nonce-${nonce}'`,
      "style-src 'self' 'unsafe-inline'",
      "img-src 'self' data: blob:",
      "font-src 'self' data:",
      "connect-src 'self'",
      "object-src 'none'",
      "base-uri 'self'",
      "frame-ancestors 'none'",
      "form-action 'self'",
    ]) {
      expect(csp).toContain(d);
    }
    const api = await fetch(`${based.url}api/orders`);
    for (const r of [res, api]) {
      expect(r.headers.get('x-frame-options')).toBe('DENY');
      expect(r.headers.get('x-content-type-options')).toBe('nosniff');
      expect(r.headers.get('referrer-policy')).toBe('strict-origin-when-cross-origin');
      expect(r.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    }
    // An API answer has no inline script: the same policy, scripts from 'self' only.
    expect(api.headers.get('content-security-policy')).toBe(csp.replace(` 'nonce-${nonce}'`, ''));
    // A fresh nonce per response.
    const again = await fetch(`${based.url}orders`);
    expect(again.headers.get('content-security-policy')).not.toContain(nonce!);
  });

  it('puts env, services and sentryDsn into the injected config', async () => {
    const s = await startServer({ port: 0, db, staticDir: dir, production: false, appConfig: { env: 'staging', services: { files: 'https://f.example' }, sentryDsn: 'https://k@s.example/1' } });
    try {
      const html = await (await fetch(s.url)).text();
      expect(html).toContain('window.__APP_CONFIG__={"basePath":"/","env":"staging","services":{"files":"https://f.example"},"sentryDsn":"https://k@s.example/1"}');
    } finally {
      await s.close();
    }
  });
});
