import { randomBytes } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import helmet from '@fastify/helmet';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

type WithNonce = IncomingMessage & { cspNonce?: string };

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

/**
 * Security headers where they matter: on HTML pages and API answers the full set (CSP with a
 * per-response nonce for the one inline script, the config injected into index.html; frame, referrer,
 * HSTS, Permissions-Policy…); on scripts, styles, fonts and images only X-Content-Type-Options — about 1 kB less on
 * each of the 80-odd files of a cold start (docs/security.md). Styles may be inline because antd
 * injects them at run time.
 */
export const securityHeaders = fp(async (app: FastifyInstance) => {
  app.decorateRequest('cspNonce', '');
  app.addHook('onRequest', async (req) => {
    req.cspNonce = randomBytes(16).toString('base64');
    (req.raw as WithNonce).cspNonce = req.cspNonce;
  });
  await app.register(helmet, {
    global: false,
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'", (req) => `'nonce-${(req as WithNonce).cspNonce ?? ''}'`],
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
  });
  app.addHook('onSend', async (_req, reply, payload) => {
    if (!needsPagePolicy(reply.getHeader('content-type'))) {
      reply.header('x-content-type-options', 'nosniff');
      return payload;
    }
    reply.header('permissions-policy', PERMISSIONS_POLICY);
    await reply.helmet();
    return payload;
  });
});
