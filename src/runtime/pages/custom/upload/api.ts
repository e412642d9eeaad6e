/** Gateway calls of the roster upload page (routes: src/server/routes/insure-upload*.ts). */
import { api, authHeaders, ApiError, newIdempotencyKey, type FieldError } from '../../../../services/request';
import { serviceUrl } from '../../../../services/endpoints';
import type { ResultHead } from '../../../../shared/roster-result';

export interface UploadConfig {
  earliestStartDate: string;
  maxRows: number;
  maxBytes: number;
  maxBatchRows: number;
  accept: string[];
}

export interface UploadView {
  id: number;
  status: 'parsing' | 'ready' | 'failed' | 'confirming' | 'confirmed' | 'expired';
  /** 'queued': waiting for a parse worker (uploads of one business are parsed one at a time). */
  phase: 'queued' | 'reading' | 'validating' | 'ready' | 'failed' | 'confirming' | 'confirmed' | 'expired';
  fileName: string;
  planName: string;
  startDate: string;
  rowsDone: number;
  rowsTotal: number;
  percent: number;
  error: string | null;
  /** 有效 + 有误 + 重复 = 共: every row is in one category (a wrong row that is also a duplicate is 有误). */
  counts: { total: number; valid: number; errors: number; duplicates: number };
  hasErrorFile: boolean;
  batchId: number | null;
  /** Confirmation job (status 'confirming'): persons insured so far / to insure; below 100 until committed. */
  confirmDone: number;
  confirmTotal: number;
  confirmPercent: number;
  /** The confirmation's answer once confirmed. */
  confirmResult: ConfirmResult | null;
}

export interface QuoteView {
  planName: string;
  people: number;
  /** Orders the persons make (5,000 each); total is over all of them. */
  orders: number;
  months: number;
  unitPrice: number;
  perPerson: number;
  total: number;
  balance: number;
  balanceAfter: number | null;
  chargeForm: 'prepaid' | 'postpaid';
  enough: boolean;
  startDate: string;
  endDate: string;
  startError: string | null;
}

/** A parsed upload's head: its rows come in pages (getRowsPage), `pages` of `pageSize` rows. */
export interface UploadPreview {
  upload: UploadView;
  quote: QuoteView | null;
  quoteError: string | null;
  result: ResultHead;
  /** The first page of rows (absent when the file has none). */
  firstPage?: RowsPage;
}

/** One page of rows (values in the order of the head's columns) with their errors and duplicates. */
export interface RowsPage {
  rowNumbers: number[];
  rows: string[][];
  errors: Array<{ row: number; column: string; label: string; message: string }>;
  duplicates: Array<{ row: number; firstRow?: number; column: string; message: string }>;
}

export interface ConfirmResult {
  batchId: number;
  batchNo: string;
  orderNo: string;
  orders: Array<{ orderNo: string; people: number; amount: number }>;
  people: number;
  amount: number;
  balanceAfter: number | null;
  total: number;
  succeeded: number;
  failed: number;
}

export const BASE = '/api/insure-uploads';

export const getConfig = () => api.get<UploadConfig>(`${BASE}/config`);
/**
 * The upload's status. With `waitMs`, while it is parsed or confirmed the gateway holds the request until
 * its progress changes (or `waitMs` pass), so each step shows as soon as it happens.
 */
export const getStatus = (id: number, waitMs?: number) => api.get<UploadView>(`${BASE}/${id}`, waitMs ? { waitMs } : undefined);

/** Next status of an upload under way: held by the gateway until it changes; a quick unchanged answer is followed by a pause. */
export async function nextStatus(current: UploadView, pauseMs: number): Promise<UploadView> {
  const asked = Date.now();
  const next = await getStatus(current.id, STATUS_WAIT_MS);
  const unchanged = next.status === current.status && next.phase === current.phase && next.rowsDone === current.rowsDone && next.confirmDone === current.confirmDone;
  if (unchanged && Date.now() - asked < pauseMs) await new Promise((r) => setTimeout(r, pauseMs));
  return next;
}

/** How long the gateway may hold a status request (it allows up to 5 s). */
const STATUS_WAIT_MS = 2000;
export const getPreview = (id: number) => api.get<UploadPreview>(`${BASE}/${id}/preview`);
export const getRowsPage = (id: number, page: number) => api.get<RowsPage>(`${BASE}/${id}/rows`, { page }, { timeout: 60_000 });
export const getQuote = (planName: string, startDate: string, people: number) =>
  api.get<QuoteView>(`${BASE}/quote`, { planName, startDate, people });

export interface ConfirmBody {
  uploadId?: number;
  planName: string;
  startDate: string;
  /**
   * The roster's columns (the person's writable fields) by key, as text, and the sheet row of an uploaded
   * row. Left out for an upload nobody edited: the gateway confirms its stored valid rows (no 50,000-row body).
   */
  rows?: Array<Record<string, string | number | undefined> & { row?: number }>;
}

/**
 * Confirms the roster. With an uploadId the gateway answers 202 with the upload, now 'confirming':
 * a background job insures it and the upload's status reports its progress and outcome
 * (useConfirmRoster polls it). Rows typed in without a file answer the result at once.
 */
export const confirmRoster = (body: ConfirmBody, idempotencyKey: string) =>
  api.post<ConfirmResult | UploadView>(`${BASE}/confirm`, body, { idempotencyKey, timeout: 120_000 });

export const isUploadView = (r: ConfirmResult | UploadView): r is UploadView => 'status' in r;

/**
 * Sends the file as multipart with upload progress (XMLHttpRequest: fetch cannot report it). The
 * fields come before the file. Resolves with the new upload; rejects with the gateway's message.
 */
export function uploadFile(
  file: File,
  fields: { planName: string; startDate: string },
  onProgress: (percent: number) => void,
): { promise: Promise<UploadView>; abort: () => void } {
  const xhr = new XMLHttpRequest();
  const promise = new Promise<UploadView>((resolve, reject) => {
    const fd = new FormData();
    fd.append('planName', fields.planName);
    fd.append('startDate', fields.startDate);
    fd.append('file', file, file.name);
    xhr.open('POST', serviceUrl(BASE, 'business'));
    for (const [k, v] of Object.entries(authHeaders())) xhr.setRequestHeader(k, v);
    xhr.setRequestHeader('Idempotency-Key', newIdempotencyKey());
    xhr.setRequestHeader('Accept', 'application/json');
    xhr.upload.onprogress = (e) => e.lengthComputable && onProgress(Math.floor((e.loaded * 100) / e.total));
    xhr.onerror = () => reject(new ApiError('无法连接服务器，请检查网络'));
    xhr.onabort = () => reject(new ApiError('已取消上传'));
    xhr.onload = () => {
      let body: { code?: number; data?: UploadView; message?: string; errors?: FieldError[] } | undefined;
      try {
        body = JSON.parse(xhr.responseText);
      } catch {
        /* not JSON */
      }
      if (xhr.status >= 200 && xhr.status < 300 && body?.code === 0 && body.data) resolve(body.data);
      else reject(new ApiError(body?.message || `上传失败（HTTP ${xhr.status}）`, xhr.status, body?.code ?? -1, body?.errors ?? []));
    };
    xhr.send(fd);
  });
  return { promise, abort: () => xhr.abort() };
}
