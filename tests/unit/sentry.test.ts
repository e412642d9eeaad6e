import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  IGNORED_ERRORS,
  SENTRY_RELEASE,
  initMonitoring,
  isMonitoringEnabled,
  reportError,
  resetMonitoring,
  sentryOptions,
} from '../../src/monitoring/sentry';

afterEach(() => {
  resetMonitoring();
  vi.restoreAllMocks();
});

const dsn = 'https://key@o1.ingest.sentry.io/1';

describe('sentryOptions', () => {
  it('enables reporting only for a production build, production env and a DSN', () => {
    expect(sentryOptions({ sentryDsn: dsn }, true).enabled).toBe(true);
    expect(sentryOptions({ sentryDsn: dsn, env: 'production' }, true).enabled).toBe(true);
    expect(sentryOptions({ sentryDsn: dsn }, false).enabled).toBe(false);
    expect(sentryOptions({ sentryDsn: dsn, env: 'beta' }, true).enabled).toBe(false);
    expect(sentryOptions({ sentryDsn: dsn, env: 'prod2' }, true).enabled).toBe(false);
    expect(sentryOptions({}, true).enabled).toBe(false);
    expect(sentryOptions({ sentryDsn: '  ' }, true).enabled).toBe(false);
    // Under vitest import.meta.env.PROD is false, so the default is off.
    expect(sentryOptions({ sentryDsn: dsn }).enabled).toBe(false);
  });

  it('uses the business app release, full trace sampling and ignores the resize-observer messages', () => {
    const o = sentryOptions({ sentryDsn: dsn }, true);
    expect(SENTRY_RELEASE).toBe('business-app@1.0.0');
    expect(o).toEqual({
      enabled: true,
      dsn,
      environment: 'production',
      release: 'business-app@1.0.0',
      tracesSampleRate: 1,
      ignoreErrors: ['ResizeObserver loop limit exceeded', 'ResizeObserver loop completed with undelivered notifications'],
    });
    expect(IGNORED_ERRORS).toEqual(o.ignoreErrors);
    expect(sentryOptions({ sentryDsn: dsn, release: 'business-app@1.0.1' }, true).release).toBe('business-app@1.0.1');
  });
});

describe('initMonitoring', () => {
  function fakeSdk() {
    return {
      init: vi.fn(),
      captureException: vi.fn(),
      browserTracingIntegration: vi.fn(() => ({ name: 'BrowserTracing' })),
    };
  }

  it('does not load the SDK when disabled', async () => {
    const load = vi.fn();
    await expect(initMonitoring({ sentryDsn: dsn }, false, load)).resolves.toBe(false);
    expect(load).not.toHaveBeenCalled();
    reportError(new Error('x'));
    expect(isMonitoringEnabled()).toBe(false);
  });

  it('loads the SDK on demand, initialises it once and reports errors', async () => {
    const sdk = fakeSdk();
    const load = vi.fn(async () => sdk as never);
    await expect(initMonitoring({ sentryDsn: dsn }, true, load)).resolves.toBe(true);
    await initMonitoring({ sentryDsn: dsn }, true, load);
    expect(load).toHaveBeenCalledTimes(1);
    expect(sdk.init).toHaveBeenCalledWith({
      dsn,
      environment: 'production',
      release: 'business-app@1.0.0',
      tracesSampleRate: 1,
      ignoreErrors: [...IGNORED_ERRORS],
      integrations: [{ name: 'BrowserTracing' }],
    });
    const err = new Error('boom');
    reportError(err, { componentStack: 'at Page' });
    expect(sdk.captureException).toHaveBeenCalledWith(err, { extra: { componentStack: 'at Page' } });
  });

  it('keeps working when the SDK chunk fails to load', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    await expect(initMonitoring({ sentryDsn: dsn }, true, () => Promise.reject(new Error('blocked')))).resolves.toBe(false);
    expect(isMonitoringEnabled()).toBe(false);
  });
});
