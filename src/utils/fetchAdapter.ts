import axios, { AxiosError, AxiosHeaders, CanceledError, type AxiosResponse, type InternalAxiosRequestConfig } from 'axios';

/**
 * A small axios adapter over window.fetch with `credentials: 'same-origin'` (cookies go to the same origin only,
 * exactly the spec's "same-origin credentials"; axios' own fetch adapter maps withCredentials:false to 'omit').
 * It calls fetch(url, init) at call time, so tests can stub the global fetch. The body is read as text;
 * the request client parses it (and tells parse errors apart).
 */
export async function fetchAdapter(config: InternalAxiosRequestConfig): Promise<AxiosResponse<string>> {
  const url = axios.getUri(config);
  const headers = new Headers();
  // toJSON() already leaves out unset (null/undefined/false) headers.
  for (const [k, v] of Object.entries(AxiosHeaders.from(config.headers).toJSON())) {
    headers.set(k, Array.isArray(v) ? v.join(', ') : String(v));
  }
  const body = config.data as BodyInit | null | undefined;
  // Let the browser write the multipart boundary.
  if (typeof FormData !== 'undefined' && body instanceof FormData) headers.delete('Content-Type');

  const controller = new AbortController();
  const outer = config.signal as AbortSignal | undefined;
  const onOuterAbort = () => controller.abort();
  if (outer?.aborted) throw new CanceledError(undefined, undefined, config);
  outer?.addEventListener?.('abort', onOuterAbort);
  let timedOut = false;
  const timer =
    config.timeout && config.timeout > 0
      ? setTimeout(() => {
          timedOut = true;
          controller.abort();
        }, config.timeout)
      : undefined;

  try {
    const res = await fetch(url, {
      method: (config.method ?? 'get').toUpperCase(),
      headers,
      body: body ?? undefined,
      credentials: 'same-origin',
      signal: controller.signal,
    });
    const data = await res.text();
    const responseHeaders = new AxiosHeaders();
    res.headers.forEach((v, k) => responseHeaders.set(k, v));
    return { data, status: res.status, statusText: res.statusText, headers: responseHeaders, config, request: undefined };
  } catch (e) {
    if (timedOut) throw new AxiosError(`timeout of ${config.timeout}ms exceeded`, AxiosError.ETIMEDOUT, config);
    if (outer?.aborted) throw new CanceledError(undefined, undefined, config);
    throw new AxiosError(e instanceof Error ? e.message : 'Network Error', AxiosError.ERR_NETWORK, config, undefined, undefined);
  } finally {
    clearTimeout(timer);
    outer?.removeEventListener?.('abort', onOuterAbort);
  }
}
