import { applyMoneyDdl, backfillAutoStatus, backfillMoney, earliestCoverStart } from './domain/index.ts';
import { entitiesAt, REPO_ROOT } from './entity/repo.ts';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join, resolve } from 'node:path';
import { createApp, normalizeBasePath } from './http/app.ts';
import type { Limits, TestHooks } from './http/types.ts';
import { idleGcFromEnv, type IdleGcOptions } from './http/idle-gc.ts';
import { embeddedUpkeepFromEnv, type EmbeddedUpkeepOptions } from './http/embedded-upkeep.ts';
import { openDb, type Db } from './db.ts';
import { migratedTemplate } from './migrated-template.ts';
import { migrate } from './migrate.ts';
import { applyUploadDdl } from './files/ddl.ts';
import { seed } from './seed.ts';
import { DEV_CLOCK_DDL, storedOffsetClock } from './clock.ts';
import type { PaymentProvider } from './domain/payment.ts';
import { appEnvName, declaredProduction, isProduction } from './environment.ts';
import { describeDatabase, pickProviders, type Providers } from './providers.ts';
import { appConfigFromEnv } from './http/static.ts';
import type { SmsProvider } from './services/sms.ts';

export interface StartServerOptions {
  /** TCP port; 0 picks a free ephemeral port. Default 8080. */
  port?: number;
  /** Interface to bind. Default 127.0.0.1. */
  host?: string;
  /** PGlite data dir ('memory' for in-memory). Ignored when databaseUrl is set. Default .data/pglite. */
  dataDir?: string;
  /** Real PostgreSQL connection string; when set, PostgreSQL is used instead of PGlite. */
  databaseUrl?: string;
  /** URL prefix of the console, e.g. '/console/'. Default '/'. */
  basePath?: string;
  /** Built UI directory to serve (index.html + assets/). No static serving when omitted. */
  staticDir?: string;
  /** Use an already opened database instead of opening one (it is not closed by close()). */
  db?: Db;
  /** Seed demo data (demo accounts with a public password) when the database is empty. Default false. */
  seed?: boolean;
  /** Directory holding schemas/ (default: the repository root). */
  schemaRoot?: string;
  /**
   * SMS provider for codes. Default: the HTTP provider of SMS_HTTP_URL; without one, the development
   * provider (logs the code) in development, none in production (requesting a code then answers 503).
   */
  sms?: SmsProvider;
  /** Payment provider for paying online. Default: the development provider in development, none in production. */
  payments?: PaymentProvider | null;
  /** The operator API's credential (default OPERATOR_TOKEN); without one the operator API answers 404. */
  operatorToken?: string;
  /** Override sign-in / API limits (tests). */
  limits?: Partial<Limits>;
  /** pino log level; default LOG_LEVEL or 'silent'. */
  logLevel?: string;
  /** Trust X-Forwarded-* from a load balancer. */
  trustProxy?: boolean | number | string;
  /**
   * Production (no development providers, demo data refused). Default: production unless APP_ENV is
   * development or demo data is asked for (seed), and always when APP_ENV or NODE_ENV says production.
   */
  production?: boolean;
  /**
   * The schema studio's API (/api/studio/*, src/server/studio): editing the files under schemaRoot.
   * Development only (`npm run dev`); refused in production.
   */
  studio?: boolean;
  /** window.__APP_CONFIG__ extras; default from APP_ENV, SERVICE_URLS, SENTRY_DSN. */
  appConfig?: Record<string, unknown>;
  /** Test-only seams (e.g. hold a request in flight). */
  testHooks?: TestHooks;
  /** How long close() lets in-flight requests finish before cutting connections. Default 10 s. */
  drainMs?: number;
  /**
   * Development/test only (FAKE_CLOCK=1): a clock PUT /api/dev/clock moves, kept in the database
   * (src/server/clock.ts). Refused in production.
   */
  fakeClock?: boolean;
  /** When the quiet gateway collects its garbage (http/idle-gc.ts; default from IDLE_GC_SECONDS); false turns it off. */
  idleGc?: IdleGcOptions | false;
  /** When the quiet gateway vacuums its embedded database (http/embedded-upkeep.ts; default from EMBEDDED_VACUUM_SECONDS); false turns it off. */
  embeddedUpkeep?: EmbeddedUpkeepOptions | false;
}

export interface RunningServer {
  /** e.g. http://127.0.0.1:54321/ (always ends with the base path). */
  url: string;
  port: number;
  basePath: string;
  db: Db;
  server: Server;
  /** What the gateway uses (database, SMS, payments, files), one line each, as said at start-up. */
  providers: string[];
  close(): Promise<void>;
}

/** A refusal to start (main.ts exits with code 2 and prints the message). */
export class StartupError extends Error {
  readonly code = 'E_STARTUP';
}

async function checkProductionSafety(db: Db, opts: StartServerOptions): Promise<void> {
  if (opts.seed) throw new StartupError('demo mode (--demo / DEMO=1) is not allowed in production (APP_ENV/NODE_ENV=production)');
  if (opts.fakeClock) throw new StartupError('a movable clock (FAKE_CLOCK=1) is not allowed in production (APP_ENV/NODE_ENV=production)');
  const demo = await db.query<{ phone: string }>('SELECT phone FROM users WHERE is_demo LIMIT 5');
  if (demo.length) {
    throw new StartupError(
      `the database contains demo accounts with a public password (${demo.map((d) => d.phone).join(', ')}); ` +
        'delete them (DELETE FROM users WHERE is_demo) or use a fresh database before running in production',
    );
  }
}

/**
 * Brings any database up to date, in order: the base tables, the tables and columns the entity schemas
 * describe (additive; destructive changes are refused), then the money rules' constraints and plans.
 */
export async function migrateAll(db: Db, schemaRoot: string = REPO_ROOT, entities = entitiesAt(schemaRoot)): Promise<void> {
  // Gateways (or admin commands) starting together on one PostgreSQL migrate one after another: two
  // running the same DDL at once fail on the catalog ("tuple concurrently updated" from two CREATE OR
  // REPLACE FUNCTION, a duplicate key from two CREATE TABLE IF NOT EXISTS). The lock is a transaction's,
  // held on a connection of its own while the steps run on the others, so a process that dies lets go of
  // it. PGlite is one process's, and its transaction would hold its only connection.
  if (db.driver !== 'postgres') return migrateSteps(db, schemaRoot, entities);
  await db.tx(async (held) => {
    await held.query(`SELECT pg_advisory_xact_lock(hashtext('console:migrate-all'))`);
    await migrateSteps(db, schemaRoot, entities);
  });
}

async function migrateSteps(db: Db, schemaRoot: string, entities: ReturnType<typeof entitiesAt>): Promise<void> {
  await migrate(db, { schemaRoot });
  await applyMoneyDdl(db);
  // Persons stored before the automatic-insurance status existed get the status their information implies.
  await backfillAutoStatus(db, entities.registry.get('insured-person'), earliestCoverStart());
  await applyUploadDdl(db);
}

/** The demo data on a migrated database (nothing when it has users already), as `--demo` starts with it. */
export async function seedDemo(db: Db, entities = entitiesAt(REPO_ROOT)): Promise<void> {
  await seed(db);
  // The demo rows predate the money columns: fill plan ids, refunded sums and invoice links for them.
  await backfillMoney(db);
  // …and the reasons next to the automatic-insurance statuses the demo sets.
  await backfillAutoStatus(db, entities.registry.get('insured-person'), earliestCoverStart());
}

export async function startServer(opts: StartServerOptions = {}): Promise<RunningServer> {
  const host = opts.host ?? '127.0.0.1';
  const basePath = normalizeBasePath(opts.basePath);
  const production = opts.production ?? (isProduction(process.env, opts.seed === true) || declaredProduction());
  const ownDb = !opts.db;
  const inMemory = ownDb && !opts.databaseUrl && /^memory(:\/\/)?$/.test(opts.dataDir ?? '');
  const seeded = opts.seed === true;
  const template = inMemory ? migratedTemplate(opts.schemaRoot ?? REPO_ROOT, REPO_ROOT, seeded ? (opts.fakeClock ? 'seeded-clock' : 'seeded') : 'migrated') : undefined;
  const db = opts.db ?? (await openDb({ databaseUrl: opts.databaseUrl, dataDir: opts.dataDir, template: template?.blob }));
  let app: Awaited<ReturnType<typeof createApp>>;
  let providers: Providers | undefined;
  const entities = entitiesAt(opts.schemaRoot ?? REPO_ROOT);
  try {
    await migrateAll(db, opts.schemaRoot ?? REPO_ROOT, entities);
    if (!seeded) await template?.save(db);
    if (production) await checkProductionSafety(db, opts);
    if (production && opts.studio) throw new StartupError('the schema studio (--studio) edits schemas/ and runs only in development (APP_ENV=development or --demo)');
    if (opts.fakeClock) await db.query(DEV_CLOCK_DDL);
    // A seeded template (the test suite's in-memory gateways) holds all of this already.
    if (seeded && !template?.blob) {
      await seedDemo(db, entities);
      await template?.save(db);
    }
    providers = pickProviders({ ...opts, db, production });
    app = await createApp({
      db,
      entities,
      staticDir: opts.staticDir,
      basePath,
      sms: providers.sms,
      payments: providers.payments,
      files: providers.files.storage,
      operatorTokenHash: providers.operatorTokenHash,
      limits: opts.limits,
      logLevel: opts.logLevel,
      trustProxy: opts.trustProxy,
      appConfig: opts.appConfig ?? appConfigFromEnv(process.env, appEnvName(process.env, !production)),
      testHooks: opts.testHooks,
      idleGc: opts.idleGc ?? idleGcFromEnv(),
      embeddedUpkeep: opts.embeddedUpkeep ?? embeddedUpkeepFromEnv(),
      ...(opts.fakeClock ? { clock: storedOffsetClock(db), devClock: true } : {}),
      studio: opts.studio ? { root: opts.schemaRoot ?? REPO_ROOT } : undefined,
    });
    providers.attachLog(app);
    await app.listen({ port: opts.port ?? 8080, host });
  } catch (err) {
    providers?.files.close();
    if (ownDb) await db.close().catch(() => undefined);
    throw err;
  }
  app.server.keepAliveTimeout = 5000;
  const port = (app.server.address() as AddressInfo).port;
  const shownHost = host.includes(':') ? `[${host}]` : host;
  let closing: Promise<void> | undefined;
  return {
    url: `http://${shownHost}:${port}${basePath}`,
    port,
    basePath,
    db,
    server: app.server,
    providers: [`database: ${describeDatabase(db, opts)}`, ...providers.lines],
    close() {
      // Graceful: stop accepting, answer 503 on kept-alive connections, let in-flight requests
      // finish (up to drainMs), then close the database.
      closing ??= (async () => {
        app.deps.shuttingDown = true;
        const force = setTimeout(() => app.server.closeAllConnections(), opts.drainMs ?? 10_000);
        force.unref();
        try {
          await app.close();
        } finally {
          clearTimeout(force);
          providers?.files.close();
          if (ownDb) await db.close();
        }
      })();
      return closing;
    },
  };
}
