import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import compress from '@fastify/compress';
import rateLimit from '@fastify/rate-limit';
import Fastify, { type FastifyInstance, type FastifyRequest } from 'fastify';
import type { Db } from '../db.ts';
import type { LoadedEntities } from '../entity/load.ts';
import { repoEntities } from '../entity/repo.ts';
import authRoutes from '../routes/auth.ts';
import businessLegacyRoutes from '../routes/business-legacy.ts';
import claimAttachmentRoutes from '../routes/claim-attachments.ts';
import exportRoutes from '../routes/export.ts';
import contentRoutes from '../routes/content.ts';
import insureFormRoutes from '../routes/insure-forms.ts';
import insuredPersonRoutes from '../routes/insured-persons.ts';
import insureUploadRoutes from '../routes/insure-upload.ts';
import overviewRoutes from '../routes/overview.ts';
import paymentRoutes from '../routes/payments.ts';
import type { PaymentProvider } from '../domain/payment.ts';
import planRoutes from '../routes/plans.ts';
import financeChoiceRoutes from '../routes/finance-choices.ts';
import settingsRoutes from '../routes/settings.ts';
import { dbRateLimitStore, limitMessage } from '../services/rate-limit.ts';
import { schedulePurge } from '../services/purge.ts';
import operatorRoutes from '../routes/operator.ts';
import { defaultFilesDir, LocalFileStorage, type FileStorage } from '../files/storage.ts';
import type { SmsProvider } from '../services/sms.ts';
import { devClockRoutes, systemClock, type Clock } from '../clock.ts';
import { authPlugin, countedByAuth } from './auth.ts';
import { docsPlugin } from './docs.ts';
import { badInput, errorHandler, HttpError, notFound, tooMany } from './errors.ts';
import healthRoutes from './health.ts';
import idleGc, { type IdleGcOptions } from './idle-gc.ts';
import embeddedUpkeep, { type EmbeddedUpkeepOptions } from './embedded-upkeep.ts';
import { securityHeaders } from './security.ts';
import staticRoutes, { appConfigFromEnv } from './static.ts';
import { DEFAULT_LIMITS, type AppDeps, type Limits, type TestHooks } from './types.ts';
import { validatorCompiler } from './validation.ts';
import { checkInputShape, refuseNulInUrl } from './input-shape.ts';

/** The API limit's window: DEFAULT_LIMITS.apiPerMinute requests per IP per minute. */
const API_WINDOW_MS = 60_000;

export const BODY_LIMIT = 1024 * 1024;

export interface AppOptions {
  db: Db;
  /** The schema studio's API on the files under `root` (development only: startServer refuses it in production). */
  studio?: { root: string };
  /** The schemas to run on (default: the repository's). */
  entities?: LoadedEntities;
  /** Directory with the built UI (index.html + assets/). No static serving when omitted. */
  staticDir?: string;
  /** URL prefix the console is served under; normalised to start and end with '/'. */
  basePath?: string;
  /** SMS provider for sign-in codes; null = none may be used (requesting a code answers 503). */
  sms?: SmsProvider | null;
  limits?: Partial<Limits>;
  /** pino level; 'silent' turns request logs off. */
  logLevel?: string;
  /** Trust X-Forwarded-For from a load balancer (Fastify trustProxy). */
  trustProxy?: boolean | number | string;
  /** window.__APP_CONFIG__ extras; defaults to appConfigFromEnv(). */
  appConfig?: Record<string, unknown>;
  testHooks?: TestHooks;
  /** Payment provider for paying orders online; none by default (paying online then answers 503). */
  payments?: PaymentProvider | null;
  /** The clock (default: the system clock). */
  clock?: Clock;
  /** Development/test only: serve PUT /api/dev/clock to move `clock` (src/server/clock.ts). */
  devClock?: boolean;
  /** Where files are kept; default the local folder of defaultFilesDir(). */
  files?: FileStorage;
  /** sha256 (hex) of the operator API's credential; the operator API answers 404 without one. */
  operatorTokenHash?: string;
  /** A full garbage collection once the gateway is quiet (http/idle-gc.ts); false turns it off. */
  idleGc?: IdleGcOptions | false;
  /** The embedded database's upkeep once the gateway is quiet (http/embedded-upkeep.ts; PGlite only); false turns it off. */
  embeddedUpkeep?: EmbeddedUpkeepOptions | false;
}

export function normalizeBasePath(p?: string): string {
  let b = (p ?? '/').trim() || '/';
  if (!b.startsWith('/')) b = `/${b}`;
  if (!b.endsWith('/')) b = `${b}/`;
  return b.replace(/\/{2,}/g, '/');
}

/** Never logged: credentials, tokens and one-time codes. */
export const REDACT = [
  'req.headers.authorization',
  'req.headers.cookie',
  'res.headers["set-cookie"]',
  'body.password',
  'body.oldPassword',
  'body.newPassword',
  'body.code',
  'body.refreshToken',
  'body.token',
];

function requestId(req: IncomingMessage): string {
  const h = req.headers['x-request-id'];
  return typeof h === 'string' && /^[\w.:-]{1,128}$/.test(h) ? h : randomUUID();
}

/** Builds the gateway (not listening). The caller owns the database. */
export async function createApp(opts: AppOptions): Promise<FastifyInstance> {
  const basePath = normalizeBasePath(opts.basePath);
  const level = opts.logLevel ?? process.env.LOG_LEVEL ?? 'silent';
  const baseRoutes = ['api', 'healthz', 'readyz'].map((p) => `${basePath}${p}`);
  const app = Fastify({
    logger: { level, redact: { paths: REDACT, censor: '[redacted]' } },
    genReqId: requestId,
    requestIdHeader: false,
    bodyLimit: BODY_LIMIT,
    // A hop count is supported at run time (lib/request.js), though the types only name booleans and strings.
    trustProxy: (opts.trustProxy ?? false) as boolean | string,
    return503OnClosing: true,
    forceCloseConnections: 'idle',
    routerOptions: { ignoreTrailingSlash: true },
    // The API and health checks answer under the base path too: /console/api/x → /api/x.
    rewriteUrl(req) {
      const url = req.url ?? '/';
      if (basePath === '/') return url;
      for (const p of baseRoutes) {
        if (url === p || url.startsWith(`${p}/`) || url.startsWith(`${p}?`)) return url.slice(basePath.length - 1);
      }
      return url;
    },
  });
  const deps: AppDeps = {
    db: opts.db,
    entities: opts.entities ?? repoEntities(),
    basePath,
    limits: { ...DEFAULT_LIMITS, ...opts.limits },
    sms: opts.sms ?? null,
    shuttingDown: false,
    clock: opts.clock ?? systemClock,
    files: opts.files ?? new LocalFileStorage(defaultFilesDir()),
    background: new Set(),
  };
  app.decorate('deps', deps);
  app.decorateRequest('now', null as unknown as Date);
  app.setValidatorCompiler(validatorCompiler);
  app.setErrorHandler(errorHandler);
  app.addHook('onRequest', async (req, reply) => {
    reply.header('x-request-id', req.id);
  });
  app.addHook('preClose', async () => {
    deps.shuttingDown = true;
  });

  // Bodies are JSON whatever the declared type (the old gateway ignored Content-Type too);
  // more specific parsers (e.g. multipart) registered later take precedence.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'string' }, (_req: FastifyRequest, text: string | Buffer, done) => {
    const s = String(text);
    if (!s.trim()) return done(null, {});
    let parsed: unknown;
    try {
      parsed = JSON.parse(s);
    } catch {
      return done(badInput('请求体不是有效的 JSON'), undefined);
    }
    if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) return done(badInput('请求体必须是 JSON 对象'), undefined);
    done(null, parsed);
  });

  await app.register(securityHeaders);
  if (opts.idleGc !== false) await app.register(idleGc, opts.idleGc ?? {});
  if (opts.embeddedUpkeep !== false) await app.register(embeddedUpkeep, { ...opts.embeddedUpkeep, db: deps.db });
  await app.register(compress, { global: true, threshold: 1024, encodings: ['br', 'gzip'] });
  await app.register(docsPlugin);
  await app.register(healthRoutes);

  // The API: authenticated by default, rate-limited per IP with counters in the database.
  await app.register(async (api) => {
    api.addHook('onRequest', async (req, reply) => {
      reply.header('cache-control', 'no-store');
      refuseNulInUrl(req.url);
      req.now = await deps.clock();
    });
    // As the scope's first onRequest hook (route-level hooks would run after authentication). A request
    // that carries a token to an authenticated route is counted by the auth plugin instead, in its
    // authentication statement (one database round trip less per request); same key, window and limit.
    await api.register(rateLimit, {
      global: false,
      max: deps.limits.apiPerMinute,
      timeWindow: API_WINDOW_MS,
      store: dbRateLimitStore(deps.db),
      keyGenerator: (req) => req.ip,
      allowList: (req) => countedByAuth(req),
      skipOnError: true,
      errorResponseBuilder: (_req, ctx) => tooMany(limitMessage(ctx.ttl)) as unknown as object,
    });
    api.addHook('onRequest', api.rateLimit());
    await api.register(authPlugin, { limitOf: (req) => ({ key: `api:${req.ip}`, windowMs: API_WINDOW_MS, max: deps.limits.apiPerMinute }) });
    api.addHook('preValidation', async (req) => {
      if (req.body === undefined && (req.method === 'POST' || req.method === 'PUT' || req.method === 'PATCH')) req.body = {};
      checkInputShape(req);
    });
    if (opts.testHooks?.beforeHandler) {
      const hook = opts.testHooks.beforeHandler;
      api.addHook('preHandler', async (req) => hook(req.method, req.url));
    }
    await api.register(authRoutes);
    await api.register(settingsRoutes);
    await api.register(planRoutes);
    await api.register(financeChoiceRoutes);
    await api.register(overviewRoutes);
    await api.register(contentRoutes);
    await api.register(insureFormRoutes);
    await api.register(paymentRoutes, { provider: opts.payments ?? null });
    await api.register(insuredPersonRoutes);
    await api.register(insureUploadRoutes);
    await api.register(claimAttachmentRoutes);
    await api.register(exportRoutes);
    await api.register(businessLegacyRoutes);
    if (opts.devClock) await api.register(devClockRoutes);
    if (opts.studio) await api.register((await import('../studio/routes.ts')).default, opts.studio);
    await api.register(operatorRoutes, { tokenHash: opts.operatorTokenHash });
  });

  if (opts.staticDir) {
    await app.register(staticRoutes, { root: opts.staticDir, basePath, appConfig: opts.appConfig ?? appConfigFromEnv(), schemaFiles: deps.entities.files });
  }

  app.setNotFoundHandler(async (req, reply) => {
    const path = req.url.split('?')[0];
    if (path === '/api' || path.startsWith('/api/')) throw notFound(`接口不存在：${req.method} ${path}`);
    if (!opts.staticDir) throw notFound(`资源不存在：${path}`);
    if (!path.startsWith(basePath)) {
      if (`${path}/` === basePath || path === '/') return reply.redirect(basePath, 302);
      throw notFound(`资源不存在：${path}（控制台地址为 ${basePath}）`);
    }
    throw new HttpError(405, 40500, `不支持 ${req.method} 请求`);
  });

  // Expired sessions, codes, idempotency records and rate-limit windows are deleted now and then (any gateway may).
  const stopPurge = schedulePurge(deps.db, (err) => app.log.warn({ err }, 'purge of expired rows failed'));
  app.addHook('onClose', async () => {
    stopPurge();
    await Promise.allSettled([...deps.background]);
  });
  return app;
}
