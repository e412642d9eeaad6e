/** Global settings injected by the gateway into index.html (window.__APP_CONFIG__). */
export interface AppConfig {
  /** Router base path, always starting and ending with '/'. Default '/'. */
  basePath: string;
  /** Optional Sentry DSN; error reporting stays off without one. */
  sentryDsn?: string;
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

export function getAppConfig(): AppConfig {
  const raw = (typeof window !== 'undefined' && window.__APP_CONFIG__) || {};
  return { basePath: normalizeBasePath(raw.basePath), sentryDsn: raw.sentryDsn || undefined };
}

/** Base path in the form react-router's `basename` wants ('/' or '/console'). */
export function routerBasename(basePath: string): string {
  return basePath === '/' ? '/' : basePath.replace(/\/$/, '');
}
