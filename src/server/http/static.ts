import { promises as fsp } from 'node:fs';
import { extname, resolve, sep } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { badInput, notFound } from './errors.ts';
import { cspNonceOf } from './security.ts';

/** Types where send's defaults differ from what browsers expect today. */
const TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.webmanifest': 'application/manifest+json',
};

export interface StaticOptions {
  root: string;
  basePath: string;
  /** Serialised into window.__APP_CONFIG__ (basePath is always included). */
  appConfig: Record<string, unknown>;
  /** The schema files the gateway runs on, keyed like 'schemas/routes.json': written into index.html as window.__APP_SCHEMAS__. */
  schemaFiles: Record<string, unknown>;
}

/** JSON for an inline script: `<` escaped so no value can close the script element. */
const inlineJson = (v: unknown) => JSON.stringify(v).replace(/</g, '\\u003c').replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029');

/** The schema files the browser renders (schemas/meta, the editors' JSON Schemas, stays on the server). */
export function browserSchemas(files: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(files).filter(([k]) => !k.startsWith('schemas/meta/')));
}

/**
 * window.__APP_CONFIG__ from the environment: env (the gateway's environment name, environment.ts
 * appEnvName: APP_ENV, else production), services (SERVICE_URLS JSON), sentryDsn.
 */
export function appConfigFromEnv(env: NodeJS.ProcessEnv = process.env, envName = env.APP_ENV || 'production'): Record<string, unknown> {
  const cfg: Record<string, unknown> = { env: envName };
  if (env.SERVICE_URLS) {
    try {
      cfg.services = JSON.parse(env.SERVICE_URLS);
    } catch {
      throw new Error(`SERVICE_URLS must be JSON, e.g. {"files":"https://files.example.com"}; got ${env.SERVICE_URLS}`);
    }
  }
  if (env.SENTRY_DSN) cfg.sentryDsn = env.SENTRY_DSN;
  return cfg;
}

/**
 * The built console: hashed files under assets/ are immutable for a year, everything else
 * (index.html included) is revalidated. Precompressed .br/.gz siblings are sent when accepted.
 * Unknown paths fall back to index.html (SPA routing) except missing assets, which are 404 JSON.
 */
export default async function staticRoutes(app: FastifyInstance, opts: StaticOptions) {
  const root = resolve(opts.root);
  const { basePath } = opts;
  const cfgJson = inlineJson({ basePath, ...opts.appConfig });
  const schemasJson = inlineJson(browserSchemas(opts.schemaFiles));

  await app.register(fastifyStatic, { root, serve: false, preCompressed: true, cacheControl: false, index: false });

  async function serveIndex(req: FastifyRequest, reply: FastifyReply) {
    let html: string;
    try {
      html = await fsp.readFile(resolve(root, 'index.html'), 'utf8');
    } catch {
      throw notFound('控制台页面尚未构建（缺少 index.html）');
    }
    html = html.split('"./').join(`"${basePath}`); // assets and the favicon, from any page depth
    const tag = `<script nonce="${cspNonceOf(req)}">window.__APP_CONFIG__=${cfgJson};window.__APP_SCHEMAS__=${schemasJson}</script>`;
    html = html.includes('</head>') ? html.replace('</head>', `${tag}</head>`) : tag + html;
    return reply.header('cache-control', 'no-cache').type('text/html; charset=utf-8').send(html);
  }

  // send() picks the type from its own table; some entries are outdated (application/javascript).
  app.addHook('onSend', async (req, reply) => {
    const type = TYPES[extname(req.url.split('?')[0]).toLowerCase()];
    if (type && reply.statusCode === 200) reply.header('content-type', type);
  });

  const schema = { hide: true };
  app.get(basePath, { schema }, async (req, reply) => {
    if (!req.url.split('?')[0].endsWith('/')) return reply.redirect(basePath, 302);
    return serveIndex(req, reply);
  });

  app.get(`${basePath}*`, { schema }, async (req, reply) => {
    const path = req.url.split('?')[0];
    let rel: string;
    try {
      rel = decodeURIComponent(path.slice(basePath.length));
    } catch {
      throw badInput('请求地址格式不正确');
    }
    if (basePath === '/' && (rel === 'api' || rel.startsWith('api/'))) throw notFound(`接口不存在：${req.method} ${path}`);
    // The schema studio is a development tool served by the dev server (npm run dev), never by a gateway's build.
    if (rel === 'studio' || rel.startsWith('studio/')) throw notFound('schema studio 只在开发环境（npm run dev）中提供');
    if (rel === '' || rel === 'index.html' || rel.includes('\0')) return serveIndex(req, reply);
    const file = resolve(root, rel);
    if (file !== root && !file.startsWith(root + sep)) throw notFound('资源不存在');
    const stat = await fsp.stat(file).catch(() => null);
    if (stat?.isFile()) {
      const isAsset = rel.startsWith('assets/');
      reply.header('cache-control', isAsset ? 'public, max-age=31536000, immutable' : 'no-cache');
      return reply.sendFile(rel);
    }
    // Missing hashed assets should not turn into HTML.
    if (rel.startsWith('assets/')) throw notFound(`资源不存在：${path}`);
    return serveIndex(req, reply);
  });
}
