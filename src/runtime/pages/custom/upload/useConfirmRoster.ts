/**
 * 确认投保 as a hook: sends the confirmation and, for an upload (answered 202, insured by a background
 * job on the gateway), polls the upload's status for the job's progress until it is confirmed or has
 * failed. The progress lives in the database, so any gateway process answers the poll.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import { ApiError } from '../../../../services/request';
import { confirmRoster, isUploadView, nextStatus, type ConfirmBody, type ConfirmResult, type UploadView } from './api';

const POLL_MS = 500;
/** Consecutive failed polls (network) tolerated before giving up on showing the progress. */
const MAX_POLL_ERRORS = 5;

export interface ConfirmProgress {
  done: number;
  total: number;
  percent: number;
}

/** The background job failed: nothing was insured, the upload is ready again (a new attempt needs a new Idempotency-Key). */
export class ConfirmJobError extends ApiError {}

const progressOf = (u: UploadView): ConfirmProgress => ({ done: u.confirmDone, total: u.confirmTotal, percent: u.confirmPercent });

export function useConfirmRoster() {
  const [progress, setProgress] = useState<ConfirmProgress | null>(null);
  const live = useRef(true);
  useEffect(() => {
    live.current = true;
    return () => {
      live.current = false;
    };
  }, []);

  const confirm = useCallback(async (body: ConfirmBody, idempotencyKey: string): Promise<ConfirmResult> => {
    setProgress(null);
    const first = await confirmRoster(body, idempotencyKey);
    if (!isUploadView(first)) return first;
    let status = first;
    let errors = 0;
    try {
      while (status.status === 'confirming') {
        if (live.current) setProgress(progressOf(status));
        if (!live.current) throw new ApiError('已离开页面，投保结果请在历史表单中查看');
        try {
          status = await nextStatus(status, POLL_MS);
          errors = 0;
        } catch (e) {
          await new Promise((r) => setTimeout(r, POLL_MS));
          if (++errors >= MAX_POLL_ERRORS) throw new ApiError(`无法获取投保进度（${e instanceof Error ? e.message : '网络错误'}），请稍后在历史表单中查看结果`);
        }
      }
    } finally {
      if (live.current) setProgress(null);
    }
    if (status.status === 'confirmed' && status.confirmResult) return status.confirmResult;
    throw new ConfirmJobError(status.error ?? '投保失败，未投保任何人员，请重新确认');
  }, []);

  return { confirm, progress };
}
