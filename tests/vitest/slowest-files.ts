import { mkdirSync, writeFileSync } from 'node:fs';
import { relative } from 'node:path';
import type { Reporter, TestModule } from 'vitest/node';

/**
 * Prints the ten slowest test files at the end of a run (time in the file's tests and hooks, plus its
 * import), so a file that grows slow is seen by whoever runs the suite; and writes when each file was
 * queued and when it ended, seconds from the run's start, to test-results/file-timeline.json (what the
 * order in tests/vitest/sequencer.ts is tuned from: which files overlap, where a worker waits).
 */
export default class SlowestFiles implements Reporter {
  private t0 = Date.now();
  private queued = new Map<string, number>();
  private ended = new Map<string, number>();

  onTestRunStart(): void {
    this.t0 = Date.now();
  }

  onTestModuleQueued(m: TestModule): void {
    this.queued.set(m.moduleId, Date.now() - this.t0);
  }

  onTestModuleEnd(m: TestModule): void {
    this.ended.set(m.moduleId, Date.now() - this.t0);
  }

  onTestRunEnd(modules: ReadonlyArray<TestModule>): void {
    const rows = modules.map((m) => {
      const d = m.diagnostic();
      return { file: relative(process.cwd(), m.moduleId), project: m.project.name, ms: d.duration + d.collectDuration + d.setupDuration, from: this.queued.get(m.moduleId), to: this.ended.get(m.moduleId) };
    });
    const timeline = [...rows].sort((a, b) => (a.from ?? 0) - (b.from ?? 0)).map(({ file, project, from, to }) => ({ file, project, from: (from ?? 0) / 1000, to: (to ?? 0) / 1000 }));
    mkdirSync('test-results', { recursive: true });
    writeFileSync('test-results/file-timeline.json', `${JSON.stringify(timeline, null, 1)}\n`);
    rows.sort((a, b) => b.ms - a.ms);
    const top = rows.slice(0, 10);
    if (top.length === 0) return;
    const width = Math.max(...top.map((r) => r.file.length));
    const lines = top.map((r, i) => `${String(i + 1).padStart(3)}. ${r.file.padEnd(width)}  ${(r.ms / 1000).toFixed(1).padStart(6)} s  (${r.project})`);
    process.stdout.write(`\n Slowest test files:\n${lines.join('\n')}\n\n`);
  }
}
