/** Percentiles and number formatting shared by every bench section. */

export interface Summary {
  n: number;
  p50: number;
  p90: number;
  p99: number;
  max: number;
  mean: number;
}

/** Nearest-rank percentile of an ascending-sorted array (q in 0..100). NaN when empty. */
export function percentile(sorted: readonly number[], q: number): number {
  if (sorted.length === 0) return Number.NaN;
  const rank = Math.ceil((q / 100) * sorted.length);
  return sorted[Math.min(sorted.length - 1, Math.max(0, rank - 1))];
}

export function summarize(values: readonly number[]): Summary {
  const s = [...values].sort((a, b) => a - b);
  const sum = s.reduce((a, b) => a + b, 0);
  return {
    n: s.length,
    p50: percentile(s, 50),
    p90: percentile(s, 90),
    p99: percentile(s, 99),
    max: s.length ? s[s.length - 1] : Number.NaN,
    mean: s.length ? sum / s.length : Number.NaN,
  };
}

/** 3 significant-ish digits: 0.42, 4.2, 42, 420, 4200. */
export function fmtNum(v: number): string {
  if (!Number.isFinite(v)) return '–';
  const a = Math.abs(v);
  if (a >= 100) return Math.round(v).toString();
  if (a >= 10) return v.toFixed(1);
  return v.toFixed(2);
}

export function fmtMs(v: number): string {
  return Number.isFinite(v) ? `${fmtNum(v)} ms` : '–';
}

export function fmtBytes(n: number): string {
  if (!Number.isFinite(n)) return '–';
  if (n >= 1024 * 1024) return `${(n / 1024 / 1024).toFixed(2)} MB`;
  if (n >= 1024) return `${(n / 1024).toFixed(1)} kB`;
  return `${n} B`;
}

export function fmtCount(n: number): string {
  if (n >= 1_000_000 && n % 1_000_000 === 0) return `${n / 1_000_000}M`;
  if (n >= 1000 && n % 1000 === 0) return `${n / 1000}k`;
  return String(n);
}
