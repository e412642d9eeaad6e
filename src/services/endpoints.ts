import { getAppConfig } from '../config';

/**
 * Service address groups (spec §7). Each group maps an environment name to an address.
 * '' means "same origin" (the gateway serving the console). Addresses can be changed at deploy time
 * without a rebuild through window.__APP_CONFIG__.env / .services, which the gateway injects.
 */
export const ENVIRONMENTS = ['development', 'alpha', 'alpha2', 'alpha3', 'alpha4', 'beta', 'pre', 'prod2', 'production'] as const;
export type EnvironmentName = (typeof ENVIRONMENTS)[number];

/** business gateway, client gateway, websocket service, single sign-on login, content management. */
export const SERVICE_GROUPS = ['business', 'client', 'websocket', 'sso', 'cms'] as const;
export type ServiceGroup = (typeof SERVICE_GROUPS)[number];

export const DEFAULT_ENV: EnvironmentName = 'production';

/** Path of the gateway's content API, used when the cms address is '' (same origin). */
export const CMS_DEFAULT_PATH = '/api/content';
/** Path of the websocket endpoint, used when the websocket address is '' (same origin). */
export const WEBSOCKET_DEFAULT_PATH = '/ws';

const sameOriginEverywhere = (): Record<EnvironmentName, string> =>
  Object.fromEntries(ENVIRONMENTS.map((e) => [e, ''])) as Record<EnvironmentName, string>;

/**
 * Built-in defaults: every environment talks to the same-origin gateway. Real per-environment hosts
 * are supplied by the deployment through window.__APP_CONFIG__.services.
 */
export const SERVICE_ADDRESSES: Readonly<Record<ServiceGroup, Readonly<Record<EnvironmentName, string>>>> = {
  business: sameOriginEverywhere(),
  client: sameOriginEverywhere(),
  websocket: sameOriginEverywhere(),
  sso: sameOriginEverywhere(),
  cms: sameOriginEverywhere(),
};

export function isEnvironment(name: unknown): name is EnvironmentName {
  return typeof name === 'string' && (ENVIRONMENTS as readonly string[]).includes(name);
}

const warned = new Set<string>();

/** The selected environment: window.__APP_CONFIG__.env when known, else 'production' (warning once for an unknown name). */
export function currentEnv(): EnvironmentName {
  const env = getAppConfig().env;
  if (env === undefined) return DEFAULT_ENV;
  if (isEnvironment(env)) return env;
  if (!warned.has(env)) {
    warned.add(env);
    console.warn(`[endpoints] Unknown environment "${env}", falling back to "${DEFAULT_ENV}".`);
  }
  return DEFAULT_ENV;
}

/** Address of a service group in the current environment; a deploy-time override wins. '' = same origin. */
export function getServiceUrl(group: ServiceGroup): string {
  const override = getAppConfig().services?.[group];
  if (typeof override === 'string') return override.trim();
  return SERVICE_ADDRESSES[group][currentEnv()];
}

/** Joins a service address and a path without doubling or dropping the '/'. */
export function joinUrl(base: string, path: string): string {
  if (!base) return path;
  return `${base.replace(/\/+$/, '')}/${path.replace(/^\/+/, '')}`;
}

/**
 * The one rule for request URLs:
 * - absolute URLs ('http://…', 'https://…', '//…') are used as they are;
 * - with a service address, the path is appended to it;
 * - same origin (address ''): '/api/…' goes under the console's base path, i.e. `${basePath}api/…`
 *   ('/console/api/orders' when served under /console/); other paths are left as they are.
 */
export function resolveServiceUrl(url: string, serviceBase: string, basePath: string): string {
  if (/^([a-z][a-z\d+.-]*:)?\/\//i.test(url)) return url;
  if (serviceBase) return joinUrl(serviceBase, url);
  if (url.startsWith('/api/')) return `${basePath.endsWith('/') ? basePath : `${basePath}/`}${url.slice(1)}`;
  return url;
}

/** resolveServiceUrl with the current settings of a group (business gateway by default). */
export function serviceUrl(url: string, group: ServiceGroup = 'business'): string {
  return resolveServiceUrl(url, getServiceUrl(group), getAppConfig().basePath);
}

/** Base of the content API: the cms address, or the gateway's '/api/content' under the base path. */
export function cmsBaseUrl(): string {
  const base = getServiceUrl('cms');
  return base || serviceUrl(CMS_DEFAULT_PATH, 'business');
}

/**
 * Websocket URL: the websocket address when configured, else ws(s):// on the page's origin +
 * base path + 'ws' ('/ws' when the console is served at the root). Computed at use time.
 */
export function websocketUrl(loc: Pick<Location, 'protocol' | 'host'> = location): string {
  const base = getServiceUrl('websocket');
  if (base) return base;
  const scheme = loc.protocol === 'https:' ? 'wss:' : 'ws:';
  return `${scheme}//${loc.host}${getAppConfig().basePath}${WEBSOCKET_DEFAULT_PATH.slice(1)}`;
}
