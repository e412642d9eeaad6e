/** Collects result rows and prints them as an aligned table and as Markdown. */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

export interface Row {
  section: string;
  figure: string;
  /** Measured value, or a string such as 'timeout' / 'n/a'. */
  value: number | string;
  unit: string;
  /** Human-readable target, e.g. '≤ 50 ms'; '' for informational rows. */
  target: string;
  /** true/false for a judged figure, null for information only. */
  pass: boolean | null;
  note?: string;
}

export class Report {
  readonly rows: Row[] = [];
  readonly notes: string[] = [];

  add(row: Row): Row {
    this.rows.push(row);
    const v = typeof row.value === 'number' ? `${fmt(row.value)} ${row.unit}` : row.value;
    console.log(`  [${row.section}] ${row.figure}: ${v}${row.target ? ` (target ${row.target})` : ''} ${verdict(row.pass)}${row.note ? ` – ${row.note}` : ''}`);
    return row;
  }

  note(s: string): void {
    this.notes.push(s);
    console.log(`  note: ${s}`);
  }

  get failed(): number {
    return this.rows.filter((r) => r.pass === false).length;
  }

  /**
   * The count of every row, as the table holds them: figures with a target (pass / fail, a crashed
   * section counting as a failed figure) and rows of information, which are not figures.
   */
  summary(): string {
    const judged = this.rows.filter((r) => r.pass !== null);
    const passed = judged.filter((r) => r.pass).length;
    const crashed = this.rows.filter((r) => r.pass === false && r.figure.endsWith(' crashed')).length;
    const info = this.rows.length - judged.length;
    return (
      `${this.rows.length} rows: ${judged.length} figures with a target, ${passed} pass and ${judged.length - passed} fail` +
      `${crashed ? ` (${crashed} of them a crashed section)` : ''}; ${info} ${info === 1 ? 'row' : 'rows'} of information`
    );
  }

  table(): string {
    const head = ['section', 'figure', 'value', 'target', 'result'];
    const body = this.rows.map((r) => [r.section, r.figure, cell(r), r.target || '–', verdict(r.pass)]);
    const widths = head.map((h, i) => Math.max(width(h), ...body.map((b) => width(b[i]))));
    const line = (cols: string[]) => cols.map((c, i) => c + ' '.repeat(widths[i] - width(c))).join('  ');
    return [line(head), widths.map((w) => '-'.repeat(w)).join('  '), ...body.map(line)].join('\n');
  }

  markdown(meta: Record<string, string>): string {
    const esc = (s: string) => s.replace(/\|/g, '\\|');
    const lines = [
      '# Benchmark results',
      '',
      ...Object.entries(meta).map(([k, v]) => `- **${k}**: ${v}`),
      '',
      '| section | figure | value | target | result |',
      '| --- | --- | --- | --- | --- |',
      ...this.rows.map((r) => `| ${esc(r.section)} | ${esc(r.figure)} | ${esc(cell(r))} | ${esc(r.target || '–')} | ${verdict(r.pass)} |`),
      '',
      `${this.summary()}.`,
    ];
    if (this.notes.length) lines.push('', '## Notes', '', ...this.notes.map((n) => `- ${n}`));
    return lines.join('\n') + '\n';
  }

  write(mdPath: string, jsonPath: string, meta: Record<string, string>): void {
    mkdirSync(dirname(mdPath), { recursive: true });
    writeFileSync(mdPath, this.markdown(meta));
    writeFileSync(jsonPath, JSON.stringify({ meta, rows: this.rows, notes: this.notes }, null, 2) + '\n');
  }
}

function fmt(v: number): string {
  if (!Number.isFinite(v)) return '–';
  if (Math.abs(v) >= 100) return Math.round(v).toString();
  if (Math.abs(v) >= 10) return v.toFixed(1);
  return v.toFixed(2);
}

function cell(r: Row): string {
  const v = typeof r.value === 'number' ? `${fmt(r.value)}${r.unit ? ` ${r.unit}` : ''}` : r.value;
  return r.note ? `${v} (${r.note})` : v;
}

function verdict(p: boolean | null): string {
  return p === null ? 'info' : p ? 'PASS' : 'FAIL';
}

/** Display width: CJK characters take two columns. */
function width(s: string): number {
  let w = 0;
  for (const ch of s) w += /[\u1100-\u115f\u2e80-\ua4cf\uac00-\ud7a3\uf900-\ufaff\ufe30-\ufe4f\uff00-\uff60\uffe0-\uffe6]/.test(ch) ? 2 : 1;
  return w;
}
