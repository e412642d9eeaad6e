/** Browser helpers that save data or a fetched URL as a file (spec §7). */

/** Saves in-memory data as a file named `fileName` of type `mimeType`. */
export function saveData(data: BlobPart | BlobPart[], fileName: string, mimeType: string): void {
  const parts = Array.isArray(data) ? data : [data];
  saveBlob(new Blob(parts, { type: mimeType }), fileName);
}

/** Saves a Blob through a temporary <a download> and object URL, revoking the URL afterwards. */
export function saveBlob(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = fileName;
  a.rel = 'noopener';
  a.style.display = 'none';
  document.body.appendChild(a);
  try {
    a.click();
  } finally {
    a.remove();
    // Revoke on the next tick: some browsers start the download asynchronously after click().
    setTimeout(() => URL.revokeObjectURL(url), 0);
  }
}

function safeDecode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

/** Last path segment of a URL, decoded, without query string or hash ('' when the path ends in '/'). */
export function fileNameFromUrl(url: string): string {
  const path = url.split(/[?#]/)[0];
  const seg = path.split('/').pop() ?? '';
  return safeDecode(seg);
}

/**
 * The file name of a Content-Disposition header; `filename*=UTF-8''…` (RFC 5987) wins over `filename=`.
 * Undefined when the header has neither.
 */
export function fileNameFromContentDisposition(header: string | null | undefined): string | undefined {
  if (!header) return undefined;
  const star = /filename\*\s*=\s*([^;]+)/i.exec(header);
  if (star) {
    const v = star[1].trim().replace(/^"(.*)"$/, '$1');
    const m = /^([\w!#$%&+^`{}~-]*)'[^']*'(.*)$/.exec(v);
    const name = safeDecode(m ? m[2] : v);
    if (name) return name;
  }
  const plain = /(?:^|;)\s*filename\s*=\s*("(?:[^"\\]|\\.)*"|[^;]*)/i.exec(header);
  if (plain) {
    let v = plain[1].trim();
    if (v.startsWith('"')) v = v.slice(1, -1).replace(/\\(.)/g, '$1');
    if (v) return v;
  }
  return undefined;
}

export class DownloadError extends Error {
  constructor(
    message: string,
    readonly status: number,
  ) {
    super(message);
    this.name = 'DownloadError';
  }
}

/**
 * Fetches `url` (same-origin credentials, with `headers`, e.g. the auth headers) and saves the response.
 * Name: `fileName` if given, else the server's Content-Disposition name, else the URL's last path segment.
 * Rejects with DownloadError on a non-2xx status. Resolves to the name used.
 */
export async function downloadUrl(url: string, fileName?: string, headers?: Record<string, string>): Promise<string> {
  const res = await fetch(url, { credentials: 'same-origin', headers });
  if (!res.ok) throw new DownloadError(`下载失败（${res.status}）`, res.status);
  const blob = await res.blob();
  const name =
    fileName || fileNameFromContentDisposition(res.headers.get('Content-Disposition')) || fileNameFromUrl(url) || 'download';
  saveBlob(blob, name);
  return name;
}
