import type { ServiceGroup } from './services/endpoints';

/**
 * Global settings injected by the gateway into index.html (window.__APP_CONFIG__) at serve time,
 * so one build can be deployed to any environment without a rebuild.
 */
export interface AppConfig {
  /** Router base path, always starting and ending with '/'. Default '/'. */
  basePath: string;
  /** Environment name (see ENVIRONMENTS in services/endpoints.ts); 'production' when absent. */
  env?: string;
  /** Per-group service address overrides; a group left out uses the environment's default. */
  services?: Partial<Record<ServiceGroup, string>>;
  /** Optional Sentry DSN; error reporting stays off without one. */
  sentryDsn?: string;
  /** Optional release identifier override for error reporting. */
  release?: string;
}

declare global {
  interface Window {
    __APP_CONFIG__?: Partial<AppConfig>;
  }
}

export function normalizeBasePath(raw: string | undefined | null): string {
  let p = (raw ?? '/').trim();
  if (!p) return '/';
  if (!p.startsWith('/')) p = `/${p}`;
  if (!p.endsWith('/')) p = `${p}/`;
  return p.replace(/\/{2,}/g, '/');
}

function stringMap(v: unknown): Partial<Record<ServiceGroup, string>> | undefined {
  if (!v || typeof v !== 'object') return undefined;
  const out: Record<string, string> = {};
  for (const [k, x] of Object.entries(v as Record<string, unknown>)) if (typeof x === 'string') out[k] = x;
  return out as Partial<Record<ServiceGroup, string>>;
}

export function getAppConfig(): AppConfig {
  const raw = (typeof window !== 'undefined' && window.__APP_CONFIG__) || {};
  return {
    basePath: normalizeBasePath(raw.basePath),
    env: typeof raw.env === 'string' && raw.env.trim() ? raw.env.trim() : undefined,
    services: stringMap(raw.services),
    sentryDsn: raw.sentryDsn || undefined,
    release: raw.release || undefined,
  };
}

/** Base path in the form react-router's `basename` wants ('/' or '/console'). */
export function routerBasename(basePath: string): string {
  return basePath === '/' ? '/' : basePath.replace(/\/$/, '');
}
