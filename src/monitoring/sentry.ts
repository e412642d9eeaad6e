/**
 * Error reporting (spec §8, §9): on only in production builds, for the 'production' environment, with a DSN.
 * @sentry/browser (the parts in ./sdk) is loaded with a dynamic import() only then, so it never weighs on the main bundle.
 */
export const SENTRY_RELEASE = 'business-app@1.0.0';
export const TRACES_SAMPLE_RATE = 1;
/** Browser noise that is not an error of ours: the resize-observer loop messages (old and new wording). */
export const IGNORED_ERRORS: readonly string[] = Object.freeze([
  'ResizeObserver loop limit exceeded',
  'ResizeObserver loop completed with undelivered notifications',
]);

export interface MonitoringConfig {
  sentryDsn?: string;
  /** Environment name; absent means 'production'. */
  env?: string;
  release?: string;
}

export interface SentryOptions {
  enabled: boolean;
  dsn?: string;
  environment: string;
  release: string;
  tracesSampleRate: number;
  ignoreErrors: string[];
}

type SentryModule = typeof import('./sdk');

/** True in a Vite production build (import.meta.env.PROD); false under the dev server and in tests. */
export function isProductionBuild(): boolean {
  const env = (import.meta as ImportMeta & { env?: { PROD?: boolean } }).env;
  return Boolean(env?.PROD);
}

/** The options given to Sentry.init; `enabled` is false unless production build + production env + DSN. */
export function sentryOptions(config: MonitoringConfig, productionBuild: boolean = isProductionBuild()): SentryOptions {
  const environment = config.env || 'production';
  const dsn = config.sentryDsn?.trim() || undefined;
  return {
    enabled: productionBuild && environment === 'production' && Boolean(dsn),
    dsn,
    environment,
    release: config.release || SENTRY_RELEASE,
    tracesSampleRate: TRACES_SAMPLE_RATE,
    ignoreErrors: [...IGNORED_ERRORS],
  };
}

let sentry: SentryModule | undefined;
let loading: Promise<boolean> | undefined;

/**
 * Starts error reporting when sentryOptions says so; resolves to whether it is on.
 * `load` exists for tests; the app uses the default dynamic import.
 */
export function initMonitoring(
  config: MonitoringConfig,
  productionBuild: boolean = isProductionBuild(),
  load: () => Promise<SentryModule> = () => import('./sdk'),
): Promise<boolean> {
  const options = sentryOptions(config, productionBuild);
  if (!options.enabled) return Promise.resolve(false);
  if (!loading) {
    loading = load()
      .then((S) => {
        const { enabled: _enabled, ...rest } = options;
        S.init({ ...rest, integrations: [S.browserTracingIntegration()] });
        sentry = S;
        return true;
      })
      .catch((e: unknown) => {
        // Reporting is best effort: a blocked or failed chunk must not break the console.
        console.warn('[monitoring] Sentry could not be loaded', e);
        loading = undefined;
        return false;
      });
  }
  return loading;
}

/** Whether errors are being reported right now. */
export function isMonitoringEnabled(): boolean {
  return sentry !== undefined;
}

/** Reports an error when reporting is on (no-op otherwise), e.g. from the error boundary. */
export function reportError(error: unknown, context?: Record<string, unknown>): void {
  if (!sentry) return;
  sentry.captureException(error, context ? { extra: context } : undefined);
}

/** Forgets the loaded SDK (tests). */
export function resetMonitoring(): void {
  sentry = undefined;
  loading = undefined;
}
