/**
 * Main-thread CPU time of a navigation in a Chromium performance trace (bench/firstpage.ts's tracePath):
 * the thread time (`tdur`) of the renderer main thread's top-level tasks from the `firstpage:start` mark
 * to `firstpage:shown`. Unlike the wall time it leaves out the time the thread waited for the CPU, which on
 * a shared machine is most of the spread between two runs of the same build (at 4x CPU throttling
 * Chromium's throttle spins on the thread, so there the figure is about four times the work).
 */
import { readFileSync } from 'node:fs';

interface TraceEvent {
  name: string;
  ph: string;
  pid: number;
  tid: number;
  ts: number;
  dur?: number;
  tdur?: number;
  args?: { name?: string };
}

export function navigationCpu(path: string): { cpu: number; wall: number; shown: number } {
  const raw = JSON.parse(readFileSync(path, 'utf8')) as { traceEvents?: TraceEvent[] } | TraceEvent[];
  const events = Array.isArray(raw) ? raw : raw.traceEvents ?? [];
  const thread = (e: TraceEvent) => `${e.pid}:${e.tid}`;
  const mains = new Set(events.filter((e) => e.ph === 'M' && e.name === 'thread_name' && e.args?.name === 'CrRendererMain').map(thread));
  const counts = new Map<string, number>();
  for (const e of events) if (e.ph === 'X' && mains.has(thread(e))) counts.set(thread(e), (counts.get(thread(e)) ?? 0) + 1);
  const main = [...counts].sort((a, b) => b[1] - a[1])[0]?.[0];
  const mark = (name: string) => Math.min(...events.filter((e) => e.name === name).map((e) => e.ts));
  const start = mark('firstpage:start');
  const shown = mark('firstpage:shown');
  let cpu = 0;
  let wall = 0;
  for (const e of events) {
    if (thread(e) !== main || e.ph !== 'X' || (e.name !== 'RunTask' && e.name !== 'ThreadControllerImpl::RunTask')) continue;
    if (e.ts + (e.dur ?? 0) <= start || e.ts >= shown) continue;
    cpu += e.tdur ?? 0;
    wall += e.dur ?? 0;
  }
  return { cpu: cpu / 1000, wall: wall / 1000, shown: (shown - start) / 1000 };
}
