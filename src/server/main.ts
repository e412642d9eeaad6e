import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { startServer, StartupError, type RunningServer, type StartServerOptions } from './server.ts';
import { DataDirInUseError } from './db.ts';
import { declaredProduction, trustProxyFrom } from './environment.ts';
import { DEMO_PASSWORD, DEMO_PHONE } from './seed.ts';
import { validateSchemaDir } from '../schema/load-node.ts';
import { formatIssues } from '../schema/validate.ts';
import { MigrationFileFailed, MigrationRefused } from './entity/migrate.ts';
import { forgetRepoEntities } from './entity/repo.ts';
import { followSchemaEdits } from './schema-reload.ts';

const env = process.env;

function fail(message: string): never {
  console.error(`Cannot start: ${message}`);
  process.exit(2);
}

/** The schemas' problems in one message, or undefined when schemas/ is valid. */
function schemaProblems(): { problems?: string; fileCount: number } {
  const { files, issues } = validateSchemaDir(resolve('.'));
  const fileCount = Object.keys(files).length;
  return issues.length ? { problems: `schemas/ has ${issues.length} problem(s):\n${formatIssues(issues)}`, fileCount } : { fileCount };
}

// The console is rendered from schemas/: refuse to serve it when any schema is wrong.
const { problems, fileCount } = schemaProblems();
if (problems) fail(problems);

// Production unless told otherwise (environment.ts): demo mode (public demo accounts and data, the
// development SMS and payment providers) only when asked for explicitly, and never in a declared production.
const demo = process.argv.includes('--demo') || env.DEMO === '1';
if (demo && declaredProduction(env)) fail('--demo / DEMO=1 is not allowed in production (APP_ENV or NODE_ENV is "production")');

const port = env.PORT ? Number(env.PORT) : 8080;
if (!Number.isInteger(port) || port < 0 || port > 65535) fail(`PORT must be a whole number from 0 to 65535, got "${env.PORT}"`);
const staticDir = env.STATIC_DIR ? resolve(env.STATIC_DIR) : existsSync('dist/index.html') ? resolve('dist') : undefined;
// The schema studio's API (`npm run dev` passes --studio); startServer refuses it in production.
const studio = process.argv.includes('--studio');

const options: StartServerOptions = {
  port,
  host: env.HOST || '127.0.0.1',
  dataDir: env.DATA_DIR || '.data/pglite',
  databaseUrl: env.DATABASE_URL || undefined,
  basePath: env.BASE_PATH || '/',
  staticDir,
  seed: demo,
  studio,
  logLevel: env.LOG_LEVEL || 'info',
  trustProxy: trustProxyFrom(env.TRUST_PROXY),
  fakeClock: env.FAKE_CLOCK === '1',
};

/** What a failed start tells the person who started it; undefined for an error nobody foresaw. */
function startFailure(err: NodeJS.ErrnoException): string | undefined {
  if (err instanceof StartupError || err instanceof DataDirInUseError || err instanceof MigrationRefused || err instanceof MigrationFileFailed) return err.message;
  if (err.code === 'EADDRINUSE') return `port ${port} is already in use; set PORT to another port`;
  if (err.code === 'ECONNREFUSED') return `the PostgreSQL server in DATABASE_URL refused the connection (${err.message})`;
  return undefined;
}

let running: RunningServer | undefined = await startServer(options).catch((err: NodeJS.ErrnoException) => {
  const message = startFailure(err);
  if (message) fail(message);
  throw err;
});

console.log(`Schemas OK (${fileCount} files)`);
for (const line of running.providers) console.log(`Using ${line}`);
console.log(`Console ready at ${running.url}`);
if (demo) console.log(`Demo sign-in: phone ${DEMO_PHONE}, password ${DEMO_PASSWORD}`);
if (!staticDir) console.log('(No built UI found: API only. Run `npm run build` or set STATIC_DIR.)');

// With the studio (development), a saved schema starts the gateway again in this process (schema-reload.ts).
// Wrong schemas keep the running gateway on the files it started with; a start that fails (a migration
// refused) waits for the next save, as the process did under tsx watch.
const follower = studio
  ? followSchemaEdits(resolve('.'), async () => {
      const { problems: now, fileCount: count } = schemaProblems();
      if (now) {
        // After a start the database refused, no gateway runs: it waits for a valid save either way.
        const meanwhile = running ? 'The gateway goes on with the schemas it started with' : 'The gateway starts again';
        console.error(`${now}\n${meanwhile}; save the file again once it is fixed.`);
        return;
      }
      await running?.close();
      running = undefined;
      forgetRepoEntities();
      try {
        running = await startServer(options);
        console.log(`Schemas reloaded (${count} files): console ready at ${running.url}`);
      } catch (err) {
        const message = startFailure(err as NodeJS.ErrnoException);
        if (!message) throw err;
        console.error(`Cannot start: ${message}\nThe gateway starts again at the next save under schemas/.`);
      }
    })
  : undefined;

// Graceful shutdown: stop accepting, let in-flight requests finish (up to 10 s), close the database.
let stopping = false;
const stop = (signal: string) => {
  if (stopping) return;
  stopping = true;
  console.log(`\n${signal} received, shutting down…`);
  follower?.close();
  const force = setTimeout(() => process.exit(1), 15000);
  force.unref();
  Promise.resolve(running?.close()).then(
    () => process.exit(0),
    (err) => {
      console.error(err);
      process.exit(1);
    },
  );
};
process.on('SIGINT', () => stop('SIGINT'));
process.on('SIGTERM', () => stop('SIGTERM'));
