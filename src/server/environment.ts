/**
 * The gateway's environment, production unless told otherwise. Development providers (the SMS code
 * log, the payment provider that moves no money, demo data) run only with an explicit development
 * environment (APP_ENV=development) or in demo mode (--demo / DEMO=1); any other APP_ENV, or none,
 * is production for the gateway, as it is for the browser.
 */

/** APP_ENV as the browser is told it: the variable, else `development` in demo mode, else `production`. */
export function appEnvName(env: NodeJS.ProcessEnv = process.env, demo = false): string {
  return env.APP_ENV || (demo ? 'development' : 'production');
}

/** Production: everything but an explicit development environment or demo mode. */
export function isProduction(env: NodeJS.ProcessEnv = process.env, demo = false): boolean {
  return !demo && env.APP_ENV !== 'development';
}

/** Where demo mode is refused outright: APP_ENV or NODE_ENV says production in so many words. */
export function declaredProduction(env: NodeJS.ProcessEnv = process.env): boolean {
  return env.APP_ENV === 'production' || env.NODE_ENV === 'production';
}

/**
 * TRUST_PROXY → Fastify's trustProxy. Behind a load balancer or reverse proxy the client's address is
 * in X-Forwarded-For, and the per-address limits (sign-in, SMS, API) must count it, not the proxy's.
 * - unset or empty: trust nothing (the gateway faces the clients directly);
 * - a number N: trust N proxies in front of the gateway (1 = one nginx/haproxy/cloud load balancer);
 * - addresses or CIDRs, comma-separated (e.g. `127.0.0.1,10.0.0.0/8`; also `loopback`, `uniquelocal`):
 *   trust X-Forwarded-For only when the connection comes from them (the safest form);
 * - `true`: trust any sender (only when nothing but the proxy can reach the gateway).
 */
export function trustProxyFrom(raw: string | undefined): boolean | number | string | undefined {
  const v = raw?.trim();
  if (!v) return undefined;
  if (v === 'true') return true;
  if (v === 'false') return undefined;
  if (/^\d+$/.test(v)) return Number(v);
  return v;
}
