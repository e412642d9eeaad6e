import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { startServer } from './server.ts';
import { DEMO_PASSWORD, DEMO_PHONE } from './seed.ts';

const env = process.env;
const staticDir = env.STATIC_DIR ? resolve(env.STATIC_DIR) : existsSync('dist/index.html') ? resolve('dist') : undefined;

const running = await startServer({
  port: env.PORT ? Number(env.PORT) : 8080,
  host: env.HOST || '127.0.0.1',
  dataDir: env.DATA_DIR || '.data/pglite',
  databaseUrl: env.DATABASE_URL || undefined,
  basePath: env.BASE_PATH || '/',
  staticDir,
});

console.log(`Console ready at ${running.url}`);
console.log(`Demo sign-in: phone ${DEMO_PHONE}, password ${DEMO_PASSWORD}`);
if (!staticDir) console.log('(No built UI found: API only. Run `npm run build` or set STATIC_DIR.)');

let stopping = false;
const stop = (signal: string) => {
  if (stopping) return;
  stopping = true;
  console.log(`\n${signal} received, shutting down…`);
  const force = setTimeout(() => process.exit(1), 10000);
  force.unref();
  running.close().then(
    () => process.exit(0),
    (err) => {
      console.error(err);
      process.exit(1);
    },
  );
};
process.on('SIGINT', () => stop('SIGINT'));
process.on('SIGTERM', () => stop('SIGTERM'));
