/**
 * The gateway's memory: resident set size (VmRSS from /proc/<pid>/status) of its process, sampled every
 * `everyMs` from when it starts until it closes. Off Linux (no /proc) every reading is NaN.
 */
import { readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';

const MIB = 1024 * 1024;

/** RSS of a process in MiB (NaN when it cannot be read). */
export function rssMiB(pid: number): number {
  try {
    const m = /VmRSS:\s+(\d+)\s+kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? (Number(m[1]) * 1024) / MIB : Number.NaN;
  } catch {
    return Number.NaN;
  }
}

export interface RssWatch {
  /** RSS when the watch started (MiB). */
  readonly start: number;
  /** Highest RSS seen so far (MiB). */
  peak(): number;
  /** Starts a new peak window (e.g. one upload) and returns the RSS now. */
  resetPeak(): number;
  /**
   * Waits (at most `maxMs`) until the RSS is at most `limit` MiB, sampling every 500 ms; resolves with
   * the last reading and how long it waited.
   */
  settleBelow(limit: number, maxMs?: number): Promise<{ rss: number; waitedMs: number }>;
  stop(): { start: number; peak: number; end: number };
}

export function watchRss(pid: number, everyMs = 250): RssWatch {
  const start = rssMiB(pid);
  let peak = start;
  let windowPeak = start;
  const sample = () => {
    const r = rssMiB(pid);
    if (r > peak) peak = r;
    if (r > windowPeak) windowPeak = r;
    return r;
  };
  const timer = setInterval(sample, everyMs);
  timer.unref();
  return {
    start,
    peak: () => windowPeak,
    resetPeak() {
      windowPeak = sample();
      return windowPeak;
    },
    async settleBelow(limit, maxMs = 30_000) {
      const t0 = Date.now();
      let r = sample();
      while (!(r <= limit) && Date.now() - t0 < maxMs) {
        await sleep(500);
        r = sample();
      }
      return { rss: r, waitedMs: Date.now() - t0 };
    },
    stop() {
      const end = sample();
      clearInterval(timer);
      return { start, peak, end };
    },
  };
}
