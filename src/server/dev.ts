import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { startServer } from './server.ts';
import { DEMO_PASSWORD, DEMO_PHONE } from './seed.ts';

/** Development: gateway API on :8080 plus the Vite dev server (which proxies /api to it). */
const env = process.env;
const gateway = await startServer({
  port: env.PORT ? Number(env.PORT) : 8080,
  host: env.HOST || '127.0.0.1',
  dataDir: env.DATA_DIR || '.data/pglite',
  databaseUrl: env.DATABASE_URL || undefined,
  // Development always runs with the demo accounts and data.
  seed: true,
  logLevel: env.LOG_LEVEL || 'info',
});
console.log(`Gateway API ready at ${gateway.url}api/`);

const viteBin = resolve('node_modules/.bin/vite');
const vite = spawn(viteBin, ['--host', env.HOST || '127.0.0.1'], {
  stdio: ['inherit', 'pipe', 'inherit'],
  env: { ...env, GATEWAY_URL: gateway.url.replace(/\/$/, '') },
});
let announced = false;
vite.stdout.on('data', (chunk: Buffer) => {
  const text = chunk.toString();
  process.stdout.write(text);
  const m = /(http:\/\/[^\s]+)/.exec(text.replace(/\x1b\[[0-9;]*m/g, ''));
  if (!announced && m) {
    announced = true;
    console.log(`\nConsole (dev) ready at ${m[1]}`);
    console.log(`Demo sign-in: phone ${DEMO_PHONE}, password ${DEMO_PASSWORD}\n`);
  }
});

let stopping = false;
const stop = () => {
  if (stopping) return;
  stopping = true;
  if (vite.exitCode === null) vite.kill('SIGTERM');
  gateway.close().then(() => process.exit(0), () => process.exit(1));
};
vite.on('exit', (code) => {
  if (!stopping) {
    console.error(`vite exited with code ${code}`);
    stop();
  }
});
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
