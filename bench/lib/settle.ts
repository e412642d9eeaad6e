/**
 * Waits until the machine is quiet before a section measures: the CPU time of every process, from
 * /proc/stat, is at least `idle` idle over a `windowMs` window, for at most `maxMs`. What runs just
 * before a list section (dropping the previous run's database, seeding, VACUUM, CHECKPOINT, the
 * kernel reclaiming the page cache they used) can keep a core busy for seconds after it returns, and
 * the figures are the gateway's steady state, not that aftermath. Returns what it waited and the idle
 * share of the last window, for the log. Off Linux (no /proc/stat) it returns at once.
 */
import { existsSync, readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';

function cpuTimes(): { idle: number; total: number } {
  const line = readFileSync('/proc/stat', 'utf8').split('\n')[0]; // cpu  user nice system idle iowait irq softirq steal …
  const f = line.trim().split(/\s+/).slice(1).map(Number);
  return { idle: f[3] + (f[4] ?? 0), total: f.slice(0, 8).reduce((a, b) => a + b, 0) };
}

export async function settle(opts: { idle?: number; windowMs?: number; maxMs?: number } = {}): Promise<{ waitedMs: number; idle: number }> {
  const want = opts.idle ?? 0.9;
  const windowMs = opts.windowMs ?? 1000;
  const maxMs = opts.maxMs ?? 30_000;
  if (!existsSync('/proc/stat')) return { waitedMs: 0, idle: Number.NaN };
  const t0 = Date.now();
  for (;;) {
    const a = cpuTimes();
    await sleep(windowMs);
    const b = cpuTimes();
    const idle = b.total > a.total ? (b.idle - a.idle) / (b.total - a.total) : 1;
    if (idle >= want || Date.now() - t0 >= maxMs) return { waitedMs: Date.now() - t0, idle };
  }
}
