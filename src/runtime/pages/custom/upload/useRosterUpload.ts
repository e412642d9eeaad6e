/**
 * Upload → background parse → preview, as a hook: sends the file with upload progress, polls the
 * gateway's status (progress lives in the database, so any gateway process answers), then loads the
 * preview into the roster store.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import { ApiError } from '../../../../services/request';
import { getPreview, getStatus, uploadFile, type UploadPreview, type UploadView } from './api';
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
}

const POLL_MS = 400;
export const ACCEPT = ['xlsx', 'xls', 'csv'];

/** Preview rows with the gateway's messages, as editor rows. */
export function previewRows(p: UploadPreview): LoadRow[] {
  const keys = p.result.columns.map((c) => c.key);
  const errors = new Map<number, Record<string, string>>();
  for (const e of p.result.errors) errors.set(e.row, { ...errors.get(e.row), [e.column]: errors.get(e.row)?.[e.column] ?? e.message });
  // In-file duplicates are found again by the editor; "already insured" only the gateway knows.
  const insured = new Map(p.result.duplicates.filter((d) => d.firstRow === undefined).map((d) => [d.row, d.message]));
  return p.result.rows.map((cells, i) => {
    const row = p.result.rowNumbers[i];
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
      set({ phase: 'uploading', uploadPercent: 0, status: undefined, error: undefined });
      try {
        const up = uploadFile(file, fields, (p) => set({ uploadPercent: p }));
        abort.current = up.abort;
        let status = await up.promise;
        set({ phase: 'parsing', uploadPercent: 100, status });
        while (status.status === 'parsing' && live.current) {
          await new Promise((r) => setTimeout(r, POLL_MS));
          status = await getStatus(status.id);
          set({ status });
        }
        if (!live.current) return;
        if (status.status !== 'ready') return set({ phase: 'failed', error: status.error ?? '文件解析失败，请重新上传' });
        set({ phase: 'loading' });
        const preview = await getPreview(status.id);
        store.load(previewRows(preview));
        set({ phase: 'ready', upload: preview.upload, unknownHeaders: preview.result.unknownHeaders });
      } catch (e) {
        set({ phase: 'failed', error: e instanceof ApiError ? e.message : '上传失败，请重试' });
      }
    },
    [store, limits],
  );

  /** Forget the upload (e.g. the user cleared the roster to type it in). */
  const reset = useCallback(() => set({ phase: 'idle', upload: undefined, status: undefined, error: undefined, unknownHeaders: [] }), []);
  return { state, start, reset };
}
