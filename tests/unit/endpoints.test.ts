import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  ENVIRONMENTS,
  SERVICE_GROUPS,
  SERVICE_ADDRESSES,
  cmsBaseUrl,
  currentEnv,
  getServiceUrl,
  serviceUrl,
  websocketUrl,
} from '../../src/services/endpoints';
import { getAppConfig } from '../../src/config';

const setConfig = (cfg: Record<string, unknown>) => vi.stubGlobal('window', { __APP_CONFIG__: cfg });

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('service address groups', () => {
  it('has the five groups for the nine environments', () => {
    expect(SERVICE_GROUPS).toEqual(['business', 'client', 'websocket', 'sso', 'cms']);
    expect(ENVIRONMENTS).toEqual(['development', 'alpha', 'alpha2', 'alpha3', 'alpha4', 'beta', 'pre', 'prod2', 'production']);
    for (const g of SERVICE_GROUPS) expect(Object.keys(SERVICE_ADDRESSES[g])).toEqual([...ENVIRONMENTS]);
  });

  it('selects production by default, with same-origin addresses', () => {
    expect(currentEnv()).toBe('production');
    setConfig({});
    expect(currentEnv()).toBe('production');
    for (const g of SERVICE_GROUPS) expect(getServiceUrl(g)).toBe('');
  });

  it('reads the environment and per-group overrides from window.__APP_CONFIG__', () => {
    setConfig({ env: 'beta', services: { business: 'https://gw-beta.example.com', sso: 'https://sso.example.com', bogus: 1 } });
    expect(currentEnv()).toBe('beta');
    expect(getServiceUrl('business')).toBe('https://gw-beta.example.com');
    expect(getServiceUrl('sso')).toBe('https://sso.example.com');
    expect(getServiceUrl('client')).toBe('');
    expect(getAppConfig().services).toEqual({ business: 'https://gw-beta.example.com', sso: 'https://sso.example.com' });
    expect(serviceUrl('/api/orders')).toBe('https://gw-beta.example.com/api/orders');
  });

  it('falls back to production with a warning for an unknown environment', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    setConfig({ env: 'staging-x' });
    expect(currentEnv()).toBe('production');
    expect(warn).toHaveBeenCalledWith(expect.stringContaining('staging-x'));
  });

  it('derives websocket and content addresses from the origin and base path', () => {
    setConfig({ basePath: '/console/' });
    expect(websocketUrl({ protocol: 'https:', host: 'biz.example.com' })).toBe('wss://biz.example.com/console/ws');
    setConfig({});
    expect(websocketUrl({ protocol: 'http:', host: 'localhost:8080' })).toBe('ws://localhost:8080/ws');
    expect(cmsBaseUrl()).toBe('/api/content');
    setConfig({ basePath: '/console/' });
    expect(cmsBaseUrl()).toBe('/console/api/content');
    expect(serviceUrl('/api/orders')).toBe('/console/api/orders');
    setConfig({ services: { cms: 'https://cms.example.com', websocket: 'wss://push.example.com/ws' } });
    expect(cmsBaseUrl()).toBe('https://cms.example.com');
    expect(websocketUrl({ protocol: 'http:', host: 'x' })).toBe('wss://push.example.com/ws');
  });
});
