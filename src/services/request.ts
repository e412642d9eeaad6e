import { extend, type RequestOptionsInit } from 'umi-request';

/** A failed API call with the gateway's clear message and any per-field errors. */
export class ApiError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly code: number,
    readonly fieldErrors: Array<{ field: string; message: string }> = [],
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

export interface AuthBridge {
  getToken(): string;
  getRefreshToken(): string;
  getCompanyId(): string;
  onTokens(token: string, refreshToken: string): void;
  /** Called once the session can't be renewed (refresh failed): the app signs out. */
  onAuthLost(message: string): void;
}

let bridge: AuthBridge | undefined;
export function configureAuth(b: AuthBridge) {
  bridge = b;
}

const client = extend({
  timeout: 30000,
  // Keep error bodies: umi-request throws ResponseError carrying `data` and `response`.
  errorHandler: (error) => {
    throw error;
  },
});

type Envelope<T> = { code: number; data: T; message?: string; errors?: Array<{ field: string; message: string }> };

function toApiError(e: unknown): ApiError {
  if (e instanceof ApiError) return e;
  const err = e as { data?: Envelope<unknown>; response?: Response; message?: string; type?: string };
  const status = err.response?.status ?? 0;
  const body = err.data && typeof err.data === 'object' ? err.data : undefined;
  if (body && typeof body.message === 'string') {
    return new ApiError(body.message, status, Number(body.code) || status * 100, body.errors ?? []);
  }
  if (err.type === 'Timeout') return new ApiError('请求超时，请稍后重试', 0, -1);
  if (!status) return new ApiError('无法连接服务器，请检查网络', 0, -1);
  return new ApiError(`服务器错误（${status}）`, status, status * 100);
}

function headers(): Record<string, string> {
  const h: Record<string, string> = {};
  const token = bridge?.getToken();
  const company = bridge?.getCompanyId();
  if (token) h.Authorization = `Bearer ${token}`;
  if (company) h['X-Company-Id'] = company;
  return h;
}

let refreshing: Promise<boolean> | undefined;
async function refreshSession(): Promise<boolean> {
  const refreshToken = bridge?.getRefreshToken();
  if (!refreshToken) return false;
  if (!refreshing) {
    refreshing = (async () => {
      try {
        const body = (await client('/api/auth/refresh', { method: 'POST', data: { refreshToken } })) as Envelope<{
          token: string;
          refreshToken: string;
        }>;
        if (body.code !== 0) return false;
        bridge?.onTokens(body.data.token, body.data.refreshToken);
        return true;
      } catch {
        return false;
      } finally {
        // Callers that got a 401 while this ran share its outcome; a later 401 starts a new renewal.
        refreshing = undefined;
      }
    })();
  }
  return refreshing;
}

export interface CallOptions {
  params?: Record<string, unknown>;
  data?: unknown;
}

/** Calls the gateway and returns the envelope's `data`; renews an expired token once. */
export async function apiRequest<T>(method: string, url: string, opts: CallOptions = {}, retried = false): Promise<T> {
  const params = opts.params
    ? Object.fromEntries(Object.entries(opts.params).filter(([, v]) => v !== undefined && v !== null && v !== ''))
    : undefined;
  try {
    const init: RequestOptionsInit = { method, headers: headers(), params: params as Record<string, string> };
    if (opts.data !== undefined) init.data = opts.data;
    const body = (await client(url, init)) as Envelope<T>;
    if (!body || typeof body !== 'object' || body.code !== 0) {
      throw new ApiError(body?.message || '服务器返回了无法识别的数据', 200, body?.code ?? -1, body?.errors ?? []);
    }
    return body.data;
  } catch (e) {
    const err = toApiError(e);
    const isAuthCall = url.startsWith('/api/auth/login') || url.startsWith('/api/auth/refresh');
    if (err.status === 401 && !retried && !isAuthCall) {
      if (await refreshSession()) return apiRequest<T>(method, url, opts, true);
      bridge?.onAuthLost(err.message || '登录已过期，请重新登录');
    }
    throw err;
  }
}

export const api = {
  get: <T>(url: string, params?: Record<string, unknown>) => apiRequest<T>('GET', url, { params }),
  post: <T>(url: string, data?: unknown) => apiRequest<T>('POST', url, { data: data ?? {} }),
  put: <T>(url: string, data?: unknown) => apiRequest<T>('PUT', url, { data: data ?? {} }),
  del: <T>(url: string) => apiRequest<T>('DELETE', url),
};
