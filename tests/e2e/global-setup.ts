import { spawn } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { chromium } from 'playwright-core';
import { CHROMIUM_ARGS, CHROMIUM_PATH, ensureChromium, featuresDropped } from './chromium';
import { DESKTOP, signInToFirstBusiness } from './sign-in';
import { startServer, type RunningServer } from '../../src/server/server';
import { dumpOf, openPglite, type Db } from '../../src/server/db';

/** A gateway's demo user signed in to the demo business once, as the browser stores it. */
export interface SignedInState {
  /** Playwright storage state (the console's localStorage for the gateway's origin), as JSON. */
  storageState: string;
  /** The headers the console sends to the gateway. */
  auth: Record<string, string>;
}

/** baseUrl, baseUrls, signedIn and consoleUrl come from setupUrl, put into the context by worker-gateway.ts. */
declare module 'vitest' {
  export interface ProvidedContext {
    /** The gateway of worker 1 (tests/e2e/worker-gateway.ts points it at the file's own worker's gateway). */
    baseUrl: string;
    /** One gateway per worker slot (VITEST_POOL_ID 1…n), each with its own fresh demo data. */
    baseUrls: string[];
    /** The demo user signed in on each gateway of baseUrls (same order). */
    signedIn: SignedInState[];
    /** Gateway 1's database served under the base path /console/ (origin + '/console'). */
    consoleUrl: string;
    /** The one headless Chromium every e2e file connects to (chromium.connect). */
    chromiumWs: string;
    /** Answers GatewaysReady (JSON) once the gateways are up, for worker-gateway.ts. */
    setupUrl: string;
  }
}

/** How many e2e files run at once: vitest's worker count for the project (VITEST_POOL_ID 1…n). */
function workerCount(project: TestProject): number {
  const n = project.config.maxWorkers || project.vitest.config.maxWorkers || Math.max(availableParallelism() - 1, 1);
  return Math.max(1, Number(n));
}

/** What the set-up gives the e2e files once the console is built and the gateways signed in (GET setupUrl). */
export interface GatewaysReady {
  baseUrls: string[];
  baseUrl: string;
  signedIn: SignedInState[];
  consoleUrl: string;
}

/**
 * Builds the console once, starts one headless Chromium for every e2e file and one real gateway
 * (embedded database, fresh demo data) per worker slot, so e2e files that run at the same time never
 * share data; signs the demo user in on each gateway once (files reuse that session).
 *
 * Vitest starts no test file, of any project, before every global set-up has returned; this one returns
 * once Chromium is up (about a second) and does the rest (the build, the gateways, the sign-ins: some 15–25
 * s on a 2-core machine, part of it waiting) while the server and unit files run. The e2e files wait for it
 * in their setup file (worker-gateway.ts), which asks `setupUrl`: a small HTTP server here answering the
 * gateways' context once they are ready, or the set-up's error.
 */
export default async function setup(project: TestProject) {
  ensureChromium();
  const chrome = await chromium.launchServer({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS, headless: true });
  const dropped = featuresDropped(chrome.process().spawnargs);
  if (dropped.length) {
    await chrome.close();
    throw new Error(`CHROMIUM_ARGS's --disable-features (tests/e2e/chromium.ts) drops Playwright's own ${dropped.join(', ')}: add them to PLAYWRIGHT_DISABLED_FEATURES`);
  }
  const servers: RunningServer[] = [];
  /** The databases of the gateways started from gateway 1's dump (a gateway closes only its own database). */
  const copies: Db[] = [];
  const ready = startGateways(project, chrome.wsEndpoint(), servers, copies);
  ready.catch(() => undefined); // reported to the e2e files through setupUrl
  const answer = createServer((_req, res) => {
    ready.then(
      (ctx) => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(ctx)),
      (e: unknown) => res.writeHead(500, { 'content-type': 'text/plain' }).end(e instanceof Error ? (e.stack ?? e.message) : String(e)),
    );
  });
  await new Promise<void>((ok) => answer.listen(0, '127.0.0.1', ok));
  project.provide('setupUrl', `http://127.0.0.1:${(answer.address() as AddressInfo).port}/`);
  project.provide('chromiumWs', chrome.wsEndpoint());
  return async () => {
    await ready.catch(() => undefined);
    await new Promise((ok) => answer.close(ok));
    // The base-path gateway first: it uses gateway 1's database, which gateway 1 closes.
    for (const s of servers.reverse()) await s.close();
    for (const db of copies) await db.close();
    await chrome.close();
  };
}

/** The build, the gateways and their sign-ins; what it started is in `servers` and `copies`, for the teardown. */
async function startGateways(project: TestProject, chromiumWs: string, servers: RunningServer[], copies: Db[]): Promise<GatewaysReady> {
  const root = path.resolve(import.meta.dirname, '../..');
  const dist = path.join(root, 'dist');
  // Vitest runs with NODE_ENV=test; the console under test is the production build. Its .br files are
  // compressed at quality 5, not 11 (vite.config.ts precompress): the same bytes served, a tenth of the CPU.
  // The build runs in its own process while the gateways start here (they read dist/ only when a page is
  // asked for, after the build).
  const builder = spawn(path.join(root, 'node_modules/.bin/vite'), ['build', '--logLevel', 'warn'], { cwd: root, stdio: 'inherit', env: { ...process.env, NODE_ENV: 'production', BROTLI_QUALITY: '5' } });
  const build = new Promise<void>((resolve, reject) => {
    builder.once('error', reject);
    builder.once('exit', (code, signal) => (code === 0 ? resolve() : reject(new Error(`vite build failed (${code ?? signal})`))));
  });
  build.catch(() => undefined); // awaited below, after the gateways have started
  try {
    // fakeClock: a test moves a gateway's clock a day on (PUT /api/dev/clock) to see statuses follow the calendar.
    // The demo data is seeded once: the other slots' gateways start from a copy of gateway 1's database
    // (each its own in-memory database from that dump), not by seeding again (some 2.5 core-seconds each).
    const gateway = (db?: Db) => startServer({ port: 0, host: '127.0.0.1', dataDir: 'memory', db, seed: true, staticDir: dist, fakeClock: true });
    servers.push(await gateway());
    const seeded = workerCount(project) > 1 ? await dumpOf(servers[0].db) : undefined;
    for (let i = 1; i < workerCount(project); i++) {
      const db = await openPglite('memory', seeded);
      copies.push(db);
      servers.push(await gateway(db));
    }
    // The same build under a base path, on gateway 1's database (no second seed; its demo accounts would
    // make a gateway that is production by default refuse to start). Like gateway 1 a development gateway
    // whose files are in that in-memory database, so either gateway may parse an upload of the other.
    const underBase = await startServer({ port: 0, host: '127.0.0.1', db: servers[0].db, dataDir: 'memory', staticDir: dist, basePath: '/console/', production: false });
    servers.push(underBase);
    const urls = servers.slice(0, -1).map((s) => s.url.replace(/\/$/, ''));
    await build;
    const browser = await chromium.connect(chromiumWs);
    const signedIn = await Promise.all(
      urls.map(async (url) => {
        const context = await browser.newContext(DESKTOP);
        const auth = await signInToFirstBusiness(await context.newPage(), url);
        const storageState = JSON.stringify(await context.storageState());
        await context.close();
        return { storageState, auth };
      }),
    );
    await browser.close();
    return { baseUrls: urls, baseUrl: urls[0], signedIn, consoleUrl: underBase.url.replace(/\/$/, '') };
  } catch (e) {
    // A set-up that failed (a gateway, the build) stops the build; the teardown closes the gateways.
    if (builder.exitCode === null) builder.kill();
    throw e;
  }
}
