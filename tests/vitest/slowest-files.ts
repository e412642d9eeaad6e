import { relative } from 'node:path';
import type { Reporter, TestModule } from 'vitest/node';

/**
 * Prints the ten slowest test files at the end of a run (time in the file's tests and hooks, plus its
 * import), so a file that grows slow is seen by whoever runs the suite.
 */
export default class SlowestFiles implements Reporter {
  onTestRunEnd(modules: ReadonlyArray<TestModule>): void {
    const rows = modules.map((m) => {
      const d = m.diagnostic();
      return { file: relative(process.cwd(), m.moduleId), project: m.project.name, ms: d.duration + d.collectDuration + d.setupDuration };
    });
    rows.sort((a, b) => b.ms - a.ms);
    const top = rows.slice(0, 10);
    if (top.length === 0) return;
    const width = Math.max(...top.map((r) => r.file.length));
    const lines = top.map((r, i) => `${String(i + 1).padStart(3)}. ${r.file.padEnd(width)}  ${(r.ms / 1000).toFixed(1).padStart(6)} s  (${r.project})`);
    process.stdout.write(`\n Slowest test files:\n${lines.join('\n')}\n\n`);
  }
}
