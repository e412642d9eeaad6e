/** Reading claim attachments from the gateway: they need the session headers, so they are fetched as blobs. */
import { api, ApiError, authHeaders } from '../../../../services/request';
import { serviceUrl } from '../../../../services/endpoints';
import { downloadUrl } from '../../../../utils/download';

export interface Attachment {
  id: number;
  fileName: string;
  mime: string;
  size: number;
  isImage: boolean;
  createdAt: string;
}

export const contentPath = (id: number, download = false) => `/api/claim-attachments/${id}/content${download ? '?download=1' : ''}`;

/** The attachment's bytes as a Blob of its served type; renews an expired session once. */
export async function fetchAttachment(id: number, signal?: AbortSignal): Promise<Blob> {
  const get = () => fetch(serviceUrl(contentPath(id), 'business'), { credentials: 'same-origin', headers: authHeaders(), signal });
  let res = await get();
  if (res.status === 401 && (await api.get('/api/businesses').then(() => true, () => false))) res = await get();
  if (!res.ok) throw new ApiError(res.status === 404 ? '文件不存在或无权查看' : `文件读取失败（${res.status}）`, res.status);
  return res.blob();
}

/** Saves the attachment under its own name. */
export function downloadAttachment(a: Attachment): Promise<string> {
  return downloadUrl(serviceUrl(contentPath(a.id, true), 'business'), a.fileName, authHeaders());
}

export function formatSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}
