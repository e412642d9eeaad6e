/**
 * Upload → background parse → preview, as a hook: sends the file with upload progress, polls the
 * gateway's status (progress lives in the database, so any gateway process answers), then loads the
 * rows into the roster store page by page: the editor shows the first page at once and the others are
 * appended as they arrive (a 50,000-row file is ten pages, never one 3.5 MB answer).
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import { ApiError } from '../../../../services/request';
import { getPreview, getRowsPage, nextStatus, uploadFile, type RowsPage, type UploadView } from './api';
import type { LoadRow, RosterStore } from './rosterStore';

export type UploadPhase = 'idle' | 'uploading' | 'parsing' | 'loading' | 'ready' | 'failed';

export interface UploadState {
  phase: UploadPhase;
  uploadPercent: number;
  status?: UploadView;
  error?: string;
  /** The upload whose rows are in the editor (ready). */
  upload?: UploadView;
  unknownHeaders: string[];
  /** Rows in the editor of the upload's total while its pages arrive (confirming waits for all of them). */
  rowsLoaded?: { done: number; total: number };
}

const POLL_MS = 250;
export const ACCEPT = ['xlsx', 'xls', 'csv'];

/** A page of rows with the gateway's messages, as editor rows (`keys`: the head's column keys). */
export function pageRows(keys: string[], p: RowsPage): LoadRow[] {
  const errors = new Map<number, Record<string, string>>();
  for (const e of p.errors) errors.set(e.row, { ...errors.get(e.row), [e.column]: errors.get(e.row)?.[e.column] ?? e.message });
  // In-file duplicates are found again by the editor; "already insured" only the gateway knows.
  const insured = new Map(p.duplicates.filter((d) => d.firstRow === undefined).map((d) => [d.row, d.message]));
  return p.rows.map((cells, i) => {
    const row = p.rowNumbers[i];
    return { row, values: Object.fromEntries(keys.map((k, j) => [k, cells[j] ?? ''])), errors: errors.get(row), insured: insured.get(row) };
  });
}

export function useRosterUpload(store: RosterStore, limits: { maxBytes: number } | undefined) {
  const [state, setState] = useState<UploadState>({ phase: 'idle', uploadPercent: 0, unknownHeaders: [] });
  const live = useRef(true);
  const abort = useRef<() => void>();
  useEffect(() => {
    live.current = true;
    return () => {
      live.current = false;
      abort.current?.();
    };
  }, []);
  const set = (s: Partial<UploadState>) => live.current && setState((prev) => ({ ...prev, ...s }));

  const start = useCallback(
    async (file: File, fields: { planName: string; startDate: string }) => {
      const ext = (/\.([^.]+)$/.exec(file.name)?.[1] ?? '').toLowerCase();
      if (!ACCEPT.includes(ext)) return set({ phase: 'failed', error: ext ? `文件类型不支持，仅支持：${ACCEPT.join('、')}` : '文件名缺少扩展名' });
      if (limits && file.size > limits.maxBytes) return set({ phase: 'failed', error: `文件过大，最大 ${limits.maxBytes / 1024 / 1024} MB` });
      set({ phase: 'uploading', uploadPercent: 0, status: undefined, error: undefined, rowsLoaded: undefined });
      try {
        const up = uploadFile(file, fields, (p) => set({ uploadPercent: p }));
        abort.current = up.abort;
        let status = await up.promise;
        set({ phase: 'parsing', uploadPercent: 100, status });
        while (status.status === 'parsing' && live.current) {
          status = await nextStatus(status, POLL_MS);
          set({ status });
        }
        if (!live.current) return;
        if (status.status !== 'ready') return set({ phase: 'failed', error: status.error ?? '文件解析失败，请重新上传' });
        set({ phase: 'loading' });
        const preview = await getPreview(status.id);
        const keys = preview.result.columns.map((c) => c.key);
        const total = preview.result.total;
        store.load(preview.result.pages ? pageRows(keys, preview.firstPage ?? (await getRowsPage(status.id, 0))) : []);
        set({ phase: 'ready', upload: preview.upload, unknownHeaders: preview.result.unknownHeaders, rowsLoaded: { done: store.size, total } });
        for (let page = 1; page < preview.result.pages && live.current; page++) {
          store.append(pageRows(keys, await getRowsPage(status.id, page)));
          set({ rowsLoaded: { done: store.size, total } });
        }
      } catch (e) {
        // Never a part of an upload in the editor: its confirmation would not be what the user sees.
        if (store.size) store.load([]);
        set({ phase: 'failed', upload: undefined, rowsLoaded: undefined, error: e instanceof ApiError ? e.message : '上传失败，请重试' });
      }
    },
    [store, limits],
  );

  /** Forget the upload (e.g. the user cleared the roster to type it in). */
  const reset = useCallback(() => set({ phase: 'idle', upload: undefined, status: undefined, error: undefined, unknownHeaders: [], rowsLoaded: undefined }), []);
  return { state, start, reset };
}
