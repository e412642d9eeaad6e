import axios, { AxiosError, type AxiosResponse } from 'axios';
import { serviceUrl } from './endpoints';
import { serializeParams, toFormBody } from '../utils/query';
import { fetchAdapter } from '../utils/fetchAdapter';

export { serializeParams } from '../utils/query';
export { resolveServiceUrl } from './endpoints';

export type FieldError = { field: string; message: string };
/** timeout: no answer in time; network: no answer at all (or cancelled); http: non-2xx; parse: 2xx but not the expected JSON; business: envelope code ≠ 0. */
export type RequestErrorKind = 'timeout' | 'parse' | 'http' | 'network' | 'business';

/**
 * A failed API call with the gateway's clear message, HTTP status (0 without a response), gateway code and
 * per-field errors. Kept with its original constructor because UI code builds its own (`new ApiError(msg, 0, -1)`).
 */
export class ApiError extends Error {
  constructor(
    message: string,
    readonly status: number = 0,
    readonly code: number = -1,
    readonly fieldErrors: FieldError[] = [],
    readonly kind: RequestErrorKind = status ? 'http' : 'network',
    /** The response body (parsed when it was JSON), for diagnostics. */
    readonly body?: unknown,
    cause?: unknown,
  ) {
    super(message, cause === undefined ? undefined : { cause });
    this.name = 'ApiError';
  }
}

/** What the client throws: an ApiError whose `kind` tells timeout / parse / http / network / business apart. */
export class RequestError extends ApiError {
  constructor(
    message: string,
    kind: RequestErrorKind,
    status = 0,
    code = -1,
    fieldErrors: FieldError[] = [],
    body?: unknown,
    cause?: unknown,
  ) {
    super(message, status, code, fieldErrors, kind, body, cause);
    this.name = 'RequestError';
  }
}

/** Default lifetime of a cached GET response (spec §9: 60 s). */
export const DEFAULT_CACHE_TTL_MS = 60000;
const cache = new Map<string, { expires: number; value: unknown }>();
/** Bumped by every clear, so a GET that started before a write does not store its (maybe stale) answer. */
let generation = 0;

/** GETs on their way, by URL, query and business: a second caller of the same GET shares the first one's answer. */
const inflight = new Map<string, Promise<unknown>>();

/** How long a preloaded GET's answer waits for the page that asked for it (preloadGet). */
export const PRELOAD_TTL_MS = 5000;
/** How long after the page first reads a preloaded answer the page's other parts may read it too. */
const PRELOAD_SHARE_MS = 1000;
/** Answers of preloadGet, by cacheKey, for the GETs of the page that opens (see preloadGet). */
const preloaded = new Map<string, { expires: number; read: boolean; value: Promise<unknown> }>();

/** Empties the GET response cache (writes do this automatically); a GET asked for after this is sent anew. */
export function clearRequestCache(): void {
  cache.clear();
  inflight.clear();
  preloaded.clear();
  generation++;
}

/**
 * Sends a GET the page being opened is about to send (a link was pressed: its route's record), so its
 * answer is on its way while the page's code loads and the old page unmounts. A GET of the same URL and
 * business shares it while it runs, or takes its answer within PRELOAD_TTL_MS; once read, the answer is
 * kept PRELOAD_SHARE_MS more for the page's other parts that load the same record (a detail and its pay
 * card), then dropped, so a later reload asks the gateway again. A write in between drops it. Failures are
 * the page's to show: nothing is reported here.
 */
export function preloadGet(url: string, params?: Record<string, unknown>): void {
  const key = cacheKey(url, params);
  const now = Date.now();
  // Answers no page read in time (a link whose page asked for other URLs) do not pile up.
  for (const [k, v] of preloaded) if (v.expires <= now) preloaded.delete(k);
  if (inflight.has(key) || preloaded.has(key)) return;
  const startGeneration = generation;
  // Until it is answered it waits without a limit; a page that reads it meanwhile shares the request.
  const entry = { expires: Infinity, read: false, value: apiRequest<unknown>('GET', url, params ? { params } : {}) };
  preloaded.set(key, entry);
  const settle = () => {
    if (startGeneration !== generation) {
      if (preloaded.get(key) === entry) preloaded.delete(key);
      return;
    }
    entry.expires = Date.now() + (entry.read ? PRELOAD_SHARE_MS : PRELOAD_TTL_MS);
  };
  entry.value.then(settle, settle);
}

/** Default per-call timeout; a call can pass its own `timeout` (ms). */
export const DEFAULT_TIMEOUT_MS = 30000;

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

/**
 * The axios instance. Credentials: same-origin — the fetch adapter sends `credentials: 'same-origin'`, so the
 * browser sends the cookies of the same origin and never cross-origin ones (`withCredentials: false` states the
 * same for XHR, whose default is also same-origin cookies only).
 * Bodies and responses are handled as text here so JSON/form encoding and parse errors stay under our control.
 */
export const http = axios.create({
  adapter: fetchAdapter,
  withCredentials: false,
  responseType: 'text',
  transformRequest: [(d: unknown) => d],
  transformResponse: [(d: unknown) => d],
  validateStatus: () => true,
  transitional: { clarifyTimeoutError: true, silentJSONParsing: false, forcedJSONParsing: false },
});

type Envelope<T> = { code: number; data: T; message?: string; errors?: FieldError[] };

export interface CallOptions {
  /** Query parameters: arrays repeat the key (ids=1&ids=2); undefined/null/'' are dropped. */
  params?: Record<string, unknown>;
  /** Body of POST/PUT/PATCH/DELETE: JSON by default, form-encoded with `form`/`requestType: 'form'`. FormData is sent as is. */
  data?: unknown;
  form?: boolean;
  requestType?: 'json' | 'form';
  /** Timeout in ms (default DEFAULT_TIMEOUT_MS); on expiry the error reads `timeout of Nms exceeded`. */
  timeout?: number;
  /** GET only: reuse a successful response for `ttl` ms (default 60000). Writes clear the cache. */
  cache?: boolean | { ttl?: number };
  /** Idempotency-Key of a write; a random UUID per call when absent (pass one per form submit to reuse it on retry). */
  idempotencyKey?: string;
  headers?: Record<string, string>;
  signal?: AbortSignal;
}

const WRITE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** A random UUID v4; uses crypto.randomUUID when available (secure contexts), else getRandomValues. */
export function newIdempotencyKey(): string {
  const c = globalThis.crypto;
  if (c?.randomUUID) return c.randomUUID();
  const b = new Uint8Array(16);
  if (c?.getRandomValues) c.getRandomValues(b);
  else for (let i = 0; i < 16; i++) b[i] = Math.floor(Math.random() * 256);
  b[6] = (b[6] & 0x0f) | 0x40;
  b[8] = (b[8] & 0x3f) | 0x80;
  const h = [...b].map((x) => x.toString(16).padStart(2, '0')).join('');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

/** Authorization and X-Company-Id for the current session (also for downloads made outside this client). */
export function authHeaders(): Record<string, string> {
  const h: Record<string, string> = {};
  const token = bridge?.getToken();
  const company = bridge?.getCompanyId();
  if (token) h.Authorization = `Bearer ${token}`;
  if (company) h['X-Company-Id'] = company;
  return h;
}

function isFormData(d: unknown): d is FormData {
  return typeof FormData !== 'undefined' && d instanceof FormData;
}

function encodeBody(opts: CallOptions, headers: Record<string, string>): unknown {
  const d = opts.data;
  if (d === undefined || isFormData(d)) return d;
  if (opts.form || opts.requestType === 'form') {
    headers['Content-Type'] = 'application/x-www-form-urlencoded;charset=UTF-8';
    return toFormBody(d);
  }
  headers['Content-Type'] = 'application/json;charset=UTF-8';
  return JSON.stringify(d);
}

function parseJson(text: unknown): { ok: true; value: unknown } | { ok: false } {
  if (typeof text !== 'string') return text === undefined || text === null ? { ok: false } : { ok: true, value: text };
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false };
  }
}

function isEnvelope(v: unknown): v is Envelope<unknown> {
  return Boolean(v) && typeof v === 'object' && typeof (v as { code?: unknown }).code === 'number';
}

/** Turns an axios response into the envelope's data or a RequestError of the right kind. */
function unwrap<T>(res: AxiosResponse<unknown>): T {
  const parsed = parseJson(res.data);
  const body = parsed.ok ? parsed.value : undefined;
  if (res.status < 200 || res.status >= 300) {
    const env = isEnvelope(body) ? body : undefined;
    const message = typeof env?.message === 'string' && env.message ? env.message : `服务器错误（${res.status}）`;
    return fail(new RequestError(message, 'http', res.status, env ? env.code : res.status * 100, env?.errors ?? [], body));
  }
  if (res.status === 204 || (res.data === '' && res.status !== 200)) return undefined as T;
  if (!parsed.ok || !isEnvelope(body)) {
    return fail(new RequestError('服务器返回了无法识别的数据', 'parse', res.status, -1, [], res.data));
  }
  if (body.code !== 0) {
    return fail(new RequestError(body.message || '操作失败', 'business', res.status, body.code, body.errors ?? [], body));
  }
  return body.data as T;
}

function fail(e: RequestError): never {
  throw e;
}

function toRequestError(e: unknown, timeout: number): RequestError {
  if (e instanceof RequestError) return e;
  if (axios.isCancel(e)) return new RequestError('请求已取消', 'network', 0, -1, [], undefined, e);
  const ax = e as AxiosError;
  if (ax?.code === AxiosError.ETIMEDOUT || ax?.code === AxiosError.ECONNABORTED) {
    return new RequestError(`timeout of ${timeout}ms exceeded`, 'timeout', 0, -1, [], undefined, e);
  }
  return new RequestError('无法连接服务器，请检查网络', 'network', 0, -1, [], undefined, e);
}

/** One HTTP exchange, no renewal, no cache. */
async function send<T>(method: string, url: string, opts: CallOptions, extraHeaders: Record<string, string>): Promise<T> {
  const timeout = opts.timeout ?? DEFAULT_TIMEOUT_MS;
  const headers: Record<string, string> = { Accept: 'application/json', ...extraHeaders, ...opts.headers };
  const data = encodeBody(opts, headers);
  try {
    const res = await http.request<unknown>({
      method,
      url: serviceUrl(url, 'business'),
      params: opts.params,
      paramsSerializer: { serialize: (p) => serializeParams(p as Record<string, unknown>) },
      data,
      headers,
      timeout,
      signal: opts.signal,
    });
    return unwrap<T>(res);
  } catch (e) {
    throw toRequestError(e, timeout);
  }
}

let refreshing: Promise<boolean> | undefined;
async function refreshSession(): Promise<boolean> {
  const refreshToken = bridge?.getRefreshToken();
  if (!refreshToken) return false;
  if (!refreshing) {
    refreshing = (async () => {
      try {
        const r = await send<{ token: string; refreshToken: string }>('POST', '/api/auth/refresh', { data: { refreshToken } }, {
          'Idempotency-Key': newIdempotencyKey(),
        });
        bridge?.onTokens(r.token, r.refreshToken);
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

function cacheKey(url: string, params: Record<string, unknown> | undefined): string {
  return `${url}?${params ? serializeParams(params) : ''}#${bridge?.getCompanyId() ?? ''}`;
}

/**
 * Calls the gateway and returns the envelope's `data` (callGateway). A GET already on its way for the same
 * URL, query and business is shared: two parts of a page that load the same record at once (a detail and
 * its pay card) make one request. A caller with its own AbortSignal or headers keeps its own request, so
 * cancelling it cancels no one else's and no one gets an answer to headers they did not send.
 */
export function apiRequest<T>(method: string, url: string, opts: CallOptions = {}): Promise<T> {
  if (method.toUpperCase() !== 'GET' || opts.signal || opts.headers) return callGateway<T>(method, url, opts);
  const key = cacheKey(url, opts.params);
  const ahead = preloaded.get(key);
  if (ahead && ahead.expires > Date.now()) {
    // The first read starts the page's PRELOAD_SHARE_MS (from the answer, when it is still on its way).
    if (!ahead.read && ahead.expires !== Infinity) ahead.expires = Math.min(ahead.expires, Date.now() + PRELOAD_SHARE_MS);
    ahead.read = true;
    return ahead.value as Promise<T>;
  }
  if (ahead) preloaded.delete(key);
  const running = inflight.get(key);
  if (running) return running as Promise<T>;
  const request = callGateway<T>(method, url, opts);
  inflight.set(key, request);
  const done = () => {
    if (inflight.get(key) === request) inflight.delete(key);
  };
  request.then(done, done);
  return request;
}

/**
 * One call: renews an expired token once (not for auth calls). Writes carry an Idempotency-Key (the same
 * one on the retry after a renewal) and clear the GET cache.
 */
async function callGateway<T>(method: string, url: string, opts: CallOptions, retried = false): Promise<T> {
  const m = method.toUpperCase();
  const isWrite = WRITE_METHODS.has(m);
  if (isWrite && !opts.idempotencyKey) opts = { ...opts, idempotencyKey: newIdempotencyKey() };
  const ttl = m === 'GET' && opts.cache ? (typeof opts.cache === 'object' && opts.cache.ttl) || DEFAULT_CACHE_TTL_MS : 0;
  const key = ttl ? cacheKey(url, opts.params) : '';
  if (ttl) {
    const hit = cache.get(key);
    if (hit && hit.expires > Date.now()) return hit.value as T;
    cache.delete(key);
  }
  if (isWrite) clearRequestCache();
  const startGeneration = generation;
  try {
    const extra = authHeaders();
    if (isWrite) extra['Idempotency-Key'] = opts.idempotencyKey as string;
    const data = await send<T>(m, url, opts, extra);
    if (ttl && startGeneration === generation) cache.set(key, { expires: Date.now() + ttl, value: data });
    return data;
  } catch (e) {
    const err = e as RequestError;
    const isAuthCall = url.startsWith('/api/auth/login') || url.startsWith('/api/auth/refresh');
    if (err.status === 401 && !retried && !isAuthCall) {
      if (await refreshSession()) return callGateway<T>(m, url, opts, true);
      bridge?.onAuthLost(err.message || '登录已过期，请重新登录');
    }
    throw err;
  } finally {
    if (isWrite) clearRequestCache();
  }
}

type Opts = Omit<CallOptions, 'params' | 'data'>;

export const api = {
  get: <T>(url: string, params?: Record<string, unknown>, options?: Opts) => apiRequest<T>('GET', url, { ...options, params }),
  post: <T>(url: string, data?: unknown, options?: Opts) => apiRequest<T>('POST', url, { ...options, data: data ?? {} }),
  put: <T>(url: string, data?: unknown, options?: Opts) => apiRequest<T>('PUT', url, { ...options, data: data ?? {} }),
  patch: <T>(url: string, data?: unknown, options?: Opts) => apiRequest<T>('PATCH', url, { ...options, data: data ?? {} }),
  del: <T>(url: string, options?: Opts & { data?: unknown; params?: Record<string, unknown> }) => apiRequest<T>('DELETE', url, { ...options }),
};
