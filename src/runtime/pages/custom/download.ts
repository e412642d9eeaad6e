/**
 * Authenticated file download: the gateway wants the Authorization and X-Company-Id headers, which a
 * plain link cannot send, so fetch the file and save the blob.
 */
export async function downloadWithAuth(url: string, auth: { token: string; companyId: string }, fallbackName: string): Promise<void> {
  const res = await fetch(url, {
    headers: { Authorization: `Bearer ${auth.token}`, 'X-Company-Id': auth.companyId },
    credentials: 'same-origin',
  });
  if (!res.ok) throw new Error(res.status === 404 ? '原文件不存在' : `下载失败（HTTP ${res.status}）`);
  const name = fileNameFrom(res.headers.get('Content-Disposition')) ?? fallbackName;
  const href = URL.createObjectURL(await res.blob());
  const a = document.createElement('a');
  a.href = href;
  a.download = name;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(href), 1000);
}

/** File name from a Content-Disposition header (RFC 5987 filename* first). */
export function fileNameFrom(header: string | null): string | null {
  if (!header) return null;
  const star = /filename\*=UTF-8''([^;]+)/i.exec(header);
  if (star) {
    try {
      return decodeURIComponent(star[1]);
    } catch {
      /* fall through */
    }
  }
  const plain = /filename="?([^";]+)"?/i.exec(header);
  return plain ? plain[1] : null;
}
