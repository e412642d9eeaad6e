import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import helmet, { type HelmetOptions } from 'helmet';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';

/** What the console may use of the browser: nothing of these (clipboard writes stay allowed by default). */
export const PERMISSIONS_POLICY =
  'camera=(), microphone=(), geolocation=(), payment=(), usb=(), serial=(), bluetooth=(), midi=(), magnetometer=(), gyroscope=(), accelerometer=(), browsing-topics=()';

/**
 * Responses that are documents or data a page acts on (HTML, SVG, JSON, anything without a type) carry
 * the page policy; scripts, style sheets, fonts and images are governed by the page that loads them.
 */
export function needsPagePolicy(contentType: unknown): boolean {
  const t = String(contentType ?? '').toLowerCase();
  return t === '' || t.startsWith('text/html') || t.startsWith('image/svg') || t.includes('json') || t.startsWith('text/plain');
}

const NONCE = '__csp_nonce__';

function helmetOptions(scriptNonce: boolean): HelmetOptions {
  return {
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: scriptNonce ? ["'self'", `'nonce-${NONCE}'`] : ["'self'"],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'blob:'],
        fontSrc: ["'self'", 'data:'],
        connectSrc: ["'self'"],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        frameAncestors: ["'none'"],
        formAction: ["'self'"],
      },
    },
    frameguard: { action: 'deny' },
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
    crossOriginEmbedderPolicy: false,
  };
}

/** The headers helmet sets with these options, read once from its middleware (they do not vary per request). */
function headersOf(options: HelmetOptions): Record<string, string> {
  const set: Record<string, string> = {};
  const res = {
    setHeader: (name: string, value: unknown) => void (set[name.toLowerCase()] = String(value)),
    removeHeader: (name: string) => void delete set[name.toLowerCase()],
  };
  helmet(options)({} as IncomingMessage, res as unknown as ServerResponse, () => undefined);
  return { ...set, 'permissions-policy': PERMISSIONS_POLICY };
}

/** A page's nonce for its one inline script, made when the page is served (only HTML documents have one). */
export function cspNonceOf(req: FastifyRequest): string {
  if (!req.cspNonce) req.cspNonce = randomBytes(16).toString('base64');
  return req.cspNonce;
}

/**
 * Security headers where they matter: on HTML pages and API answers the full set (CSP, with a per-page
 * nonce for the one inline script, the config injected into index.html; frame, referrer, HSTS,
 * Permissions-Policy…); on scripts, styles, fonts and images only X-Content-Type-Options — about 1 kB less
 * on each of the 80-odd files of a cold start (docs/security.md). Styles may be inline because antd
 * injects them at run time.
 *
 * helmet's values are read once at start-up: @fastify/helmet's `reply.helmet()` built a new helmet (its
 * CSP directives parsed again) and set each header on the raw response, for every answer — about a
 * fifteenth of a list request's gateway time (docs/benchmarks.md). Answers without a page nonce (the
 * API's) carry the same policy with scripts from 'self' only.
 */
export const securityHeaders = fp(async (app: FastifyInstance) => {
  const plain = headersOf(helmetOptions(false));
  const withNonce = headersOf(helmetOptions(true));
  const [before, after] = withNonce['content-security-policy'].split(NONCE);
  app.decorateRequest('cspNonce', '');
  app.addHook('onSend', async (req, reply, payload) => {
    if (!needsPagePolicy(reply.getHeader('content-type'))) {
      reply.header('x-content-type-options', 'nosniff');
      return payload;
    }
    reply.headers(plain);
    if (req.cspNonce) reply.header('content-security-policy', `${before}${req.cspNonce}${after}`);
    return payload;
  });
});
