import { execSync } from 'node:child_process';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { ensureChromium } from './chromium';
import { startServer } from '../../src/server/server';

declare module 'vitest' {
  export interface ProvidedContext {
    baseUrl: string;
  }
}

/**
 * Installs Chromium if needed, builds the console and starts the real gateway (embedded database,
 * fresh demo data) serving that build on an ephemeral port.
 */
export default async function setup(project: TestProject) {
  ensureChromium();
  const root = path.resolve(import.meta.dirname, '../..');
  // Vitest runs with NODE_ENV=test; the console under test is the production build.
  execSync('npx vite build --logLevel warn', { cwd: root, stdio: 'inherit', env: { ...process.env, NODE_ENV: 'production' } });
  // fakeClock: a test moves the gateway's clock a day on (PUT /api/dev/clock) to see statuses follow the calendar.
  const server = await startServer({ port: 0, host: '127.0.0.1', dataDir: 'memory', seed: true, staticDir: path.join(root, 'dist'), fakeClock: true });
  project.provide('baseUrl', server.url.replace(/\/$/, ''));
  return async () => {
    await server.close();
  };
}
