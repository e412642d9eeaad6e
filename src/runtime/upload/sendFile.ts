/**
 * Sends one file to a gateway upload endpoint (multipart, field `file`) through XMLHttpRequest, because
 * fetch cannot report upload progress. Carries the session headers and an Idempotency-Key (the same one
 * on the one retry after an expired session is renewed); answers the envelope's data or throws ApiError.
 */
import { api, ApiError, authHeaders, newIdempotencyKey } from '../../services/request';
import { serviceUrl } from '../../services/endpoints';

export interface SendFileOptions {
  onProgress?: (percent: number) => void;
  signal?: AbortSignal;
  /** Text fields sent before the file. */
  fields?: Record<string, string>;
}

function once(url: string, file: File, key: string, opts: SendFileOptions): Promise<{ status: number; body: any }> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', serviceUrl(url, 'business'));
    for (const [k, v] of Object.entries({ ...authHeaders(), 'Idempotency-Key': key, Accept: 'application/json' })) xhr.setRequestHeader(k, v);
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable) opts.onProgress?.(Math.min(99, Math.round((e.loaded / e.total) * 100)));
    };
    xhr.onload = () => {
      let body: any;
      try {
        body = JSON.parse(xhr.responseText);
      } catch {
        body = undefined;
      }
      resolve({ status: xhr.status, body });
    };
    xhr.onerror = () => reject(new ApiError('无法连接服务器，请检查网络'));
    xhr.onabort = () => reject(new ApiError('上传已取消'));
    opts.signal?.addEventListener('abort', () => xhr.abort());
    const form = new FormData();
    for (const [k, v] of Object.entries(opts.fields ?? {})) form.append(k, v);
    form.append('file', file, file.name);
    xhr.send(form);
  });
}

export async function sendFile<T>(url: string, file: File, opts: SendFileOptions = {}): Promise<T> {
  const key = newIdempotencyKey();
  let r = await once(url, file, key, opts);
  if (r.status === 401) {
    // Any API call renews an expired session (src/services/request.ts); then the upload is tried once more.
    const renewed = await api.get('/api/businesses').then(
      () => true,
      () => false,
    );
    if (renewed) r = await once(url, file, key, opts);
  }
  const b = r.body;
  if (r.status >= 200 && r.status < 300 && b && b.code === 0) {
    opts.onProgress?.(100);
    return b.data as T;
  }
  const message = (b && typeof b.message === 'string' && b.message) || `上传失败（${r.status}）`;
  throw new ApiError(message, r.status, b?.code ?? -1, Array.isArray(b?.errors) ? b.errors : []);
}
